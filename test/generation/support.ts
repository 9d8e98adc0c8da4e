// What the knowledge-generation tests share: the wire shapes, route paths and request helpers, the
// fake model app and its canned decisions.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach } from 'node:test';
import { parseCsv } from '../../src/modules/knowledge/tree-csv.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { type FakeLlm, type FakeLlmRequest, fakeModelEnv, startFakeLlm } from '../support/fake-llm.js';
import { type FakeSite, html, startFakeSite } from '../support/fake-site.js';
import { poll } from '../support/poll.js';
import { expectStatus } from '../support/security.js';
import { INGEST_ENV, ingestUrls, type Source, waitForSource } from '../support/sources.js';

/** The wire knowledge job (`jobs/status`). */
export interface KnowledgeJob {
  id: string;
  jobStatus: 'PENDING' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  hcArticleId: string | null;
  origin: 'sources' | 'generated' | 'inbox';
  documentId: string | null;
  hcEventId: string | null;
  isDraft: boolean;
  linkedOperation: 'ADD_ARTICLE_TO_FOLDER' | 'UPDATE_ARTICLE' | 'DO_NOTHING' | null;
  linkedReason: string | null;
  error: string;
  usage: { provider: string; model: string; inputTokens: number; outputTokens: number; totalTokens: number };
}

/** The wire article (fields the generation tests read). */
export interface Article {
  id: string;
  title: string;
  mainKnowledge: string;
  agentInstruction: string;
  questions: string[];
  keywords: string[];
  parentFolderId: string;
  isDraft: boolean;
  isDraftPublished: boolean;
  originalArticleId: string | null;
  version: number;
  origin: string;
  misc: Record<string, unknown>;
}

/** Polls `jobs/status` until every job is COMPLETED or FAILED, as a client would. */
export async function waitForJobs(t: TestApp, key: string, jobIds: string[], timeoutMs = 20_000): Promise<KnowledgeJob[]> {
  const { jobs } = await poll(
    () => {
      t.wakeWorkers('knowledge.generate');
      return expectStatus<{ jobs: KnowledgeJob[] }>(t, 200, 'POST', '/v2/knowledge/public/jobs/status', key, { jobIds });
    },
    (status) => status.jobs.every((j) => j.jobStatus === 'COMPLETED' || j.jobStatus === 'FAILED'),
    { what: `knowledge jobs ${jobIds.join(', ')} to finish`, timeoutMs, intervalMs: 100 },
  );
  return jobs;
}

/** Queues one generation job and waits for it. */
export async function generate(t: TestApp, key: string, body: Record<string, unknown>): Promise<KnowledgeJob> {
  const { backgroundJobId } = await expectStatus<{ backgroundJobId: string }>(t, 200, 'POST', '/v2/knowledge/public', key, body);
  const [job] = await waitForJobs(t, key, [backgroundJobId]);
  return job!;
}

export async function getArticle(t: TestApp, key: string, id: string): Promise<Article> {
  const [article] = await expectStatus<Article[]>(t, 200, 'POST', '/v2/hc-articles/ids/public', key, { articleIds: [id] });
  assert.ok(article, `article ${id} exists`);
  return article;
}

export async function makeFolder(t: TestApp, key: string, title: string, description = '', parentFolderId?: string): Promise<string> {
  const folder = await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/hc-folders/public', key, {
    title,
    description,
    ...(parentFolderId ? { parentFolderId } : {}),
  });
  return folder.id;
}

export async function makeArticle(t: TestApp, key: string, folderId: string, fields: Partial<Article> & { title: string; mainKnowledge: string }): Promise<Article> {
  return expectStatus<Article>(t, 201, 'POST', '/v2/hc-articles/public', key, {
    agentInstruction: '',
    questions: [],
    keywords: [],
    escalation: false,
    parentFolderId: folderId,
    ...fields,
  });
}

