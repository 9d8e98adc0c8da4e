// The knowledge-generation routes through HTTP with the built-in engine: POST /v2/knowledge/public with each
// origin, each restricted operation, agent scope (botId), and body validation.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import type { TestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import type { FakeSite } from '../support/fake-site.js';
import { assertError, expectStatus } from '../support/security.js';
import type { Source } from '../support/sources.js';
import { ACCOUNT_TEXT, ADD, allArticles, type Article, assertJob, BILLING_TEXT, BULK, GENERATE, generate, getArticle, ingestPage, makeAgent, makeArticle, makeFolder, makeTopicFolders, NOTHING, queue, SHIPPING_TEXT, startBuiltinApp, UNKNOWN, UPDATE, useApp, waitForJobs } from './support.js';

describe('knowledge generation routes (built-in engine)', () => {
  let t: TestApp, site: FakeSite;
  useApp(startBuiltinApp, (app) => ({ t, site } = app));

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

    it('generated from two plain sentences: the article has the questions customers ask', async () => {
      const w = await makeTenant(t);
      await makeFolder(t, w.key, 'Billing', 'Plans, cancellations and invoices');
      const id = await queue(t, w.writeKey, {
        candidateKnowledge: 'Customers on annual plans can cancel at the end of the current billing term. Monthly plans can be cancelled at any time from the Billing page.',
        origin: 'generated',
      });
      const [job] = await waitForJobs(t, w.readKey, [id]);
      assert.equal(job!.jobStatus, 'COMPLETED', job!.error ?? '');
      const article = await getArticle(t, w.key, job!.hcArticleId!);
      assert.deepEqual(article.questions, ['Can I cancel my annual plan?', 'How do I cancel my monthly plan?']);
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
        error: 'there is no active folder to add an article to; create a folder first',
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

    it('all operations allowed in an empty workspace: FAILED saying a folder is needed (not DO_NOTHING)', async () => {
      const w = await makeTenant(t);
      const job = await generate(t, w.key, { candidateKnowledge: SHIPPING_TEXT, origin: 'generated' });
      assertJob(job, {
        id: job.id, jobStatus: 'FAILED', hcArticleId: null, origin: 'generated', documentId: null, hcEventId: null, isDraft: true, linkedOperation: null,
        error: 'there is no active folder to add an article to; create a folder first',
      }, null);
      assert.deepEqual(await allArticles(t, w.key), []);
      // Only DO_NOTHING allowed: the job can still say the text adds nothing.
      const nothing = await generate(t, w.key, { candidateKnowledge: SHIPPING_TEXT, origin: 'generated', restrictedOps: [NOTHING] });
      assert.deepEqual([nothing.jobStatus, nothing.linkedOperation], ['COMPLETED', NOTHING]);
    });
  });

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
      assert.equal(job.error, "there is no active folder to add an article to among the agent's folders; attach a folder to the agent first");
    });

    it('an unknown botId answers 404 and queues nothing', async () => {
      const w = await makeTenant(t);
      assertError(await t.request('POST', GENERATE, { key: w.key, body: { candidateKnowledge: 'Text.', origin: 'generated', botId: UNKNOWN } }), 404, 'agent not found');
      assertError(await t.request('POST', BULK, { key: w.key, body: { documentIds: [UNKNOWN], botId: UNKNOWN } }), 404, 'agent not found');
    });
  });

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

});
