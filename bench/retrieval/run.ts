// Knowledge search quality and latency on StackFAQ (../shared/bench-data/retrieval/stackfaq): each
// FAQ thread is loaded as one article through the API (title = question, body = answers joined by
// blank lines), and every query of the development split goes through POST /v2/knowledge/public/search
// on a real `parley serve` per backend (PGlite, and PostgreSQL when reachable). Reports MRR, Hit@1,
// Hit@5 and nDCG@10 (one relevant article per query), the latency of the search route, and the
// plain BM25 reference of the data set's README computed here from the same documents.
// Env: BENCH_STACKFAQ (path of stackfaq-dev.json).
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { plainBm25 } from '../bm25.js';
import { type BackendName, ROOT, abortRun, availableBackends, exitOnSignals, onServer } from '../support.js';

interface StackFaq {
  documents: { id: string; title: string; answers: string[] }[];
  queries: { query: string; relevant: string }[];
}

interface Quality {
  mrr: number;
  hit1: number;
  hit5: number;
  ndcg10: number;
}

interface BackendReport extends Partial<Quality> {
  backend: BackendName;
  loadMs?: number;
  p50Ms?: number;
  p99Ms?: number;
  error?: string;
}

/** Ranks (1-based, 0 = not in the first 10) -> the four measures. */
function quality(ranks: number[]): Quality {
  const at = (r: number, k: number) => (r > 0 && r <= k ? 1 : 0);
  const mean = (f: (r: number) => number) => ranks.reduce((sum, r) => sum + f(r), 0) / ranks.length;
  return {
    mrr: mean((r) => (r > 0 ? 1 / r : 0)),
    hit1: mean((r) => at(r, 1)),
    hit5: mean((r) => at(r, 5)),
    ndcg10: mean((r) => (r > 0 && r <= 10 ? 1 / Math.log2(r + 1) : 0)),
  };
}

/** The README's reference: plain BM25 over title + answers. */
function bm25Reference(data: StackFaq): Quality {
  const scores = plainBm25(data.documents);
  const ranks = data.queries.map((q) => {
    const scored = scores(q.query).sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    return scored.slice(0, 10).findIndex((d) => d.id === q.relevant) + 1;
  });
  return quality(ranks);
}

async function measure(server: { url: string; apiKey: string }, data: StackFaq, report: BackendReport): Promise<void> {
  const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
  const post = async (url: string, body: unknown) => {
    const res = await fetch(`${server.url}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`${url} answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
  const loadStarted = performance.now();
  const folder = await post('/v2/hc-folders/public', { title: 'StackFAQ', description: 'StackExchange Web Applications FAQ' });
  const articleOf = new Map<string, string>();
  for (const doc of data.documents) {
    const article = await post('/v2/hc-articles/public', {
      title: doc.title,
      mainKnowledge: doc.answers.join('\n\n'),
      agentInstruction: '',
      questions: [],
      keywords: [],
      escalation: false,
      parentFolderId: folder.id,
    });
    articleOf.set(article.id as string, doc.id);
  }
  report.loadMs = performance.now() - loadStarted;

  const ranks: number[] = [];
  const times: number[] = [];
  for (const q of data.queries) {
    const started = performance.now();
    const answer = (await post('/v2/knowledge/public/search', { query: q.query, limit: 10 })) as { results: { article: { id: string } }[] };
    times.push(performance.now() - started);
    ranks.push(answer.results.findIndex((r) => articleOf.get(r.article.id) === q.relevant) + 1);
  }
  times.sort((a, b) => a - b);
  Object.assign(report, quality(ranks), {
    p50Ms: times[Math.floor(times.length * 0.5)],
    p99Ms: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))],
  });
}

async function main(): Promise<number> {
  const startedAt = new Date();
  const file = process.env.BENCH_STACKFAQ ?? path.resolve(ROOT, '..', 'shared', 'bench-data', 'retrieval', 'stackfaq', 'stackfaq-dev.json');
  const data = JSON.parse(await readFile(file, 'utf8')) as StackFaq;
  const reference = bm25Reference(data);
  const serverEnv = { PARLEY_LOG_LEVEL: 'warn', PARLEY_RATE_LIMIT_MAX: '100000000' };
  const reports: BackendReport[] = [];
  for (const backend of await availableBackends({})) {
    const report: BackendReport = { backend: backend.name };
    reports.push(await onServer(backend, report, (server) => measure(server, data, report), serverEnv));
  }

  const f = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(3));
  const lines = [
    `StackFAQ development split: ${data.documents.length} articles, ${data.queries.length} queries (one relevant article each).`,
    '',
    '| system | MRR | Hit@1 | Hit@5 | nDCG@10 | search p50 / p99 ms |',
    '|---|---:|---:|---:|---:|---:|',
    `| plain BM25 reference (in this process) | ${f(reference.mrr)} | ${f(reference.hit1)} | ${f(reference.hit5)} | ${f(reference.ndcg10)} | |`,
  ];
  for (const r of reports) {
    lines.push(
      r.error
        ? `| Parley, ${r.backend} | FAILED: ${r.error} | | | | |`
        : `| Parley built-in search, ${r.backend} | ${f(r.mrr)} | ${f(r.hit1)} | ${f(r.hit5)} | ${f(r.ndcg10)} | ${r.p50Ms?.toFixed(1)} / ${r.p99Ms?.toFixed(1)} |`,
    );
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
  const folder = path.join(ROOT, 'bench', 'results');
  await mkdir(folder, { recursive: true });
  const out = path.join(folder, `retrieval-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  const machine = { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model };
  await writeFile(out, `${JSON.stringify({ startedAt, machine, dataset: file, reference, reports }, null, 2)}\n`);
  process.stdout.write(`\nResults written to ${path.relative(ROOT, out)}\n`);
  return reports.some((r) => r.error) ? 1 : 0;
}

exitOnSignals();
main().then(
  (code) => process.exit(code),
  (error: unknown) => void abortRun(error instanceof Error ? (error.stack ?? error.message) : String(error), 1),
);