export const ROBOTS_ALLOW_ALL = { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' };

/**
 * A working test app whose model is a fake OpenAI-compatible server, with a fake site to ingest
 * from (robots.txt allows all); `close` stops all three.
 */
export interface ModelApp {
  t: TestApp;
  fake: FakeLlm;
  site: FakeSite;
  close(): Promise<void>;
}

export async function startModelApp(apiKey: string, extraEnv: Record<string, string>): Promise<ModelApp> {
  const fake = await startFakeLlm();
  const site = await startFakeSite({ '/robots.txt': ROBOTS_ALLOW_ALL });
  const t = await startTestApp({ work: true, env: { ...INGEST_ENV, ...fakeModelEnv(fake.url, apiKey, extraEnv) } });
  return {
    t,
    fake,
    site,
    async close() {
      await t.close();
      await fake.close();
      await site.close();
    },
  };
}

/** The user message of a chat request the fake model received. */
export function userPrompt(request: FakeLlmRequest): string {
  const messages = request.body.messages as { role: string; content: string }[];
  return messages.find((m) => m.role === 'user')!.content;
}

export const GENERATE = '/v2/knowledge/public';
export const BULK = '/v2/knowledge/public/bulk';
export const STATUS = '/v2/knowledge/public/jobs/status';
export const TREE_INIT = '/v2/knowledge/public/tree/initialize';
export const TREE_PERSIST = '/v2/knowledge/public/tree/persist';

export const ADD = 'ADD_ARTICLE_TO_FOLDER';
export const UPDATE = 'UPDATE_ARTICLE';
export const NOTHING = 'DO_NOTHING';

export const UNKNOWN = '00000000-0000-4000-8000-000000000000';
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const BUILTIN_USAGE = { provider: 'builtin', model: 'parley-builtin', inputTokens: 0, outputTokens: 0, totalTokens: 0 };
export const JOB_KEYS = [
  'completedAt', 'createdAt', 'documentId', 'error', 'hcArticleId', 'hcEventId', 'id', 'isDraft', 'jobStatus', 'linkedOperation',
  'linkedReason', 'origin', 'startedAt', 'usage',
];
export const TREE_HEADER = ['folder_path', 'folder_description', 'title', 'main_knowledge', 'agent_instruction', 'questions', 'keywords', 'escalation', 'is_draft', 'active', 'public'];

/** Texts with clearly different topics, and folders made for them. */
export const SHIPPING_TEXT =
  'Orders placed before 2 pm ship the same day from our warehouse. Standard delivery takes 3 to 5 business days, and shipping is free for orders over 50 euros.';
export const BILLING_TEXT = 'We accept Visa, Mastercard and PayPal. An invoice is emailed as a PDF after every payment, and you can download past invoices from your billing page.';
export const ACCOUNT_TEXT = 'To change your password, open Account settings and choose Security. You can also turn on two-factor sign-in there to protect your login.';

export interface Folders {
  shipping: string;
  billing: string;
  account: string;
}

export async function makeTopicFolders(t: TestApp, key: string): Promise<Folders> {
  return {
    shipping: await makeFolder(t, key, 'Shipping and delivery', 'Delivery times, carriers and shipping costs'),
    billing: await makeFolder(t, key, 'Billing and payments', 'Invoices, payment methods and charges'),
    account: await makeFolder(t, key, 'Account and security', 'Passwords, two-factor sign-in and account settings'),
  };
}

/** POST /v2/knowledge/public: 200 with only `backgroundJobId`. */
export async function queue(t: TestApp, key: string, body: Record<string, unknown>): Promise<string> {
  const res = await expectStatus<{ backgroundJobId: string }>(t, 200, 'POST', GENERATE, key, body);
  assert.deepEqual(Object.keys(res), ['backgroundJobId']);
  return res.backgroundJobId;
}

export async function statuses(t: TestApp, key: string, jobIds: string[]): Promise<KnowledgeJob[]> {
  return (await expectStatus<{ jobs: KnowledgeJob[] }>(t, 200, 'POST', STATUS, key, { jobIds })).jobs;
}

export interface BulkJob {
  documentId: string;
  backgroundJobId: string;
}
/** POST bulk: 200 with only `jobs`, one per distinct source. */
export async function queueBulk(t: TestApp, key: string, body: Record<string, unknown>): Promise<BulkJob[]> {
  const res = await expectStatus<{ jobs: BulkJob[] }>(t, 200, 'POST', BULK, key, body);
  assert.deepEqual(Object.keys(res), ['jobs']);
  return res.jobs;
}

/** Every article of the workspace, live and drafts (at most 200: enough for these tests). */
export async function allArticles(t: TestApp, key: string): Promise<Article[]> {
  const page = await expectStatus<{ articles: Article[]; hasMore: boolean }>(t, 200, 'GET', '/v2/hc-articles/public?limit=200', key);
  assert.equal(page.hasMore, false);
  return page.articles;
}

export async function makeAgent(t: TestApp, key: string, folderIds: string[] = []): Promise<string> {
  const agent = await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/bots/public', key, { name: `Agent ${randomUUID().slice(0, 6)}` });
  if (folderIds.length) {
    const res = await expectStatus<{ status: boolean }>(t, 200, 'POST', '/v2/hc-bot-folder-junctions/public', key, {
      junctions: folderIds.map((folderId) => ({ folderId, botId: agent.id, action: 'ADD' })),
    });
    assert.deepEqual(res, { status: true });
  }
  return agent.id;
}

/**
 * The exact wire job: every field but the timestamps and the reason compared as a whole; the
 * timestamps are ISO strings, in order; the
 * reason is checked by `reason` when given (null: no reason).
 */
export function assertJob(
  job: KnowledgeJob,
  expected: Omit<KnowledgeJob, 'createdAt' | 'startedAt' | 'completedAt' | 'linkedReason' | 'usage' | 'error'> & { error?: string },
  reason?: RegExp | null,
): void {
  assert.deepEqual(Object.keys(job).sort(), JOB_KEYS);
  const { createdAt, startedAt, completedAt, linkedReason, ...rest } = job;
  assert.deepEqual(rest, { error: '', usage: BUILTIN_USAGE, ...expected }, JSON.stringify(job));
  assert.match(createdAt, ISO);
  if (job.jobStatus === 'COMPLETED' || job.jobStatus === 'FAILED') {
    assert.ok(startedAt && completedAt, 'a finished job has startedAt and completedAt');
    assert.match(startedAt, ISO);
    assert.match(completedAt, ISO);
    assert.ok(startedAt <= completedAt, `started before completed: ${startedAt} ${completedAt}`);
    assert.ok(createdAt <= startedAt, `created before started: ${createdAt} ${startedAt}`);
  }
  if (reason === null) assert.equal(linkedReason, null);
  else if (reason) assert.match(linkedReason ?? '', reason);
}

/** The source of a fake-site page, ingested and COMPLETED (or FAILED, when `expect` says so). */
export async function ingestPage(t: TestApp, key: string, url: string, expect: 'COMPLETED' | 'FAILED' = 'COMPLETED'): Promise<Source> {
  const result = await ingestUrls(t, key, [url]);
  const [id] = result.addedDocumentIds;
  assert.ok(id, JSON.stringify(result));
  const source = await waitForSource(t, key, id);
  assert.equal(source.linkedJobStatus, expect, JSON.stringify(source));
  return source;
}

/** The records of a CSV file as arrays of cells. */
export const csvRows = (text: string): string[][] => parseCsv(text).map((record) => record.cells);

/** POST tree/persist with `csv` as the multipart file field `file`. */
export async function persistTree(t: TestApp, key: string, csv: string): Promise<{ status: number; body: unknown; text: string }> {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'knowledge-tree.csv');
  const res = await fetch(`${t.url}${TREE_PERSIST}`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as unknown, text };
}

