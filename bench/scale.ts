// PostgreSQL at scale (npm run bench:scale; docs/scaling.md). Per size (a reference of a tenth
// first, then the full one: 1,000,000 conversations with about 5 M events and 100,000 articles in
// one workspace, plus 200 small workspaces), a scratch database `scale_<random>` on the machine's
// PostgreSQL is seeded as the application writes (bench/scale-data.ts), then served by 2 API
// processes (`parley serve --no-worker`) and 2 workers (`parley worker`), and timed: agent
// analytics over 30 and 90 days, the conversation list's first page and a deep page (a keyset
// cursor half-way through 90 days), knowledge search and Generate Answer (the built-in engine),
// each request to the next API process in turn; then ingestion of a generated site on 127.0.0.1
// with 1 worker and with 2. Arguments and variables: bench/scale-args.ts (--help).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { generateSecretKey } from '../src/secrets.js';
import { startHelpSite } from './ingest/site.js';
import { parseScaleArgs, type ScaleSettings, type Size, sizesOf, UsageError } from './scale-args.js';
import { cloneConversations, customerQuestions, holdTemplates, seedClient, seedKnowledge, type Workspace } from './scale-data.js';
import {
  ROOT,
  abortRun,
  callJson,
  createScratchDatabase,
  exitOnSignals,
  findPostgres,
  ingestServerEnv,
  type RunningServer,
  type RunningWorker,
  startServer,
  startWorker,
  tempDataDir,
  waitForIngestion,
  workspaceCall,
  writeResults,
} from './support.js';

const DAY = 86_400_000;
const DAYS = 90;
/** Conversations of the big workspace held through Generate Answer, the rest cloned from them. */
const TEMPLATES = 12;
/** Articles of the big workspace that go through the tree import (its cost is measured); the rest are inserted. */
const IMPORT_BATCH = 2000;
const TABLES = ['conversations', 'conversation_events', 'audit_log', 'articles', 'article_versions', 'article_search', 'article_terms', 'folders', 'workspaces'];

/** What a seeded database holds and how to serve it again (bench/results/scale-state-<database>.json with --keep). */
interface SeedState {
  database: string;
  url: string;
  env: Record<string, string>;
  apiKey: string;
  workspaceId: string;
  agentId: string;
  end: string;
  size: Size;
  seed: Record<string, number>;
}

interface CaseResult {
  name: string;
  requests: number;
  p50: number;
  p99: number;
  /** What the answers held (conversations counted, rows, results), from the last request. */
  detail: string;
}

interface IngestResult {
  workers: number;
  pages: number;
  seconds: number;
  pagesPerSecond: number;
  failed: number;
}

interface TableSize {
  table: string;
  rows: number;
  heapMb: number;
  indexMb: number;
  totalMb: number;
  indexes: { name: string; mb: number }[];
}

interface SizeReport {
  size: Size;
  database: string;
  seed: Record<string, number>;
  tables: TableSize[];
  cases: CaseResult[];
  ingest: IngestResult[];
  loadAverage: { before: number[]; after: number[] };
  error?: string;
}

const log = (line: string) => process.stderr.write(`bench: scale: ${line}\n`);
const seconds = (ms: number) => Math.round(ms / 100) / 10;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

