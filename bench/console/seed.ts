// Seeds a workspace at the console's scale (bench/console/README.md says why each part goes the way
// it does): 5,000 articles in a folder tree through the tree import, agents, tags and a few
// hundred real conversations through Generate Answer (customer messages, the agent's replies and
// hand-overs with their traces, human replies, internal comments, feedback) and one Refine with AI
// session on the public API; then, with the server stopped, those conversations cloned through the
// conversations repository into 10,000, spread over the last 30 days.
import { and, asc, eq, inArray } from 'drizzle-orm';
import { openDatabase, pgliteFolder, transaction } from '../../src/db/database.js';
import { migrateDatabase } from '../../src/db/migrate.js';
import { conversationEvents, conversations } from '../../src/db/schema/index.js';
import { insertConversation, insertEvents, type NewEvent } from '../../src/modules/conversations/conversations.repository.js';
import { type TreeRow, writeTreeFile } from '../../src/modules/knowledge/index.js';
import { importTree, type RunningServer, sleep, startServer } from '../support.js';

export interface SeedSettings {
  conversations: number;
  articles: number;
  /** Conversations held through Generate Answer; the rest are clones of them. */
  templates: number;
}

export interface Seeded {
  workspaceId: string;
  agentIds: string[];
  /** The folder holding the most live articles (the article list measured). */
  busiestFolderId: string;
  articleId: string;
  /** An uploaded source. */
  sourceId: string;
  /** A conversation with a hand-over, a human reply and an internal comment. */
  conversationId: string;
  /** A reply with an active Refine with AI session whose iteration is ready. */
  refine: { conversationId: string; eventId: string; iteration: string };
  counts: { folders: number; articles: number; conversations: number; events: number; templates: number };
  timings: { importMs: number; templatesMs: number; refineMs: number; cloneMs: number };
}

const DAY = 86_400_000;

