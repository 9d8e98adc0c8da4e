// Bulk knowledge generation that does not fight itself (npm run bench:bulk-generation): per backend,
// a real `parley serve` with its one worker ingests the fifty overlapping help-center pages of
// test/generation/overlapping-pages.ts (returns, shipping, payment) from a loopback site, then one
// `POST /v2/knowledge/public/bulk` (isDraft false) generates from all of them into one folder.
// Printed: COMPLETED / FAILED beside the aim (50 / 0), the facts the articles hold, and the errors.
// Two starts: the folder holds the three topic articles (every job merges into one of them), or it
// is empty (the first jobs add the articles the others merge into).
//
//   npm run bench:bulk-generation
//   BENCH_BACKENDS=pglite|postgres      one backend (default: PGlite and, when reachable, PostgreSQL)
//   BENCH_KNOWLEDGE_CONCURRENCY=n       knowledge jobs at once in the worker (default: Parley's, 2)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pageHtml, TOPICS } from '../test/generation/overlapping-pages.js';
import { abortRun, availableBackends, exitOnSignals, ingestServerEnv, LOOPBACK, onServer, positiveIntEnv, type RunningServer, sleep, waitForIngestion, writeResults } from './support.js';

const AIM = { completed: 50, failed: 0 };
const SCENARIOS = ['3 articles', 'empty folder'] as const;
type Scenario = (typeof SCENARIOS)[number];

interface Run {
  scenario: Scenario;
  completed: number;
  failed: number;
  /** Facts of the pages found in a live article, of 50. */
  factsMerged: number;
  articles: number;
  seconds: number;
  errors: Record<string, number>;
}

interface Report {
  backend: string;
  runs: Run[];
  error?: string;
}

interface Job {
  jobStatus: string;
  error: string;
}

/** The help site on 127.0.0.1: robots.txt allows all, and the pages set by path. */
interface HelpSite {
  set(path: string, html: string): void;
  url(path: string): string;
  close(): Promise<void>;
}

