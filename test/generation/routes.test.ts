// The knowledge-generation routes through HTTP with the built-in engine: security of the four
// routes, each origin, each restricted operation, agent scope (botId), bulk generation from
// sources, job status, body validation, and tree/initialize with its round trip through
// tree/persist. The end-to-end changed-content workflow is in workflow.test.ts.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { parseCsv } from '../../src/modules/knowledge/tree-csv.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { type FakeSite, html, startFakeSite } from '../support/fake-site.js';
import { assertError, expectStatus, type SecuredRouteRow, securitySuites } from '../support/security.js';
import { INGEST_ENV, ingestUrls, type Source, waitForSource } from '../support/sources.js';
import { type Article, generate, getArticle, type KnowledgeJob, makeArticle, makeFolder, waitForJobs } from './support.js';

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const GENERATE = '/v2/knowledge/public';
const BULK = '/v2/knowledge/public/bulk';
const STATUS = '/v2/knowledge/public/jobs/status';
const INITIALIZE = '/v2/knowledge/public/tree/initialize';
const PERSIST = '/v2/knowledge/public/tree/persist';

const ADD = 'ADD_ARTICLE_TO_FOLDER';
const UPDATE = 'UPDATE_ARTICLE';
const NOTHING = 'DO_NOTHING';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const BUILTIN_USAGE = { provider: 'builtin', model: 'parley-builtin', inputTokens: 0, outputTokens: 0, totalTokens: 0 };
const JOB_KEYS = [
  'completedAt', 'createdAt', 'documentId', 'error', 'hcArticleId', 'hcEventId', 'id', 'isDraft', 'jobStatus', 'linkedOperation',
  'linkedReason', 'origin', 'startedAt', 'usage',
];
const TREE_HEADER = ['folder_path', 'folder_description', 'title', 'main_knowledge', 'agent_instruction', 'questions', 'keywords', 'escalation', 'is_draft', 'active', 'public'];

/** Texts with clearly different topics, and folders made for them. */
const SHIPPING_TEXT =
  'Orders placed before 2 pm ship the same day from our warehouse. Standard delivery takes 3 to 5 business days, and shipping is free for orders over 50 euros.';
const BILLING_TEXT = 'We accept Visa, Mastercard and PayPal. An invoice is emailed as a PDF after every payment, and you can download past invoices from your billing page.';
const ACCOUNT_TEXT = 'To change your password, open Account settings and choose Security. You can also turn on two-factor sign-in there to protect your login.';

interface Folders {
  shipping: string;
  billing: string;
  account: string;
}

async function makeTopicFolders(t: TestApp, key: string): Promise<Folders> {
  return {
    shipping: await makeFolder(t, key, 'Shipping and delivery', 'Delivery times, carriers and shipping costs'),
    billing: await makeFolder(t, key, 'Billing and payments', 'Invoices, payment methods and charges'),
    account: await makeFolder(t, key, 'Account and security', 'Passwords, two-factor sign-in and account settings'),
  };
}

/** POST /v2/knowledge/public: 202 with only `backgroundJobId`. */
async function queue(t: TestApp, key: string, body: Record<string, unknown>): Promise<string> {
  const res = await expectStatus<{ backgroundJobId: string }>(t, 202, 'POST', GENERATE, key, body);
  assert.deepEqual(Object.keys(res), ['backgroundJobId']);
  return res.backgroundJobId;
}

async function statuses(t: TestApp, key: string, jobIds: string[]): Promise<KnowledgeJob[]> {
  return (await expectStatus<{ jobs: KnowledgeJob[] }>(t, 200, 'POST', STATUS, key, { jobIds })).jobs;
}

interface BulkJob {
  documentId: string;
  backgroundJobId: string;
}
async function bulk(t: TestApp, key: string, body: Record<string, unknown>): Promise<BulkJob[]> {
  const res = await expectStatus<{ jobs: BulkJob[] }>(t, 202, 'POST', BULK, key, body);
  assert.deepEqual(Object.keys(res), ['jobs']);
  return res.jobs;
}

/** Every article of the workspace, live and drafts (at most 200: enough for these tests). */
async function allArticles(t: TestApp, key: string): Promise<Article[]> {
  const page = await expectStatus<{ articles: Article[]; hasMore: boolean }>(t, 200, 'GET', '/v2/hc-articles/public?limit=200', key);
  assert.equal(page.hasMore, false);
  return page.articles;
}