/** Seeds a fresh database of `size`: the big workspace, then the small ones; answers its state. */
async function seed(adminUrl: string, size: Size, dataDir: string): Promise<SeedState> {
  const scratch = await createScratchDatabase(adminUrl, 'scale_');
  const env = {
    ...ingestServerEnv(),
    PARLEY_LOG_LEVEL: 'warn',
    PARLEY_SECRET_KEY: generateSecretKey(),
    PARLEY_ADMIN_TOKEN: randomBytes(24).toString('hex'),
    DATABASE_URL: scratch.url,
    PARLEY_DATA_DIR: dataDir,
  };
  const timings: Record<string, number> = {};
  const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      timings[`${name}Ms`] = Math.round(performance.now() - started);
      log(`${scratch.name}: ${name} in ${seconds(timings[`${name}Ms`]!)} s`);
    }
  };
  log(`${scratch.name}: seeding ${size.conversations} conversations, ${size.articles} articles, ${size.workspaces} small workspaces`);
  const first = await startServer({ env });
  const client = await seedClient(scratch.url);
  try {
    const workspaceId = (await workspaceCall<{ id: string }>(first, 'GET', '/v2/workspace/public')).id;
    const agentId = (await workspaceCall<{ id: string }>(first, 'POST', '/v2/bots/public', { name: 'Support agent' })).id;
    const big: Workspace = { id: workspaceId, agentId, server: first };
    const knowledge = await timed('articles', () => seedKnowledge(client, big, size.articles, IMPORT_BATCH, (l) => log(`${scratch.name}: ${l}`)));
    timings.importedArticles = knowledge.imported;
    timings.importMs = Math.round(knowledge.importMs);
    timings.insertMs = Math.round(knowledge.insertMs);
    const templates = await timed('templates', () => holdTemplates(big, TEMPLATES));
    const end = new Date();
    const counts = await timed('conversations', () => cloneConversations(client, workspaceId, templates, size.conversations - TEMPLATES, end, DAYS, (l) => log(`${scratch.name}: ${l}`)));
    timings.events = counts.events;
    timings.auditEntries = counts.audit;
    await timed('smallWorkspaces', () => seedSmallWorkspaces(scratch.url, first, env.PARLEY_ADMIN_TOKEN, size, end));
    await timed('vacuumAnalyze', async () => void (await client.query('VACUUM ANALYZE')));
    const state: SeedState = { database: scratch.name, url: scratch.url, env, apiKey: first.apiKey, workspaceId, agentId, end: end.toISOString(), size, seed: timings };
    return state;
  } finally {
    await client.end();
    await first.stop();
  }
}

/** The small workspaces, two at a time: each a thousandth of the big one (at least 10 conversations and 10 articles), all through its own key. */
async function seedSmallWorkspaces(url: string, server: RunningServer, adminToken: string, size: Size, end: Date): Promise<void> {
  const admin = { authorization: `Bearer ${adminToken}` };
  const articles = Math.max(10, Math.round(size.articles / 1000));
  const conversations = Math.max(10, Math.round(size.conversations / 1000));
  let next = 0;
  const one = async (client: pg.Client, i: number) => {
    const workspace = await callJson<{ id: string }>(`${server.url}/v2/admin/workspaces`, 'POST', admin, { name: `Small ${i}` });
    const { key } = await callJson<{ key: string }>(`${server.url}/v2/admin/workspaces/${workspace.id}/api-keys`, 'POST', admin, { name: 'bench', scopes: ['read', 'write'] });
    const ws = { url: server.url, apiKey: key };
    const agentId = (await workspaceCall<{ id: string }>(ws, 'POST', '/v2/bots/public', { name: `Agent ${i}` })).id;
    const small: Workspace = { id: workspace.id, agentId, server: ws };
    await seedKnowledge(client, small, articles, articles, () => undefined);
    const templates = await holdTemplates(small, 2);
    await cloneConversations(client, workspace.id, templates, conversations - 2, end, DAYS);
  };
  await Promise.all(
    [0, 1].map(async () => {
      const client = await seedClient(url);
      try {
        while (next < size.workspaces) {
          const i = next++;
          await one(client, i);
          if ((i + 1) % 20 === 0) log(`${i + 1} of ${size.workspaces} small workspaces`);
        }
      } finally {
        await client.end();
      }
    }),
  );
}

/** Rows and sizes of the tables that grow, with each index. */
async function tableSizes(url: string): Promise<TableSize[]> {
  const client = await seedClient(url);
  try {
    const out: TableSize[] = [];
    for (const table of TABLES) {
      const { rows } = await client.query<{ rows: string; heap: string; idx: string; total: string }>(
        `SELECT (SELECT count(*) FROM ${table}) AS rows, pg_table_size('${table}') AS heap, pg_indexes_size('${table}') AS idx, pg_total_relation_size('${table}') AS total`,
      );
      const indexes = await client.query<{ name: string; bytes: string }>(
        `SELECT indexrelid::regclass::text AS name, pg_relation_size(indexrelid) AS bytes FROM pg_index WHERE indrelid = '${table}'::regclass ORDER BY 2 DESC`,
      );
      const mb = (b: string) => Math.round(Number(b) / 1024 / 102.4) / 10;
      out.push({ table, rows: Number(rows[0]!.rows), heapMb: mb(rows[0]!.heap), indexMb: mb(rows[0]!.idx), totalMb: mb(rows[0]!.total), indexes: indexes.rows.map((r) => ({ name: r.name, mb: mb(r.bytes) })) });
    }
    return out;
  } finally {
    await client.end();
  }
}

