// Knowledge-base latency benchmark: a real `parley serve` per backend (PGlite, and PostgreSQL when
// reachable) loaded with 10,000 articles in 1,000 folders through the tree import, then timed on the
// folder snapshot (whole tree and one agent's folders) and the article list (pages, filters).
// Env: BENCH_ITERATIONS (timed requests per case, default 30), BENCH_ARTICLES (default 10000),
// BENCH_FOLDERS (default 1000).
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type TreeRow, writeTreeFile } from '../src/modules/knowledge/index.js';
import {
  type Backend,
  type BackendName,
  ROOT,
  abortRun,
  availableBackends,
  exitOnSignals,
  importTree,
  positiveIntEnv,
  onServer,
  type RunningServer,
} from './support.js';

interface Settings {
  iterations: number;
  articles: number;
  folders: number;
}

interface CaseResult {
  backend: BackendName;
  name: string;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  responseKb: number;
}

interface BackendReport {
  backend: BackendName;
  importMs: number;
  cases: CaseResult[];
  error?: string;
}

const SERVER_ENV = { PARLEY_LOG_LEVEL: 'warn', PARLEY_RATE_LIMIT_MAX: '100000000' };
const WORDS = 'account billing invoice refund password login shipping order delivery return plan upgrade cancel export report api token team member permission'.split(' ');

function words(seed: number, count: number): string {
  return Array.from({ length: count }, (_, i) => WORDS[(seed * 7 + i * 13) % WORDS.length]).join(' ');
}

/** 1,000 folders (top-level groups of 20: a parent and its subfolders) holding 10,000 articles. */
function treeRows(settings: Settings): TreeRow[] {
  const rows: TreeRow[] = [];
  const perFolder = Math.ceil(settings.articles / settings.folders);
  let written = 0;
  for (let f = 0; f < settings.folders; f += 1) {
    const group = Math.floor(f / 20);
    const folderPath = f % 20 === 0 ? [`Area ${group}`] : [`Area ${group}`, `Topic ${f}`];
    if (written >= settings.articles) {
      rows.push({ line: 0, folderPath });
      continue;
    }
    for (let a = 0; a < perFolder && written < settings.articles; a += 1, written += 1) {
      rows.push({
        line: 0,
        folderPath,
        article: {
          title: `How do I handle ${words(written, 3)} case ${written}?`,
          mainKnowledge: `${words(written, 120)}.`,
          agentInstruction: '',
          questions: [`${words(written + 1, 6)}?`, `${words(written + 2, 5)}?`],
          keywords: words(written, 4).split(' '),
          escalation: written % 50 === 0,
          isDraft: written % 10 === 0,
        },
      });
    }
  }
  return rows;
}