async function makeAgent(t: TestApp, key: string, folderIds: string[] = []): Promise<string> {
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
function assertJob(
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
async function ingestPage(t: TestApp, key: string, url: string, expect: 'COMPLETED' | 'FAILED' = 'COMPLETED'): Promise<Source> {
  const result = await ingestUrls(t, key, [url]);
  const [id] = result.addedDocumentIds;
  assert.ok(id, JSON.stringify(result));
  const source = await waitForSource(t, key, id);
  assert.equal(source.linkedJobStatus, expect, JSON.stringify(source));
  return source;
}

/** The records of a CSV file as arrays of cells. */
const csvRows = (text: string): string[][] => parseCsv(text).map((record) => record.cells);

/** POST tree/persist with `csv` as the multipart file field `file`. */
async function persistTree(t: TestApp, key: string, csv: string): Promise<{ status: number; body: unknown; text: string }> {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'knowledge-tree.csv');
  const res = await fetch(`${t.url}${PERSIST}`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as unknown, text };
}

// ---------------------------------------------------------------------------------------------
// 1. Security
// ---------------------------------------------------------------------------------------------

describe('knowledge generation routes: security', () => {
  let t: TestApp;
  before(async () => {
    // No workers: sources stay PENDING (nothing is fetched) and jobs stay PENDING.
    t = await startTestApp();
  });
  after(() => t.close());

  type Build = SecuredRouteRow[3];
  const sourceOf = async (app: TestApp, owner: Tenant) =>
    (await ingestUrls(app, owner.key, [`https://docs.acme.test/page-${randomUUID()}`])).addedDocumentIds[0]!;
  const agentOf = (app: TestApp, owner: Tenant) => makeAgent(app, owner.key);

  const generateFromSource: Build = async (app, owner) => ({
    path: GENERATE,
    body: { candidateKnowledge: 'Refunds take 5 days.', origin: 'sources', documentId: await sourceOf(app, owner) },
  });
  const generateForAgent: Build = async (app, owner) => ({
    path: GENERATE,
    body: { candidateKnowledge: 'Refunds take 5 days.', origin: 'generated', botId: await agentOf(app, owner) },
  });
  const bulkForAgent: Build = async (app, owner) => ({ path: BULK, body: { documentIds: [UNKNOWN], botId: await agentOf(app, owner) } });
  const statusOfJob: Build = async (app, owner) => ({
    path: STATUS,
    body: { jobIds: [await queue(app, owner.key, { candidateKnowledge: 'Refunds take 5 days.', origin: 'generated' })] },
  });
  const initialize: Build = async () => ({ path: INITIALIZE, body: { initPrompt: '# Orders\n- Shipping: within 2 days' } });

  // [label, method, scope, request, status for a resource of another workspace]
  const routes: SecuredRouteRow[] = [
    ['generate (documentId of another workspace: 400)', 'POST', 'write', generateFromSource, 400],
    ['generate (botId of another workspace: 404)', 'POST', 'write', generateForAgent, 404],
    ['bulk (botId of another workspace: 404)', 'POST', 'write', bulkForAgent, 404],
    ['jobs/status (job of another workspace: 404)', 'POST', 'read', statusOfJob, 404],
    ['tree/initialize', 'POST', 'write', initialize, undefined],
  ];
  securitySuites(() => t, routes);

  describe('another workspace, with the messages', () => {
    it("generate names another workspace's source as unknown (400) and another workspace's agent as not found (404)", async () => {
      const [owner, caller] = [await makeTenant(t), await makeTenant(t)];
      const documentId = await sourceOf(t, owner);
      const res = await t.request('POST', GENERATE, { key: caller.key, body: { candidateKnowledge: 'Some text.', origin: 'sources', documentId } });
      assertError(res, 400, `documentId: no source ${documentId} in this workspace`);
      const botId = await agentOf(t, owner);
      assertError(await t.request('POST', GENERATE, { key: caller.key, body: { candidateKnowledge: 'Some text.', origin: 'generated', botId } }), 404, 'agent not found');
      assertError(await t.request('POST', BULK, { key: caller.key, body: { documentIds: [documentId], botId } }), 404, 'agent not found');
    });

    it("jobs/status answers 404 naming another workspace's job, even next to one of the caller's", async () => {
      const [owner, caller] = [await makeTenant(t), await makeTenant(t)];
      const theirs = await queue(t, owner.key, { candidateKnowledge: 'Refunds take 5 days.', origin: 'generated' });
      const mine = await queue(t, caller.key, { candidateKnowledge: 'Refunds take 5 days.', origin: 'generated' });
      assertError(await t.request('POST', STATUS, { key: caller.readKey, body: { jobIds: [mine, theirs] } }), 404, `knowledge job ${theirs} not found`);
      assert.deepEqual((await statuses(t, caller.readKey, [mine])).map((j) => [j.id, j.jobStatus]), [[mine, 'PENDING']]);
    });

    it("bulk gives another workspace's source a job FAILED at once, and does not touch it", async () => {
      const [owner, caller] = [await makeTenant(t), await makeTenant(t)];
      const documentId = await sourceOf(t, owner);
      const untouched = await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${documentId}`, owner.key);
      const [job] = await bulk(t, caller.key, { documentIds: [documentId] });
      assert.equal(job!.documentId, documentId);
      const [status] = await statuses(t, caller.key, [job!.backgroundJobId]);
      assert.equal(status!.jobStatus, 'FAILED');
      assert.equal(status!.error, `no source ${documentId} in this workspace`);
      assert.deepEqual(await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${documentId}`, owner.key), untouched);
      assertError(await t.request('POST', STATUS, { key: owner.key, body: { jobIds: [job!.backgroundJobId] } }), 404);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// 2. The routes with workers and the built-in engine
// ---------------------------------------------------------------------------------------------

describe('knowledge generation routes (built-in engine)', () => {
  let t: TestApp;
  let site: FakeSite;
  before(async () => {
    t = await startTestApp({ work: true, env: INGEST_ENV });
    site = await startFakeSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
      '/help/returns': html(
        'Returns and refunds | Example Shop Help',
        'You can return any unused item within 30 days of delivery for a full refund.',
        'Refunds are paid to the original payment method within 5 business days after the return arrives.',
      ),
      '/help/gift-cards': html('Gift cards', 'Gift cards never expire and can be used on any order in the shop.', 'A gift card cannot be exchanged for cash.'),
      // '/help/missing' is not set: the fake site answers 404.
    });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  // -------------------------------------------------------------------------------------------
  describe('POST /v2/knowledge/public: origins', () => {
    it('generated: a MAGIC_ARTICLE draft in the fitting folder; the job reports every field', async () => {
      const w = await makeTenant(t);
      const folders = await makeTopicFolders(t, w.key);
      const id = await queue(t, w.writeKey, { candidateKnowledge: SHIPPING_TEXT, origin: 'generated' });
      const [job] = await waitForJobs(t, w.readKey, [id]);
      assertJob(
        job!,
        { id, jobStatus: 'COMPLETED', hcArticleId: job!.hcArticleId, origin: 'generated', documentId: null, hcEventId: null, isDraft: true, linkedOperation: ADD },
        /^No existing article is a candidate; adding it to folder "Shipping and delivery" \(folder match \d\.\d\d\)\.$/,
      );
      const article = await getArticle(t, w.key, job!.hcArticleId!);
      assert.equal(article.origin, 'MAGIC_ARTICLE');
      assert.equal(article.isDraft, true);
      assert.equal(article.originalArticleId, null);
      assert.equal(article.parentFolderId, folders.shipping);
      assert.deepEqual(article.misc, { knowledgeJobId: id });
      assert.match(article.mainKnowledge, /Standard delivery takes 3 to 5 business days/);
      assert.ok(article.title.length > 0);
      assert.deepEqual((await allArticles(t, w.key)).map((a) => a.id), [article.id], 'one article written: the one the job names');
    });

    it('inbox: an INBOX_SUGGESTION with misc.hcEventId', async () => {
      const w = await makeTenant(t);
      const folders = await makeTopicFolders(t, w.key);
      const hcEventId = randomUUID();
      const job = await generate(t, w.key, { candidateKnowledge: ACCOUNT_TEXT, origin: 'inbox', hcEventId });
      assertJob(job, {
        id: job.id, jobStatus: 'COMPLETED', hcArticleId: job.hcArticleId, origin: 'inbox', documentId: null, hcEventId, isDraft: true, linkedOperation: ADD,
      }, /adding it to folder "Account and security"/);
      const article = await getArticle(t, w.key, job.hcArticleId!);
      assert.equal(article.origin, 'INBOX_SUGGESTION');
      assert.equal(article.parentFolderId, folders.account);
      assert.deepEqual(article.misc, { knowledgeJobId: job.id, hcEventId });
      assert.deepEqual((await allArticles(t, w.key)).map((a) => a.id), [article.id]);
    });

    it('sources: a SOURCE_IMPORT article from the given text, and the source is linked to it', async () => {
      const w = await makeTenant(t);
      const folder = await makeFolder(t, w.key, 'Returns and refunds', 'Returning items, refunds and exchanges');
      await makeTopicFolders(t, w.key);
      const source = await ingestPage(t, w.key, site.url('/help/returns'));
      assert.equal(source.linkedKnowledgeId, null);
      const text = 'Returned items must be unused and in their original packaging. We email a return label within one business day.';
      const job = await generate(t, w.key, { candidateKnowledge: text, origin: 'sources', documentId: source.id });
      assertJob(job, {
        id: job.id, jobStatus: 'COMPLETED', hcArticleId: job.hcArticleId, origin: 'sources', documentId: source.id, hcEventId: null, isDraft: true, linkedOperation: ADD,
      }, /adding it to folder "Returns and refunds"/);
      const article = await getArticle(t, w.key, job.hcArticleId!);
      assert.equal(article.origin, 'SOURCE_IMPORT');
      assert.equal(article.parentFolderId, folder);
      assert.equal(article.isDraft, true);
      assert.deepEqual(article.misc, { knowledgeJobId: job.id, sourceId: source.id });
      assert.deepEqual((await allArticles(t, w.key)).map((a) => a.id), [article.id]);
      // The candidate text is the content, not the page; the source's title is the title hint.
      assert.match(article.mainKnowledge, /original packaging/);
      assert.doesNotMatch(article.mainKnowledge, /30 days/);
      assert.equal(source.title, 'Returns and refunds | Example Shop Help');
      assert.equal(article.title, 'Returns and refunds', "the source's title without the site name");

      const linked = await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${source.id}`, w.key);
      assert.equal(linked.linkedKnowledgeId, article.id, 'the draft, while no live article exists');
      assert.equal(linked.linkedOperation, ADD);
      assert.equal(linked.linkedReason, job.linkedReason);
      assert.equal(linked.changed, false);
      assert.deepEqual(linked.paragraphs, source.paragraphs, 'the source content is untouched');
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('POST /v2/knowledge/public: restricted operations', () => {
    it('[ADD] puts each text into the folder of its topic', async () => {
      const w = await makeTenant(t);
      const folders = await makeTopicFolders(t, w.key);
      const cases: [string, string, string][] = [
        [ACCOUNT_TEXT, folders.account, 'Account and security'],
        [SHIPPING_TEXT, folders.shipping, 'Shipping and delivery'],
        [BILLING_TEXT, folders.billing, 'Billing and payments'],
      ];
      for (const [text, folderId, title] of cases) {
        const job = await generate(t, w.key, { candidateKnowledge: text, origin: 'generated', restrictedOps: [ADD] });
        assert.equal(job.jobStatus, 'COMPLETED', job.error);
        assert.equal(job.linkedOperation, ADD);
        assert.match(job.linkedReason!, new RegExp(`adding it to folder "${title}"`));
        const article = await getArticle(t, w.key, job.hcArticleId!);
        assert.equal(article.parentFolderId, folderId, `${title}: ${job.linkedReason}`);
      }
      assert.equal((await allArticles(t, w.key)).length, 3);
    });

    it('[ADD] writes a draft by default and a live article with isDraft false', async () => {
      const w = await makeTenant(t);
      const folders = await makeTopicFolders(t, w.key);
      const draftJob = await generate(t, w.key, { candidateKnowledge: BILLING_TEXT, origin: 'generated', restrictedOps: [ADD] });
      const liveJob = await generate(t, w.key, { candidateKnowledge: SHIPPING_TEXT, origin: 'generated', restrictedOps: [ADD], isDraft: false });
      assert.deepEqual([draftJob.isDraft, liveJob.isDraft], [true, false]);
      const draft = await getArticle(t, w.key, draftJob.hcArticleId!);
      assert.deepEqual([draft.isDraft, draft.isDraftPublished, draft.originalArticleId, draft.parentFolderId], [true, false, null, folders.billing]);
      const live = await getArticle(t, w.key, liveJob.hcArticleId!);
      assert.deepEqual([live.isDraft, live.version, live.origin, live.parentFolderId], [false, 1, 'MAGIC_ARTICLE', folders.shipping]);
      const drafts = await expectStatus<{ articles: Article[] }>(t, 200, 'GET', '/v2/hc-articles/public?type=draft', w.key);
      assert.deepEqual(drafts.articles.map((a) => a.id), [draft.id]);
      const lives = await expectStatus<{ articles: Article[] }>(t, 200, 'GET', '/v2/hc-articles/public?type=live', w.key);
      assert.deepEqual(lives.articles.map((a) => a.id), [live.id]);
    });

    describe('[UPDATE] with a similar live article', () => {
      const EXISTING = {
        title: 'Return policy',
        mainKnowledge: 'You can return any unused item within 30 days of delivery for a full refund.',
        questions: ['How long do I have to return an item?'],
        keywords: ['returns'],
      };
      const TEXT = 'You can return any unused item within 30 days of delivery. Refunds are paid to the original payment method within 5 business days.';

      it('isDraft default: a draft of the article with the new facts; the live article is unchanged', async () => {
        const w = await makeTenant(t);
        const folder = await makeFolder(t, w.key, 'Returns', 'Returning items');
        const live = await makeArticle(t, w.key, folder, EXISTING);
        const job = await generate(t, w.key, { candidateKnowledge: TEXT, origin: 'generated', restrictedOps: [UPDATE] });
        assertJob(job, {
          id: job.id, jobStatus: 'COMPLETED', hcArticleId: job.hcArticleId, origin: 'generated', documentId: null, hcEventId: null, isDraft: true, linkedOperation: UPDATE,
        });
        assert.notEqual(job.hcArticleId, live.id, 'hcArticleId names the draft');
        const draft = await getArticle(t, w.key, job.hcArticleId!);
        assert.equal(draft.isDraft, true);
        assert.equal(draft.originalArticleId, live.id);
        assert.equal((draft as Article & { originalArticleVersion: number }).originalArticleVersion, 1);
        assert.equal(draft.parentFolderId, folder);
        assert.equal(draft.origin, 'MAGIC_ARTICLE');
        assert.deepEqual(draft.misc, { knowledgeJobId: job.id });
        // The built-in merge keeps the article and adds what the text says that it does not.
        assert.equal(draft.title, EXISTING.title);
        assert.ok(draft.mainKnowledge.startsWith(EXISTING.mainKnowledge), draft.mainKnowledge);
        assert.match(draft.mainKnowledge, /within 5 business days/);
        assert.deepEqual(draft.questions.slice(0, 1), EXISTING.questions);
        assert.deepEqual(await getArticle(t, w.key, live.id), live, 'the live article is untouched');
        assert.equal((await allArticles(t, w.key)).length, 2);
      });

      it('isDraft false: the live article is updated as a new version', async () => {
        const w = await makeTenant(t);
        const folder = await makeFolder(t, w.key, 'Returns', 'Returning items');
        const live = await makeArticle(t, w.key, folder, EXISTING);
        const job = await generate(t, w.key, { candidateKnowledge: TEXT, origin: 'generated', restrictedOps: [UPDATE], isDraft: false });
        assertJob(job, {
          id: job.id, jobStatus: 'COMPLETED', hcArticleId: live.id, origin: 'generated', documentId: null, hcEventId: null, isDraft: false, linkedOperation: UPDATE,
        });
        const updated = await getArticle(t, w.key, live.id);
        assert.equal(updated.version, live.version + 1);
        assert.equal(updated.isDraft, false);
        assert.equal(updated.title, EXISTING.title);
        assert.match(updated.mainKnowledge, /within 30 days of delivery/);
        assert.match(updated.mainKnowledge, /within 5 business days/);
        const history = await expectStatus<{ versions: { version: number }[] }>(t, 200, 'GET', `/v2/hc-articles/${live.id}/history/public`, w.key);
        assert.deepEqual(history.versions.map((v) => v.version).sort(), [1, 2]);
        assert.deepEqual((await allArticles(t, w.key)).map((a) => a.id), [live.id], 'no draft, no new article');
      });
    });

    describe('[UPDATE] without a similar article', () => {
      it('no candidate at all (nothing shares a term with the text): FAILED, nothing written', async () => {
        const w = await makeTenant(t);
        const folder = await makeFolder(t, w.key, 'Gifts', 'Gift services');
        const unrelated = await makeArticle(t, w.key, folder, { title: 'Gift wrapping', mainKnowledge: 'We wrap presents in recycled paper for a small fee.' });
        const job = await generate(t, w.key, {
          candidateKnowledge: 'To reset your password, choose Forgot password on the sign-in page. A reset link arrives by email within minutes.',
          origin: 'generated',
          restrictedOps: [UPDATE],
        });
        assertJob(job, {
          id: job.id, jobStatus: 'FAILED', hcArticleId: null, origin: 'generated', documentId: null, hcEventId: null, isDraft: true, linkedOperation: null,
          error: 'the UPDATE_ARTICLE decision cannot be applied: no article was chosen (No existing article is a candidate, but no allowed operation is possible (UPDATE_ARTICLE: no candidate article).)',
        }, null);
        assert.deepEqual(await allArticles(t, w.key), [unrelated]);
      });

      it('a dissimilar candidate sharing a term: UPDATE of the closest article, as decide.ts documents (add -> UPDATE of the best candidate)', async () => {
        const w = await makeTenant(t);
        const folder = await makeFolder(t, w.key, 'Gifts', 'Gift services');
        const wrapping = await makeArticle(t, w.key, folder, { title: 'Gift wrapping', mainKnowledge: 'We wrap presents in recycled paper for a small fee.' });
        const job = await generate(t, w.key, {
          candidateKnowledge: 'Gift cards never expire and can be used on any order.',
          origin: 'generated',
          restrictedOps: [UPDATE],
          isDraft: false,
        });
        assert.equal(job.jobStatus, 'COMPLETED', job.error);
        assert.equal(job.linkedOperation, UPDATE);
        assert.equal(job.hcArticleId, wrapping.id);
        assert.match(job.linkedReason!, /^No existing article matches closely enough: the closest, "Gift wrapping", matches at 0\.\d\d \(update threshold 0\.50\), but adding an article is not allowed; updating the closest article "Gift wrapping" \(match 0\.\d\d\) instead\.$/);
        const updated = await getArticle(t, w.key, wrapping.id);
        assert.equal(updated.title, 'Gift wrapping');
        assert.match(updated.mainKnowledge, /^We wrap presents in recycled paper for a small fee\.\n\nGift cards never expire/);
      });
    });

    it('[DO_NOTHING]: nothing is written; hcArticleId names the covering article only for a duplicate', async () => {
      const w = await makeTenant(t);
      const folders = await makeTopicFolders(t, w.key);
      const payments = await makeArticle(t, w.key, folders.billing, {
        title: 'Payment methods',
        mainKnowledge: 'We accept Visa, Mastercard, American Express and PayPal. Bank transfers are accepted for orders over 500 euros.',
      });
      const existing = await allArticles(t, w.key);

      const fresh = await generate(t, w.key, { candidateKnowledge: SHIPPING_TEXT, origin: 'generated', restrictedOps: [NOTHING], isDraft: false });
      assertJob(fresh, {
        id: fresh.id, jobStatus: 'COMPLETED', hcArticleId: null, origin: 'generated', documentId: null, hcEventId: null, isDraft: false, linkedOperation: NOTHING,
      }, /but adding an article is not allowed; doing nothing instead\.$/);

      const duplicate = await generate(t, w.key, {
        candidateKnowledge: '# Payment methods\n\nWe accept Visa, Mastercard, American Express and PayPal. Bank transfers are accepted for orders over 500 euros.',
        origin: 'generated',
        restrictedOps: [NOTHING],
      });
      assertJob(duplicate, {
        id: duplicate.id, jobStatus: 'COMPLETED', hcArticleId: payments.id, origin: 'generated', documentId: null, hcEventId: null, isDraft: true, linkedOperation: NOTHING,
      }, /^Already covered by "Payment methods": content similarity \d\.\d\d \(duplicate threshold 0\.92\), title similarity \d\.\d\d\.$/);

      assert.deepEqual(await allArticles(t, w.key), existing, 'no article added or changed');
    });

    it('[ADD] with no active folder: FAILED with a clear error, nothing written', async () => {
      const w = await makeTenant(t);
      const expected = {
        origin: 'generated' as const, documentId: null, hcEventId: null, isDraft: true, jobStatus: 'FAILED' as const, hcArticleId: null, linkedOperation: null,
        error: 'the ADD_ARTICLE_TO_FOLDER decision cannot be applied: there is no active folder to add an article to; create a folder first',
      };
      const none = await generate(t, w.key, { candidateKnowledge: SHIPPING_TEXT, origin: 'generated', restrictedOps: [ADD] });
      assertJob(none, { id: none.id, ...expected }, null);

      // An inactive folder is no place for an article either.
      const folder = await makeFolder(t, w.key, 'Shipping and delivery', 'Delivery times');
      await expectStatus(t, 200, 'PUT', `/v2/hc-folders/${folder}/public`, w.key, { title: 'Shipping and delivery', description: 'Delivery times', active: false });
      const inactive = await generate(t, w.key, { candidateKnowledge: SHIPPING_TEXT, origin: 'generated', restrictedOps: [ADD] });
      assertJob(inactive, { id: inactive.id, ...expected }, null);
      assert.deepEqual(await allArticles(t, w.key), []);
    });

    it('all operations allowed in an empty workspace: DO_NOTHING (nowhere to add, nothing to update)', async () => {
      const w = await makeTenant(t);
      const job = await generate(t, w.key, { candidateKnowledge: SHIPPING_TEXT, origin: 'generated' });
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      assert.equal(job.linkedOperation, NOTHING);
      assert.equal(job.hcArticleId, null);
      assert.match(job.linkedReason!, /^No existing article is a candidate, but adding an article is not possible \(no folder is available\); doing nothing instead\.$/);
      assert.deepEqual(await allArticles(t, w.key), []);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('POST /v2/knowledge/public: botId', () => {
    it("ADD goes into the agent's folders only", async () => {
      const w = await makeTenant(t);
      const folders = await makeTopicFolders(t, w.key);
      const botId = await makeAgent(t, w.key, [folders.billing]);
      // Without an agent the text goes to its own topic's folder; with it, to the agent's only folder.
      const free = await generate(t, w.key, { candidateKnowledge: SHIPPING_TEXT, origin: 'generated', restrictedOps: [ADD] });
      assert.equal((await getArticle(t, w.key, free.hcArticleId!)).parentFolderId, folders.shipping);
      const scoped = await generate(t, w.key, { candidateKnowledge: SHIPPING_TEXT, origin: 'generated', restrictedOps: [ADD], botId });
      assert.equal(scoped.jobStatus, 'COMPLETED', scoped.error);
      assert.match(scoped.linkedReason!, /adding it to folder "Billing and payments"/);
      assert.equal((await getArticle(t, w.key, scoped.hcArticleId!)).parentFolderId, folders.billing);
    });

    it("a subfolder of the agent's folder is the agent's too; articles outside are not candidates", async () => {
      const w = await makeTenant(t);
      const folders = await makeTopicFolders(t, w.key);
      const delivery = await makeFolder(t, w.key, 'Delivery times', 'When orders ship and arrive', folders.billing);
      const botId = await makeAgent(t, w.key, [folders.billing]);
      const outside = await makeArticle(t, w.key, folders.shipping, { title: 'Shipping times', mainKnowledge: SHIPPING_TEXT });
      const job = await generate(t, w.key, { candidateKnowledge: `${SHIPPING_TEXT} Express delivery takes one day.`, origin: 'generated', botId });
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      assert.equal(job.linkedOperation, ADD, job.linkedReason ?? '');
      assert.equal((await getArticle(t, w.key, job.hcArticleId!)).parentFolderId, delivery);
      assert.deepEqual(await getArticle(t, w.key, outside.id), outside);
      // The same text without the agent updates the article outside its folders.
      const unscoped = await generate(t, w.key, { candidateKnowledge: `${SHIPPING_TEXT} Express delivery takes one day.`, origin: 'generated' });
      assert.equal(unscoped.linkedOperation, UPDATE, unscoped.linkedReason ?? '');
    });

    it('an agent without folders: ADD fails as with no folder', async () => {
      const w = await makeTenant(t);
      await makeTopicFolders(t, w.key);
      const botId = await makeAgent(t, w.key);
      const job = await generate(t, w.key, { candidateKnowledge: SHIPPING_TEXT, origin: 'generated', restrictedOps: [ADD], botId });
      assert.equal(job.jobStatus, 'FAILED');
      assert.match(job.error, /there is no active folder to add an article to/);
    });

    it('an unknown botId answers 404 and queues nothing', async () => {
      const w = await makeTenant(t);
      assertError(await t.request('POST', GENERATE, { key: w.key, body: { candidateKnowledge: 'Text.', origin: 'generated', botId: UNKNOWN } }), 404, 'agent not found');
      assertError(await t.request('POST', BULK, { key: w.key, body: { documentIds: [UNKNOWN], botId: UNKNOWN } }), 404, 'agent not found');
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('POST /v2/knowledge/public: validation', () => {
    let w: Tenant;
    before(async () => {
      w = await makeTenant(t);
    });
    const post = (body: unknown) => t.request('POST', GENERATE, { key: w.key, body });
    const ok = { candidateKnowledge: 'Refunds take 5 business days.', origin: 'generated' };

    const unstorable = (field: string) => `body.${field}: contains a NUL character or invalid Unicode, which cannot be stored`;
    const cases: [string, unknown, RegExp | string][] = [
      ['candidateKnowledge missing', { origin: 'generated' }, /^body\.candidateKnowledge: Invalid input: expected string/],
      ['candidateKnowledge blank', { ...ok, candidateKnowledge: ' \n\t ' }, /^body\.candidateKnowledge: Too small/],
      ['candidateKnowledge not a string', { ...ok, candidateKnowledge: 42 }, /^body\.candidateKnowledge: Invalid input: expected string/],
      ['candidateKnowledge with a NUL character', { ...ok, candidateKnowledge: 'Refunds\u0000 take 5 days.' }, unstorable('candidateKnowledge')],
      ['candidateKnowledge with a lone surrogate', { ...ok, candidateKnowledge: 'Refunds \ud800 take 5 days.' }, unstorable('candidateKnowledge')],
      ['origin missing', { candidateKnowledge: 'Text.' }, /^body\.origin: /],
      ["origin 'web'", { ...ok, origin: 'web' }, /^body\.origin: Invalid option: expected one of "sources"\|"generated"\|"inbox"$/],
      ['documentId missing with origin sources', { ...ok, origin: 'sources' }, 'body.documentId: required when origin is sources'],
      ['hcEventId missing with origin inbox', { ...ok, origin: 'inbox' }, 'body.hcEventId: required when origin is inbox'],
      ['documentId with origin generated', { ...ok, documentId: UNKNOWN }, 'body.documentId: only allowed when origin is sources'],
      ['hcEventId with origin generated', { ...ok, hcEventId: UNKNOWN }, 'body.hcEventId: only allowed when origin is inbox'],
      ['documentId instead of hcEventId with origin inbox', { ...ok, origin: 'inbox', documentId: UNKNOWN },
        'body.documentId: only allowed when origin is sources; body.hcEventId: required when origin is inbox'],
      ['documentId not a uuid', { ...ok, origin: 'sources', documentId: 'abc' }, 'body.documentId: Invalid UUID'],
      ['hcEventId not a uuid', { ...ok, origin: 'inbox', hcEventId: 'event-1' }, 'body.hcEventId: Invalid UUID'],
      ['restrictedOps empty', { ...ok, restrictedOps: [] }, /^body\.restrictedOps: Too small/],
      ["restrictedOps ['NOPE']", { ...ok, restrictedOps: ['NOPE'] }, /^body\.restrictedOps\.0: Invalid option/],
      ['restrictedOps in lower case', { ...ok, restrictedOps: ['do_nothing'] }, /^body\.restrictedOps\.0: Invalid option/],
      ['restrictedOps not an array', { ...ok, restrictedOps: ADD }, /^body\.restrictedOps: /],
      ['isDraft not a boolean', { ...ok, isDraft: 'false' }, /^body\.isDraft: /],
      ['botId not a uuid', { ...ok, botId: 'bot-1' }, 'body.botId: Invalid UUID'],
      ['instructions over 5,000 characters', { ...ok, instructions: 'x'.repeat(5001) }, /^body\.instructions: Too big/],
      ['an unknown field', { ...ok, colour: 'blue' }, 'body: Unrecognized key: "colour"'],
      ['a body that is an array', [ok], 'body: Invalid input: expected object, received array'],
      ['a body that is null', null, 'body: Invalid input: expected object, received null'],
    ];
    for (const [label, body, message] of cases) {
      it(`answers 400 for ${label}`, async () => {
        assertError(await post(body), 400, message);
      });
    }

    it('answers 400 naming no source for an unknown documentId', async () => {
      assertError(await post({ ...ok, origin: 'sources', documentId: UNKNOWN }), 400, `documentId: no source ${UNKNOWN} in this workspace`);
    });

    it('answers 400 for candidateKnowledge over 200,000 characters and accepts 200,000', async () => {
      assertError(await post({ ...ok, candidateKnowledge: 'a'.repeat(200_001) }), 400, /^body\.candidateKnowledge: /);
      const longest = 'Orders ship within two business days. '.repeat(6000).slice(0, 200_000);
      assert.equal(longest.length, 200_000);
      const job = await generate(t, w.key, { ...ok, candidateKnowledge: longest, restrictedOps: [NOTHING] });
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      assert.equal(job.linkedOperation, NOTHING);
    });

    it('answers 415 for a body that is not JSON, 400 for malformed JSON or no body', async () => {
      const text = await t.request('POST', GENERATE, { key: w.key, raw: 'candidateKnowledge=x&origin=generated', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assertError(text, 415, 'Content-Type must be application/json');
      const plain = await t.request('POST', GENERATE, { key: w.key, raw: JSON.stringify(ok), headers: { 'content-type': 'text/plain' } });
      assertError(plain, 415, 'Content-Type must be application/json');
      const broken = await t.request('POST', GENERATE, { key: w.key, raw: '{"candidateKnowledge": "x", ', headers: { 'content-type': 'application/json' } });
      assertError(broken, 400, /JSON/);
      assertError(await t.request('POST', GENERATE, { key: w.key }), 400, 'body: Invalid input: expected object, received null');
    });

    it('accepts inbox with its hcEventId, all three operations, a repeated operation, instructions and isDraft false', async () => {
      const bodies = [
        { ...ok, origin: 'inbox', hcEventId: UNKNOWN },
        { ...ok, restrictedOps: [ADD, UPDATE, NOTHING], instructions: 'focus on timing', isDraft: false },
        { ...ok, restrictedOps: [UPDATE, UPDATE] },
      ];
      const ids = [];
      for (const body of bodies) ids.push(await queue(t, w.key, body));
      const jobs = await waitForJobs(t, w.key, ids);
      assert.deepEqual(jobs.map((j) => [j.origin, j.hcEventId, j.isDraft]), [['inbox', UNKNOWN, true], ['generated', null, false], ['generated', null, true]]);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('POST /v2/knowledge/public/bulk', () => {
    it('one job per distinct id in order: unknown ids FAILED at once, a failed ingestion FAILED with its reason, the good one COMPLETED', async () => {
      const [w, other] = [await makeTenant(t), await makeTenant(t)];
      const folder = await makeFolder(t, w.key, 'Returns and refunds', 'Returning items, refunds and exchanges');
      const good = await ingestPage(t, w.key, site.url('/help/returns'));
      const failed = await ingestPage(t, w.key, site.url('/help/missing'), 'FAILED');
      assert.ok(failed.error, 'the failed ingestion records why');
      const foreign = await ingestPage(t, other.key, site.url('/help/gift-cards'));
      const random = randomUUID();

      const jobs = await bulk(t, w.writeKey, { documentIds: [good.id, failed.id, foreign.id, random, good.id, random], isDraft: false });
      assert.deepEqual(jobs.map((j) => j.documentId), [good.id, failed.id, foreign.id, random]);
      assert.equal(new Set(jobs.map((j) => j.backgroundJobId)).size, 4);
      const ids = jobs.map((j) => j.backgroundJobId);

      // The unknown ids are FAILED at once, before any worker.
      const [, , foreignNow, randomNow] = await statuses(t, w.readKey, ids);
      for (const [job, documentId] of [[foreignNow!, foreign.id], [randomNow!, random]] as const) {
        assertJob(job, {
          id: job.id, jobStatus: 'FAILED', hcArticleId: null, origin: 'sources', documentId, hcEventId: null, isDraft: false, linkedOperation: null,
          error: `no source ${documentId} in this workspace`,
        }, null);
        assert.equal(job.startedAt, job.completedAt, 'ended as it started');
      }

      const [goodJob, failedJob, foreignJob, randomJob] = await waitForJobs(t, w.readKey, ids);
      assertJob(goodJob!, {
        id: ids[0]!, jobStatus: 'COMPLETED', hcArticleId: goodJob!.hcArticleId, origin: 'sources', documentId: good.id, hcEventId: null, isDraft: false, linkedOperation: ADD,
      }, /adding it to folder "Returns and refunds"/);
      assertJob(failedJob!, {
        id: ids[1]!, jobStatus: 'FAILED', hcArticleId: null, origin: 'sources', documentId: failed.id, hcEventId: null, isDraft: false, linkedOperation: null,
        error: `source ${failed.id} has no content: its ingestion failed (${failed.error})`,
      }, null);
      assert.deepEqual([foreignJob, randomJob], [foreignNow, randomNow], 'the failed-at-once jobs do not change');

      const article = await getArticle(t, w.key, goodJob!.hcArticleId!);
      assert.deepEqual([article.isDraft, article.origin, article.parentFolderId], [false, 'SOURCE_IMPORT', folder]);
      assert.match(article.mainKnowledge, /within 30 days of delivery/);
      const linked = await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${good.id}`, w.key);
      assert.deepEqual([linked.linkedKnowledgeId, linked.linkedOperation, linked.linkedReason], [article.id, ADD, goodJob!.linkedReason]);
      const unlinked = await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${failed.id}`, w.key);
      assert.deepEqual([unlinked.linkedKnowledgeId, unlinked.linkedOperation], [null, null]);
      // The other workspace's source is not touched.
      const theirs = await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${foreign.id}`, other.key);
      assert.deepEqual(theirs, foreign);
    });

    it('a source whose ingestion has not completed fails with that reason', async () => {
      const w = await makeTenant(t);
      await makeFolder(t, w.key, 'Returns and refunds', 'Returning items');
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      site.set('/help/slow', {
        handle: async (_req, res) => {
          await held;
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html('Slow page', 'This page answers only when the test lets it.'));
        },
      });
      try {
        const [id] = (await ingestUrls(t, w.key, [site.url('/help/slow')])).addedDocumentIds;
        const busy = await waitForSource(t, w.key, id!, (s) => s.linkedJobStatus === 'IN_PROGRESS' && site.hits('/help/slow') > 0);
        const [job] = await bulk(t, w.key, { documentIds: [busy.id] });
        const [status] = await waitForJobs(t, w.key, [job!.backgroundJobId]);
        assert.equal(status!.jobStatus, 'FAILED');
        assert.equal(status!.error, `source ${busy.id} has no content yet: its ingestion is IN_PROGRESS; generate after it is COMPLETED`);
      } finally {
        release();
      }
    });

    it(
      'a job FAILED at once is not started before it was created',
      async () => {
        const w = await makeTenant(t);
        const jobs = await bulk(t, w.key, { documentIds: Array.from({ length: 500 }, () => randomUUID()) });
        const all = await statuses(t, w.key, jobs.map((j) => j.backgroundJobId));
        const early = all.filter((j) => j.startedAt! < j.createdAt).map((j) => [j.createdAt, j.startedAt]);
        assert.deepEqual(early.slice(0, 3), [], `${early.length} of 500 jobs started before they were created`);
      },
    );

    it('origin defaults to sources; any other origin is 400', async () => {
      const w = await makeTenant(t);
      const [job] = await bulk(t, w.key, { documentIds: [UNKNOWN] });
      assert.equal((await statuses(t, w.key, [job!.backgroundJobId]))[0]!.origin, 'sources');
      await bulk(t, w.key, { documentIds: [UNKNOWN], origin: 'sources' });
      for (const origin of ['generated', 'inbox', 'web']) {
        assertError(await t.request('POST', BULK, { key: w.key, body: { documentIds: [UNKNOWN], origin } }), 400, /^body\.origin: /);
      }
    });

    it('validates documentIds: required, 1 to 500 uuids', async () => {
      const w = await makeTenant(t);
      const post = (body: unknown) => t.request('POST', BULK, { key: w.key, body });
      assertError(await post({}), 400, /^body\.documentIds: /);
      assertError(await post({ documentIds: [] }), 400, /^body\.documentIds: /);
      assertError(await post({ documentIds: ['not-a-uuid'] }), 400, /^body\.documentIds\.0: /);
      assertError(await post({ documentIds: Array.from({ length: 501 }, () => randomUUID()) }), 400, /^body\.documentIds: /);
      assertError(await post({ documentIds: [UNKNOWN], candidateKnowledge: 'x' }), 400, /^body: .*candidateKnowledge/);
      assertError(await post({ documentIds: [UNKNOWN], restrictedOps: [] }), 400, /^body\.restrictedOps: /);
      const ids = Array.from({ length: 500 }, () => randomUUID());
      const jobs = await bulk(t, w.key, { documentIds: ids });
      assert.deepEqual(jobs.map((j) => j.documentId), ids);
      const all = await statuses(t, w.key, jobs.map((j) => j.backgroundJobId));
      assert.ok(all.every((j) => j.jobStatus === 'FAILED'));
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('POST /v2/knowledge/public/jobs/status', () => {
    let w: Tenant;
    let ids: string[];
    before(async () => {
      w = await makeTenant(t);
      await makeTopicFolders(t, w.key);
      ids = [];
      for (const text of [SHIPPING_TEXT, BILLING_TEXT, ACCOUNT_TEXT]) ids.push(await queue(t, w.key, { candidateKnowledge: text, origin: 'generated' }));
      await waitForJobs(t, w.key, ids);
    });
    const post = (body: unknown) => t.request('POST', STATUS, { key: w.readKey, body });

    it('answers the jobs in the order asked, repeated ids once, with a read key', async () => {
      const [a, b, c] = ids as [string, string, string];
      assert.deepEqual((await statuses(t, w.readKey, [c, a, b])).map((j) => j.id), [c, a, b]);
      assert.deepEqual((await statuses(t, w.readKey, [b, b, a, b])).map((j) => j.id), [b, a]);
      const res = await expectStatus<Record<string, unknown>>(t, 200, 'POST', STATUS, w.readKey, { jobIds: [a] });
      assert.deepEqual(Object.keys(res), ['jobs']);
    });

    it('answers 404 naming the first id that is not a knowledge job of the workspace', async () => {
      const other = randomUUID();
      assertError(await post({ jobIds: [ids[0], UNKNOWN, other] }), 404, `knowledge job ${UNKNOWN} not found`);
      assertError(await post({ jobIds: [other, UNKNOWN] }), 404, `knowledge job ${other} not found`);
    });

    it("answers 404 for a source's ingestion job id", async () => {
      const source = await ingestPage(t, w.key, site.url('/help/gift-cards'));
      assert.ok(source.linkedJobId);
      assertError(await post({ jobIds: [source.linkedJobId] }), 404, `knowledge job ${source.linkedJobId} not found`);
    });

    it('answers 400 for a malformed uuid, an empty list, more than 500 ids or an unknown field', async () => {
      assertError(await post({ jobIds: ['not-a-uuid'] }), 400, /^body\.jobIds\.0: /);
      assertError(await post({ jobIds: [] }), 400, /^body\.jobIds: /);
      assertError(await post({}), 400, /^body\.jobIds: /);
      assertError(await post({ jobIds: Array.from({ length: 501 }, () => UNKNOWN) }), 400, /^body\.jobIds: /);
      assertError(await post({ jobIds: [ids[0]], verbose: true }), 400, /^body: .*verbose/);
    });
  });

  // -------------------------------------------------------------------------------------------
  describe('POST /v2/knowledge/public/tree/initialize', () => {
    const OUTLINE = [
      '# Orders',
      '- Shipping: we ship within 2 business days',
      '- Returns: 30 days, free',
      '# Account',
      '## Security',
      '- Password reset: use the link on the sign-in page',
      '- Deleting an account',
    ].join('\n');

    const initialize = (w: Tenant, initPrompt: unknown) => t.request<string>('POST', INITIALIZE, { key: w.writeKey, body: { initPrompt } });

    it('answers a CSV attachment that follows the outline, and tree/persist imports it unchanged as drafts', async () => {
      const w = await makeTenant(t);
      const res = await initialize(w, OUTLINE);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
      assert.equal(res.headers.get('content-disposition'), 'attachment; filename="knowledge-tree.csv"');

      const [header, ...rows] = csvRows(res.text);
      assert.deepEqual(header, TREE_HEADER);
      const cell = (row: string[], column: string) => row[TREE_HEADER.indexOf(column)];
      assert.deepEqual(
        rows.map((r) => [cell(r, 'folder_path'), cell(r, 'title'), cell(r, 'is_draft')]),
        [
          ['Orders', 'Shipping', 'true'],
          ['Orders', 'Returns', 'true'],
          ['Account', '', ''],
          ['Account / Security', 'Password reset', 'true'],
          ['Account / Security', 'Deleting an account', 'true'],
        ],
      );
      for (const row of rows) assert.equal(row.length, TREE_HEADER.length);
      assert.equal(cell(rows[0]!, 'main_knowledge'), 'We ship within 2 business days');
      assert.equal(cell(rows[3]!, 'main_knowledge'), 'Use the link on the sign-in page');
      assert.ok(cell(rows[4]!, 'main_knowledge')!.length > 0, 'an article without text gets a brief');
      // Nothing is saved by initialize.
      assert.deepEqual(await allArticles(t, w.key), []);

      const persisted = await persistTree(t, w.writeKey, res.text);
      assert.equal(persisted.status, 200, persisted.text);
      const body = persisted.body as { status: string; message: string; folders: { title: string; parentFolderId: string | null; id: string }[]; articles: Article[] };
      assert.equal(body.status, 'success');
      assert.equal(body.message, 'imported 4 article(s) into 3 folder(s) (3 created, 0 existing)');
      const byTitle = new Map(body.folders.map((f) => [f.title, f]));
      assert.deepEqual([...byTitle.keys()].sort(), ['Account', 'Orders', 'Security']);
      assert.equal(byTitle.get('Security')!.parentFolderId, byTitle.get('Account')!.id);
      assert.deepEqual(
        body.articles.map((a) => [a.title, a.isDraft, a.parentFolderId]),
        [
          ['Shipping', true, byTitle.get('Orders')!.id],
          ['Returns', true, byTitle.get('Orders')!.id],
          ['Password reset', true, byTitle.get('Security')!.id],
          ['Deleting an account', true, byTitle.get('Security')!.id],
        ],
      );
      const drafts = await expectStatus<{ articles: Article[] }>(t, 200, 'GET', '/v2/hc-articles/public?type=draft', w.key);
      assert.equal(drafts.articles.length, 4);
    });

    it('reads prose for its topics', async () => {
      const w = await makeTenant(t);
      const res = await initialize(w, 'We sell e-bikes online. Customers ask about delivery, warranty and battery care.');
      assert.equal(res.status, 200, res.text);
      const [, ...rows] = csvRows(res.text);
      assert.deepEqual(rows.map((r) => [r[0], r[2]]), [['E-bikes', 'Delivery'], ['E-bikes', 'Warranty'], ['E-bikes', 'Battery care']]);
      assert.equal((await persistTree(t, w.writeKey, res.text)).status, 200);
    });

    it(
      "answers 400 for a prompt with no topic ('...'), as the route documents",
      async () => {
        const w = await makeTenant(t);
        for (const prompt of ['...', '?', '!!!']) {
          assertError(await initialize(w, prompt), 400, 'initPrompt: no topics found; describe the help centre, for example as an outline of topics');
        }
      },
    );

    it('validates initPrompt: required, not blank, at most 20,000 characters', async () => {
      const w = await makeTenant(t);
      assertError(await t.request('POST', INITIALIZE, { key: w.key, body: {} }), 400, /^body\.initPrompt: /);
      assertError(await initialize(w, ''), 400, /^body\.initPrompt: /);
      assertError(await initialize(w, ' \n\t '), 400, /^body\.initPrompt: /);
      assertError(await initialize(w, 42), 400, /^body\.initPrompt: /);
      assertError(await initialize(w, `# Orders\n- ${'a'.repeat(20_000)}`), 400, /^body\.initPrompt: /);
      assertError(await t.request('POST', INITIALIZE, { key: w.key, body: { initPrompt: OUTLINE, format: 'json' } }), 400, /^body: .*format/);
      const longest = `# Orders\n- Shipping: ${'we ship fast '.repeat(2000)}`.slice(0, 20_000);
      const res = await initialize(w, longest);
      assert.equal(res.status, 200, res.text.slice(0, 500));
      assert.equal((await persistTree(t, w.writeKey, res.text)).status, 200);
    });
  });
});
