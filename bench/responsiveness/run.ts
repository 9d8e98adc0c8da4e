// API responsiveness while the embedded worker works: a real `parley serve` on PGlite (job worker in
// the same process), a workspace of BENCH_ARTICLES articles (tree import), probed at a steady low
// rate on GET /healthz (no database), GET /v2/workspace/public (the key's workspace) and a page of
// GET /v2/hc-articles/public (a query each time), first alone and
// then during a burst: BENCH_PAGES pages ingested from a generated site on 127.0.0.1 and, at the
// same time, BENCH_JOBS knowledge-generation jobs (built-in engine) on sources ingested beforehand.
// Each run is made twice, in the same run of this script: PARLEY_CPU_THREADS=0 (the work on the
// event loop, the reference) and with the worker-thread pool (BENCH_THREADS, default the server's).
// Env: BENCH_ARTICLES (4000), BENCH_PAGES (1000), BENCH_JOBS (60), BENCH_PROBE_RPS (20 per route),
// BENCH_QUIET_SECONDS (10), BENCH_THREADS, BENCH_PROFILE_DIR (the server writes a --cpu-prof there),
// BENCH_REFERENCE (another built Parley checkout, e.g. a `git worktree` of an earlier commit: run first,
// with the pool, as the reference of the same run), BENCH_SKIP_INLINE (leave the inline run out).
import os from 'node:os';
import path from 'node:path';
import { type TreeRow, writeTreeFile } from '../../src/modules/knowledge/index.js';
import { TOPICS, startHelpSite } from '../ingest/site.js';
import { abortRun, exitOnSignals, onServer, pgliteBackend, positiveIntEnv, type RunningServer, sleep, writeResults } from '../support.js';

interface Settings {
  articles: number;
  pages: number;
  jobs: number;
  rps: number;
  quietSeconds: number;
}