/** Areas, their topics and what a topic's articles say (a number per product line varies). */
const AREAS: { area: string; topics: { name: string; question: string; fact: (n: number) => string }[] }[] = [
  {
    area: 'Billing',
    topics: [
      { name: 'Invoices', question: 'Where do I find my invoices', fact: (n) => `Invoices are under Settings > Billing > Invoices as PDF files, kept for ${n + 2} years.` },
      { name: 'Refunds', question: 'How long does a refund take', fact: (n) => `Refunds reach the card within ${(n % 9) + 3} working days of the approval.` },
      { name: 'Payment methods', question: 'Which payment methods do you accept', fact: (n) => `We accept Visa, Mastercard, PayPal and bank transfer; invoices above ${(n + 1) * 100} euros can be paid in instalments.` },
      { name: 'Subscriptions', question: 'How do I cancel my subscription', fact: (n) => `Cancel under Settings > Plan; the plan runs until the end of the period and ${n % 2 ? 'unused days are refunded' : 'no further payment is taken'}.` },
      { name: 'Taxes', question: 'Do prices include VAT', fact: (n) => `Prices include ${(n % 10) + 15}% VAT for customers in the EU; business customers can add a VAT number.` },
    ],
  },
  {
    area: 'Shipping',
    topics: [
      { name: 'Delivery times', question: 'How long does delivery take', fact: (n) => `Standard delivery takes ${(n % 5) + 2} working days; express delivery arrives the next working day.` },
      { name: 'Tracking', question: 'How do I track my parcel', fact: (n) => `The tracking link is in the shipping e-mail and under Orders; it updates every ${(n % 6) + 1} hours.` },
      { name: 'International', question: 'Do you ship abroad', fact: (n) => `We ship to ${(n % 40) + 30} countries; customs duties outside the EU are paid on delivery.` },
      { name: 'Shipping costs', question: 'How much does shipping cost', fact: (n) => `Shipping costs ${(n % 5) + 3}.95 euros and is free above ${(n % 4) * 10 + 40} euros.` },
    ],
  },
  {
    area: 'Returns',
    topics: [
      { name: 'Return policy', question: 'How long do I have to return an item', fact: (n) => `Returns are accepted within ${(n % 3) * 15 + 14} days of delivery in the original packaging.` },
      { name: 'Exchanges', question: 'Can I exchange an item', fact: (n) => `Exchanges for another size or colour are free; the new item ships within ${(n % 3) + 1} days of the return arriving.` },
      { name: 'Return labels', question: 'Is the return label free', fact: (n) => `The return label is ${n % 2 ? 'free' : 'free for orders above 30 euros'}; print it from Orders > Return.` },
    ],
  },
  {
    area: 'Account',
    topics: [
      { name: 'Sign-in', question: 'Why can I not sign in', fact: (n) => `After ${(n % 3) + 3} failed attempts sign-in is paused for 15 minutes; the e-mail explains how to unlock it.` },
      { name: 'Password', question: 'How do I reset my password', fact: (n) => `Reset the password from the sign-in page with Forgot password; the link is valid for ${(n % 4) + 1} hours.` },
      { name: 'Two-factor', question: 'How do I turn on two-factor sign-in', fact: (n) => `Turn on two-factor sign-in under Settings > Security with an authenticator app; ${(n % 5) + 5} backup codes are shown once.` },
      { name: 'Deleting an account', question: 'How do I delete my account', fact: (n) => `Delete the account under Settings > Privacy; the data is erased after ${(n % 3) * 15 + 30} days.` },
    ],
  },
  {
    area: 'Orders',
    topics: [
      { name: 'Changing an order', question: 'Can I change my order', fact: (n) => `An order can be changed for ${(n % 3) + 1} hours after it was placed, under Orders > Change.` },
      { name: 'Cancelling', question: 'How do I cancel an order', fact: (n) => `Cancel an order that has not shipped under Orders > Cancel; the refund follows within ${(n % 4) + 2} days.` },
      { name: 'Gift cards', question: 'How do I use a gift card', fact: (n) => `Enter the gift card code at checkout; gift cards are valid for ${(n % 3) + 1} years.` },
    ],
  },
  {
    area: 'Developers',
    topics: [
      { name: 'API keys', question: 'How do I create an API key', fact: (n) => `Create API keys under Settings > Developers; a workspace can hold ${(n % 5) * 10 + 10} keys.` },
      { name: 'Webhooks', question: 'How do webhooks retry', fact: (n) => `A failed webhook is retried ${(n % 4) + 3} times with exponential back-off.` },
      { name: 'Rate limits', question: 'What are the API rate limits', fact: (n) => `The API allows ${(n % 5) * 100 + 300} requests per minute per key; a 429 says when to retry.` },
    ],
  },
];

const LINES = ['Basic plan', 'Pro plan', 'Team plan', 'Enterprise plan', 'web shop', 'mobile app', 'store pickup', 'marketplace orders'];
const SUBFOLDERS = ['Web shop', 'Mobile app', 'Stores'];

/** The tree file: every area and topic, three subfolders per topic, the articles spread over the topics and subfolders. */
function treeRows(count: number): TreeRow[] {
  const folders: { path: string[]; topic: (typeof AREAS)[number]['topics'][number] }[] = [];
  for (const { area, topics } of AREAS) {
    for (const topic of topics) {
      folders.push({ path: [area, topic.name], topic });
      for (const sub of SUBFOLDERS) folders.push({ path: [area, topic.name, sub], topic });
    }
  }
  const rows: TreeRow[] = AREAS.map(({ area }) => ({ line: 0, folderPath: [area], folderDescription: `${area} questions` }));
  for (let i = 0; i < count; i += 1) {
    const { path, topic } = folders[i % folders.length]!;
    const n = Math.floor(i / folders.length);
    const line = LINES[n % LINES.length]!;
    const where = path.length === 3 ? ` (${path[2]})` : '';
    rows.push({
      line: 0,
      folderPath: path,
      article: {
        title: `${topic.question} on the ${line}${where}? #${n + 1}`,
        mainKnowledge: `${topic.fact(n)}\n\nThis applies to the ${line}${where}. ${topic.fact(n + 1).replace(/\.$/, '')} for orders placed before ${2020 + (n % 6)}.\n\nContact support if anything is unclear.`,
        agentInstruction: n % 7 === 0 ? 'Offer the self-service link first.' : '',
        questions: [`${topic.question} on the ${line}?`, `${topic.question}?`],
        keywords: [topic.name.toLowerCase(), line],
        escalation: i % 97 === 0,
        isDraft: i % 20 === 0,
      },
    });
  }
  return rows;
}