/** Conversation ids at `fractions` of the way down the big workspace's list (newest first): deep keyset cursors. */
async function deepCursors(state: SeedState, fractions: number[]): Promise<string[]> {
  const client = await seedClient(state.url);
  try {
    const since = new Date(new Date(state.end).getTime() - DAYS * DAY).toISOString();
    const { rows } = await client.query<{ id: string; k: string }>(
      `WITH l AS (SELECT id, row_number() OVER (ORDER BY created_at DESC, id DESC) AS k FROM conversations
                  WHERE workspace_id = $1 AND deleted_at IS NULL AND created_at >= $2 AND created_at < $3)
       SELECT id, k FROM l WHERE k = ANY ($4::bigint[]) ORDER BY k`,
      [state.workspaceId, since, state.end, fractions.map((f) => Math.max(1, Math.floor(f * state.size.conversations)))],
    );
    return rows.map((r) => r.id);
  } finally {
    await client.end();
  }
}

/** Times `iterations` requests (after 2 warm-ups), request i to API process i mod 2. */
async function timeCase(name: string, apis: RunningServer[], iterations: number, request: (api: RunningServer, i: number) => Promise<string>): Promise<CaseResult> {
  const times: number[] = [];
  let detail = '';
  for (let i = -2; i < iterations; i += 1) {
    const api = apis[(i + 2) % apis.length]!;
    const started = performance.now();
    detail = await request(api, Math.max(0, i));
    if (i >= 0) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const result = { name, requests: iterations, p50: percentile(times, 50), p99: percentile(times, 99), detail };
  log(`${name}: p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms (${detail})`);
  return result;
}

/** Ingests `pages` new pages of the generated site through one API process; the workers running do the work. */
async function ingest(api: RunningServer, origin: string, from: number, pages: number, workers: number): Promise<IngestResult> {
  const urls = Array.from({ length: pages }, (_, i) => `${origin}/articles/${from + i}`);
  const started = performance.now();
  await workspaceCall(api, 'POST', '/v2/documents/public', { documentIdsToAdd: urls });
  const failed = await waitForIngestion(api, started, `ingest with ${workers} worker(s)`);
  const ms = performance.now() - started;
  const result = { workers, pages, seconds: seconds(ms), pagesPerSecond: Math.round((pages / ms) * 10_000) / 10, failed };
  log(`ingest with ${workers} worker(s): ${result.pagesPerSecond} pages/s`);
  return result;
}

/** Serves the seeded database with 2 API processes and 2 workers and runs every case. */
async function measure(state: SeedState, settings: ScaleSettings, report: SizeReport): Promise<void> {
  const env = state.env;
  // A worker says it polls in an info line (startWorker waits for it).
  const workerEnv = { ...env, PARLEY_LOG_LEVEL: 'info' };
  const apis: RunningServer[] = [];
  const workers: (RunningWorker | undefined)[] = [];
  try {
    const root = settings.serveFrom ? path.resolve(settings.serveFrom) : undefined;
    if (root) log(`served by the checkout in ${root}`);
    for (let i = 0; i < 2; i += 1) apis.push(await startServer({ env, apiKey: state.apiKey, args: ['--no-worker'], root }));
    for (let i = 0; i < 2; i += 1) workers.push(await startWorker({ env: workerEnv, root }));
    report.loadAverage.before = os.loadavg();
    const end = new Date(state.end);
    const endEpoch = Math.floor(end.getTime() / 1000);
    const { agentId } = state;
    const n = settings.iterations;
    for (const days of [30, 90]) {
      report.cases.push(
        await timeCase(`agent analytics, ${days} days`, apis, n, async (api) => {
          const body = await workspaceCall<{ summary: { totalConversations: number } }>(api, 'GET', `/v2/bots/${agentId}/hc-analytics/public?startEpoch=${endEpoch - days * 86_400}&endEpoch=${endEpoch}`);
          return `${body.summary.totalConversations} conversations`;
        }),
      );
    }
    const window = `since=${new Date(end.getTime() - DAYS * DAY).toISOString()}&until=${end.toISOString()}&limit=50`;
    report.cases.push(
      await timeCase('conversation list, first page', apis, n, async (api) => {
        const body = await workspaceCall<{ interactions: unknown[] }>(api, 'GET', `/v2/hc-interactions/public?${window}`);
        return `${body.interactions.length} rows`;
      }),
    );
    const cursors = await deepCursors(state, Array.from({ length: n }, (_, i) => 0.4 + (0.2 * i) / n));
    report.cases.push(
      await timeCase('conversation list, deep page (cursor 40-60% down 90 days)', apis, n, async (api, i) => {
        const body = await workspaceCall<{ interactions: unknown[] }>(api, 'GET', `/v2/hc-interactions/public?${window}&cursor=${cursors[i % cursors.length]}`);
        return `${body.interactions.length} rows, cursor ${Math.round(0.4 * state.size.conversations)}+ down`;
      }),
    );
    const questions = customerQuestions(n + 2);
    report.cases.push(
      await timeCase('knowledge search', apis, n, async (api, i) => {
        const body = await workspaceCall<{ results: unknown[] }>(api, 'POST', '/v2/knowledge/public/search', { query: questions[i]!, limit: 10 });
        return `${body.results.length} results`;
      }),
    );
    let handovers = 0;
    let asked = 0;
    report.cases.push(
      await timeCase('Generate Answer (built-in engine)', apis, n, async (api, i) => {
        const events = await workspaceCall<{ role: string; handover: boolean }[]>(api, 'POST', '/v2/hc-interactions/events/public', { content: questions[i + 1]!, botId: agentId });
        asked += 1;
        if (events.some((e) => e.handover)) handovers += 1;
        return `${handovers} of ${asked} handed over, warm-ups included`;
      }),
    );
    report.loadAverage.after = os.loadavg();
    const { origin, server: site } = await startHelpSite();
    try {
      await workers[1]!.stop();
      workers[1] = undefined;
      report.ingest.push(await ingest(apis[0]!, origin, 0, settings.pages, 1));
      workers[1] = await startWorker({ env: workerEnv });
      report.ingest.push(await ingest(apis[1]!, origin, settings.pages, settings.pages, 2));
    } finally {
      site.close();
    }
    for (const p of [...apis, ...workers]) {
      if (p && !p.running()) throw new Error(`process ${p.pid} exited during the run`);
    }
  } finally {
    await Promise.all([...apis, ...workers].map((p) => p?.stop()));
  }
}

async function runSize(adminUrl: string, settings: ScaleSettings, size: Size, reuse: string | undefined): Promise<SizeReport> {
  const report: SizeReport = { size, database: '', seed: {}, tables: [], cases: [], ingest: [], loadAverage: { before: [], after: [] } };
  let state: SeedState | undefined;
  // The processes' data folder (unused on PostgreSQL but for the lock file): a fresh one per run.
  const dataDir = await tempDataDir('parley-scale-');
  try {
    state = reuse ? (JSON.parse(await readFile(stateFile(reuse), 'utf8')) as SeedState) : await seed(adminUrl, size, dataDir.path);
    state.env.PARLEY_DATA_DIR = dataDir.path;
    report.size = state.size;
    report.database = state.database;
    report.seed = state.seed;
    if (settings.keep && !reuse) {
      await mkdir(path.dirname(stateFile(state.database)), { recursive: true });
      await writeFile(stateFile(state.database), `${JSON.stringify(state, null, 2)}\n`);
    }
    report.tables = await tableSizes(state.url);
    await measure(state, settings, report);
  } catch (error) {
    report.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
    log(`failed: ${report.error}`);
  } finally {
    if (state && !settings.keep && !reuse) await dropDatabase(adminUrl, state.database);
    await dataDir.remove();
  }
  return report;
}

const stateFile = (database: string) => path.join(ROOT, 'bench', 'results', `scale-state-${database}.json`);

async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const client = await seedClient(adminUrl);
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** The tables of the run: every case and the ingestion side by side for each size, and the data. */
function render(reports: SizeReport[]): string {
  const head = (r: SizeReport) => `${r.size.conversations.toLocaleString('en')} conv. / ${r.size.articles.toLocaleString('en')} art.`;
  const lines = [
    `| case | ${reports.map(head).join(' | ')} |${reports.length > 1 ? ' growth of p50 |' : ''}`,
    `|---|${reports.map(() => '---:|').join('')}${reports.length > 1 ? '---:|' : ''}`,
  ];
  const names = reports.flatMap((r) => r.cases.map((c) => c.name)).filter((v, i, a) => a.indexOf(v) === i);
  for (const name of names) {
    const cells = reports.map((r) => {
      const c = r.cases.find((x) => x.name === name);
      return c ? `${c.p50.toFixed(1)} / ${c.p99.toFixed(1)} ms (${c.requests}; ${c.detail})` : '-';
    });
    const [a, b] = reports.map((r) => r.cases.find((x) => x.name === name));
    lines.push(`| ${name} p50 / p99 | ${cells.join(' | ')} |${reports.length > 1 ? ` ${a && b ? `${(b.p50 / a.p50).toFixed(1)}x` : '-'} |` : ''}`);
  }
  for (const workers of [1, 2]) {
    const cells = reports.map((r) => {
      const i = r.ingest.find((x) => x.workers === workers);
      return i ? `${i.pagesPerSecond} pages/s (${i.pages} pages in ${i.seconds} s, ${i.failed} failed)` : '-';
    });
    lines.push(`| ingestion, ${workers} worker${workers > 1 ? 's' : ''} | ${cells.join(' | ')} |${reports.length > 1 ? ' |' : ''}`);
  }
  lines.push('', `| table: rows, heap + indexes MB | ${reports.map(head).join(' | ')} |`, `|---|${reports.map(() => '---:|').join('')}`);
  for (const table of TABLES) {
    const cells = reports.map((r) => {
      const t = r.tables.find((x) => x.table === table);
      return t ? `${t.rows.toLocaleString('en')}: ${t.heapMb} + ${t.indexMb}` : '-';
    });
    lines.push(`| ${table} | ${cells.join(' | ')} |`);
  }
  lines.push('', `| seeding, s | ${reports.map(head).join(' | ')} |`, `|---|${reports.map(() => '---:|').join('')}`);
  for (const key of ['articlesMs', 'importMs', 'insertMs', 'templatesMs', 'conversationsMs', 'smallWorkspacesMs', 'vacuumAnalyzeMs']) {
    lines.push(`| ${key.replace(/Ms$/, '')} | ${reports.map((r) => (r.seed[key] === undefined ? '-' : seconds(r.seed[key]!))).join(' | ')} |`);
  }
  lines.push('', ...reports.map((r) => `${head(r)} (${r.database}): load average ${r.loadAverage.before.map((x) => x.toFixed(2)).join(' ')} before the requests, ${r.loadAverage.after.map((x) => x.toFixed(2)).join(' ')} after${r.error ? `; FAILED: ${r.error.split('\n')[0]}` : ''}`));
  return lines.join('\n');
}

async function main(): Promise<number> {
  exitOnSignals();
  const startedAt = new Date();
  let settings: ScaleSettings;
  try {
    settings = parseScaleArgs(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const adminUrl = await findPostgres();
  if (!adminUrl) throw new Error('bench:scale needs PostgreSQL: set DATABASE_URL or run one at 127.0.0.1:5432');
  log(`disk before seeding:\n${execFileSync('df', ['-h', '/'], { encoding: 'utf8' }).trim()}`);
  const reports: SizeReport[] = [];
  if (settings.reuse.length) {
    for (const name of settings.reuse) reports.push(await runSize(adminUrl, settings, settings.size, name));
  } else {
    for (const size of sizesOf(settings)) reports.push(await runSize(adminUrl, settings, size, undefined));
  }
  process.stdout.write(`\nPostgreSQL at scale: 2 API processes, 2 workers, ${settings.iterations} requests per case (ms).\n\n${render(reports)}\n`);
  if (settings.keep && !settings.reuse.length) process.stdout.write(`\nKept: ${reports.map((r) => r.database).join(', ')} (npm run bench:scale -- --reuse ${reports.map((r) => r.database).join(',')})\n`);
  await writeResults('scale', startedAt, { settings, reports });
  return reports.some((r) => r.error || r.ingest.some((i) => i.failed)) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => void abortRun(error instanceof Error ? (error.stack ?? error.message) : String(error), 1),
);
