import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { queryRows } from '../../src/db/sql.js';
import { QUEUE_SCHEMA } from '../../src/jobs/queue.js';
import { sweepKnowledgeJobsJob } from '../../src/modules/generation/index.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant } from '../support/factories.js';
import type { FakeLlm, FakeLlmReply, FakeLlmRequest } from '../support/fake-llm.js';
import { type FakeSite, html, startFakeSite } from '../support/fake-site.js';
import { poll } from '../support/poll.js';
import { expectStatus } from '../support/security.js';
import { INGEST_ENV, ingestUrls, type Source, waitForSource } from '../support/sources.js';
import {
  type Article,
  getArticle,
  type KnowledgeJob,
  makeArticle,
  makeFolder,
  ROBOTS_ALLOW_ALL,
  startModelApp,
  userPrompt,
  waitForJobs,
} from './support.js';

/**
 * Knowledge generation stays consistent with what else happens to the knowledge base: an article
 * merged into keeps what a human wrote, a source's unreviewed draft is revised rather than
 * repeated, a job does not overwrite an edit made while it ran, two jobs for one source do not
 * both write, deleting a folder unlinks its sources, and a job whose queue entry vanished is
 * failed by the sweep.
 */

const WINDOW = (days: number) => `You can return any unused item within ${days} days of delivery for a full refund.`;
const PAYOUT = 'Refunds are paid to the original payment method within 5 business days after the return arrives.';

/** A help page with only paragraphs (no heading), so that its text is exactly these sentences. */
const page = (title: string, ...paragraphs: string[]) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><main>${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}</main></body></html>`;

const listArticles = async (t: TestApp, key: string, query = ''): Promise<Article[]> => {
  const list = await expectStatus<{ articles: Article[]; hasMore: boolean }>(t, 200, 'GET', `/v2/hc-articles/public?limit=200${query}`, key);
  assert.equal(list.hasMore, false);
  return list.articles;
};
const getSource = (t: TestApp, key: string, id: string) => expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${id}`, key);
const linkOf = (s: Source) => ({ linkedKnowledgeId: s.linkedKnowledgeId, linkedOperation: s.linkedOperation, linkedReason: s.linkedReason, changed: s.changed });

const startBulk = async (t: TestApp, key: string, body: Record<string, unknown>): Promise<string> => {
  const { jobs } = await expectStatus<{ jobs: { backgroundJobId: string }[] }>(t, 202, 'POST', '/v2/knowledge/public/bulk', key, body);
  assert.equal(jobs.length, 1);
  return jobs[0]!.backgroundJobId;
};
const bulk = async (t: TestApp, key: string, body: Record<string, unknown>): Promise<KnowledgeJob> => {
  const [job] = await waitForJobs(t, key, [await startBulk(t, key, body)]);
  return job!;
};

