// The data set of `npm run bench:scale` (bench/scale.ts), written as the application writes it:
// - articles: a first batch through the tree import (`POST /v2/knowledge/public/tree/persist`, which
//   also makes every folder), the rest by INSERT ... SELECT of the same generated rows straight into
//   `articles` with their version-1 snapshot in `article_versions`; the triggers of migrations 0003
//   and 0009 keep `article_search` and `article_terms` for both, as they do for the route;
// - conversations: a few held through Generate Answer (the templates: the rows, events, traces and
//   audit entries the route wrote), then cloned by INSERT ... SELECT into as many as asked, each
//   clone with its own ids, customer and time (spread over the days before `end`); every column is
//   copied except those, so a column added to the schema later is cloned too.
import pg from 'pg';
import { writeTreeFile, type TreeRow } from '../src/modules/knowledge/index.js';
import { SENTENCES } from './ingest/site.js';
import { importTree, type RunningServer, workspaceCall } from './support.js';

const DAY = 86_400_000;

/** Features, actions and places of the generated help center (each article is about one of each). */
const FEATURES = [
  'invoice', 'password', 'workspace', 'project', 'report', 'dashboard', 'webhook', 'integration', 'subscription', 'export',
  'import', 'calendar', 'notification', 'team', 'role', 'label', 'template', 'comment', 'attachment', 'backup',
  'refund', 'order', 'shipment', 'coupon', 'payment', 'card', 'account', 'profile', 'device', 'license',
  'domain', 'mailbox', 'contact', 'campaign', 'survey', 'ticket', 'channel', 'widget', 'plugin', 'token',
];
const ACTIONS = ['create', 'delete', 'rename', 'share', 'archive', 'restore', 'download', 'schedule', 'configure', 'disable', 'enable', 'move', 'copy', 'filter', 'sort', 'cancel', 'upgrade', 'verify', 'reset', 'transfer'];
const PLACES = ['the web app', 'the mobile app', 'the desktop app', 'the admin console', 'the API', 'the settings page'];
const FILLER = [
  ...SENTENCES,
  'The change is visible to every member of the team the next time they open the page.',
  'Older versions stay available for thirty days and can be restored from the trash.',
];
const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'to', 'vas', 'ul', 'pe', 'dri', 'no', 'sa', 'gor', 'bel', 'fi', 'qua', 'zen'];

/** The long tail of the vocabulary: product and model names, each its own lexeme (4,096 of them). */
function tailWords(): string[] {
  const words: string[] = [];
  for (let i = 0; i < 4096; i += 1) {
    const s = SYLLABLES;
    words.push(`${s[i % 16]}${s[(i >> 4) % 16]}${s[(i >> 8) % 16]}x`);
  }
  return words;
}

const textArray = (list: readonly string[]) => `ARRAY[${list.map((w) => `'${w.replace(/'/g, "''")}'`).join(',')}]::text[]`;

/**
 * A SELECT of the generated articles `lo`..`hi` (title, body, questions, keywords, flags): each about
 * one feature, action and place, its body of 8 to 12 sentences with words of the long tail drawn
 * with a Zipf-like frequency (log-uniform rank), as product names are in a real help center.
 */
function generatedArticlesSql(lo: number, hi: number): string {
  const pick = (list: string, n: string) => `(${list})[1 + (${n}) % cardinality(${list})]`;
  const F = textArray(FEATURES);
  const A = textArray(ACTIONS);
  const P = textArray(PLACES);
  const S = textArray(FILLER);
  const T = textArray(tailWords());
  const tail = `(${T})[floor(exp(random() * ln(4096)))::int]`;
  return `SELECT n, f, a, p, t1,
      'How do I ' || a || ' a ' || f || ' with ' || t1 || ' in ' || p || '?' AS title,
      'You can ' || a || ' a ' || f || ' from ' || p || '. ' ||
        (SELECT string_agg(CASE WHEN k % 3 = 0 THEN 'This also works for ' || ${tail} || ' and ' || ${tail} || ' ' || f || 's.'
                                ELSE ${pick(S, 'n * 7 + k')} END, ' ' ORDER BY k)
         FROM generate_series(1, 8 + n % 5) AS k ) ||
        ' Open ' || p || ', go to the ' || f || ' settings and click ' || a || '.' AS body,
      ARRAY['How can I ' || a || ' my ' || f || '?', 'Where do I ' || a || ' ' || f || 's with ' || t1 || '?'] AS questions,
      ARRAY[f, a, t1] AS keywords,
      n % 50 = 0 AS escalation, n % 20 = 0 AS is_draft, n % 2 = 0 AS public
    FROM (
      SELECT n, ${pick(F, 'n')} AS f, ${pick(A, 'n / 40')} AS a, ${pick(P, 'n / 800')} AS p, ${tail} AS t1
      FROM generate_series(${lo}, ${hi}) AS n
    ) g`;
}

