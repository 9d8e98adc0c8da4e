// Questions for texts without them (npm run bench:questions): the StackFAQ development documents
// (../shared/bench-data/retrieval/stackfaq) are drafted from their bodies only (the answers, no
// thread title) by the built-in engine, as POST /v2/knowledge/public does. Reports the share of
// articles with at least two questions, then loads the drafted articles twice into a real
// `parley serve` per backend, once with their generated questions and once without, each set in
// its own agent's folder, and runs every development query through the search route against each
// agent: MRR, Hit@1 and Hit@5 with the questions indexed and without.
// Env: BENCH_STACKFAQ (path of stackfaq-dev.json).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { draftArticle } from '../../src/ai/builtin/article.js';
import { type BackendName, ROOT, availableBackends, exitOnSignals, onServer, writeResults } from '../support.js';

interface StackFaq {
  documents: { id: string; title: string; answers: string[] }[];
  queries: { query: string; relevant: string }[];
}

interface Measures {
  mrr: number;
  hit1: number;
  hit5: number;
}

interface Report {
  backend: BackendName;
  withQuestions?: Measures;
  withoutQuestions?: Measures;
  error?: string;
}

function measures(ranks: number[]): Measures {
  const mean = (f: (r: number) => number) => ranks.reduce((sum, r) => sum + f(r), 0) / ranks.length;
  return { mrr: mean((r) => (r > 0 ? 1 / r : 0)), hit1: mean((r) => (r === 1 ? 1 : 0)), hit5: mean((r) => (r > 0 && r <= 5 ? 1 : 0)) };
}

async function main(): Promise<number> {
  exitOnSignals();
  const startedAt = new Date();
  const file = process.env.BENCH_STACKFAQ ?? path.resolve(ROOT, '..', 'shared', 'bench-data', 'retrieval', 'stackfaq', 'stackfaq-dev.json');
  const data = JSON.parse(await readFile(file, 'utf8')) as StackFaq;
  const drafts = data.documents.map((d) => ({ id: d.id, draft: draftArticle({ text: d.answers.join('\n\n') }) }));
  const counts = drafts.map((d) => d.draft.questions.length);
  const atLeastTwo = counts.filter((n) => n >= 2).length / counts.length;
  const none = counts.filter((n) => n === 0).length / counts.length;

  const reports: Report[] = [];
  for (const backend of await availableBackends({})) {
    const report: Report = { backend: backend.name };
    reports.push(report);
    await onServer(
      backend,
      report,
      async (server) => {
        const call = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
          const res = await fetch(`${server.url}${route}`, {
            method,
            headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          const json = (await res.json()) as T;
          if (res.status >= 300) throw new Error(`${method} ${route} answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
          return json;
        };
        const load = async (withQuestions: boolean) => {
          const agent = await call<{ id: string }>('POST', '/v2/bots/public', { name: withQuestions ? 'With questions' : 'Without questions' });
          const folder = await call<{ id: string }>('POST', '/v2/hc-folders/public', { title: withQuestions ? 'With questions' : 'Without questions', description: '' });
          await call('POST', '/v2/hc-bot-folder-junctions/public', { junctions: [{ folderId: folder.id, botId: agent.id, action: 'ADD' }] });
          const byArticle = new Map<string, string>();
          for (const { id, draft } of drafts) {
            const created = await call<{ id: string }>('POST', '/v2/hc-articles/public', {
              title: draft.title,
              mainKnowledge: draft.mainKnowledge,
              agentInstruction: '',
              questions: withQuestions ? draft.questions : [],
              keywords: draft.keywords,
              escalation: false,
              parentFolderId: folder.id,
            });
            byArticle.set(created.id, id);
          }
          const ranks: number[] = [];
          for (const q of data.queries) {
            const { results } = await call<{ results: { article: { id: string } }[] }>('POST', '/v2/knowledge/public/search', { query: q.query, botId: agent.id, limit: 10 });
            const at = results.findIndex((r) => byArticle.get(r.article.id) === q.relevant);
            ranks.push(at >= 0 ? at + 1 : 0);
          }
          return measures(ranks);
        };
        report.withQuestions = await load(true);
        report.withoutQuestions = await load(false);
      },
      { PARLEY_LOG_LEVEL: 'warn', PARLEY_RATE_LIMIT_MAX: '100000000' },
    );
  }

  const f = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(3));
  const lines = [
    `Questions drafted from bodies only: ${drafts.length} StackFAQ development documents, ${data.queries.length} queries.`,
    '',
    `Articles with at least two questions: ${(atLeastTwo * 100).toFixed(1)}%; with none: ${(none * 100).toFixed(1)}%; questions per article: ${(counts.reduce((a, b) => a + b, 0) / counts.length).toFixed(2)}.`,
    '',
    '| backend | indexed | MRR | Hit@1 | Hit@5 |',
    '|---|---|---:|---:|---:|',
  ];
  for (const r of reports) {
    if (r.error) lines.push(`| ${r.backend} | FAILED: ${r.error} | | | |`);
    if (r.withoutQuestions) lines.push(`| ${r.backend} | bodies, titles and keywords | ${f(r.withoutQuestions.mrr)} | ${f(r.withoutQuestions.hit1)} | ${f(r.withoutQuestions.hit5)} |`);
    if (r.withQuestions) lines.push(`| ${r.backend} | the same plus the generated questions | ${f(r.withQuestions.mrr)} | ${f(r.withQuestions.hit1)} | ${f(r.withQuestions.hit5)} |`);
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
  await writeResults('questions', startedAt, { atLeastTwo, none, reports });
  return reports.some((r) => r.error) ? 1 : 0;
}

process.exitCode = await main();