async function api<T>(server: RunningServer, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${server.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(300_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

interface ImportedTree {
  folders: { id: string; title: string; parentFolderId: string | null }[];
  articles: { id: string; parentFolderId: string; isDraft: boolean }[];
}

/** A row as a new row's values: without its id and workspace. */
function copyOf<T extends { id: string; workspaceId: string }>(row: T): Omit<T, 'id' | 'workspaceId'> {
  const copy: Partial<T> = { ...row };
  delete copy.id;
  delete copy.workspaceId;
  return copy as Omit<T, 'id' | 'workspaceId'>;
}

/** Runs `work` over `items`, `concurrency` at a time. */
async function pool<T>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index]!, index);
      }
    }),
  );
}

interface Event {
  id: string;
  interactionId: string;
  role: string;
  message: string;
  handover: boolean;
}

/** One conversation as a customer would hold it: the kind of each turn decided by `i`. */
async function holdConversation(server: RunningServer, agentId: string, i: number): Promise<{ index: number; id: string; replies: Event[]; handedOver: boolean; human: boolean }> {
  const { topics } = AREAS[i % AREAS.length]!;
  const topic = topics[Math.floor(i / AREAS.length) % topics.length]!;
  const line = LINES[i % LINES.length]!;
  const channel = i % 4 === 3 ? 'email' : 'chat';
  const kind = i % 10;
  const first =
    kind === 7 ? 'I want to talk to a person about my order, please.'
    : kind === 8 ? `Do you sell ${['garden furniture', 'concert tickets', 'car insurance'][i % 3]}?`
    : kind === 9 ? `This is the third time I ask: ${topic.question.toLowerCase()} on the ${line}? Your service is useless!`
    : `${topic.question} on the ${line}?`;
  const post = (content: string, extra: Record<string, unknown>) =>
    api<Event[]>(server, 'POST', '/v2/hc-interactions/events/public', { content, ...extra });
  const opened = await post(first, { botId: agentId, metadata: { channel, user_attributes: { email: `customer${i}@example.com`, name: `Customer ${i}` } } });
  const id = opened[0]!.interactionId;
  const replies = opened.filter((e) => e.role === 'parleybot');
  if (kind % 3 === 0) {
    const next = AREAS[(i + 1) % AREAS.length]!.topics[0]!;
    replies.push(...(await post(i % 2 ? 'Thanks, that helps!' : `And ${next.question.toLowerCase()}?`, { interactionId: id })).filter((e) => e.role === 'parleybot'));
  }
  const handedOver = replies.some((r) => r.handover);
  const human = handedOver || kind === 4;
  if (human) {
    await post('Internal: checked the order history, nothing unusual.', { interactionId: id, role: 'agent', type: 'internal_comment' });
    await post(`Hello, this is Sam from support. ${topic.fact(i)} Anything else I can do?`, { interactionId: id, role: 'agent' });
  }
  const rated = replies.find((r) => !r.handover);
  if (rated && i % 5 === 1) {
    await api(server, 'POST', `/v2/hc-events/${rated.id}/feedback/public`, { csatRating: (i % 5) + 1, resolved: i % 2 === 1 });
  }
  return { index: i, id, replies, handedOver, human };
}