async function startHelpSite(): Promise<HelpSite> {
  const pages = new Map<string, string>([['/robots.txt', 'User-agent: *\nAllow: /\n']]);
  const server = createServer((req, res) => {
    const body = pages.get(req.url ?? '/');
    if (body === undefined) res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    else res.writeHead(200, { 'content-type': req.url === '/robots.txt' ? 'text/plain' : 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  const origin = `http://${LOOPBACK}:${(server.address() as AddressInfo).port}`;
  return {
    set: (path, html) => void pages.set(path, html),
    url: (path) => `${origin}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One JSON request with the server's key; throws on an unexpected status. */
async function call<T>(server: RunningServer, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/** Polls the jobs as a client would, until none is PENDING or IN_PROGRESS (at most 30 minutes). */
async function waitForJobs(server: RunningServer, jobIds: string[]): Promise<Job[]> {
  const started = performance.now();
  for (;;) {
    const { jobs } = await call<{ jobs: Job[] }>(server, 'POST', '/v2/knowledge/public/jobs/status', { jobIds });
    if (jobs.every((j) => j.jobStatus === 'COMPLETED' || j.jobStatus === 'FAILED')) return jobs;
    if (performance.now() - started > 30 * 60_000) throw new Error('the knowledge jobs did not finish within 30 minutes');
    await sleep(200);
  }
}

/** One bulk request of the fifty pages into a new folder (of the scenario's start), measured. */
async function runScenario(server: RunningServer, site: HelpSite, scenario: Scenario): Promise<Run> {
  const folder = await call<{ id: string }>(server, 'POST', '/v2/hc-folders/public', { title: `Help (${scenario})`, description: 'Returns, shipping and payment' });
  // Each start has an agent of its own folder, so that its jobs do not see the other start's articles.
  const agent = await call<{ id: string }>(server, 'POST', '/v2/bots/public', { name: `Help agent (${scenario})` });
  await call(server, 'POST', '/v2/hc-bot-folder-junctions/public', { junctions: [{ folderId: folder.id, botId: agent.id, action: 'ADD' }] });
  if (scenario === '3 articles') {
    for (const { article } of TOPICS) {
      await call(server, 'POST', '/v2/hc-articles/public', { ...article, agentInstruction: '', escalation: false, parentFolderId: folder.id });
    }
  }
  const pages = TOPICS.flatMap((t) => t.pages);
  const prefix = `/${scenario.replace(/\W+/g, '-')}`;
  for (const page of pages) site.set(`${prefix}${page.path}`, pageHtml(page));
  const ingestStarted = performance.now();
  const { addedDocumentIds } = await call<{ addedDocumentIds: string[] }>(server, 'POST', '/v2/documents/public', {
    documentIdsToAdd: pages.map((p) => site.url(`${prefix}${p.path}`)),
  });
  await waitForIngestion(server, ingestStarted, `${scenario}: ingestion`);

  const began = performance.now();
  const { jobs: queued } = await call<{ jobs: { backgroundJobId: string }[] }>(server, 'POST', '/v2/knowledge/public/bulk', {
    documentIds: addedDocumentIds,
    botId: agent.id,
    isDraft: false,
  });
  const jobs = await waitForJobs(server, queued.map((j) => j.backgroundJobId));
  const seconds = (performance.now() - began) / 1000;

  const { articles } = await call<{ articles: { parentFolderId: string; mainKnowledge: string }[] }>(server, 'GET', '/v2/hc-articles/public?limit=200');
  const bodies = articles.filter((a) => a.parentFolderId === folder.id).map((a) => a.mainKnowledge);
  const errors: Record<string, number> = {};
  for (const job of jobs.filter((j) => j.jobStatus === 'FAILED')) {
    const kind = job.error.replace(/"[^"]*"/g, '"…"').replace(/\(version \d+ -> \d+\)/, '(version n -> m)');
    errors[kind] = (errors[kind] ?? 0) + 1;
  }
  return {
    scenario,
    completed: jobs.filter((j) => j.jobStatus === 'COMPLETED').length,
    failed: jobs.filter((j) => j.jobStatus === 'FAILED').length,
    factsMerged: pages.filter((p) => bodies.some((b) => b.includes(p.fact))).length,
    articles: bodies.length,
    seconds,
    errors,
  };
}

function render(reports: Report[]): string[] {
  const lines = [
    `# Bulk generation: 50 overlapping sources into one folder (knowledge concurrency ${process.env.BENCH_KNOWLEDGE_CONCURRENCY ?? 'default'})`,
    '',
    '| backend | start | COMPLETED / FAILED | aim | facts in an article | articles | seconds |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const report of reports) {
    if (report.error) lines.push(`| ${report.backend} | FAILED: ${report.error.replaceAll('|', '\\|')} | | | | | |`);
    for (const r of report.runs) {
      lines.push(`| ${report.backend} | ${r.scenario} | ${r.completed} / ${r.failed} | ${AIM.completed} / ${AIM.failed} | ${r.factsMerged} / 50 | ${r.articles} | ${r.seconds.toFixed(1)} |`);
    }
  }
  const errors = reports.flatMap((report) => report.runs.flatMap((r) => Object.entries(r.errors).map(([e, n]) => `| ${report.backend} | ${r.scenario} | ${n} | ${e.replaceAll('|', '\\|')} |`)));
  if (errors.length) lines.push('', '| backend | start | jobs | error |', '|---|---|---:|---|', ...errors);
  return lines;
}

async function main(): Promise<number> {
  exitOnSignals();
  const startedAt = new Date();
  const watchdog = setTimeout(() => void abortRun('watchdog: the run took over 30 minutes', 1), 30 * 60_000);
  watchdog.unref();
  const serverEnv = ingestServerEnv();
  if (process.env.BENCH_KNOWLEDGE_CONCURRENCY) serverEnv.PARLEY_KNOWLEDGE_CONCURRENCY = String(positiveIntEnv('BENCH_KNOWLEDGE_CONCURRENCY', 2));
  const site = await startHelpSite();
  const reports: Report[] = [];
  try {
    for (const backend of await availableBackends(serverEnv)) {
      const report: Report = { backend: backend.name, runs: [] };
      reports.push(report);
      await onServer(backend, report, async (server) => {
        for (const scenario of SCENARIOS) {
          const run = await runScenario(server, site, scenario);
          report.runs.push(run);
          process.stderr.write(`bench: ${backend.name}, ${scenario}: ${run.completed} COMPLETED / ${run.failed} FAILED in ${run.seconds.toFixed(1)} s\n`);
        }
        if (!server.running()) throw new Error('the server exited during the run');
      });
    }
  } finally {
    await site.close();
  }
  process.stdout.write(`\n${render(reports).join('\n')}\n`);
  await writeResults('bulk-generation', startedAt, { aim: AIM, reports });
  return reports.some((r) => r.error) ? 1 : 0;
}

process.exitCode = await main();
