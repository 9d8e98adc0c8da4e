// Agent analytics at volume (npm run bench:analytics): per backend (PGlite, and PostgreSQL when
// reachable), a real `parley serve` bootstraps a workspace with one agent, 20 folders and 10 rules;
// then BENCH_CONVERSATIONS conversations (default 100,000) with 5 events each over 90 days are
// generated directly in the database (a realistic mix of statuses, channels, sources, tags,
// ratings, rules and folders), and GET /v2/bots/{id}/hc-analytics/public is timed for 7, 30 and
// 90-day windows, without and with filters: p50 and p99 over BENCH_ITERATIONS requests (default 20).
import { sql } from 'drizzle-orm';
import { migrateDatabase } from '../src/db/migrate.js';
import { openDatabase, pgliteFolder } from '../src/db/database.js';
import { type Backend, type BackendName, availableBackends, exitOnSignals, positiveIntEnv, startServer, writeResults } from './support.js';

interface CaseResult {
  name: string;
  p50: number;
  p99: number;
  total: number;
}

interface Report {
  backend: BackendName;
  generateMs?: number;
  cases: CaseResult[];
  error?: string;
}

const DAY = 86_400_000;

async function api(server: { url: string; apiKey: string }, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** Conversations and their events, generated in the database in one statement each. */
async function generate(dbUrl: { kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string }, ids: { workspaceId: string; agentId: string; folders: string[]; rules: string[]; tags: string[] }, conversations: number, end: Date) {
  const database = dbUrl.kind === 'pglite' ? await openDatabase({ kind: 'pglite', dataDir: pgliteFolder(dbUrl.dir) }) : await openDatabase({ kind: 'postgres', url: dbUrl.url });
  try {
    await migrateDatabase(database);
    const arr = (list: string[]) => sql.raw(`(ARRAY[${list.map((id) => `'${id}'::uuid`).join(',')}])`);
    const start = new Date(end.getTime() - 90 * DAY);
    await database.db.execute(sql`
      INSERT INTO conversations (workspace_id, agent_id, source, channel, status, resolved, subject_preview, user_attributes,
        used_articles, used_subfolders, tag_ids, escalation_reason, latest_sentiment, turns, rule_ids, subfolder_ids,
        reply_count, response_ms_total, first_response_ms, last_reply_at, csat_ratings, created_at, updated_at, last_message_at)
      SELECT ${ids.workspaceId}::uuid, ${ids.agentId}::uuid,
        CASE WHEN r1 < 0.95 THEN 'api' ELSE 'replay' END,
        CASE WHEN r2 < 0.8 THEN 'chat' ELSE 'email' END,
        status, CASE status WHEN 'Resolved by AI' THEN true WHEN 'Unresolved' THEN false END,
        'Generated conversation ' || n, '{}'::jsonb, '[]'::jsonb, '[]'::jsonb,
        ARRAY[${arr(ids.tags)}[1 + (n % ${ids.tags.length})]]::uuid[],
        CASE WHEN status = 'Escalated to Human Agent' THEN (ARRAY['missing_knowledge','customer_request','low_confidence','tool_failure','negative_sentiment'])[1 + (n % 5)] END,
        (ARRAY['positive','neutral','negative'])[1 + (n % 3)],
        replies,
        CASE WHEN r3 < 0.3 THEN ARRAY[${arr(ids.rules)}[1 + (n % ${ids.rules.length})]]::uuid[] ELSE '{}'::uuid[] END,
        ARRAY[${arr(ids.folders)}[1 + (n % ${ids.folders.length})]]::uuid[],
        replies, replies * (500 + (n % 4000)), 500 + (n % 4000),
        created + interval '1 minute',
        CASE WHEN r4 < 0.3 THEN ARRAY[1 + (n % 5)] ELSE '{}'::int[] END,
        created, created, created + interval '1 minute'
      FROM (
        SELECT n, random() AS r1, random() AS r2, random() AS r3, random() AS r4,
          (CASE WHEN random() < 0.45 THEN 'Resolved by AI' WHEN random() < 0.4 THEN 'Escalated to Human Agent'
                WHEN random() < 0.7 THEN 'Waiting for Customer' WHEN random() < 0.5 THEN 'Unresolved' ELSE 'No Reply' END) AS status,
          1 + (n % 4) AS replies,
          ${start.toISOString()}::timestamptz + (random() * interval '90 days') AS created
        FROM generate_series(1, ${conversations}) AS n
      ) g`);
    await database.db.execute(sql`
      INSERT INTO conversation_events (workspace_id, conversation_id, role, type, message, created_at)
      SELECT c.workspace_id, c.id, CASE WHEN k % 2 = 1 THEN 'user' ELSE 'parleybot' END, 'message', 'Generated message ' || k,
        c.created_at + (k * interval '10 seconds')
      FROM conversations c, generate_series(1, 5) AS k
      WHERE c.workspace_id = ${ids.workspaceId}::uuid`);
    await database.db.execute(sql`ANALYZE conversations`);
  } finally {
    await database.close();
  }
}

async function measure(backend: Backend, conversations: number, iterations: number): Promise<Report> {
  const report: Report = { backend: backend.name, cases: [] };
  const { env, cleanup } = await backend.prepare();
  const serverEnv = { ...env, PARLEY_LOG_LEVEL: 'warn', PARLEY_RATE_LIMIT_MAX: '100000000' };
  try {
    const first = await startServer({ env: serverEnv });
    let ids: { workspaceId: string; agentId: string; folders: string[]; rules: string[]; tags: string[] };
    try {
      const workspace = await api(first, 'GET', '/v2/workspace/public');
      const agent = await api(first, 'POST', '/v2/bots/public', { name: 'Analytics agent' });
      const folders: string[] = [];
      for (let i = 0; i < 20; i++) folders.push((await api(first, 'POST', '/v2/hc-folders/public', { title: `Folder ${i}`, description: '' })).id as string);
      const rules: string[] = [];
      for (let i = 0; i < 10; i++) rules.push((await api(first, 'POST', '/v2/hc-rules/public', { name: `Rule ${i}`, description: `Handles topic ${i}`, flowConfig: { type: 'message', message: 'Hello' }, botIds: [agent.id] })).id as string);
      const group = await api(first, 'POST', '/v2/tag-groups/public', { title: 'Topic', description: '' });
      const tags: string[] = [];
      for (let i = 0; i < 5; i++) tags.push((await api(first, 'POST', `/v2/tag-groups/${group.id}/tags/public`, { tagName: `Topic ${i}`, tagDescription: '' })).id as string);
      ids = { workspaceId: workspace.id as string, agentId: agent.id as string, folders, rules, tags };
    } finally {
      await first.stop();
    }
    const end = new Date();
    const started = performance.now();
    await generate(env.DATABASE_URL ? { kind: 'postgres', url: env.DATABASE_URL } : { kind: 'pglite', dir: env.PARLEY_DATA_DIR! }, ids, conversations, end);
    report.generateMs = performance.now() - started;
    const server = await startServer({ env: serverEnv, apiKey: first.apiKey });
    try {
      const endEpoch = Math.floor(end.getTime() / 1000);
      const window = (days: number) => `startEpoch=${endEpoch - days * 86_400}&endEpoch=${endEpoch}`;
      const cases: [string, string][] = [];
      for (const days of [7, 30, 90]) {
        cases.push([`${days} days`, window(days)]);
        cases.push([`${days} days, channel + status`, `${window(days)}&channel=chat&latestStatus=Resolved%20by%20AI`]);
        cases.push([`${days} days, tag + folder, Europe/Berlin`, `${window(days)}&tagIds=${ids.tags[0]}&usedSubfolderIds=${ids.folders[0]}&timezone=Europe/Berlin`]);
      }
      for (const [name, query] of cases) {
        const times: number[] = [];
        let total = 0;
        for (let i = 0; i < iterations + 2; i++) {
          const t0 = performance.now();
          const body = await api(server, 'GET', `/v2/bots/${ids.agentId}/hc-analytics/public?${query}`);
          if (i >= 2) times.push(performance.now() - t0);
          total = (body.summary as { totalConversations: number }).totalConversations;
        }
        times.sort((a, b) => a - b);
        report.cases.push({ name, p50: times[Math.floor(times.length / 2)]!, p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))]!, total });
      }
    } finally {
      await server.stop();
    }
  } catch (error) {
    report.error = error instanceof Error ? error.message : String(error);
    process.stderr.write(`bench: ${backend.name} failed: ${report.error}\n`);
  } finally {
    await cleanup().catch(() => undefined);
  }
  return report;
}

async function main(): Promise<number> {
  exitOnSignals();
  const startedAt = new Date();
  const conversations = positiveIntEnv('BENCH_CONVERSATIONS', 100_000);
  const iterations = positiveIntEnv('BENCH_ITERATIONS', 20);
  const reports: Report[] = [];
  for (const backend of await availableBackends({})) reports.push(await measure(backend, conversations, iterations));
  const lines = [`Agent analytics: ${conversations} conversations with ${conversations * 5} events over 90 days, one agent; ${iterations} requests per case (ms).`];
  for (const r of reports) {
    lines.push('', `${r.backend}${r.generateMs ? ` (data generated in ${(r.generateMs / 1000).toFixed(1)} s)` : ''}`, '', '| case | conversations counted | p50 | p99 |', '|---|---:|---:|---:|');
    if (r.error) lines.push(`| FAILED: ${r.error} | | | |`);
    for (const c of r.cases) lines.push(`| ${c.name} | ${c.total} | ${c.p50.toFixed(1)} | ${c.p99.toFixed(1)} |`);
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
  await writeResults('analytics', startedAt, { conversations, iterations, reports });
  return reports.some((r) => r.error) ? 1 : 0;
}

process.exitCode = await main();
