// Knowledge generation against a configured model (the AI SDK path), end to end: HTTP request ->
// job worker -> the fake OpenAI-compatible server -> the decision checked and written. This file:
// the request the model receives, canned answers applied, and an agent's knowledge (botId).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { generateKnowledgeTask } from '../../src/modules/generation/generation.tasks.js';
import type { TestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import type { FakeLlm } from '../support/fake-llm.js';
import { expectStatus } from '../support/security.js';
import { type Article, chat, countArticles, decision, generate, getArticle, makeArticle, makeFolder, messageText, MODEL_API_KEY, MODEL_ENV, modelArticle, OPERATIONS, REFUNDS_TEXT, useModelApp } from './support.js';

describe('knowledge generation with a configured model (openai-compatible)', () => {
  let t: TestApp, fake: FakeLlm;
  useModelApp(MODEL_API_KEY, MODEL_ENV, (app) => ({ t, fake } = app));

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
      assert.equal(request.headers.authorization, `Bearer ${MODEL_API_KEY}`);
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
      // Adding allowed with no folder and no article: FAILED saying so, before any model call.
      const failed = await generate(t, w.key, { candidateKnowledge: 'Our office dog is called Biscuit.', origin: 'generated' });
      assert.deepEqual([failed.jobStatus, failed.error, fake.requests.length], ['FAILED', 'there is no active folder to add an article to; create a folder first', 0]);
      fake.enqueue({ json: decision({ reason: 'nothing to add' }) });
      const job = await generate(t, w.key, { candidateKnowledge: 'Our office dog is called Biscuit.', origin: 'generated', restrictedOps: ['UPDATE_ARTICLE', 'DO_NOTHING'] });
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      assert.equal(job.hcArticleId, null);
      const user = messageText(fake.requests[0], 'user');
      assert.match(user, /^Allowed operations: UPDATE_ARTICLE, DO_NOTHING$/m);
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
      const before = await countArticles(t, w.key);
      const job = await generate(t, w.key, { candidateKnowledge: REFUNDS_TEXT, origin: 'generated' });
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      assert.equal(job.error, '');
      assert.equal(job.linkedOperation, 'ADD_ARTICLE_TO_FOLDER');
      assert.equal(job.linkedReason, 'no article covers refund timing', 'the reason is trimmed');
      assert.equal(job.isDraft, true);
      assert.deepEqual(job.usage, { provider: 'openai-compatible', model: 'test-model', inputTokens: 321, outputTokens: 54, totalTokens: 375 });
      assert.ok(job.hcArticleId);
      assert.equal(await countArticles(t, w.key), before + 1);

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
      const before = await countArticles(t, w.key);
      const job = await generate(t, w.key, { candidateKnowledge: REFUNDS_TEXT, origin: 'generated', isDraft: true });
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      assert.equal(job.linkedOperation, 'UPDATE_ARTICLE');
      assert.equal(job.linkedReason, 'adds the refund delay');
      assert.deepEqual(job.usage, { provider: 'openai-compatible', model: 'test-model', inputTokens: 10, outputTokens: 5, totalTokens: 15 });
      assert.ok(job.hcArticleId);
      assert.notEqual(job.hcArticleId, live.id);
      assert.equal(await countArticles(t, w.key), before + 1);

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
      const before = await countArticles(t, w.key);
      const job = await generate(t, w.key, { candidateKnowledge: REFUNDS_TEXT, origin: 'generated', isDraft: false });
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      assert.equal(job.linkedOperation, 'UPDATE_ARTICLE');
      assert.equal(job.hcArticleId, live.id);
      assert.equal(await countArticles(t, w.key), before);
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
      const before = await countArticles(t, w.key);
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
      assert.equal(await countArticles(t, w.key), before);

      fake.reset();
      fake.enqueue({ json: decision({ operation: 'ADD_ARTICLE_TO_FOLDER', folderId: agentSubfolder, reason: 'new', article: modelArticle() }) });
      const added = await generate(t, w.key, { candidateKnowledge: REFUNDS_TEXT, origin: 'generated', botId: agentId });
      assert.equal(added.jobStatus, 'COMPLETED', added.error);
      assert.equal((await getArticle(t, w.key, added.hcArticleId!)).parentFolderId, agentSubfolder);
    });
  });

});