// ---------------------------------------------------------------------------------------------
// 1. Security

/** The API key of the configured model in model-*.test.ts (it must never show in an answer). */
export const MODEL_API_KEY = 'sk-test-secret';
export const OPERATIONS = ['ADD_ARTICLE_TO_FOLDER', 'UPDATE_ARTICLE', 'DO_NOTHING'] as const;

export interface ChatMessage {
  role: string;
  content: unknown;
}
export interface ChatBody {
  model: string;
  messages: ChatMessage[];
  response_format: {
    type: string;
    json_schema: {
      name: string;
      description?: string;
      strict?: boolean;
      schema: { type: string; properties: Record<string, { enum?: string[] } & Record<string, unknown>>; required: string[] };
    };
  };
}

export type Operation = (typeof OPERATIONS)[number];
export interface ModelArticle {
  title: string;
  mainKnowledge: string;
  questions: string[];
  keywords: string[];
  agentInstruction: string;
}
export interface ModelDecision {
  operation: Operation;
  articleId: string | null;
  folderId: string | null;
  reason: string;
  article: ModelArticle | null;
}

export const REFUNDS_TEXT =
  'Refunds are paid to the original payment method within 5 business days after the returned parcel arrives at our warehouse.';

export const modelArticle = (overrides: Partial<ModelArticle> = {}): ModelArticle => ({
  title: 'Refund timing',
  mainKnowledge: 'Refunds are paid to the original payment method within **5 business days** after the return arrives.',
  questions: ['When do I get my refund?'],
  keywords: ['refund'],
  agentInstruction: '',
  ...overrides,
});

export const decision = (overrides: Partial<ModelDecision>): ModelDecision => ({
  operation: 'DO_NOTHING',
  articleId: null,
  folderId: null,
  reason: 'the text is already covered',
  article: null,
  ...overrides,
});

export const chat = (request: FakeLlmRequest | undefined): ChatBody => {
  assert.ok(request, 'the model received a request');
  return request.body as unknown as ChatBody;
};
export const messageText = (request: FakeLlmRequest | undefined, role: 'system' | 'user'): string => {
  const message = chat(request).messages.find((m) => m.role === role);
  assert.ok(message, `a ${role} message`);
  assert.equal(typeof message.content, 'string');
  return message.content as string;
};

