// The analytics data set of `npm run bench:analytics`, also seeded by `npm run bench:dashboard` and
// e2e/analytics.e2e.ts: a workspace with one agent, 20 folders, 10 rules and 5 tags made through the
// API on a first start of the server, then conversations with 5 events each generated directly in
// the database (a realistic mix of statuses, channels, sources, tags, ratings, rules and folders)
// spread over the `days` before `end`, and the server started again on the same data.
import { sql } from 'drizzle-orm';
import { migrateDatabase } from '../src/db/migrate.js';
import { openDatabase, pgliteFolder } from '../src/db/database.js';
import { type RunningServer, startServer } from './support.js';

/** What the generated conversations point at. */
export interface AnalyticsIds {
  workspaceId: string;
  agentId: string;
  folders: string[];
  rules: string[];
  tags: string[];
}

const DAY = 86_400_000;

export async function api(server: { url: string; apiKey: string }, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** Conversations and their events, generated in the database in one statement each, spread over the `days` before `end`. */
export async function generate(dbUrl: { kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string }, ids: AnalyticsIds, conversations: number, end: Date, days = 90) {
  const database = dbUrl.kind === 'pglite' ? await openDatabase({ kind: 'pglite', dataDir: pgliteFolder(dbUrl.dir) }) : await openDatabase({ kind: 'postgres', url: dbUrl.url });
  try {
    await migrateDatabase(database);
    const arr = (list: string[]) => sql.raw(`(ARRAY[${list.map((id) => `'${id}'::uuid`).join(',')}])`);
    const start = new Date(end.getTime() - days * DAY);
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
          ${start.toISOString()}::timestamptz + (random() * (${days} * interval '1 day')) AS created
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


/** The agent, folders, rules and tags of the data set, made through the API of a running server. */
export async function createAnalyticsIds(first: { url: string; apiKey: string }): Promise<AnalyticsIds> {
  const workspace = await api(first, 'GET', '/v2/workspace/public');
  const agent = await api(first, 'POST', '/v2/bots/public', { name: 'Analytics agent' });
  const folders: string[] = [];
  for (let i = 0; i < 20; i++) folders.push((await api(first, 'POST', '/v2/hc-folders/public', { title: `Folder ${i}`, description: '' })).id as string);
  const rules: string[] = [];
  for (let i = 0; i < 10; i++) rules.push((await api(first, 'POST', '/v2/hc-rules/public', { name: `Rule ${i}`, description: `Handles topic ${i}`, flowConfig: { type: 'message', message: 'Hello' }, botIds: [agent.id] })).id as string);
  const group = await api(first, 'POST', '/v2/tag-groups/public', { title: 'Topic', description: '' });
  const tags: string[] = [];
  for (let i = 0; i < 5; i++) tags.push((await api(first, 'POST', `/v2/tag-groups/${group.id}/tags/public`, { tagName: `Topic ${i}`, tagDescription: '' })).id as string);
  return { workspaceId: workspace.id as string, agentId: agent.id as string, folders, rules, tags };
}

/**
 * The whole data set on a PGlite data folder: a first server makes the ids and is stopped, the
 * conversations are generated, and a server is started again on the folder (the caller stops it).
 */
export async function seedAnalyticsServer(options: { env: Record<string, string>; dataDir: string; conversations: number; days: number; end?: Date }): Promise<{ server: RunningServer; ids: AnalyticsIds; end: Date; generateMs: number }> {
  const first = await startServer({ env: options.env });
  let ids: AnalyticsIds;
  try {
    ids = await createAnalyticsIds(first);
  } finally {
    await first.stop();
  }
  const end = options.end ?? new Date();
  const started = performance.now();
  await generate({ kind: 'pglite', dir: options.dataDir }, ids, options.conversations, end, options.days);
  const generateMs = performance.now() - started;
  return { server: await startServer({ env: options.env, apiKey: first.apiKey }), ids, end, generateMs };
}
