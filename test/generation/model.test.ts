import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { parseCsv, TREE_COLUMNS } from '../../src/modules/knowledge/tree-csv.js';
import { generateKnowledgeTask, initializeTreeTask } from '../../src/modules/generation/generation.tasks.js';
import type { TestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import type { FakeLlm, FakeLlmRequest } from '../support/fake-llm.js';
import { type FakeSite, html } from '../support/fake-site.js';
import { assertError, expectStatus } from '../support/security.js';
import { ingestUrls, type Source, waitForSource } from '../support/sources.js';
import { type Article, generate, getArticle, type KnowledgeJob, makeArticle, makeFolder, startModelApp, waitForJobs } from './support.js';

/**
 * Knowledge generation against a configured model (the AI SDK path), end to end: HTTP request ->
 * job worker -> the fake OpenAI-compatible server -> the decision checked and written.
 */

const API_KEY = 'sk-test-secret';
const OPERATIONS = ['ADD_ARTICLE_TO_FOLDER', 'UPDATE_ARTICLE', 'DO_NOTHING'] as const;
const BULK = '/v2/knowledge/public/bulk';
const TREE_INIT = '/v2/knowledge/public/tree/initialize';
const TREE_PERSIST = '/v2/knowledge/public/tree/persist';

interface ChatMessage {
  role: string;
  content: unknown;
}
interface ChatBody {
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

type Operation = (typeof OPERATIONS)[number];
interface ModelArticle {
  title: string;
  mainKnowledge: string;
  questions: string[];
  keywords: string[];
  agentInstruction: string;
}
interface ModelDecision {
  operation: Operation;
  articleId: string | null;
  folderId: string | null;
  reason: string;
  article: ModelArticle | null;
}

const REFUNDS_TEXT =
  'Refunds are paid to the original payment method within 5 business days after the returned parcel arrives at our warehouse.';

const modelArticle = (overrides: Partial<ModelArticle> = {}): ModelArticle => ({
  title: 'Refund timing',
  mainKnowledge: 'Refunds are paid to the original payment method within **5 business days** after the return arrives.',
  questions: ['When do I get my refund?'],
  keywords: ['refund'],
  agentInstruction: '',
  ...overrides,
});

const decision = (overrides: Partial<ModelDecision>): ModelDecision => ({
  operation: 'DO_NOTHING',
  articleId: null,
  folderId: null,
  reason: 'the text is already covered',
  article: null,
  ...overrides,
});

const chat = (request: FakeLlmRequest | undefined): ChatBody => {
  assert.ok(request, 'the model received a request');
  return request.body as unknown as ChatBody;
};
const messageText = (request: FakeLlmRequest | undefined, role: 'system' | 'user'): string => {
  const message = chat(request).messages.find((m) => m.role === role);
  assert.ok(message, `a ${role} message`);
  assert.equal(typeof message.content, 'string');
  return message.content as string;
};

describe('knowledge generation with a configured model (openai-compatible)', () => {
  let t: TestApp;
  let fake: FakeLlm;
  let site: FakeSite;
  let close: () => Promise<void>;

  before(async () => {
    ({ t, fake, site, close } = await startModelApp(API_KEY, { PARLEY_LLM_RETRY_DELAY_MS: '1', PARLEY_LLM_TIMEOUT_MS: '2000', PARLEY_LLM_MAX_RETRIES: '2' }));
  });
  beforeEach(() => {
    fake.reset();
  });
  after(async () => {
    await close?.();
  });

  const countArticles = async (key: string): Promise<number> => {
    const page = await expectStatus<{ articles: Article[]; hasMore: boolean }>(t, 200, 'GET', '/v2/hc-articles/public?limit=200', key);
    assert.equal(page.hasMore, false);
    return page.articles.length;
  };
  const getSource = (key: string, id: string) => expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${id}`, key);
  const link = (s: Source) => ({
    linkedKnowledgeId: s.linkedKnowledgeId,
    linkedOperation: s.linkedOperation,
    linkedReason: s.linkedReason,
    changed: s.changed,
  });
  const jobStatusText = async (key: string, id: string) => {
    const res = await t.request('POST', '/v2/knowledge/public/jobs/status', { key, body: { jobIds: [id] } });
    assert.equal(res.status, 200, res.text);
    return res.text;
  };
  const ingestPage = async (key: string, path: string, title: string, ...paragraphs: string[]): Promise<Source> => {
    site.set(path, html(title, ...paragraphs));
    const ingest = await ingestUrls(t, key, [site.url(path)]);
    const [id] = ingest.addedDocumentIds as [string];
    const source = await waitForSource(t, key, id);
    assert.equal(source.linkedJobStatus, 'COMPLETED', source.error);
    return source;
  };
  const bulk = async (key: string, body: Record<string, unknown>): Promise<KnowledgeJob> => {
    const { jobs } = await expectStatus<{ jobs: { backgroundJobId: string }[] }>(t, 202, 'POST', BULK, key, body);
    const [job] = await waitForJobs(t, key, [jobs[0]!.backgroundJobId]);
    return job!;
  };

  describe('the request the model receives', () => {
    it('carries the task, the candidate text, the instructions, the allowed operations, the similar article and the folders', async () => {
      const w = await makeTenant(t);
      const billing = await makeFolder(t, w.key, 'Billing', 'Money matters');
      const refunds = await makeFolder(t, w.key, 'Refunds', 'Refund rules', billing);
      const existing = await makeArticle(t, w.key, refunds, {
        title: 'Refund payment method',
        mainKnowledge: 'Refunds are paid to the original payment method of the order.',
      });
      fake.enqueue({ json: decision({ articleId: existing.id, reason: 'the refund article already says this' }), usage: { inputTokens: 300, outputTokens: 20 } });

      const job = await generate(t, w.key, {
        candidateKnowledge: REFUNDS_TEXT,
        origin: 'generated',
        instructions: 'focus on refund timing',
        restrictedOps: ['UPDATE_ARTICLE', 'DO_NOTHING'],
      });
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      assert.equal(job.linkedOperation, 'DO_NOTHING');
      assert.equal(job.hcArticleId, existing.id);
      assert.equal(job.linkedReason, 'the refund article already says this');

      assert.equal(fake.requests.length, 1);
      const request = fake.requests[0]!;
      assert.equal(request.method, 'POST');
      assert.equal(request.path, '/v1/chat/completions');
      assert.equal(request.headers.authorization, `Bearer ${API_KEY}`);
      const body = chat(request);
      assert.equal(body.model, 'test-model');
      assert.deepEqual(body.messages.map((m) => m.role), ['system', 'user']);
      assert.equal(messageText(request, 'system'), generateKnowledgeTask.system);

      const user = messageText(request, 'user');
      assert.ok(user.includes(REFUNDS_TEXT), 'the candidate text');
      assert.match(user, /^Instructions from the editor: focus on refund timing$/m);
      assert.match(user, /^Allowed operations: UPDATE_ARTICLE, DO_NOTHING$/m);
      assert.match(user, /^Linked article \(from this text's source\): none$/m);
      const articleLine = user.split('\n').find((line) => line.includes(existing.id));
      assert.ok(articleLine, `the similar article is listed: ${user}`);
      const listed = JSON.parse(articleLine) as { id: string; title: string; folderId: string; mainKnowledge: string };
      assert.equal(listed.id, existing.id);
      assert.equal(listed.title, 'Refund payment method');
      assert.equal(listed.folderId, refunds);
      assert.equal(listed.mainKnowledge, existing.mainKnowledge);
      const folderLines = user
        .split('\n')
        .filter((line) => line.startsWith('{"id":') && !line.includes(existing.id))
        .map((line) => JSON.parse(line) as { id: string; path: string; description: string });
      assert.deepEqual(
        folderLines.map((f) => [f.id, f.path, f.description]),
        [
          [billing, 'Billing', 'Money matters'],
          [refunds, 'Billing / Refunds', 'Refund rules'],
        ],
      );

      assert.equal(body.response_format.type, 'json_schema');
      const format = body.response_format.json_schema;
      assert.equal(format.name, 'generate_knowledge');
      assert.equal(format.description, generateKnowledgeTask.description);
      assert.deepEqual(Object.keys(format.schema.properties).sort(), ['article', 'articleId', 'folderId', 'operation', 'reason']);
      assert.deepEqual([...format.schema.required].sort(), ['article', 'articleId', 'folderId', 'operation', 'reason']);
      assert.deepEqual(format.schema.properties.operation?.enum, [...OPERATIONS]);
    });

    it('says so when there are no similar articles, no folders and no instructions', async () => {
      const w = await makeTenant(t);
      fake.enqueue({ json: decision({ reason: 'nothing to add' }) });
      const job = await generate(t, w.key, { candidateKnowledge: 'Our office dog is called Biscuit.', origin: 'generated' });
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      assert.equal(job.hcArticleId, null);
      const user = messageText(fake.requests[0], 'user');
      assert.match(user, /^Allowed operations: ADD_ARTICLE_TO_FOLDER, UPDATE_ARTICLE, DO_NOTHING$/m);
      assert.match(user, /^Instructions from the editor: none$/m);
      assert.match(user, /Existing articles:\n\(none\)\n/);
      assert.match(user, /Folders:\n\(none\)\n/);
      assert.match(user, /Candidate knowledge:\nOur office dog is called Biscuit\.$/);
    });
  });

  describe('canned answers applied', () => {
    it('ADD_ARTICLE_TO_FOLDER writes the model article (trimmed) into the folder it chose, with the usage reported', async () => {
      const w = await makeTenant(t);
      await makeFolder(t, w.key, 'Shipping', 'Delivery');
      const refunds = await makeFolder(t, w.key, 'Refunds', 'Refund rules');
      fake.enqueue({
        json: decision({
          operation: 'ADD_ARTICLE_TO_FOLDER',
          folderId: refunds,
          reason: '  no article covers refund timing  ',
          article: {
            title: '  Refund timing \n',
            mainKnowledge: '\n  Refunds arrive within **5 business days**.  \n',
            questions: [' When do I get my refund? ', '', 'When do I get my refund?', 'How are refunds paid?'],
            keywords: [' refund ', 'timing', '   '],
            agentInstruction: 'Offer the return label link.',
          },
        }),
        usage: { inputTokens: 321, outputTokens: 54 },
      });
      const before = await countArticles(w.key);
      const job = await generate(t, w.key, { candidateKnowledge: REFUNDS_TEXT, origin: 'generated' });
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      assert.equal(job.error, '');
      assert.equal(job.linkedOperation, 'ADD_ARTICLE_TO_FOLDER');
      assert.equal(job.linkedReason, 'no article covers refund timing', 'the reason is trimmed');
      assert.equal(job.isDraft, true);
      assert.deepEqual(job.usage, { provider: 'openai-compatible', model: 'test-model', inputTokens: 321, outputTokens: 54, totalTokens: 375 });
      assert.ok(job.hcArticleId);
      assert.equal(await countArticles(w.key), before + 1);

      const article = await getArticle(t, w.key, job.hcArticleId);
      assert.equal(article.title, 'Refund timing');
      assert.equal(article.mainKnowledge, 'Refunds arrive within **5 business days**.');
      assert.deepEqual(article.questions, ['When do I get my refund?', 'How are refunds paid?']);
      assert.deepEqual(article.keywords, ['refund', 'timing']);
      assert.equal(article.agentInstruction, 'Offer the return label link.');
      assert.equal(article.parentFolderId, refunds);
      assert.equal(article.isDraft, true);
      assert.equal(article.originalArticleId, null);
      assert.equal(article.origin, 'MAGIC_ARTICLE');
      assert.deepEqual(article.misc, { knowledgeJobId: job.id });
    });

    it('records the origin of the request: inbox -> INBOX_SUGGESTION, live with isDraft false', async () => {
      const w = await makeTenant(t);
      const folder = await makeFolder(t, w.key, 'Refunds');
      const hcEventId = randomUUID();
      fake.enqueue({ json: decision({ operation: 'ADD_ARTICLE_TO_FOLDER', folderId: folder, reason: 'new', article: modelArticle() }) });
      const job = await generate(t, w.key, { candidateKnowledge: REFUNDS_TEXT, origin: 'inbox', hcEventId, isDraft: false });
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      assert.equal(job.origin, 'inbox');
      assert.equal(job.hcEventId, hcEventId);
      const article = await getArticle(t, w.key, job.hcArticleId!);
      assert.equal(article.origin, 'INBOX_SUGGESTION');
      assert.equal(article.isDraft, false);
      assert.deepEqual(article.misc, { knowledgeJobId: job.id, hcEventId });
    });

    it('UPDATE_ARTICLE with isDraft true writes a draft of the candidate article with the model content', async () => {
      const w = await makeTenant(t);
      const folder = await makeFolder(t, w.key, 'Refunds');
      const live = await makeArticle(t, w.key, folder, {
        title: 'Refunds',
        mainKnowledge: 'Refunds are paid to the original payment method.',
        agentInstruction: 'Be kind.',
        keywords: ['refund'],
      });
      fake.enqueue({
        json: decision({
          operation: 'UPDATE_ARTICLE',
          articleId: live.id,
          reason: 'adds the refund delay',
          article: modelArticle({ title: ' Refunds and their timing ', questions: ['How long do refunds take?'], keywords: ['refund', 'delay'] }),
        }),
        usage: { inputTokens: 10, outputTokens: 5 },
      });
      const before = await countArticles(w.key);
      const job = await generate(t, w.key, { candidateKnowledge: REFUNDS_TEXT, origin: 'generated', isDraft: true });
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      assert.equal(job.linkedOperation, 'UPDATE_ARTICLE');
      assert.equal(job.linkedReason, 'adds the refund delay');
      assert.deepEqual(job.usage, { provider: 'openai-compatible', model: 'test-model', inputTokens: 10, outputTokens: 5, totalTokens: 15 });
      assert.ok(job.hcArticleId);
      assert.notEqual(job.hcArticleId, live.id);
      assert.equal(await countArticles(w.key), before + 1);

      const draft = await getArticle(t, w.key, job.hcArticleId);
      assert.equal(draft.isDraft, true);
      assert.equal(draft.originalArticleId, live.id);
      assert.equal(draft.parentFolderId, folder);
      assert.equal(draft.title, 'Refunds and their timing');
      assert.equal(draft.mainKnowledge, modelArticle().mainKnowledge);
      assert.deepEqual(draft.questions, ['How long do refunds take?']);
      assert.deepEqual(draft.keywords, ['refund', 'delay']);
      assert.equal(draft.agentInstruction, 'Be kind.', 'an empty agentInstruction keeps the article’s');
      assert.equal(draft.origin, 'MAGIC_ARTICLE');
      assert.deepEqual(draft.misc, { knowledgeJobId: job.id });

      const unchanged = await getArticle(t, w.key, live.id);
      assert.equal(unchanged.version, live.version);
      assert.equal(unchanged.title, 'Refunds');
      assert.equal(unchanged.mainKnowledge, live.mainKnowledge);
    });

    it('UPDATE_ARTICLE with isDraft false updates the live article', async () => {
      const w = await makeTenant(t);
      const folder = await makeFolder(t, w.key, 'Refunds');
      const live = await makeArticle(t, w.key, folder, { title: 'Refunds', mainKnowledge: 'Refunds are paid to the original payment method.' });
      fake.enqueue({
        json: decision({
          operation: 'UPDATE_ARTICLE',
          articleId: live.id,
          reason: 'adds the refund delay',
          article: modelArticle({ agentInstruction: 'Mention the 5 days.' }),
        }),
      });
      const before = await countArticles(w.key);
      const job = await generate(t, w.key, { candidateKnowledge: REFUNDS_TEXT, origin: 'generated', isDraft: false });
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      assert.equal(job.linkedOperation, 'UPDATE_ARTICLE');
      assert.equal(job.hcArticleId, live.id);
      assert.equal(await countArticles(w.key), before);
      const updated = await getArticle(t, w.key, live.id);
      assert.equal(updated.isDraft, false);
      assert.equal(updated.version, live.version + 1);
      assert.equal(updated.title, 'Refund timing');
      assert.equal(updated.mainKnowledge, modelArticle().mainKnowledge);
      assert.deepEqual(updated.questions, ['When do I get my refund?']);
      assert.deepEqual(updated.keywords, ['refund']);
      assert.equal(updated.agentInstruction, 'Mention the 5 days.');
    });
  });

  describe('decisions the job refuses', () => {
    let w: Tenant;
    let other: Tenant;
    let folder: string;
    let otherFolder: string;
    let otherArticle: Article;
    let linkedArticle: Article;
    let unrelated: Article;
    let source: Source;

    before(async () => {
      w = await makeTenant(t);
      other = await makeTenant(t);
      folder = await makeFolder(t, w.key, 'Refunds', 'Refund rules');
      unrelated = await makeArticle(t, w.key, folder, { title: 'Parking', mainKnowledge: 'Visitors park behind the building, level minus two.' });
      otherFolder = await makeFolder(t, other.key, 'Refunds', 'Refund rules');
      otherArticle = await makeArticle(t, other.key, otherFolder, { title: 'Refunds', mainKnowledge: REFUNDS_TEXT });
      source = await ingestPage(w.key, '/help/refunds', 'Refunds', REFUNDS_TEXT, 'Store credit is issued at once when you prefer it.');
      // Link the source first, so that "unchanged" means something.
      fake.reset();
      fake.enqueue({ json: decision({ operation: 'ADD_ARTICLE_TO_FOLDER', folderId: folder, reason: 'first import', article: modelArticle() }) });
      const job = await bulk(w.key, { documentIds: [source.id], isDraft: false });
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      linkedArticle = await getArticle(t, w.key, job.hcArticleId!);
      source = await getSource(w.key, source.id);
      assert.equal(source.linkedKnowledgeId, linkedArticle.id);
    });

    /** Runs a source job whose model answer is `answer`; asserts FAILED with the error, nothing written. */
    const refused = async (answer: ModelDecision, error: RegExp, body: Record<string, unknown> = {}): Promise<KnowledgeJob> => {
      const articlesBefore = await countArticles(w.key);
      const linkBefore = link(await getSource(w.key, source.id));
      fake.enqueue({ json: answer, usage: { inputTokens: 70, outputTokens: 30 } });
      const job = await generate(t, w.key, {
        candidateKnowledge: REFUNDS_TEXT,
        origin: 'sources',
        documentId: source.id,
        isDraft: false,
        ...body,
      });
      assert.equal(fake.requests.length, 1, 'one model call, no retry of a refused decision');
      assert.equal(job.jobStatus, 'FAILED', JSON.stringify(job));
      assert.match(job.error, error);
      assert.equal(job.hcArticleId, null);
      assert.equal(job.linkedOperation, null);
      assert.deepEqual(job.usage, { provider: 'openai-compatible', model: 'test-model', inputTokens: 70, outputTokens: 30, totalTokens: 100 });
      assert.equal(await countArticles(w.key), articlesBefore, 'no article written');
      assert.deepEqual(link(await getSource(w.key, source.id)), linkBefore, 'the source link is unchanged');
      const linked = await getArticle(t, w.key, linkedArticle.id);
      assert.equal(linked.version, linkedArticle.version, 'the linked article is unchanged');
      assert.equal(linked.title, linkedArticle.title);
      return job;
    };

    it('an operation outside restrictedOps', async () => {
      await refused(
        decision({ operation: 'ADD_ARTICLE_TO_FOLDER', folderId: folder, reason: 'new', article: modelArticle({ title: 'Sneaky' }) }),
        /^the ADD_ARTICLE_TO_FOLDER decision cannot be applied: it is not among the allowed operations \(UPDATE_ARTICLE, DO_NOTHING\)$/,
        { restrictedOps: ['UPDATE_ARTICLE', 'DO_NOTHING'] },
      );
      assert.match(messageText(fake.requests[0], 'user'), /^Allowed operations: UPDATE_ARTICLE, DO_NOTHING$/m);
    });

    it('a folderId that is not one of the folders (a random id)', async () => {
      const id = randomUUID();
      await refused(
        decision({ operation: 'ADD_ARTICLE_TO_FOLDER', folderId: id, reason: 'new', article: modelArticle() }),
        new RegExp(`^the ADD_ARTICLE_TO_FOLDER decision cannot be applied: folder ${id} is not one of the folders$`),
      );
    });

    it("a folderId of another workspace's folder", async () => {
      await refused(
        decision({ operation: 'ADD_ARTICLE_TO_FOLDER', folderId: otherFolder, reason: 'new', article: modelArticle() }),
        new RegExp(`folder ${otherFolder} is not one of the folders`),
      );
      const page = await expectStatus<{ articles: Article[] }>(t, 200, 'GET', '/v2/hc-articles/public?limit=200', other.key);
      assert.deepEqual(page.articles.map((a) => a.id), [otherArticle.id], 'nothing written in the other workspace');
    });

    it('ADD_ARTICLE_TO_FOLDER without a folderId', async () => {
      await refused(
        decision({ operation: 'ADD_ARTICLE_TO_FOLDER', folderId: null, reason: 'new', article: modelArticle() }),
        /^the ADD_ARTICLE_TO_FOLDER decision cannot be applied: no folder was chosen \(new\)$/,
      );
    });

    it("an articleId of another workspace's article", async () => {
      await refused(
        decision({ operation: 'UPDATE_ARTICLE', articleId: otherArticle.id, reason: 'update', article: modelArticle() }),
        new RegExp(`^the UPDATE_ARTICLE decision cannot be applied: article ${otherArticle.id} is not one of the candidate articles$`),
      );
      const still = await getArticle(t, other.key, otherArticle.id);
      assert.equal(still.version, otherArticle.version);
      assert.equal(still.mainKnowledge, otherArticle.mainKnowledge);
    });

    it('an articleId of this workspace that was not shown to the model', async () => {
      await refused(
        decision({ operation: 'UPDATE_ARTICLE', articleId: unrelated.id, reason: 'update', article: modelArticle() }),
        new RegExp(`article ${unrelated.id} is not one of the candidate articles`),
      );
      assert.ok(!messageText(fake.requests[0], 'user').includes(unrelated.id), 'the unrelated article was not a candidate');
      assert.equal((await getArticle(t, w.key, unrelated.id)).version, unrelated.version);
    });

    it('ADD_ARTICLE_TO_FOLDER with article null', async () => {
      await refused(decision({ operation: 'ADD_ARTICLE_TO_FOLDER', folderId: folder, reason: 'new', article: null }), /no article was written/);
    });

    it('UPDATE_ARTICLE with article null', async () => {
      await refused(decision({ operation: 'UPDATE_ARTICLE', articleId: linkedArticle.id, reason: 'update', article: null }), /no article was written/);
    });

    it('an article with a blank title', async () => {
      await refused(
        decision({ operation: 'UPDATE_ARTICLE', articleId: linkedArticle.id, reason: 'update', article: modelArticle({ title: ' \n\t ' }) }),
        /^the UPDATE_ARTICLE decision cannot be applied: the article has a blank title or body$/,
      );
    });

    it('an article with a blank body', async () => {
      await refused(
        decision({ operation: 'ADD_ARTICLE_TO_FOLDER', folderId: folder, reason: 'new', article: modelArticle({ mainKnowledge: '   ' }) }),
        /^the ADD_ARTICLE_TO_FOLDER decision cannot be applied: the article has a blank title or body$/,
      );
    });

    it("DO_NOTHING naming another workspace's article completes without pointing at it", async () => {
      const articlesBefore = await countArticles(w.key);
      fake.enqueue({ json: decision({ operation: 'DO_NOTHING', articleId: otherArticle.id, folderId: otherFolder, reason: 'covered elsewhere' }) });
      const job = await generate(t, w.key, { candidateKnowledge: REFUNDS_TEXT, origin: 'sources', documentId: source.id });
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      assert.equal(job.linkedOperation, 'DO_NOTHING');
      assert.equal(job.hcArticleId, null, "another workspace's article id is not recorded");
      assert.equal(await countArticles(w.key), articlesBefore);
      const after = await getSource(w.key, source.id);
      assert.equal(after.linkedKnowledgeId, linkedArticle.id, 'the source keeps its own article');
      assert.equal(after.linkedOperation, 'DO_NOTHING');
      assert.equal(after.linkedReason, 'covered elsewhere');
    });
  });

  describe("an agent's knowledge (botId)", () => {
    let w: Tenant;
    let agentId: string;
    let agentFolder: string;
    let agentSubfolder: string;
    let otherFolder: string;
    let agentArticle: Article;
    let outsideArticle: Article;
    before(async () => {
      w = await makeTenant(t);
      agentId = (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/bots/public', w.key, { name: 'Support bot' })).id;
      agentFolder = await makeFolder(t, w.key, 'Refunds', 'Refund rules');
      agentSubfolder = await makeFolder(t, w.key, 'Store credit', '', agentFolder);
      otherFolder = await makeFolder(t, w.key, 'Internal refunds', 'Staff only');
      await expectStatus(t, 200, 'POST', '/v2/hc-bot-folder-junctions/public', w.key, {
        junctions: [{ folderId: agentFolder, botId: agentId, action: 'ADD' }],
      });
      agentArticle = await makeArticle(t, w.key, agentFolder, { title: 'Refunds', mainKnowledge: 'Refunds are paid to the original payment method.' });
      outsideArticle = await makeArticle(t, w.key, otherFolder, { title: 'Refunds (staff)', mainKnowledge: 'Refunds are paid to the original payment method by finance.' });
    });

    it("shows the model only the agent's folders and articles, and refuses the others", async () => {
      fake.enqueue({ json: decision({ operation: 'ADD_ARTICLE_TO_FOLDER', folderId: otherFolder, reason: 'new', article: modelArticle() }) });
      const before = await countArticles(w.key);
      const job = await generate(t, w.key, { candidateKnowledge: REFUNDS_TEXT, origin: 'generated', botId: agentId });
      assert.equal(job.jobStatus, 'FAILED');
      assert.match(job.error, new RegExp(`folder ${otherFolder} is not one of the folders`));
      const user = messageText(fake.requests[0], 'user');
      assert.ok(user.includes(agentFolder) && user.includes(agentSubfolder), "the agent's folders are listed");
      assert.ok(user.includes(agentArticle.id), "the agent's article is a candidate");
      assert.ok(!user.includes(otherFolder), 'a folder outside the agent is not listed');
      assert.ok(!user.includes(outsideArticle.id), 'an article outside the agent is not a candidate');

      fake.reset();
      fake.enqueue({ json: decision({ operation: 'UPDATE_ARTICLE', articleId: outsideArticle.id, reason: 'update', article: modelArticle() }) });
      const update = await generate(t, w.key, { candidateKnowledge: REFUNDS_TEXT, origin: 'generated', botId: agentId, isDraft: false });
      assert.equal(update.jobStatus, 'FAILED');
      assert.match(update.error, new RegExp(`article ${outsideArticle.id} is not one of the candidate articles`));
      assert.equal((await getArticle(t, w.key, outsideArticle.id)).version, outsideArticle.version);
      assert.equal(await countArticles(w.key), before);

      fake.reset();
      fake.enqueue({ json: decision({ operation: 'ADD_ARTICLE_TO_FOLDER', folderId: agentSubfolder, reason: 'new', article: modelArticle() }) });
      const added = await generate(t, w.key, { candidateKnowledge: REFUNDS_TEXT, origin: 'generated', botId: agentId });
      assert.equal(added.jobStatus, 'COMPLETED', added.error);
      assert.equal((await getArticle(t, w.key, added.hcArticleId!)).parentFolderId, agentSubfolder);
    });
  });

  describe('malformed model output', () => {
    let w: Tenant;
    let folder: string;
    before(async () => {
      w = await makeTenant(t);
      folder = await makeFolder(t, w.key, 'Refunds');
    });
    const failed = async (reply: Parameters<FakeLlm['enqueue']>[0]): Promise<KnowledgeJob> => {
      const before = await countArticles(w.key);
      fake.enqueue(reply);
      const job = await generate(t, w.key, { candidateKnowledge: REFUNDS_TEXT, origin: 'generated' });
      assert.equal(job.jobStatus, 'FAILED', JSON.stringify(job));
      assert.equal(fake.requests.length, 1, 'a malformed answer is not asked again');
      assert.equal(job.hcArticleId, null);
      assert.equal(job.linkedOperation, null);
      assert.equal(await countArticles(w.key), before);
      return job;
    };

    it('text that is not JSON', async () => {
      const job = await failed({ text: 'Sure! I would add an article about refunds.', usage: { inputTokens: 40, outputTokens: 12 } });
      assert.match(job.error, /not valid JSON/);
      assert.match(job.error, /Sure! I would add an article about refunds\./);
      assert.deepEqual(job.usage, { provider: 'openai-compatible', model: 'test-model', inputTokens: 40, outputTokens: 12, totalTokens: 52 });
    });

    it('JSON without operation', async () => {
      const { operation: _omitted, ...rest } = decision({ folderId: folder, reason: 'r', article: modelArticle() });
      void _omitted;
      const job = await failed({ json: rest, usage: { inputTokens: 41, outputTokens: 13 } });
      assert.match(job.error, /does not match the generate_knowledge schema/);
      assert.match(job.error, /\boperation\b/);
      assert.deepEqual(job.usage, { provider: 'openai-compatible', model: 'test-model', inputTokens: 41, outputTokens: 13, totalTokens: 54 });
    });

    it('JSON with an unknown operation', async () => {
      const job = await failed({ json: { ...decision({}), operation: 'DELETE_ARTICLE' }, usage: { inputTokens: 1, outputTokens: 2 } });
      assert.match(job.error, /generate_knowledge schema: operation:/);
      assert.deepEqual(job.usage, { provider: 'openai-compatible', model: 'test-model', inputTokens: 1, outputTokens: 2, totalTokens: 3 });
    });

    it('JSON with a field of the wrong type', async () => {
      const job = await failed({ json: { ...decision({}), reason: 42 } });
      assert.match(job.error, /generate_knowledge schema: reason:/);
      assert.ok(job.usage.inputTokens > 0, 'the estimated usage of the fake is recorded');
      assert.equal(job.usage.totalTokens, job.usage.inputTokens + job.usage.outputTokens);
    });

    it('an article field of the wrong type names its path', async () => {
      const job = await failed({
        json: decision({ operation: 'ADD_ARTICLE_TO_FOLDER', folderId: folder, reason: 'r', article: { ...modelArticle(), questions: 'one question' } as unknown as ModelArticle }),
      });
      assert.match(job.error, /article\.questions:/);
    });
  });

  describe('provider errors', () => {
    let w: Tenant;
    before(async () => {
      w = await makeTenant(t);
    });
    const host = () => new URL(fake.url).host;

    it('401: FAILED at once with the provider message and without the API key', async () => {
      fake.setHandler(() => ({
        status: 401,
        body: { error: { message: `Incorrect API key provided: ${API_KEY}. Check your key.`, type: 'invalid_request_error', code: 'invalid_api_key' } },
      }));
      const logsBefore = t.logs.length;
      const job = await generate(t, w.key, { candidateKnowledge: REFUNDS_TEXT, origin: 'generated' });
      assert.equal(job.jobStatus, 'FAILED');
      assert.equal(fake.requests.length, 1, 'a 401 is not retried');
      assert.match(job.error, new RegExp(`^model call failed: HTTP 401 Unauthorized from ${host().replace(/\./g, '\\.')} \\(Incorrect API key provided: `));
      assert.match(job.error, /Check your key\./);
      assert.deepEqual(job.usage, { provider: 'openai-compatible', model: 'test-model', inputTokens: 0, outputTokens: 0, totalTokens: 0 });
      const text = await jobStatusText(w.key, job.id);
      assert.ok(!text.includes(API_KEY), `the API key leaks: ${text}`);
      const logs = JSON.stringify(t.logs.slice(logsBefore));
      assert.ok(!logs.includes(API_KEY), 'the API key is not logged');
    });

    it('500 on every attempt: 1 + PARLEY_LLM_MAX_RETRIES requests, then FAILED naming the attempts', async () => {
      fake.setHandler(() => ({ status: 500 }));
      const job = await generate(t, w.key, { candidateKnowledge: REFUNDS_TEXT, origin: 'generated' });
      assert.equal(job.jobStatus, 'FAILED');
      assert.equal(fake.requests.length, 3);
      assert.match(job.error, /^model call failed after 3 attempts: HTTP 500 Internal Server Error from /);
    });

    it('429 with retry-after-ms, then a good answer: COMPLETED after 2 requests', async () => {
      const folder = await makeFolder(t, w.key, 'Rate limits');
      fake.enqueue(
        { status: 429, headers: { 'retry-after-ms': '1' } },
        { json: decision({ operation: 'ADD_ARTICLE_TO_FOLDER', folderId: folder, reason: 'second try', article: modelArticle() }), usage: { inputTokens: 8, outputTokens: 4 } },
      );
      const job = await generate(t, w.key, { candidateKnowledge: REFUNDS_TEXT, origin: 'generated' });
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      assert.equal(fake.requests.length, 2);
      assert.deepEqual(fake.requests[1]!.body, fake.requests[0]!.body, 'the same request again');
      assert.equal(job.linkedReason, 'second try');
      assert.deepEqual(job.usage, { provider: 'openai-compatible', model: 'test-model', inputTokens: 8, outputTokens: 4, totalTokens: 12 });
      assert.equal((await getArticle(t, w.key, job.hcArticleId!)).title, 'Refund timing');
    });

    it('an answer slower than PARLEY_LLM_TIMEOUT_MS: FAILED "timed out"', async () => {
      const slow = { json: decision({}), delayMs: 5_000 };
      fake.enqueue(slow, slow, slow);
      const job = await generate(t, w.key, { candidateKnowledge: REFUNDS_TEXT, origin: 'generated' });
      assert.equal(job.jobStatus, 'FAILED');
      assert.equal(job.error, 'model call timed out after 2000 ms (3 attempts)');
      assert.equal(fake.requests.length, 3);
    });
  });

  describe('tree/initialize with the model', () => {
    let w: Tenant;
    before(async () => {
      w = await makeTenant(t);
    });
    const PROMPT = 'An online shop for tea: refunds, shipping and loyalty points.';

    it('sends the initialize_tree task and writes the CSV from the answer, which tree/persist imports unchanged', async () => {
      fake.enqueue({
        json: {
          folders: [
            {
              path: [' Billing ', 'Refunds'],
              description: ' Refund rules ',
              articles: [
                {
                  title: ' Refund window ',
                  mainKnowledge: 'Refunds within 30 days, "no questions" asked.\nPaid in 5 days.',
                  questions: ['How long do I have?', 'Pay | back?', 'How long do I have?'],
                  keywords: ['refund', ' money '],
                },
                { title: '   ', mainKnowledge: 'dropped: no title', questions: [], keywords: [] },
              ],
            },
            { path: ['Shipping / Delivery'], description: 'Getting your tea', articles: [] },
          ],
        },
        usage: { inputTokens: 100, outputTokens: 200 },
      });
      const res = await t.request<string>('POST', TREE_INIT, { key: w.key, body: { initPrompt: PROMPT } });
      assert.equal(res.status, 200, res.text);
      assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);

      assert.equal(fake.requests.length, 1);
      const request = fake.requests[0]!;
      assert.equal(request.path, '/v1/chat/completions');
      assert.equal(request.headers.authorization, `Bearer ${API_KEY}`);
      const body = chat(request);
      assert.equal(body.model, 'test-model');
      assert.equal(body.response_format.type, 'json_schema');
      assert.equal(body.response_format.json_schema.name, 'initialize_tree');
      assert.deepEqual(Object.keys(body.response_format.json_schema.schema.properties), ['folders']);
      assert.equal(messageText(request, 'system'), initializeTreeTask.system);
      assert.equal(messageText(request, 'user'), `Description of the knowledge base:\n${PROMPT}`);

      const records = parseCsv(res.text).map((r) => r.cells);
      assert.deepEqual(records, [
        [...TREE_COLUMNS],
        [
          'Billing / Refunds',
          'Refund rules',
          'Refund window',
          'Refunds within 30 days, "no questions" asked.\nPaid in 5 days.',
          '',
          'How long do I have? | Pay / back?',
          'refund | money',
          'false',
          'true',
          '',
          '',
        ],
        ['Shipping \\/ Delivery', 'Getting your tea', '', '', '', '', '', '', '', '', ''],
      ]);

      const form = new FormData();
      form.append('file', new Blob([res.text]), 'knowledge-tree.csv');
      const persisted = await fetch(`${t.url}${TREE_PERSIST}`, { method: 'POST', headers: { authorization: `Bearer ${w.key}` }, body: form });
      const persistedText = await persisted.text();
      assert.equal(persisted.status, 200, persistedText);
      const result = JSON.parse(persistedText) as { folders: { title: string; description: string }[]; articles: Article[] };
      assert.deepEqual(result.folders.map((f) => [f.title, f.description]).sort(), [
        ['Billing', ''],
        ['Refunds', 'Refund rules'],
        ['Shipping / Delivery', 'Getting your tea'],
      ]);
      assert.equal(result.articles.length, 1);
      const [article] = result.articles as [Article];
      assert.equal(article.title, 'Refund window');
      assert.equal(article.mainKnowledge, 'Refunds within 30 days, "no questions" asked.\nPaid in 5 days.');
      assert.deepEqual(article.questions, ['How long do I have?', 'Pay / back?']);
      assert.deepEqual(article.keywords, ['refund', 'money']);
      assert.equal(article.isDraft, true);
    });

    it('a model error answers 502 without the API key', async () => {
      fake.setHandler(() => ({ status: 401, body: { error: { message: `bad key ${API_KEY}`, type: 'invalid_request_error', code: null } } }));
      const res = await t.request('POST', TREE_INIT, { key: w.key, body: { initPrompt: PROMPT } });
      assertError(res, 502, /^model call failed: HTTP 401 Unauthorized from .+\(bad key /);
      assert.equal((res.body as { error: string }).error, 'Bad Gateway');
      assert.ok(!res.text.includes(API_KEY), res.text);
      assert.equal(fake.requests.length, 1);
    });

    it('a model that keeps failing with 500 answers 502 after the retries', async () => {
      fake.setHandler(() => ({ status: 500 }));
      const res = await t.request('POST', TREE_INIT, { key: w.key, body: { initPrompt: PROMPT } });
      assertError(res, 502, /^model call failed after 3 attempts: HTTP 500/);
      assert.equal(fake.requests.length, 3);
    });

    it('malformed tree output answers 502', async () => {
      fake.enqueue({ text: 'here is your tree: Billing > Refunds' });
      const notJson = await t.request('POST', TREE_INIT, { key: w.key, body: { initPrompt: PROMPT } });
      assertError(notJson, 502, /not valid JSON/);

      fake.enqueue({ json: { folders: [{ path: 'Billing', description: '', articles: [] }] } });
      const wrongShape = await t.request('POST', TREE_INIT, { key: w.key, body: { initPrompt: PROMPT } });
      assertError(wrongShape, 502, /does not match the initialize_tree schema: folders\.0\.path:/);

      fake.enqueue({ json: { topics: [] } });
      const missing = await t.request('POST', TREE_INIT, { key: w.key, body: { initPrompt: PROMPT } });
      assertError(missing, 502, /initialize_tree schema: folders:/);
    });

    /** tree/initialize with `answer` from the model, then tree/persist of its file, in a fresh workspace. */
    const initializeThenPersist = async (answer: unknown) => {
      const fresh = await makeTenant(t);
      fake.enqueue({ json: answer });
      const res = await t.request<string>('POST', TREE_INIT, { key: fresh.key, body: { initPrompt: PROMPT } });
      const form = new FormData();
      form.append('file', new Blob([res.text]), 'knowledge-tree.csv');
      const persisted = await fetch(`${t.url}${TREE_PERSIST}`, { method: 'POST', headers: { authorization: `Bearer ${fresh.key}` }, body: form });
      return { initialize: res, persist: { status: persisted.status, text: await persisted.text() } };
    };

    it(
      'a tree naming one folder twice with two descriptions is one folder (the first description) and imports',
      async () => {
        const { initialize, persist } = await initializeThenPersist({
          folders: [
            { path: ['Billing'], description: 'Invoices', articles: [{ title: 'Invoices', mainKnowledge: 'Invoices are emailed.', questions: [], keywords: [] }] },
            { path: ['Billing'], description: 'Payments', articles: [{ title: 'Payment methods', mainKnowledge: 'We accept cards.', questions: [], keywords: [] }] },
          ],
        });
        assert.equal(initialize.status, 200, initialize.text);
        assert.deepEqual(initialize.text.trim().split('\r\n').slice(1).map((line) => line.split(',').slice(0, 3).join(',')), [
          'Billing,Invoices,Invoices',
          'Billing,Invoices,Payment methods',
        ]);
        assert.equal(persist.status, 200, persist.text);
      },
    );

    it(
      'a tree with a NUL character in an article drops it and imports through tree/persist',
      async () => {
        const { initialize, persist } = await initializeThenPersist({
          folders: [{ path: ['Billing'], description: '', articles: [{ title: 'Invoices', mainKnowledge: 'Invoices\u0000 are emailed.', questions: [], keywords: [] }] }],
        });
        assert.equal(initialize.status, 200, initialize.text);
        assert.ok(initialize.text.includes('Invoices are emailed.'), initialize.text);
        assert.equal(persist.status, 200, persist.text);
      },
    );

    it('an empty tree answers 400', async () => {
      fake.enqueue({ json: { folders: [{ path: ['  '], description: '', articles: [] }] } });
      const res = await t.request('POST', TREE_INIT, { key: w.key, body: { initPrompt: PROMPT } });
      assertError(res, 400, /no topics found/);
    });
  });

  describe('bulk generation on a source', () => {
    it("a source of another workspace gets a FAILED job and never reaches the model", async () => {
      const owner = await makeTenant(t);
      const caller = await makeTenant(t);
      const foreign = await ingestPage(owner.key, '/help/foreign', 'Foreign page', 'Gift cards never expire and can be used on any order.');
      const before = link(await getSource(owner.key, foreign.id));
      const job = await bulk(caller.key, { documentIds: [foreign.id] });
      assert.equal(job.jobStatus, 'FAILED');
      assert.equal(job.error, `no source ${foreign.id} in this workspace`);
      assert.equal(fake.requests.length, 0);
      assert.deepEqual(link(await getSource(owner.key, foreign.id)), before);
    });

    it("sends the source's title and paragraphs and links the source to the result", async () => {
      const w = await makeTenant(t);
      const folder = await makeFolder(t, w.key, 'Shipping', 'Delivery times');
      const paragraphs = [
        'Orders placed before 2 pm ship the same day from our warehouse in Lyon.',
        'Standard delivery takes 3 to 5 business days within France.',
      ];
      const ingested = await ingestPage(w.key, '/help/shipping', 'Shipping times', ...paragraphs);
      assert.equal(ingested.linkedKnowledgeId, null);
      assert.ok(ingested.paragraphs.length >= 2);

      fake.enqueue({
        json: decision({
          operation: 'ADD_ARTICLE_TO_FOLDER',
          folderId: folder,
          reason: 'shipping times are not covered yet',
          article: modelArticle({ title: 'Shipping times', mainKnowledge: paragraphs.join('\n\n'), questions: ['When does my order ship?'], keywords: ['shipping'] }),
        }),
        usage: { inputTokens: 500, outputTokens: 60 },
      });
      const job = await bulk(w.key, { documentIds: [ingested.id], origin: 'sources' });
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      assert.equal(job.origin, 'sources');
      assert.equal(job.documentId, ingested.id);
      assert.equal(job.linkedOperation, 'ADD_ARTICLE_TO_FOLDER');
      assert.deepEqual(job.usage, { provider: 'openai-compatible', model: 'test-model', inputTokens: 500, outputTokens: 60, totalTokens: 560 });

      const user = messageText(fake.requests[0], 'user');
      assert.ok(user.includes(`Candidate knowledge (titled "${ingested.title}"):\n${ingested.paragraphs.join('\n\n')}`), user);
      for (const p of paragraphs) assert.ok(user.includes(p), `paragraph sent: ${p}`);
      assert.match(user, /^Linked article \(from this text's source\): none$/m);

      const article = await getArticle(t, w.key, job.hcArticleId!);
      assert.equal(article.origin, 'SOURCE_IMPORT');
      assert.equal(article.isDraft, true);
      assert.deepEqual(article.misc, { knowledgeJobId: job.id, sourceId: ingested.id });

      const source = await getSource(w.key, ingested.id);
      assert.deepEqual(link(source), {
        linkedKnowledgeId: article.id,
        linkedOperation: 'ADD_ARTICLE_TO_FOLDER',
        linkedReason: 'shipping times are not covered yet',
        changed: false,
      });

      // A second run shows the model the source's own (draft) article as the linked one, and an update rewrites it in place.
      fake.reset();
      fake.enqueue({
        json: decision({
          operation: 'UPDATE_ARTICLE',
          articleId: article.id,
          reason: 'rewritten from its source',
          article: modelArticle({ title: 'Shipping times from Lyon', mainKnowledge: paragraphs.join('\n\n') }),
        }),
      });
      const again = await bulk(w.key, { documentIds: [ingested.id] });
      assert.equal(again.jobStatus, 'COMPLETED', again.error);
      assert.equal(again.linkedOperation, 'UPDATE_ARTICLE');
      assert.equal(again.hcArticleId, article.id, 'the open draft is updated in place');
      const secondPrompt = messageText(fake.requests[0], 'user');
      assert.match(secondPrompt, new RegExp(`^Linked article \\(from this text's source\\): ${article.id}$`, 'm'));
      assert.ok(secondPrompt.split('\n').some((line) => line.startsWith(`{"id":"${article.id}"`)), 'the linked draft is a candidate');
      assert.equal((await getArticle(t, w.key, article.id)).title, 'Shipping times from Lyon');
      assert.deepEqual(link(await getSource(w.key, ingested.id)), {
        linkedKnowledgeId: article.id,
        linkedOperation: 'UPDATE_ARTICLE',
        linkedReason: 'rewritten from its source',
        changed: false,
      });
    });
  });
});