export const WINDOW = (days: number) => `You can return any unused item within ${days} days of delivery for a full refund.`;
export const PAYOUT = 'Refunds are paid to the original payment method within 5 business days after the return arrives.';

/** A help page with only paragraphs (no heading), so that its text is exactly these sentences. */
export const page = (title: string, ...paragraphs: string[]) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><main>${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}</main></body></html>`;

/** Every article of the workspace, live and drafts (at most 200). */
export const listArticles = async (t: TestApp, key: string, query = ''): Promise<Article[]> => {
  const list = await expectStatus<{ articles: Article[]; hasMore: boolean }>(t, 200, 'GET', `/v2/hc-articles/public?limit=200${query}`, key);
  assert.equal(list.hasMore, false);
  return list.articles;
};
export const getSource = (t: TestApp, key: string, id: string) => expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${id}`, key);
export const linkOf = (s: Source) => ({ linkedKnowledgeId: s.linkedKnowledgeId, linkedOperation: s.linkedOperation, linkedReason: s.linkedReason, changed: s.changed });

export const startBulk = async (t: TestApp, key: string, body: Record<string, unknown>): Promise<string> => {
  const { jobs } = await expectStatus<{ jobs: { backgroundJobId: string }[] }>(t, 200, 'POST', '/v2/knowledge/public/bulk', key, body);
  assert.equal(jobs.length, 1);
  return jobs[0]!.backgroundJobId;
};
/** Queues bulk generation for one source and waits for its job. */
export const bulkJob = async (t: TestApp, key: string, body: Record<string, unknown>): Promise<KnowledgeJob> => {
  const [job] = await waitForJobs(t, key, [await startBulk(t, key, body)]);
  return job!;
};

export const countArticles = async (t: TestApp, key: string): Promise<number> => (await listArticles(t, key)).length;

/** The wire text of one job's status (to check that a secret never shows in it). */
export const jobStatusText = async (t: TestApp, key: string, id: string): Promise<string> => {
  const res = await t.request('POST', STATUS, { key, body: { jobIds: [id] } });
  assert.equal(res.status, 200, res.text);
  return res.text;
};

/** Serves a page on the fake site and ingests it (COMPLETED). */
export const ingestHtml = (t: TestApp, site: FakeSite, key: string, path: string, title: string, ...paragraphs: string[]): Promise<Source> => {
  site.set(path, html(title, ...paragraphs));
  return ingestPage(t, key, site.url(path));
};

/**
 * Registers, in the calling describe: `start` before its tests (the result handed to `started`),
 * `reset` before each test, and `close` after them.
 */
export function useApp<A extends { close(): Promise<void> }>(start: () => Promise<A>, started: (app: A) => void, reset?: (app: A) => void): void {
  let app: A | undefined;
  before(async () => {
    app = await start();
    started(app);
  });
  beforeEach(() => {
    if (app) reset?.(app);
  });
  after(async () => {
    await app?.close();
  });
}

/** The settings of the model app in model-*.test.ts: quick retries, a 2 s timeout, 2 retries. */
export const MODEL_ENV = { PARLEY_LLM_RETRY_DELAY_MS: '1', PARLEY_LLM_TIMEOUT_MS: '2000', PARLEY_LLM_MAX_RETRIES: '2' };

/** useApp with a model app whose fake model is reset before each test. */
export function useModelApp(apiKey: string, env: Record<string, string>, started: (app: ModelApp) => void): void {
  useApp(() => startModelApp(apiKey, env), started, (app) => app.fake.reset());
}

/**
 * A working app with the built-in engine and a fake help site: /help/returns, /help/gift-cards,
 * and /help/missing answering 404.
 */
export async function startBuiltinApp(): Promise<{ t: TestApp; site: FakeSite; close(): Promise<void> }> {
  const t = await startTestApp({ work: true, env: INGEST_ENV });
  const site = await startFakeSite({
    '/robots.txt': ROBOTS_ALLOW_ALL,
    '/help/returns': html(
      'Returns and refunds | Example Shop Help',
      'You can return any unused item within 30 days of delivery for a full refund.',
      'Refunds are paid to the original payment method within 5 business days after the return arrives.',
    ),
    '/help/gift-cards': html('Gift cards', 'Gift cards never expire and can be used on any order in the shop.', 'A gift card cannot be exchanged for cash.'),
  });
  return {
    t,
    site,
    async close() {
      await t.close();
      await site.close();
    },
  };
}