/** The first start: everything the public API can seed. */
async function seedThroughApi(server: RunningServer, settings: SeedSettings, timings: Seeded['timings']) {
  const workspace = await api<{ id: string }>(server, 'GET', '/v2/workspace/public');
  const { body: tree, ms: importMs } = await importTree<ImportedTree>(server, writeTreeFile(treeRows(settings.articles)));
  timings.importMs = importMs;

  const perFolder = new Map<string, number>();
  for (const a of tree.articles) if (!a.isDraft) perFolder.set(a.parentFolderId, (perFolder.get(a.parentFolderId) ?? 0) + 1);
  const busiestFolderId = [...perFolder.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  const topLevel = new Map(tree.folders.filter((f) => f.parentFolderId === null).map((f) => [f.title, f.id]));
  const agentFolders = [
    { name: 'Shop assistant', areas: ['Billing', 'Shipping', 'Returns', 'Orders', 'Account'] },
    { name: 'Developer help', areas: ['Developers', 'Account'] },
    { name: 'E-mail desk', areas: AREAS.map((a) => a.area) },
  ];
  const agentIds: string[] = [];
  for (const { name, areas } of agentFolders) {
    const agent = await api<{ id: string }>(server, 'POST', '/v2/bots/public', { name });
    await api(server, 'POST', '/v2/hc-bot-folder-junctions/public', {
      junctions: areas.map((area) => ({ folderId: topLevel.get(area), botId: agent.id, action: 'ADD' })),
    });
    agentIds.push(agent.id);
  }
  const group = await api<{ id: string }>(server, 'POST', '/v2/tag-groups/public', { title: 'Topic', description: 'What the customer asks about', multiselect: true });
  for (const tagName of ['Refund', 'Invoice', 'Delivery', 'Return', 'Password', 'Order', 'API']) {
    await api(server, 'POST', `/v2/tag-groups/${group.id}/tags/public`, { tagName, tagDescription: `The customer asks about a ${tagName.toLowerCase()}` });
  }

  // Sources: uploaded policy notes (the Sources page lists them with their ingestion state).
  for (let i = 0; i < 30; i += 1) {
    const { area, topics } = AREAS[i % AREAS.length]!;
    const form = new FormData();
    form.append('file', new Blob([`# ${area} policy ${i + 1}\n\n${topics.map((t) => t.fact(i)).join('\n\n')}\n`], { type: 'text/markdown' }), `${area.toLowerCase()}-policy-${i + 1}.md`);
    const response = await fetch(`${server.url}/v2/documents/public/files`, { method: 'POST', headers: { authorization: `Bearer ${server.apiKey}` }, body: form });
    if (!response.ok) throw new Error(`uploading a source answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  }

  const sources = await api<{ documents: { id: string }[] }>(server, 'GET', '/v2/documents/public?limit=1');

  let started = performance.now();
  const held: Awaited<ReturnType<typeof holdConversation>>[] = [];
  await pool(Array.from({ length: settings.templates }, (_, i) => i), 3, async (i) => {
    held.push(await holdConversation(server, agentIds[i % 5 === 4 ? 1 : i % 3 === 2 ? 2 : 0]!, i));
    if (held.length % 50 === 0) process.stderr.write(`bench: console: ${held.length} of ${settings.templates} conversations held\n`);
  });
  timings.templatesMs = performance.now() - started;

  // A wrong answer refined with a note: the refine page's state with a change ready to publish.
  started = performance.now();
  // The first conversation asks where the invoices are (AREAS' first topic).
  const answered = held.find((c) => c.index === 0 && !c.handedOver && c.replies.length > 0) ?? held.find((c) => !c.handedOver && c.replies.length > 0)!;
  const reply = answered.replies[0]!;
  const session = await api<{ sessionId: string }>(server, 'POST', `/v2/fix-review/interactions/${answered.id}/events/${reply.id}/sessions/iterations/public`, {
    feedbackNote: 'This is wrong: invoices are under Account > Documents now, not under Settings > Billing > Invoices.',
  });
  let iteration = '';
  for (; ; await sleep(250)) {
    const latest = (await api<{ latestIteration: { status: string; changes: { changeType: string }[] } | null }>(server, 'GET', `/v2/fix-review/sessions/${session.sessionId}/public`)).latestIteration;
    iteration = `${latest?.status ?? 'none'} (${latest?.changes.map((c) => c.changeType).join(', ') || 'no change'})`;
    if (!['queued', 'generating_changes', 'replaying'].includes(latest?.status ?? '')) break;
  }
  timings.refineMs = performance.now() - started;

  const shown = held.find((c) => c.handedOver && c.human) ?? held.find((c) => c.human)!;
  return {
    workspaceId: workspace.id,
    agentIds,
    busiestFolderId,
    articleId: tree.articles.find((a) => a.parentFolderId === busiestFolderId && !a.isDraft)!.id,
    conversationId: shown.id,
    refine: { conversationId: answered.id, eventId: reply.id, iteration },
    sourceId: sources.documents[0]!.id,
    folders: tree.folders.length,
  };
}

/** With the server stopped: the held conversations cloned into `total`, spread over the last 30 days. */
async function cloneConversations(dataDir: string, workspaceId: string, total: number): Promise<{ conversations: number; events: number }> {
  const database = await openDatabase({ kind: 'pglite', dataDir: pgliteFolder(dataDir) });
  try {
    await migrateDatabase(database);
    const db = database.db;
    const templates = await db.select().from(conversations).where(eq(conversations.workspaceId, workspaceId)).orderBy(asc(conversations.createdAt));
    const events = await db
      .select()
      .from(conversationEvents)
      .where(and(eq(conversationEvents.workspaceId, workspaceId), inArray(conversationEvents.conversationId, templates.map((t) => t.id))))
      .orderBy(asc(conversationEvents.createdAt), asc(conversationEvents.id));
    const byConversation = new Map<string, typeof events>();
    for (const e of events) byConversation.set(e.conversationId, [...(byConversation.get(e.conversationId) ?? []), e]);
    const now = Date.now();
    const clones = total - templates.length;
    let eventCount = events.length;
    const BATCH = 250;
    for (let from = 0; from < clones; from += BATCH) {
      await transaction(db, async (tx) => {
        for (let k = from; k < Math.min(clones, from + BATCH); k += 1) {
          const template = templates[k % templates.length]!;
          // Spread evenly over 30 days, a few minutes of jitter so that no two start together.
          const start = new Date(now - ((k + 0.5) / clones) * 30 * DAY - (k % 7) * 60_000);
          const shift = (d: Date | null) => (d ? new Date(d.getTime() - template.createdAt.getTime() + start.getTime()) : d);
          const copy = await insertConversation(tx, workspaceId, {
            ...copyOf(template),
            userAttributes: { ...template.userAttributes, email: `customer${templates.length + k}@example.com`, name: `Customer ${templates.length + k}` },
            createdAt: start,
            updatedAt: shift(template.updatedAt)!,
            lastMessageAt: shift(template.lastMessageAt)!,
            lastReplyAt: shift(template.lastReplyAt),
          });
          const ids = new Map<string, string>();
          for (const e of byConversation.get(template.id) ?? []) ids.set(e.id, crypto.randomUUID());
          const copies: NewEvent[] = (byConversation.get(template.id) ?? []).map((e) => ({
            ...copyOf(e),
            id: ids.get(e.id)!,
            conversationId: copy.id,
            userEventId: e.userEventId ? (ids.get(e.userEventId) ?? null) : null,
            createdAt: shift(e.createdAt)!,
          }));
          eventCount += (await insertEvents(tx, workspaceId, copies)).length;
        }
      });
      if ((from / BATCH) % 8 === 7) process.stderr.write(`bench: console: ${Math.min(clones, from + BATCH)} of ${clones} conversations cloned\n`);
    }
    await db.execute('ANALYZE');
    return { conversations: total, events: eventCount };
  } finally {
    await database.close();
  }
}

/**
 * Seeds a fresh PGlite data folder (`env.PARLEY_DATA_DIR`) and returns the server running on it
 * with what was seeded. The caller stops the server.
 */
export async function seedConsoleWorkspace(env: Record<string, string>, settings: SeedSettings): Promise<{ server: RunningServer; seeded: Seeded }> {
  const dataDir = env.PARLEY_DATA_DIR;
  if (!dataDir) throw new Error('seedConsoleWorkspace needs PARLEY_DATA_DIR (a PGlite data folder)');
  const timings: Seeded['timings'] = { importMs: 0, templatesMs: 0, refineMs: 0, cloneMs: 0 };
  const first = await startServer({ env });
  let seeded: Awaited<ReturnType<typeof seedThroughApi>>;
  try {
    seeded = await seedThroughApi(first, settings, timings);
  } finally {
    await first.stop();
  }
  const started = performance.now();
  const counts = await cloneConversations(dataDir, seeded.workspaceId, settings.conversations);
  timings.cloneMs = performance.now() - started;
  const server = await startServer({ env, apiKey: first.apiKey });
  const { folders, ...rest } = seeded;
  return {
    server,
    seeded: { ...rest, counts: { folders, articles: settings.articles, templates: settings.templates, ...counts }, timings },
  };
}