describe('generation consistency (built-in engine)', () => {
  let t: TestApp;
  let site: FakeSite;
  before(async () => {
    t = await startTestApp({ work: true, env: INGEST_ENV });
    site = await startFakeSite({ '/robots.txt': ROBOTS_ALLOW_ALL });
  });
  after(async () => {
    await t?.close();
    await site?.close();
  });

  const ingest = async (key: string, path: string, body: string): Promise<string> => {
    site.set(path, body);
    const { addedDocumentIds } = await ingestUrls(t, key, [site.url(path)]);
    const [id] = addedDocumentIds as [string];
    assert.equal((await waitForSource(t, key, id)).linkedJobStatus, 'COMPLETED');
    return id;
  };
  /** The page changes: refresh and wait until the source is flagged changed. */
  const change = async (key: string, id: string, path: string, body: string): Promise<void> => {
    site.set(path, body);
    assert.deepEqual(await expectStatus<string[]>(t, 200, 'POST', '/v2/documents/public/refresh', key, { documentIds: [id] }), [id]);
    const source = await waitForSource(t, key, id, (s) => s.linkedJobStatus === 'COMPLETED' && s.changed);
    assert.equal(source.changed, true);
  };

  it('a source merged into a hand-written article revises its changed figure and keeps what the human wrote', async () => {
    const w = await makeTenant(t);
    const folder = await makeFolder(t, w.key, 'Returns', 'Returning items and refunds');
    const humanText = [
      'Gift cards cannot be returned.',
      'For a damaged item, email care@shop.test with a photo of it and we send a prepaid label.',
      'Sale items can only be exchanged for store credit.',
    ].join(' ');
    const hand = await makeArticle(t, w.key, folder, {
      title: 'Returns and refunds',
      mainKnowledge: `${WINDOW(30)} ${PAYOUT} ${humanText}`,
      questions: ['Can I return a gift card?'],
      keywords: ['gift card'],
    });
    const id = await ingest(w.key, '/help/returns', page('Returns and refunds', WINDOW(30), PAYOUT));

    // Job 1: the source is merged into the hand-written article, live.
    const first = await bulk(t, w.key, { documentIds: [id], isDraft: false });
    assert.equal(first.jobStatus, 'COMPLETED', first.error);
    assert.equal(first.linkedOperation, 'UPDATE_ARTICLE', first.linkedReason ?? '');
    assert.equal(first.hcArticleId, hand.id);
    const merged = await getArticle(t, w.key, hand.id);
    assert.equal(merged.version, 2);
    assert.equal(merged.mainKnowledge, hand.mainKnowledge, 'the article already said every sentence of the page');
    assert.equal(merged.questions[0], 'Can I return a gift card?');
    assert.deepEqual(merged.misc, {}, 'a merge does not make the source the article’s own');

    // The page changes (30 -> 14 days) and is regenerated live.
    await change(w.key, id, '/help/returns', page('Returns and refunds', WINDOW(14), PAYOUT));
    const second = await bulk(t, w.key, { documentIds: [id], isDraft: false });
    assert.equal(second.jobStatus, 'COMPLETED', second.error);
    assert.equal(second.linkedOperation, 'UPDATE_ARTICLE', second.linkedReason ?? '');
    assert.equal(second.hcArticleId, hand.id);

    const revised = await getArticle(t, w.key, hand.id);
    assert.equal(revised.version, 3);
    assert.equal(revised.title, 'Returns and refunds');
    assert.equal(revised.mainKnowledge, `${WINDOW(14)} ${PAYOUT} ${humanText}`, 'only the figure changed; the human sentences stay');
    assert.deepEqual(revised.questions, merged.questions);
    assert.equal(revised.questions[0], 'Can I return a gift card?');
    assert.equal(revised.keywords[0], 'gift card');
    assert.equal((await listArticles(t, w.key)).length, 1, 'no other article or draft');

    assert.deepEqual(linkOf(await getSource(t, w.key, id)), {
      linkedKnowledgeId: hand.id,
      linkedOperation: 'UPDATE_ARTICLE',
      linkedReason: second.linkedReason,
      changed: false,
    });
  });

  it("a second change of a source before its draft is reviewed revises that draft, not a second one", async () => {
    const w = await makeTenant(t);
    const folder = await makeFolder(t, w.key, 'Returns', 'Returning items and refunds');
    const id = await ingest(w.key, '/help/own-returns', page('Returns and refunds', WINDOW(30), PAYOUT));

    const made = await bulk(t, w.key, { documentIds: [id], isDraft: false });
    assert.equal(made.jobStatus, 'COMPLETED', made.error);
    assert.equal(made.linkedOperation, 'ADD_ARTICLE_TO_FOLDER');
    const live = await getArticle(t, w.key, made.hcArticleId!);
    assert.equal(live.parentFolderId, folder);
    assert.equal(live.isDraft, false);
    assert.deepEqual(live.misc, { knowledgeJobId: made.id, sourceId: id });
    assert.ok(live.mainKnowledge.includes(WINDOW(30)), live.mainKnowledge);

    // First change (30 -> 14 days): a draft of the live article.
    await change(w.key, id, '/help/own-returns', page('Returns and refunds', WINDOW(14), PAYOUT));
    const firstUpdate = await bulk(t, w.key, { documentIds: [id], isDraft: true });
    assert.equal(firstUpdate.jobStatus, 'COMPLETED', firstUpdate.error);
    assert.equal(firstUpdate.linkedOperation, 'UPDATE_ARTICLE');
    const draftId = firstUpdate.hcArticleId!;
    assert.notEqual(draftId, live.id);
    const draft = await getArticle(t, w.key, draftId);
    assert.equal(draft.isDraft, true);
    assert.equal(draft.originalArticleId, live.id);
    assert.equal(draft.mainKnowledge, live.mainKnowledge.replace(WINDOW(30), WINDOW(14)));

    // Second change (14 -> 7 days) before the draft is reviewed: the same draft is revised.
    await change(w.key, id, '/help/own-returns', page('Returns and refunds', WINDOW(7), PAYOUT));
    const secondUpdate = await bulk(t, w.key, { documentIds: [id], isDraft: true });
    assert.equal(secondUpdate.jobStatus, 'COMPLETED', secondUpdate.error);
    assert.equal(secondUpdate.linkedOperation, 'UPDATE_ARTICLE');
    assert.equal(secondUpdate.hcArticleId, draftId, 'the open draft is revised');
    const revised = await getArticle(t, w.key, draftId);
    assert.equal(revised.isDraft, true);
    assert.equal(revised.isDraftPublished, false);
    assert.equal(revised.originalArticleId, live.id);
    assert.equal(revised.mainKnowledge, live.mainKnowledge.replace(WINDOW(30), WINDOW(7)), 'the newest figure');
    // The draft keeps the record of the job that made it.
    assert.deepEqual(revised.misc, { knowledgeJobId: firstUpdate.id, sourceId: id });

    const drafts = await listArticles(t, w.key, '&type=draft');
    assert.deepEqual(
      drafts.map((d) => [d.id, d.originalArticleId, d.isDraftPublished]),
      [[draftId, live.id, false]],
      'one open draft of the live article',
    );
    const unchanged = await getArticle(t, w.key, live.id);
    assert.equal(unchanged.version, live.version, 'the live article waits for the review');
    assert.equal(unchanged.mainKnowledge, live.mainKnowledge);
    assert.deepEqual(linkOf(await getSource(t, w.key, id)), {
      linkedKnowledgeId: live.id,
      linkedOperation: 'UPDATE_ARTICLE',
      linkedReason: secondUpdate.linkedReason,
      changed: false,
    });
  });

  it('a draft a reviewer edited is kept as it is; the next change makes a new draft', async () => {
    const w = await makeTenant(t);
    await makeFolder(t, w.key, 'Returns', 'Returning items and refunds');
    const id = await ingest(w.key, '/help/reviewed-returns', page('Returns and refunds', WINDOW(30), PAYOUT));
    const made = await bulk(t, w.key, { documentIds: [id], isDraft: false });
    assert.equal(made.jobStatus, 'COMPLETED', made.error);
    const live = await getArticle(t, w.key, made.hcArticleId!);

    await change(w.key, id, '/help/reviewed-returns', page('Returns and refunds', WINDOW(14), PAYOUT));
    const first = await bulk(t, w.key, { documentIds: [id], isDraft: true });
    const draft = await getArticle(t, w.key, first.hcArticleId!);
    const edit = { ...draft, mainKnowledge: `${draft.mainKnowledge}\n\nREVIEWER NOTE: check with the warehouse.`, agentInstruction: 'Be polite' };
    const reviewed = await expectStatus<Article>(t, 200, 'PUT', `/v2/hc-articles/${draft.id}/public`, w.key, {
      title: edit.title, mainKnowledge: edit.mainKnowledge, agentInstruction: edit.agentInstruction,
      questions: edit.questions, keywords: edit.keywords, escalation: false,
    });

    await change(w.key, id, '/help/reviewed-returns', page('Returns and refunds', WINDOW(7), PAYOUT));
    const second = await bulk(t, w.key, { documentIds: [id], isDraft: true });
    assert.equal(second.jobStatus, 'COMPLETED', second.error);
    assert.notEqual(second.hcArticleId, draft.id, 'a new draft, not the reviewed one');
    const kept = await getArticle(t, w.key, draft.id);
    assert.equal(kept.mainKnowledge, reviewed.mainKnowledge);
    assert.equal(kept.agentInstruction, 'Be polite');
    assert.equal(kept.version, reviewed.version);
    const fresh = await getArticle(t, w.key, second.hcArticleId!);
    assert.equal(fresh.originalArticleId, live.id);
    assert.equal(fresh.mainKnowledge, live.mainKnowledge.replace(WINDOW(30), WINDOW(7)));
  });

  it('deleting a folder with cascade unlinks the sources whose article was in it', async () => {
    const w = await makeTenant(t);
    const returnsFolder = await makeFolder(t, w.key, 'Returns and refunds', 'Returning items, refunds and exchanges');
    const shippingFolder = await makeFolder(t, w.key, 'Shipping and delivery', 'Delivery times, carriers and shipping costs');
    const returnsId = await ingest(w.key, '/help/cascade-returns', html('Returns and refunds', WINDOW(30), PAYOUT));
    const shippingId = await ingest(
      w.key,
      '/help/cascade-shipping',
      html('Shipping times', 'Orders placed before 2 pm ship the same day from our warehouse in Lyon.', 'Standard delivery takes 3 to 5 business days within France.'),
    );
    const returnsJob = await bulk(t, w.key, { documentIds: [returnsId], isDraft: false });
    const shippingJob = await bulk(t, w.key, { documentIds: [shippingId], isDraft: false });
    for (const job of [returnsJob, shippingJob]) {
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      assert.equal(job.linkedOperation, 'ADD_ARTICLE_TO_FOLDER');
    }
    assert.equal((await getArticle(t, w.key, returnsJob.hcArticleId!)).parentFolderId, returnsFolder);
    assert.equal((await getArticle(t, w.key, shippingJob.hcArticleId!)).parentFolderId, shippingFolder);
    // The returns page changes, so its source is flagged before the delete.
    await change(w.key, returnsId, '/help/cascade-returns', html('Returns and refunds', WINDOW(14), PAYOUT));

    const deleted = await expectStatus<{ id: string }>(t, 200, 'DELETE', `/v2/hc-folders/${returnsFolder}/public?cascade=true`, w.key);
    assert.equal(deleted.id, returnsFolder);

    assert.deepEqual(await expectStatus<Article[]>(t, 200, 'POST', '/v2/hc-articles/ids/public', w.key, { articleIds: [returnsJob.hcArticleId] }), []);
    assert.deepEqual(linkOf(await getSource(t, w.key, returnsId)), { linkedKnowledgeId: null, linkedOperation: null, linkedReason: null, changed: false });
    assert.deepEqual(linkOf(await getSource(t, w.key, shippingId)), {
      linkedKnowledgeId: shippingJob.hcArticleId,
      linkedOperation: 'ADD_ARTICLE_TO_FOLDER',
      linkedReason: shippingJob.linkedReason,
      changed: false,
    });
    const changed = await expectStatus<{ documents: Source[] }>(t, 200, 'GET', '/v2/documents/public?changed=true', w.key);
    assert.deepEqual(changed.documents, []);
  });
});