async function api<T>(server: RunningServer, method: string, route: string, body?: unknown): Promise<{ body: T; bytes: number }> {
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${server.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(120_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${text.slice(0, 300)}`);
  return { body: JSON.parse(text) as T, bytes: Buffer.byteLength(text) };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function timeCase(backend: BackendName, name: string, iterations: number, run: () => Promise<number>): Promise<CaseResult> {
  for (let i = 0; i < 3; i += 1) await run();
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < iterations; i += 1) {
    const started = performance.now();
    bytes = await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  process.stderr.write(`bench: ${backend}: ${name} p50 ${percentile(times, 50).toFixed(1)} ms\n`);
  return { backend, name, p50Ms: percentile(times, 50), p95Ms: percentile(times, 95), maxMs: times.at(-1) ?? 0, responseKb: bytes / 1024 };
}

interface ListPage {
  articles: { id: string }[];
  hasMore: boolean;
  nextCursor: string | null;
}

async function benchBackend(backend: Backend, settings: Settings): Promise<BackendReport> {
  const report: BackendReport = { backend: backend.name, importMs: 0, cases: [] };
  return onServer(backend, report, async (server) => {
    process.stderr.write(`bench: ${backend.name}: importing ${settings.articles} articles in ${settings.folders} folders\n`);
    report.importMs = (await importTree(server, writeTreeFile(treeRows(settings)))).ms;
    const snapshot = await api<{ snapshotObjV2: { id: string }[] }>(server, 'GET', '/v2/hc-folders/public');
    const agent = await api<{ id: string }>(server, 'POST', '/v2/bots/public', { name: 'bench' });
    const assigned = snapshot.body.snapshotObjV2.slice(0, 5).map((f) => ({ folderId: f.id, botId: agent.body.id, action: 'ADD' }));
    await api(server, 'POST', '/v2/hc-bot-folder-junctions/public', { junctions: assigned });
    // A cursor 100 pages deep, to show that a page's cost does not grow with its depth.
    let deep: string | null = null;
    for (let page = 0; page < 100; page += 1) {
      const res: { body: ListPage } = await api<ListPage>(server, 'GET', `/v2/hc-articles/public?limit=50${deep ? `&cursor=${deep}` : ''}`);
      deep = res.body.nextCursor;
    }
    const get = (route: string) => async () => (await api(server, 'GET', route)).bytes;
    const n = settings.iterations;
    report.cases.push(await timeCase(backend.name, 'snapshot, whole tree', n, get('/v2/hc-folders/public')));
    report.cases.push(await timeCase(backend.name, 'snapshot, one agent (5 of 50 areas)', n, get(`/v2/hc-folders/public?botId=${agent.body.id}`)));
    report.cases.push(await timeCase(backend.name, 'articles, first page (50)', n, get('/v2/hc-articles/public?limit=50')));
    report.cases.push(await timeCase(backend.name, 'articles, page 101 (50)', n, get(`/v2/hc-articles/public?limit=50&cursor=${deep}`)));
    report.cases.push(await timeCase(backend.name, 'articles, type=draft (50)', n, get('/v2/hc-articles/public?limit=50&type=draft')));
    report.cases.push(await timeCase(backend.name, 'articles, q=refund (50)', n, get('/v2/hc-articles/public?limit=50&q=refund')));
    report.cases.push(
      await timeCase(backend.name, 'articles, one folder', n, get(`/v2/hc-articles/public?limit=50&parentFolderId=${snapshot.body.snapshotObjV2[0]?.id}`)),
    );
  });
}

function renderMarkdown(reports: BackendReport[], settings: Settings): string {
  const lines = [
    `${settings.articles} articles in ${settings.folders} folders; ${settings.iterations} sequential requests per case after 3 warm-ups.`,
    '',
    '| backend | case | p50 ms | p95 ms | max ms | response KB |',
    '|---|---|---:|---:|---:|---:|',
  ];
  for (const report of reports) {
    lines.push(`| ${report.backend} | tree import (one request) | ${report.importMs.toFixed(0)} | | | |`);
    for (const c of report.cases) {
      lines.push(`| ${c.backend} | ${c.name} | ${c.p50Ms.toFixed(1)} | ${c.p95Ms.toFixed(1)} | ${c.maxMs.toFixed(1)} | ${c.responseKb.toFixed(0)} |`);
    }
    if (report.error) lines.push(`| ${report.backend} | FAILED: ${report.error} | | | | |`);
  }
  return lines.join('\n');
}

async function main(): Promise<number> {
  const startedAt = new Date();
  const settings: Settings = {
    iterations: positiveIntEnv('BENCH_ITERATIONS', 30),
    articles: positiveIntEnv('BENCH_ARTICLES', 10_000),
    folders: positiveIntEnv('BENCH_FOLDERS', 1_000),
  };
  const reports: BackendReport[] = [];
  for (const backend of await availableBackends(SERVER_ENV)) reports.push(await benchBackend(backend, settings));
  process.stdout.write(`\n${renderMarkdown(reports, settings)}\n`);
  const folder = path.join(ROOT, 'bench', 'results');
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, `knowledge-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  const machine = { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model };
  await writeFile(file, `${JSON.stringify({ startedAt, machine, settings, reports }, null, 2)}\n`);
  process.stdout.write(`\nResults written to ${path.relative(ROOT, file)}\n`);
  return reports.some((r) => r.error) ? 1 : 0;
}

exitOnSignals();
main().then(
  (code) => process.exit(code),
  (error: unknown) => void abortRun(error instanceof Error ? (error.stack ?? error.message) : String(error), 1),
);