/** Questions a customer asks of the generated help center (search and Generate Answer): `count`, deterministic. */
export function customerQuestions(count: number): string[] {
  const tail = tailWords();
  return Array.from({ length: count }, (_, i) => {
    const f = FEATURES[(i * 7) % FEATURES.length]!;
    const a = ACTIONS[(i * 3) % ACTIONS.length]!;
    switch (i % 4) {
      case 0: return `How can I ${a} a ${f}?`;
      case 1: return `I need to ${a} my ${f} in ${PLACES[i % PLACES.length]}, how does that work?`;
      case 2: return `Can I ${a} the ${f} for ${tail[(i * 31) % 64]}?`;
      default: return `${f} ${a} not working`;
    }
  });
}

/** A connected client for seeding (no statement timeout: one statement writes 25,000 conversations). */
export async function seedClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

export interface Workspace {
  id: string;
  agentId: string;
  server: { url: string; apiKey: string };
}

/** Folder paths of a help center of `articles` articles: areas of 10 topics, about 100 articles a topic. */
function folderPaths(articles: number): string[][] {
  const areas = Math.max(1, Math.ceil(articles / 1000));
  const paths: string[][] = [];
  for (let a = 0; a < areas; a += 1) for (let t = 0; t < 10; t += 1) paths.push([`Area ${a}`, `Topic ${a}.${t}`]);
  return paths;
}

export interface ArticleSeed {
  imported: number;
  importMs: number;
  inserted: number;
  insertMs: number;
  folders: number;
}

/**
 * The workspace's agent, its help center of `count` articles (the first `importBatch` through the
 * tree import, the rest inserted in batches) and the agent's folders (every area).
 */