describe('generation consistency (configured model)', () => {
  const API_KEY = 'sk-test-consistency';
  let t: TestApp;
  let fake: FakeLlm;
  let site: FakeSite;
  let close: () => Promise<void>;
  before(async () => {
    ({ t, fake, site, close } = await startModelApp(API_KEY, {
      PARLEY_LLM_TIMEOUT_MS: '30000',
      PARLEY_LLM_MAX_RETRIES: '0',
      PARLEY_KNOWLEDGE_CONCURRENCY: '4',
    }));
  });
  beforeEach(() => {
    fake.reset();
  });
  after(async () => {
    await close?.();
  });

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
      const { backgroundJobId } = await expectStatus<{ backgroundJobId: string }>(t, 202, 'POST', '/v2/knowledge/public', w.key, {
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
    const { backgroundJobId } = await expectStatus<{ backgroundJobId: string }>(t, 202, 'POST', '/v2/knowledge/public', w.key, {
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
    const { backgroundJobId } = await expectStatus<{ backgroundJobId: string }>(t, 202, 'POST', '/v2/knowledge/public', w.key, {
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

describe('knowledge job orphan sweep', () => {
  let t: TestApp;
  before(async () => {
    // No worker: queued jobs stay in the queue until the test takes them out.
    t = await startTestApp({ work: false });
  });
  after(async () => {
    await t?.close();
  });

  const queued = async (id: string) =>
    (await queryRows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM ${sql.raw(QUEUE_SCHEMA)}.job WHERE id = ${id}`))[0]!.n;

  it('fails a job left IN_PROGRESS whose queue job is gone, and only that one', async () => {
    const w = await makeTenant(t);
    const start = async () =>
      (await expectStatus<{ backgroundJobId: string }>(t, 202, 'POST', '/v2/knowledge/public', w.key, { candidateKnowledge: 'Refunds take 5 days.', origin: 'generated' }))
        .backgroundJobId;
    const orphanId = await start();
    const waitingId = await start();
    assert.equal(await queued(orphanId), 1);
    assert.equal(await queued(waitingId), 1);

    // The worker died past its retries: the queue job is gone, the record says IN_PROGRESS.
    await t.database.db.execute(sql`DELETE FROM ${sql.raw(QUEUE_SCHEMA)}.job WHERE id = ${orphanId}`);
    await t.database.db.execute(sql`UPDATE knowledge_jobs SET status = 'IN_PROGRESS', started_at = now() WHERE id = ${orphanId}`);
    assert.equal(await queued(orphanId), 0);

    const now = new Date(Date.now() + 2 * 60_000);
    await sweepKnowledgeJobsJob.handler(
      {
        db: t.database.db,
        clock: { now: () => now },
        config: t.config,
        log: pino({ level: 'silent' }),
        jobId: randomUUID(),
        retryCount: 0,
        signal: new AbortController().signal,
      },
      {},
    );

    const { jobs } = await expectStatus<{ jobs: KnowledgeJob[] }>(t, 200, 'POST', '/v2/knowledge/public/jobs/status', w.key, { jobIds: [orphanId, waitingId] });
    const [orphan, waiting] = jobs as [KnowledgeJob, KnowledgeJob];
    assert.equal(orphan.id, orphanId);
    assert.equal(orphan.jobStatus, 'FAILED');
    assert.equal(orphan.error, 'processing stopped: the generation job ended without a result; queue it again');
    assert.equal(orphan.completedAt, now.toISOString());
    assert.equal(orphan.hcArticleId, null);
    assert.equal(waiting.id, waitingId);
    assert.equal(waiting.jobStatus, 'PENDING', 'a job still in the queue is left alone');
    assert.equal(waiting.error, '');
    assert.equal(waiting.completedAt, null);
  });
});