interface Latency {
  route: string;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface ModeReport {
  mode: string;
  threads: string;
  seedMs: number;
  alone: Latency[];
  burst: Latency[];
  /** From the burst's requests to the last page ingested and to the last knowledge job finished. */
  ingestMs: number;
  generationMs: number;
  failedPages: number;
  failedJobs: number;
  error?: string;
}

const SERVER_ENV = {
  PARLEY_LOG_LEVEL: 'warn',
  PARLEY_RATE_LIMIT_MAX: '100000000',
  PARLEY_FETCH_ALLOW_PRIVATE: 'true',
  PARLEY_INGEST_CONCURRENCY: '8',
  PARLEY_INGEST_PER_HOST: '8',
  PARLEY_INGEST_HOST_DELAY_MS: '0',
  PARLEY_JOB_POLL_SECONDS: '0.5',
};
/**
 * No database; the key's workspace (answered from the verified key, which is looked up again once a
 * second); a page of articles (a query each time).
 */
const ROUTES = ['/healthz', '/v2/workspace/public', '/v2/hc-articles/public?limit=10'];
/** The generation jobs' sources are pages of the same site, numbered after the burst's pages. */
const JOB_PAGE_OFFSET = 100_000;

// ---------------------------------------------------------------------------------------------
// The workspace: articles with a help-center vocabulary (the site's topics among 3,000 other words,
// Zipf-like), so a generation job's search finds some articles, not all of them.

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const SYLLABLES = ['ka', 'ro', 'mi', 'tes', 'lun', 'var', 'po', 'zen', 'dri', 'sal', 'ne', 'tor', 'bel', 'qua', 'fin', 'gor'];
const VOCABULARY = [
  ...TOPICS,
  ...Array.from({ length: 3000 }, (_, i) => SYLLABLES[i % 16]! + SYLLABLES[(i >> 4) % 16]! + (i >= 256 ? SYLLABLES[(i >> 8) % 16]! : '')),
];

function words(next: () => number, count: number): string {
  return Array.from({ length: count }, () => VOCABULARY[Math.floor(VOCABULARY.length * next() ** 2.5)]).join(' ');
}

function treeRows(articles: number): TreeRow[] {
  const next = random(42);
  return Array.from({ length: articles }, (_, i) => ({
    line: 0,
    folderPath: [`Area ${i % 10}`, `Topic ${i % 200}`],
    article: {
      title: `How do I ${words(next, 4)}?`,
      mainKnowledge: Array.from({ length: 6 }, () => `${words(next, 18)}.`).join(' '),
      agentInstruction: '',
      questions: [`${words(next, 6)}?`],
      keywords: words(next, 3).split(' '),
      escalation: false,
      isDraft: false,
    },
  }));
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers.

function headers(server: RunningServer): Record<string, string> {
  return { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
}

async function call<T>(server: RunningServer, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: headers(server),
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(600_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

async function seed(server: RunningServer, articles: number): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([writeTreeFile(treeRows(articles))], { type: 'text/csv' }), 'tree.csv');
  const response = await fetch(`${server.url}/v2/knowledge/public/tree/persist`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.apiKey}` },
    body: form,
    signal: AbortSignal.timeout(600_000),
  });
  if (!response.ok) throw new Error(`tree import answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
}

/** Queues the pages for ingestion; their source ids in order. */
async function ingest(server: RunningServer, origin: string, ids: number[]): Promise<string[]> {
  const answer = await call<{ jobs: { documentId: string }[] }>(server, 'POST', '/v2/documents/public', {
    documentIdsToAdd: ids.map((i) => `${origin}/articles/${i}`),
  });
  return answer.jobs.map((job) => job.documentId);
}

/** Waits until no source is PENDING or IN_PROGRESS; the number of failed sources. */
async function sourcesDone(server: RunningServer): Promise<number> {
  for (;;) {
    const list = await call<{ documents: { linkedJobStatus: string }[]; hasMore: boolean }>(server, 'GET', '/v2/documents/public?success=false&limit=200');
    const waiting = list.documents.filter((d) => d.linkedJobStatus === 'PENDING' || d.linkedJobStatus === 'IN_PROGRESS').length;
    if (waiting === 0 && !list.hasMore) return list.documents.length;
    await sleep(250);
  }
}

/** Waits until every knowledge job has finished; the number that failed. */
async function jobsDone(server: RunningServer, jobIds: string[]): Promise<number> {
  for (;;) {
    const { jobs } = await call<{ jobs: { jobStatus: string; error: string | null }[] }>(server, 'POST', '/v2/knowledge/public/jobs/status', { jobIds });
    if (jobs.every((job) => job.jobStatus === 'COMPLETED' || job.jobStatus === 'FAILED')) {
      const failed = jobs.filter((job) => job.jobStatus === 'FAILED');
      if (failed[0]) process.stderr.write(`bench: ${failed.length} knowledge jobs failed, e.g. ${failed[0].error}\n`);
      return failed.length;
    }
    await sleep(250);
  }
}

// ---------------------------------------------------------------------------------------------
// The probe: one request at a time per route, `rps` a second, until told to stop.

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

async function probeRoute(server: RunningServer, route: string, rps: number, stopped: () => boolean): Promise<Latency> {
  const times: number[] = [];
  const interval = 1000 / rps;
  let due = performance.now();
  while (!stopped()) {
    const started = performance.now();
    const response = await fetch(`${server.url}${route}`, { headers: { authorization: `Bearer ${server.apiKey}` }, signal: AbortSignal.timeout(60_000) });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${route} answered ${response.status}`);
    times.push(performance.now() - started);
    due += interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    else due = performance.now();
  }
  times.sort((a, b) => a - b);
  return { route, requests: times.length, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), maxMs: times.at(-1) ?? 0 };
}

/** Probes every route while `work` runs; the latencies and what `work` returned. */
async function probeDuring<T>(server: RunningServer, rps: number, work: () => Promise<T>): Promise<{ latencies: Latency[]; result: T }> {
  let stop = false;
  const probes = Promise.all(ROUTES.map((route) => probeRoute(server, route, rps, () => stop)));
  try {
    const result = await work();
    stop = true;
    return { latencies: await probes, result };
  } finally {
    stop = true;
    await probes.catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------

async function runMode(settings: Settings, origin: string, mode: string, threads: string | undefined, root?: string): Promise<ModeReport> {
  const report: ModeReport = { mode, threads: threads ?? 'default', seedMs: 0, alone: [], burst: [], ingestMs: 0, generationMs: 0, failedPages: 0, failedJobs: 0 };
  const env: Record<string, string> = threads === undefined ? {} : { PARLEY_CPU_THREADS: threads };
  const profileDir = process.env.BENCH_PROFILE_DIR;
  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir, mode.replace(/\W+/g, '-'))}`] : [];
  return onServer(
    pgliteBackend(SERVER_ENV),
    report,
    async (server) => {
      const seedStarted = performance.now();
      await seed(server, settings.articles);
      const jobSources = await ingest(server, origin, Array.from({ length: settings.jobs }, (_, i) => JOB_PAGE_OFFSET + i));
      if ((await sourcesDone(server)) > 0) throw new Error('the sources of the knowledge jobs did not ingest');
      report.seedMs = performance.now() - seedStarted;
      process.stderr.write(`bench: ${mode}: ${settings.articles} articles and ${settings.jobs} sources in ${(report.seedMs / 1000).toFixed(1)} s\n`);

      report.alone = (await probeDuring(server, settings.rps, () => sleep(settings.quietSeconds * 1000))).latencies;
      const burst = await probeDuring(server, settings.rps, async () => {
        const started = performance.now();
        const [, bulk] = await Promise.all([
          ingest(server, origin, Array.from({ length: settings.pages }, (_, i) => i)),
          call<{ jobs: { backgroundJobId: string }[] }>(server, 'POST', '/v2/knowledge/public/bulk', { documentIds: jobSources }),
        ]);
        const [failedPages, failedJobs] = await Promise.all([
          sourcesDone(server).then((failed) => ((report.ingestMs = performance.now() - started), failed)),
          jobsDone(server, bulk.jobs.map((job) => job.backgroundJobId)).then((failed) => ((report.generationMs = performance.now() - started), failed)),
        ]);
        return { failedPages, failedJobs };
      });
      report.burst = burst.latencies;
      report.failedPages = burst.result.failedPages;
      report.failedJobs = burst.result.failedJobs;
      process.stderr.write(`bench: ${mode}: burst done, ingestion ${(report.ingestMs / 1000).toFixed(1)} s, generation ${(report.generationMs / 1000).toFixed(1)} s\n`);
    },
    env,
    nodeArgs,
    root,
  );
}

function table(settings: Settings, reports: ModeReport[]): string {
  const lines = [
    `PGlite, one \`parley serve\` (API and job worker); ${settings.articles} articles; probe ${settings.rps} req/s per route, one at a time; ` +
      `"alone" ${settings.quietSeconds} s idle, "burst" ${settings.pages} pages ingested + ${settings.jobs} knowledge jobs (built-in engine) at once; ${os.availableParallelism()} cores.`,
    '',
    '| CPU work | Phase | Route | p50 ms | p99 ms | max ms | requests |',
    '| - | - | - | -: | -: | -: | -: |',
  ];
  for (const report of reports) {
    if (report.error) {
      lines.push(`| ${report.mode} | FAILED: ${report.error} | | | | | |`);
      continue;
    }
    for (const [phase, latencies] of [['alone', report.alone], ['burst', report.burst]] as const) {
      for (const l of latencies) {
        lines.push(`| ${report.mode} | ${phase} | \`${l.route}\` | ${l.p50Ms.toFixed(1)} | ${l.p99Ms.toFixed(1)} | ${l.maxMs.toFixed(0)} | ${l.requests} |`);
      }
    }
  }
  lines.push('', '| CPU work | burst: pages ingested | burst: knowledge jobs done | failed pages / jobs |', '| - | -: | -: | -: |');
  for (const r of reports.filter((report) => !report.error)) {
    lines.push(`| ${r.mode} | ${(r.ingestMs / 1000).toFixed(1)} s | ${(r.generationMs / 1000).toFixed(1)} s | ${r.failedPages} / ${r.failedJobs} |`);
  }
  return lines.join('\n');
}

async function main(): Promise<number> {
  const startedAt = new Date();
  const settings: Settings = {
    articles: positiveIntEnv('BENCH_ARTICLES', 4000),
    pages: positiveIntEnv('BENCH_PAGES', 1000),
    jobs: positiveIntEnv('BENCH_JOBS', 60),
    rps: positiveIntEnv('BENCH_PROBE_RPS', 20),
    quietSeconds: positiveIntEnv('BENCH_QUIET_SECONDS', 10),
  };
  const threads = process.env.BENCH_THREADS ? String(positiveIntEnv('BENCH_THREADS', 1)) : undefined;
  const reference = process.env.BENCH_REFERENCE ? path.resolve(process.env.BENCH_REFERENCE) : undefined;
  const { origin, server: site } = await startHelpSite();
  const reports: ModeReport[] = [];
  try {
    if (reference) reports.push(await runMode(settings, origin, `reference build, pool (${threads ?? 'default'} threads)`, threads, reference));
    if (!process.env.BENCH_SKIP_INLINE) reports.push(await runMode(settings, origin, 'inline (PARLEY_CPU_THREADS=0)', '0'));
    reports.push(await runMode(settings, origin, `pool (${threads ?? 'default'} threads)`, threads));
  } finally {
    site.close();
  }
  process.stdout.write(`\n${table(settings, reports)}\n`);
  await writeResults('responsiveness', startedAt, { settings, serverEnv: SERVER_ENV, reports });
  return reports.some((r) => r.error || r.failedPages || r.failedJobs) ? 1 : 0;
}

exitOnSignals();
main().then(
  (code) => process.exit(code),
  (error: unknown) => void abortRun(error instanceof Error ? (error.stack ?? error.message) : String(error), 1),
);
