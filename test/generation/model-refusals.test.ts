// Knowledge generation against a configured model (the AI SDK path), end to end: HTTP request ->
// job worker -> the fake OpenAI-compatible server -> the decision checked and written. This file:
// decisions the job refuses, malformed model output and provider errors.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import type { TestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import type { FakeLlm } from '../support/fake-llm.js';
import type { FakeSite } from '../support/fake-site.js';
import { expectStatus } from '../support/security.js';
import type { Source } from '../support/sources.js';
import { type Article, bulkJob, countArticles, decision, generate, getArticle, getSource, ingestHtml, jobStatusText, type KnowledgeJob, linkOf, makeArticle, makeFolder, messageText, MODEL_API_KEY, MODEL_ENV, type ModelArticle, modelArticle, type ModelDecision, REFUNDS_TEXT, useModelApp } from './support.js';

describe('knowledge generation with a configured model (openai-compatible)', () => {
  let t: TestApp, fake: FakeLlm, site: FakeSite;
  useModelApp(MODEL_API_KEY, MODEL_ENV, (app) => ({ t, fake, site } = app));

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
      source = await ingestHtml(t, site, w.key, '/help/refunds', 'Refunds', REFUNDS_TEXT, 'Store credit is issued at once when you prefer it.');
      // Link the source first, so that "unchanged" means something.
      fake.reset();
      fake.enqueue({ json: decision({ operation: 'ADD_ARTICLE_TO_FOLDER', folderId: folder, reason: 'first import', article: modelArticle() }) });
      const job = await bulkJob(t, w.key, { documentIds: [source.id], isDraft: false });
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      linkedArticle = await getArticle(t, w.key, job.hcArticleId!);
      source = await getSource(t, w.key, source.id);
      assert.equal(source.linkedKnowledgeId, linkedArticle.id);
    });

    /** Runs a source job whose model answer is `answer`; asserts FAILED with the error, nothing written. */
    const refused = async (answer: ModelDecision, error: RegExp, body: Record<string, unknown> = {}): Promise<KnowledgeJob> => {
      const articlesBefore = await countArticles(t, w.key);
      const linkBefore = linkOf(await getSource(t, w.key, source.id));
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
      assert.equal(await countArticles(t, w.key), articlesBefore, 'no article written');
      assert.deepEqual(linkOf(await getSource(t, w.key, source.id)), linkBefore, 'the source link is unchanged');
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
      const articlesBefore = await countArticles(t, w.key);
      fake.enqueue({ json: decision({ operation: 'DO_NOTHING', articleId: otherArticle.id, folderId: otherFolder, reason: 'covered elsewhere' }) });
      const job = await generate(t, w.key, { candidateKnowledge: REFUNDS_TEXT, origin: 'sources', documentId: source.id });
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      assert.equal(job.linkedOperation, 'DO_NOTHING');
      assert.equal(job.hcArticleId, null, "another workspace's article id is not recorded");
      assert.equal(await countArticles(t, w.key), articlesBefore);
      const after = await getSource(t, w.key, source.id);
      assert.equal(after.linkedKnowledgeId, linkedArticle.id, 'the source keeps its own article');
      assert.equal(after.linkedOperation, 'DO_NOTHING');
      assert.equal(after.linkedReason, 'covered elsewhere');
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
      const before = await countArticles(t, w.key);
      fake.enqueue(reply);
      const job = await generate(t, w.key, { candidateKnowledge: REFUNDS_TEXT, origin: 'generated' });
      assert.equal(job.jobStatus, 'FAILED', JSON.stringify(job));
      assert.equal(fake.requests.length, 1, 'a malformed answer is not asked again');
      assert.equal(job.hcArticleId, null);
      assert.equal(job.linkedOperation, null);
      assert.equal(await countArticles(t, w.key), before);
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
      // A folder, so that a job reaches the model (with none it fails before calling it).
      await makeFolder(t, w.key, 'Help', '');
    });
    const host = () => new URL(fake.url).host;

    it('401: FAILED at once with the provider message and without the API key', async () => {
      fake.setHandler(() => ({
        status: 401,
        body: { error: { message: `Incorrect API key provided: ${MODEL_API_KEY}. Check your key.`, type: 'invalid_request_error', code: 'invalid_api_key' } },
      }));
      const logsBefore = t.logs.length;
      const job = await generate(t, w.key, { candidateKnowledge: REFUNDS_TEXT, origin: 'generated' });
      assert.equal(job.jobStatus, 'FAILED');
      assert.equal(fake.requests.length, 1, 'a 401 is not retried');
      assert.match(job.error, new RegExp(`^model call failed: HTTP 401 Unauthorized from ${host().replace(/\./g, '\\.')} \\(Incorrect API key provided: `));
      assert.match(job.error, /Check your key\./);
      assert.deepEqual(job.usage, { provider: 'openai-compatible', model: 'test-model', inputTokens: 0, outputTokens: 0, totalTokens: 0 });
      const text = await jobStatusText(t, w.key, job.id);
      assert.ok(!text.includes(MODEL_API_KEY), `the API key leaks: ${text}`);
      const logs = JSON.stringify(t.logs.slice(logsBefore));
      assert.ok(!logs.includes(MODEL_API_KEY), 'the API key is not logged');
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

});
