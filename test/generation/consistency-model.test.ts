// Knowledge generation stays consistent with what else happens to the knowledge base (configured
// model): a job does not overwrite an edit made while it ran, two jobs for one source do not both
// write, and a job whose folder is deleted while it runs fails.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TestApp } from '../support/app.js';
import { makeTenant } from '../support/factories.js';
import type { FakeLlm, FakeLlmReply, FakeLlmRequest } from '../support/fake-llm.js';
import { type FakeSite, html } from '../support/fake-site.js';
import { poll } from '../support/poll.js';
import { expectStatus } from '../support/security.js';
import { ingestUrls, waitForSource } from '../support/sources.js';
import { type Article, getArticle, getSource, type KnowledgeJob, linkOf, listArticles, makeArticle, makeFolder, startBulk, useModelApp, userPrompt, waitForJobs } from './support.js';

describe('generation consistency (configured model)', () => {
  const API_KEY = 'sk-test-consistency';
  let t: TestApp, fake: FakeLlm, site: FakeSite;
  useModelApp(API_KEY, { PARLEY_LLM_TIMEOUT_MS: '30000', PARLEY_LLM_MAX_RETRIES: '0', PARLEY_KNOWLEDGE_CONCURRENCY: '4' }, (app) => ({ t, fake, site } = app));

  const chats = () => fake.requests.filter((r) => r.endpoint === 'chat');
  /**
   * A slow model: every chat answer is held back until `release()` (or `opensWhen` holds when a
   * request arrives), so the job waits in the model call, after it read the knowledge base.
   */
  const slowModel = (answer: (request: FakeLlmRequest) => FakeLlmReply, opensWhen?: () => boolean) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    fake.setHandler(async (request) => {
      if (request.endpoint !== 'chat') return undefined;
      if (opensWhen?.()) release();
      // Never hang a run on a failed test: answer after 20 s at the latest.
      await Promise.race([released, new Promise((resolve) => setTimeout(resolve, 20_000).unref())]);
      return answer(request);
    });
    return { release };
  };
  const modelArticle = (mainKnowledge: string) => ({ title: 'Refund policy', mainKnowledge, questions: [], keywords: [], agentInstruction: '' });

  for (const isDraft of [true, false]) {
    it(`an article edited while the model answers is not overwritten (isDraft ${isDraft})`, async () => {
      const w = await makeTenant(t);
      const folder = await makeFolder(t, w.key, 'Billing', 'Payments and refunds');
      const original = await makeArticle(t, w.key, folder, { title: 'Refund policy', mainKnowledge: 'Refunds are issued within 14 days of the return.' });
      assert.equal(original.version, 1);
      const model = slowModel(() => ({
        json: { operation: 'UPDATE_ARTICLE', articleId: original.id, folderId: null, reason: 'new delay', article: modelArticle('Refunds are issued within 10 days.') },
      }));
      const { backgroundJobId } = await expectStatus<{ backgroundJobId: string }>(t, 200, 'POST', '/v2/knowledge/public', w.key, {
        candidateKnowledge: 'Refund policy: refunds are issued within 10 days of the return.',
        origin: 'generated',
        isDraft,
      });
      await poll(() => chats().length, (n) => n === 1, { what: 'the model call', intervalMs: 20 });
      assert.ok(userPrompt(chats()[0]!).includes(original.id), 'the article was shown to the model');

      const humanText = 'Refunds are issued within 14 days of the return. Sale items are refunded as store credit.';
      const edited = await expectStatus<Article>(t, 200, 'PUT', `/v2/hc-articles/${original.id}/public`, w.key, {
        title: 'Refund policy',
        mainKnowledge: humanText,
        agentInstruction: '',
        questions: [],
        keywords: [],
        escalation: false,
      });
      assert.equal(edited.version, 2);
      model.release();

      const [job] = (await waitForJobs(t, w.key, [backgroundJobId])) as [KnowledgeJob];
      assert.equal(job.jobStatus, 'FAILED');
      assert.match(job.error, /changed while the job ran \(version 1 -> 2\)/);
      assert.equal(job.error, 'article "Refund policy" changed while the job ran (version 1 -> 2); run the job again so that change is not lost');
      assert.equal(job.hcArticleId, null);
      assert.equal(job.linkedOperation, null);
      assert.equal(chats().length, 1);

      assert.deepEqual((await listArticles(t, w.key)).map((a) => a.id), [original.id], 'no draft written');
      const after = await getArticle(t, w.key, original.id);
      assert.equal(after.version, 2);
      assert.equal(after.mainKnowledge, humanText);
    });
  }

  it('a model may not update an article longer than it was shown', async () => {
    const w = await makeTenant(t);
    const folder = await makeFolder(t, w.key, 'Billing', 'Payments and refunds');
    const rules = Array.from({ length: 400 }, (_, i) => `Rule ${i}: refund fact number ${i}.`).join(' ');
    const longBody = `Refunds are issued within 14 days. ${rules}`;
    assert.ok(longBody.length > 12_000, `${longBody.length}`);
    const long = await makeArticle(t, w.key, folder, { title: 'Refund policy', mainKnowledge: longBody });
    fake.enqueue({
      json: { operation: 'UPDATE_ARTICLE', articleId: long.id, folderId: null, reason: 'new delay', article: modelArticle('Refunds are issued within 10 days.') },
      usage: { inputTokens: 40, outputTokens: 10 },
    });
    const { backgroundJobId } = await expectStatus<{ backgroundJobId: string }>(t, 200, 'POST', '/v2/knowledge/public', w.key, {
      candidateKnowledge: 'Refund policy: refunds are issued within 10 days.',
      origin: 'generated',
      isDraft: false,
    });
    const [job] = (await waitForJobs(t, w.key, [backgroundJobId])) as [KnowledgeJob];
    assert.equal(job.jobStatus, 'FAILED');
    assert.equal(
      job.error,
      'article "Refund policy" is longer than the 12000 characters a model is shown; updating it would drop its end, so it is left to an editor',
    );
    assert.equal(job.hcArticleId, null);
    assert.deepEqual(job.usage, { provider: 'openai-compatible', model: 'test-model', inputTokens: 40, outputTokens: 10, totalTokens: 50 });

    assert.equal(chats().length, 1);
    const shown = userPrompt(chats()[0]!)
      .split('\n')
      .filter((line) => line.startsWith('{') && line.includes(long.id))
      .map((line) => JSON.parse(line) as { id: string; mainKnowledge: string; truncated?: boolean });
    assert.equal(shown.length, 1);
    assert.equal(shown[0]!.truncated, true);
    assert.equal(shown[0]!.mainKnowledge, `${longBody.slice(0, 12_000)} …`);

    assert.deepEqual((await listArticles(t, w.key)).map((a) => a.id), [long.id]);
    const unchanged = await getArticle(t, w.key, long.id);
    assert.equal(unchanged.version, 1);
    assert.equal(unchanged.mainKnowledge, longBody);
  });

  it('of two jobs for one source that both read it unlinked, only the first writes', async () => {
    const w = await makeTenant(t);
    const folder = await makeFolder(t, w.key, 'Billing', 'Payments and refunds');
    site.set('/help/refunds', html('Refund policy', 'Refunds are paid within 5 business days.'));
    const { addedDocumentIds } = await ingestUrls(t, w.key, [site.url('/help/refunds')]);
    const [id] = addedDocumentIds as [string];
    assert.equal((await waitForSource(t, w.key, id)).linkedJobStatus, 'COMPLETED');

    // Both jobs are in the model call (both read the source unlinked) before either answers.
    slowModel(
      () => ({ json: { operation: 'ADD_ARTICLE_TO_FOLDER', articleId: null, folderId: folder, reason: 'new', article: modelArticle('Refunds are paid within 5 business days.') } }),
      () => chats().length >= 2,
    );
    const firstId = await startBulk(t, w.key, { documentIds: [id], isDraft: false });
    const secondId = await startBulk(t, w.key, { documentIds: [id], isDraft: false });
    const jobs = await waitForJobs(t, w.key, [firstId, secondId]);
    assert.equal(chats().length, 2);
    for (const request of chats()) assert.match(userPrompt(request), /^Linked article \(from this text's source\): none$/m);

    const done = jobs.filter((j) => j.jobStatus === 'COMPLETED');
    const failed = jobs.filter((j) => j.jobStatus === 'FAILED');
    assert.equal(done.length, 1, JSON.stringify(jobs));
    assert.equal(failed.length, 1, JSON.stringify(jobs));
    assert.equal(done[0]!.linkedOperation, 'ADD_ARTICLE_TO_FOLDER');
    assert.equal(failed[0]!.error, 'another job linked this source while this one ran; run the job again');
    assert.equal(failed[0]!.hcArticleId, null);
    assert.equal(failed[0]!.linkedOperation, null);

    const articles = await listArticles(t, w.key);
    assert.deepEqual(articles.map((a) => a.id), [done[0]!.hcArticleId]);
    assert.equal(articles[0]!.parentFolderId, folder);
    assert.deepEqual(linkOf(await getSource(t, w.key, id)), {
      linkedKnowledgeId: done[0]!.hcArticleId,
      linkedOperation: 'ADD_ARTICLE_TO_FOLDER',
      linkedReason: 'new',
      changed: false,
    });
  });

  it('a job whose folder is deleted while it runs fails with the reason', async () => {
    const w = await makeTenant(t);
    const folder = await makeFolder(t, w.key, 'Billing', 'Payments and refunds');
    const model = slowModel(() => ({
      json: { operation: 'ADD_ARTICLE_TO_FOLDER', articleId: null, folderId: folder, reason: 'new', article: modelArticle('Refunds are paid within 5 business days.') },
    }));
    const { backgroundJobId } = await expectStatus<{ backgroundJobId: string }>(t, 200, 'POST', '/v2/knowledge/public', w.key, {
      candidateKnowledge: 'Refunds are paid within 5 business days.',
      origin: 'generated',
      isDraft: false,
    });
    await poll(() => chats().length, (n) => n === 1, { what: 'the model call', intervalMs: 20 });
    assert.ok(userPrompt(chats()[0]!).includes(folder), 'the folder was shown to the model');
    await expectStatus(t, 200, 'DELETE', `/v2/hc-folders/${folder}/public?cascade=true`, w.key);
    model.release();

    const [job] = (await waitForJobs(t, w.key, [backgroundJobId])) as [KnowledgeJob];
    assert.equal(job.jobStatus, 'FAILED');
    assert.equal(job.error, `parentFolderId: folder ${folder} not found in this workspace`);
    assert.equal(job.hcArticleId, null);
    assert.equal(job.linkedOperation, null);
    assert.deepEqual(await listArticles(t, w.key), []);
    const snapshot = await expectStatus<{ snapshotObjV2: unknown[] }>(t, 200, 'GET', '/v2/hc-folders/public', w.key);
    assert.deepEqual(snapshot.snapshotObjV2, []);
    assert.equal(
      t.logs.some((line) => line.msg === 'knowledge job failed unexpectedly' && line.jobId === backgroundJobId),
      false,
      'not logged as an unexpected failure',
    );
  });
});