export async function seedKnowledge(client: pg.Client, ws: Workspace, count: number, importBatch: number, log: (line: string) => void): Promise<ArticleSeed> {
  const paths = folderPaths(count);
  const imported = Math.min(count, importBatch);
  const { rows } = await client.query<{ title: string; body: string; questions: string[]; keywords: string[]; escalation: boolean; is_draft: boolean; public: boolean; n: number }>(
    `${generatedArticlesSql(1, imported)} ORDER BY n`,
  );
  const treeRows: TreeRow[] = paths.map((folderPath) => ({ line: 0, folderPath }));
  for (const r of rows) {
    treeRows.push({
      line: 0,
      folderPath: paths[r.n % paths.length]!,
      article: { title: r.title, mainKnowledge: r.body, agentInstruction: '', questions: r.questions, keywords: r.keywords, escalation: r.escalation, isDraft: r.is_draft, public: r.public },
    });
  }
  const started = performance.now();
  if (imported > 0) await importTree({ ...ws.server } as RunningServer, writeTreeFile(treeRows));
  const importMs = performance.now() - started;
  const areas = await client.query<{ id: string }>(`SELECT id FROM folders WHERE workspace_id = $1 AND parent_folder_id IS NULL ORDER BY title`, [ws.id]);
  for (let i = 0; i < areas.rows.length; i += 100) {
    const junctions = areas.rows.slice(i, i + 100).map((f) => ({ folderId: f.id, botId: ws.agentId, action: 'ADD' }));
    await workspaceCall(ws.server, 'POST', '/v2/hc-bot-folder-junctions/public', { junctions });
  }
  const inserted = count - imported;
  const insertStarted = performance.now();
  if (inserted > 0) {
    // The leaves in the order of `paths`, and the imported rows' author (the key: tree.service's `authored`).
    const leaves = await client.query<{ id: string }>(
      `SELECT c.id FROM folders c JOIN folders p ON p.workspace_id = c.workspace_id AND p.id = c.parent_folder_id
       WHERE c.workspace_id = $1 ORDER BY (substring(p.title from 6))::int, (split_part(c.title, '.', 2))::int`,
      [ws.id],
    );
    const author = await client.query<{ created_by: string | null }>(`SELECT created_by FROM articles WHERE workspace_id = $1 LIMIT 1`, [ws.id]);
    const leafIds = `ARRAY[${leaves.rows.map((r) => `'${r.id}'`).join(',')}]::uuid[]`;
    const BATCH = 5000;
    for (let lo = imported + 1; lo <= count; lo += BATCH) {
      const hi = Math.min(count, lo + BATCH - 1);
      // Spread over the last year (the route stamps now): the article list orders by updated_at.
      await client.query(
        `WITH g AS (${generatedArticlesSql(lo, hi)}),
         a AS (
           INSERT INTO articles (workspace_id, parent_folder_id, title, main_knowledge, agent_instruction, questions, keywords,
             escalation, misc, active, public, is_draft, origin, version, created_at, updated_at, created_by, updated_by)
           SELECT $1::uuid, (${leafIds})[1 + g.n % ${leaves.rows.length}], g.title, g.body, '', g.questions, g.keywords,
             g.escalation, '{}'::jsonb, true, g.public, g.is_draft, 'API_CREATED', 1, s.at, s.at, $2::uuid, $2::uuid
           FROM g, LATERAL (SELECT now() - random() * interval '365 days' AS at) s
           RETURNING *
         )
         INSERT INTO article_versions (workspace_id, article_id, version, snapshot, created_at, created_by)
         SELECT a.workspace_id, a.id, a.version,
           jsonb_build_object('title', a.title, 'mainKnowledge', a.main_knowledge, 'agentInstruction', a.agent_instruction,
             'questions', to_jsonb(a.questions), 'keywords', to_jsonb(a.keywords), 'escalation', a.escalation, 'active', a.active,
             'public', a.public, 'parentFolderId', a.parent_folder_id, 'misc', a.misc),
           a.updated_at, a.updated_by
         FROM a`,
        [ws.id, author.rows[0]?.created_by ?? null],
      );
      if (((hi - imported) / BATCH) % 4 === 0 || hi === count) log(`${hi} of ${count} articles`);
    }
  }
  return { imported, importMs, inserted, insertMs: performance.now() - insertStarted, folders: paths.length + Math.max(1, Math.ceil(count / 1000)) };
}

/** The templates: conversations held through Generate Answer, of 2 and 3 customer messages (4 and 6 events: 5 on average). */
export async function holdTemplates(ws: Workspace, count: number): Promise<string[]> {
  const questions = customerQuestions(count * 3);
  const follow = ['Thanks, and can I undo that later?', 'Where do I find that setting?', 'Does that also work in the mobile app?'];
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const channel = i % 4 === 3 ? 'email' : 'chat';
    const first = await workspaceCall<{ id: string; interactionId: string }[]>(ws.server, 'POST', '/v2/hc-interactions/events/public', {
      content: i % 6 === 5 ? 'This is the third time I write, let me talk to a human now' : questions[i]!,
      botId: ws.agentId,
      metadata: { channel, user_attributes: { email: `template-${i}@example.com`, name: `Template ${i}` } },
    });
    const interactionId = first[0]!.interactionId;
    const turns = i % 2 === 0 ? 2 : 3;
    for (let t = 1; t < turns; t += 1) {
      await workspaceCall(ws.server, 'POST', '/v2/hc-interactions/events/public', { content: follow[(i + t) % follow.length]!, interactionId });
    }
    ids.push(interactionId);
  }
  return ids;
}

/** The columns of a table, in order (generated identity columns left out: they number themselves). */
async function columnsOf(client: pg.Client, table: string): Promise<string[]> {
  const { rows } = await client.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 AND is_identity = 'NO' ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((r) => r.column_name);
}

/** INSERT INTO `table` of every column: the template row's value (`alias`.column) unless `overrides` gives its expression. */
function cloneInsert(table: string, columns: string[], alias: string, overrides: Record<string, string>): string {
  return `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) SELECT ${columns.map((c) => overrides[c] ?? `${alias}."${c}"`).join(', ')}`;
}

const shifted = (column: string) => ({ [column]: `t."${column}" + g.shift` });

export interface CloneCounts {
  conversations: number;
  events: number;
  audit: number;
}

