// Knowledge generation against a configured model (the AI SDK path), end to end: HTTP request ->
// job worker -> the fake OpenAI-compatible server -> the decision checked and written. This file:
// bulk generation on a source.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TestApp } from '../support/app.js';
import { makeTenant } from '../support/factories.js';
import type { FakeLlm } from '../support/fake-llm.js';
import type { FakeSite } from '../support/fake-site.js';
import { bulkJob, decision, getArticle, getSource, ingestHtml, linkOf, makeFolder, messageText, MODEL_API_KEY, MODEL_ENV, modelArticle, useModelApp } from './support.js';

describe('knowledge generation with a configured model (openai-compatible)', () => {
  let t: TestApp, fake: FakeLlm, site: FakeSite;
  useModelApp(MODEL_API_KEY, MODEL_ENV, (app) => ({ t, fake, site } = app));

  describe('bulk generation on a source', () => {
    it("a source of another workspace gets a FAILED job and never reaches the model", async () => {
      const owner = await makeTenant(t);
      const caller = await makeTenant(t);
      const foreign = await ingestHtml(t, site, owner.key, '/help/foreign', 'Foreign page', 'Gift cards never expire and can be used on any order.');
      const before = linkOf(await getSource(t, owner.key, foreign.id));
      const job = await bulkJob(t, caller.key, { documentIds: [foreign.id] });
      assert.equal(job.jobStatus, 'FAILED');
      assert.equal(job.error, `no source ${foreign.id} in this workspace`);
      assert.equal(fake.requests.length, 0);
      assert.deepEqual(linkOf(await getSource(t, owner.key, foreign.id)), before);
    });

    it("sends the source's title and paragraphs and links the source to the result", async () => {
      const w = await makeTenant(t);
      const folder = await makeFolder(t, w.key, 'Shipping', 'Delivery times');
      const paragraphs = [
        'Orders placed before 2 pm ship the same day from our warehouse in Lyon.',
        'Standard delivery takes 3 to 5 business days within France.',
      ];
      const ingested = await ingestHtml(t, site, w.key, '/help/shipping', 'Shipping times', ...paragraphs);
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
      const job = await bulkJob(t, w.key, { documentIds: [ingested.id], origin: 'sources' });
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

      const source = await getSource(t, w.key, ingested.id);
      assert.deepEqual(linkOf(source), {
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
      const again = await bulkJob(t, w.key, { documentIds: [ingested.id] });
      assert.equal(again.jobStatus, 'COMPLETED', again.error);
      assert.equal(again.linkedOperation, 'UPDATE_ARTICLE');
      assert.equal(again.hcArticleId, article.id, 'the open draft is updated in place');
      const secondPrompt = messageText(fake.requests[0], 'user');
      assert.match(secondPrompt, new RegExp(`^Linked article \\(from this text's source\\): ${article.id}$`, 'm'));
      assert.ok(secondPrompt.split('\n').some((line) => line.startsWith(`{"id":"${article.id}"`)), 'the linked draft is a candidate');
      assert.equal((await getArticle(t, w.key, article.id)).title, 'Shipping times from Lyon');
      assert.deepEqual(linkOf(await getSource(t, w.key, ingested.id)), {
        linkedKnowledgeId: article.id,
        linkedOperation: 'UPDATE_ARTICLE',
        linkedReason: 'rewritten from its source',
        changed: false,
      });
    });
  });
});