/**
 * `count` clones of the workspace's `templates` (round robin), created evenly at random over the
 * `days` before `end`: new ids (an event's id and the reply's user event derive from the clone's),
 * their own customer (email and name) and external ids, every time shifted with the conversation;
 * the audit entries of the templates' requests cloned with them. In batches of 25,000.
 */
export async function cloneConversations(
  client: pg.Client,
  workspaceId: string,
  templates: string[],
  count: number,
  end: Date,
  days: number,
  log?: (line: string) => void,
): Promise<CloneCounts> {
  // One client answers one query at a time (node-postgres deprecates queueing them on it).
  const conversationColumns = await columnsOf(client, 'conversations');
  const eventColumns = await columnsOf(client, 'conversation_events');
  const auditColumns = await columnsOf(client, 'audit_log');
  const start = new Date(end.getTime() - days * DAY);
  const conversationInsert = cloneInsert('conversations', conversationColumns!, 't', {
    id: 'g.new_id',
    external_id: `t.external_id || '-' || g.n`,
    user_attributes: `CASE WHEN t.user_attributes ? 'email' THEN t.user_attributes || jsonb_build_object('email', 'customer-' || g.n || '@example.com', 'name', 'Customer ' || g.n) ELSE t.user_attributes END`,
    ...shifted('created_at'), ...shifted('updated_at'), ...shifted('last_message_at'), ...shifted('last_reply_at'), ...shifted('human_takeover_at'),
  });
  const eventInsert = cloneInsert('conversation_events', eventColumns!, 't', {
    id: `md5(g.new_id::text || t.id::text)::uuid`,
    conversation_id: 'g.new_id',
    user_event_id: `md5(g.new_id::text || t.user_event_id::text)::uuid`,
    external_id: `t.external_id || '-' || g.n`,
    ...shifted('created_at'), ...shifted('external_created_at'),
  });
  // Generate Answer's entries name no resource (its answer is a list): a template's are those of
  // its workspace written while it was held (templates are held one after the other).
  const auditInsert = cloneInsert('audit_log', auditColumns!, 't', {
    id: 'gen_random_uuid()',
    request_id: `t.request_id || '-' || g.n`,
    ...shifted('occurred_at'),
  });
  const totals: CloneCounts = { conversations: 0, events: 0, audit: 0 };
  const BATCH = 25_000;
  for (let lo = 1; lo <= count; lo += BATCH) {
    const hi = Math.min(count, lo + BATCH - 1);
    const { rows } = await client.query<{ c: string; e: string; a: string }>(
      `WITH tpl AS (SELECT (row_number() OVER (ORDER BY x.ord)) - 1 AS k, x.id, c.created_at
                    FROM unnest($2::uuid[]) WITH ORDINALITY AS x(id, ord) JOIN conversations c ON c.workspace_id = $1 AND c.id = x.id),
       g AS MATERIALIZED (
         SELECT n, gen_random_uuid() AS new_id, tpl.id AS template_id,
           ($3::timestamptz + random() * ($4::timestamptz - $3::timestamptz)) - tpl.created_at AS shift
         FROM generate_series(${lo}, ${hi}) AS n JOIN tpl ON tpl.k = n % cardinality($2::uuid[])
       ),
       c AS (${conversationInsert} FROM g JOIN conversations t ON t.workspace_id = $1 AND t.id = g.template_id RETURNING 1),
       e AS (${eventInsert} FROM g JOIN conversation_events t ON t.workspace_id = $1 AND t.conversation_id = g.template_id RETURNING 1),
       a AS (${auditInsert} FROM g JOIN conversations tc ON tc.workspace_id = $1 AND tc.id = g.template_id
             JOIN audit_log t ON t.workspace_id = $1 AND t.occurred_at BETWEEN tc.created_at AND tc.last_message_at RETURNING 1)
       SELECT (SELECT count(*) FROM c) AS c, (SELECT count(*) FROM e) AS e, (SELECT count(*) FROM a) AS a`,
      [workspaceId, templates, start.toISOString(), end.toISOString()],
    );
    totals.conversations += Number(rows[0]!.c);
    totals.events += Number(rows[0]!.e);
    totals.audit += Number(rows[0]!.a);
    if (log && (hi % 100_000 === 0 || hi === count)) log(`${hi} of ${count} conversations cloned`);
  }
  return totals;
}
