import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { type FakeSite, html, startFakeSite } from '../support/fake-site.js';
import { expectStatus } from '../support/security.js';
import { INGEST_ENV, ingestUrls, type Source, waitForSource } from '../support/sources.js';
import { type Article, getArticle, type KnowledgeJob, makeArticle, makeFolder, waitForJobs } from './support.js';

const RETURNS = [
  'Return window',
  'You can return any unused item within 30 days of delivery for a full refund.',
  'Refunds are paid to the original payment method within 5 business days after the return arrives.',
];
const SHIPPING = [
  'Shipping times',
  'Orders placed before 2 pm ship the same day from our warehouse in Lyon.',
  'Standard delivery takes 3 to 5 business days within France and 5 to 8 days elsewhere in Europe.',
];

/**
 * The specification's workflow for changed content, with the built-in engine: ingest -> bulk
 * generate (live) -> the page changes -> refresh -> poll -> list changed=true -> bulk generate
 * drafts -> review -> publish -> the source is in step again.
 */
describe('changed-content workflow (built-in engine)', () => {
  let t: TestApp;
  let site: FakeSite;
  let tenant: Tenant;
  let folderId: string;
  let shippingFolderId: string;
  before(async () => {
    t = await startTestApp({ work: true, env: INGEST_ENV });
    site = await startFakeSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
      '/help/returns': html('Returns and refunds | Example Shop Help', ...RETURNS),
      '/help/shipping': html('Shipping | Example Shop Help', ...SHIPPING),
    });
    tenant = await makeTenant(t);
    folderId = await makeFolder(t, tenant.key, 'Returns and refunds', 'Returning items, refunds and exchanges');
    shippingFolderId = await makeFolder(t, tenant.key, 'Shipping and delivery', 'Delivery times, carriers and shipping costs');
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  it('runs end to end: live articles, change, drafts, publish, in step again', async () => {
    // 1. Ingest two pages and make live knowledge of them.
    const ingest = await ingestUrls(t, tenant.key, [site.url('/help/returns'), site.url('/help/shipping')]);
    const [returnsId, shippingId] = ingest.addedDocumentIds as [string, string];
    for (const id of ingest.addedDocumentIds) assert.equal((await waitForSource(t, tenant.key, id)).linkedJobStatus, 'COMPLETED');
    const first = await expectStatus<{ jobs: { documentId: string; backgroundJobId: string }[] }>(t, 200, 'POST', '/v2/knowledge/public/bulk', tenant.key, {
      documentIds: [returnsId, shippingId],
      origin: 'sources',
      isDraft: false,
    });
    assert.deepEqual(first.jobs.map((j) => j.documentId), [returnsId, shippingId]);
    const firstJobs = await waitForJobs(t, tenant.key, first.jobs.map((j) => j.backgroundJobId));
    for (const job of firstJobs) {
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      assert.equal(job.linkedOperation, 'ADD_ARTICLE_TO_FOLDER');
      assert.equal(job.origin, 'sources');
      assert.equal(job.isDraft, false);
      assert.deepEqual(job.usage, { provider: 'builtin', model: 'parley-builtin', inputTokens: 0, outputTokens: 0, totalTokens: 0 });
      assert.ok(job.startedAt && job.completedAt && job.completedAt >= job.startedAt);
    }
    const returnsArticle = await getArticle(t, tenant.key, firstJobs[0]!.hcArticleId!);
    assert.equal(returnsArticle.isDraft, false);
    assert.equal(returnsArticle.origin, 'SOURCE_IMPORT');
    assert.equal(returnsArticle.title, 'Returns and refunds');
    assert.equal(returnsArticle.parentFolderId, folderId, 'the returns page goes to the returns folder');
    assert.match(returnsArticle.mainKnowledge, /within 30 days of delivery/);
    assert.deepEqual(returnsArticle.misc, { knowledgeJobId: firstJobs[0]!.id, sourceId: returnsId });
    const shippingArticle = await getArticle(t, tenant.key, firstJobs[1]!.hcArticleId!);
    assert.equal(shippingArticle.parentFolderId, shippingFolderId, 'the shipping page goes to the shipping folder');

    let returns = await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${returnsId}`, tenant.key);
    assert.equal(returns.linkedKnowledgeId, returnsArticle.id);
    assert.equal(returns.linkedOperation, 'ADD_ARTICLE_TO_FOLDER');
    assert.equal(returns.linkedReason, firstJobs[0]!.linkedReason);
    assert.ok(returns.linkedReason && returns.linkedReason.length > 10);
    assert.equal(returns.changed, false);

    // 2. The returns page changes (30 -> 14 days); the shipping page does not.
    site.set('/help/returns', html('Returns and refunds | Example Shop Help', RETURNS[0]!, RETURNS[1]!.replace('30 days', '14 days'), RETURNS[2]!));
    const refreshed = await expectStatus<string[]>(t, 200, 'POST', '/v2/documents/public/refresh', tenant.key, { documentIds: [returnsId, shippingId] });
    assert.deepEqual(refreshed.sort(), [returnsId, shippingId].sort());
    for (const id of [returnsId, shippingId]) assert.equal((await waitForSource(t, tenant.key, id)).linkedJobStatus, 'COMPLETED');

    // 3. List changed=true: only the returns page, linked to its article.
    const changed = await expectStatus<{ documents: Source[] }>(t, 200, 'GET', '/v2/documents/public?changed=true&source=web', tenant.key);
    assert.deepEqual(changed.documents.map((d) => d.id), [returnsId]);
    assert.equal(changed.documents[0]!.linkedKnowledgeId, returnsArticle.id);

    // 4. Bulk generate drafts for the changed sources.
    const second = await expectStatus<{ jobs: { documentId: string; backgroundJobId: string }[] }>(t, 200, 'POST', '/v2/knowledge/public/bulk', tenant.key, {
      documentIds: changed.documents.map((d) => d.id),
    });
    const [update] = (await waitForJobs(t, tenant.key, [second.jobs[0]!.backgroundJobId])) as [KnowledgeJob];
    assert.equal(update.jobStatus, 'COMPLETED', update.error);
    assert.equal(update.linkedOperation, 'UPDATE_ARTICLE');
    assert.equal(update.isDraft, true);

    // 5. A draft to review; the live article is untouched until it is published.
    const draft = await getArticle(t, tenant.key, update.hcArticleId!);
    assert.equal(draft.isDraft, true);
    assert.equal(draft.originalArticleId, returnsArticle.id);
    assert.equal(draft.origin, 'SOURCE_IMPORT');
    assert.match(draft.mainKnowledge, /within 14 days of delivery/);
    assert.doesNotMatch(draft.mainKnowledge, /30 days/);
    assert.match((await getArticle(t, tenant.key, returnsArticle.id)).mainKnowledge, /within 30 days of delivery/);

    // The source is in step: linked to the live article, no longer flagged.
    returns = await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${returnsId}`, tenant.key);
    assert.equal(returns.changed, false);
    assert.equal(returns.linkedKnowledgeId, returnsArticle.id);
    assert.equal(returns.linkedOperation, 'UPDATE_ARTICLE');
    const still = await expectStatus<{ documents: Source[] }>(t, 200, 'GET', '/v2/documents/public?changed=true', tenant.key);
    assert.deepEqual(still.documents, []);

    // 6. Publish: the live article now says 14 days, as a new version.
    const live = await expectStatus<Article>(t, 200, 'POST', `/v2/hc-articles/${draft.id}/publish/public`, tenant.key, {});
    assert.equal(live.id, returnsArticle.id);
    assert.equal(live.version, returnsArticle.version + 1);
    assert.match(live.mainKnowledge, /within 14 days of delivery/);

    // 7. The agent finds the new content.
    const search = await expectStatus<{ results: { article: { id: string } }[] }>(t, 200, 'POST', '/v2/knowledge/public/search', tenant.key, {
      query: 'how many days do I have to return an item?',
    });
    assert.equal(search.results[0]?.article.id, returnsArticle.id);
  });

  it('a source made into a draft follows it when the draft is published as a new article', async () => {
    site.set('/help/gift-cards', html('Gift cards', 'Gift cards never expire and can be used on any order in the shop.', 'A gift card cannot be exchanged for cash.'));
    const ingest = await ingestUrls(t, tenant.key, [site.url('/help/gift-cards')]);
    const [id] = ingest.addedDocumentIds as [string];
    await waitForSource(t, tenant.key, id);
    const { jobs } = await expectStatus<{ jobs: { backgroundJobId: string }[] }>(t, 200, 'POST', '/v2/knowledge/public/bulk', tenant.key, {
      documentIds: [id],
      restrictedOps: ['ADD_ARTICLE_TO_FOLDER'],
    });
    const [job] = (await waitForJobs(t, tenant.key, [jobs[0]!.backgroundJobId])) as [KnowledgeJob];
    assert.equal(job.jobStatus, 'COMPLETED', job.error);
    assert.equal(job.linkedOperation, 'ADD_ARTICLE_TO_FOLDER');
    const draft = await getArticle(t, tenant.key, job.hcArticleId!);
    assert.equal(draft.isDraft, true);
    assert.equal(draft.originalArticleId, null);
    assert.equal((await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${id}`, tenant.key)).linkedKnowledgeId, draft.id);

    const live = await expectStatus<Article>(t, 200, 'POST', `/v2/hc-articles/${draft.id}/publish/public`, tenant.key, {});
    assert.notEqual(live.id, draft.id);
    assert.equal((await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${id}`, tenant.key)).linkedKnowledgeId, live.id);

    // Deleting the article unlinks the source rather than leaving it pointing at nothing.
    await expectStatus(t, 200, 'DELETE', `/v2/hc-articles/${live.id}/public`, tenant.key);
    const unlinked = await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${id}`, tenant.key);
    assert.equal(unlinked.linkedKnowledgeId, null);
    assert.equal(unlinked.linkedOperation, null);
  });

  it('a new article goes to the folder whose drafts (a template not yet filled) share its topic', async () => {
    const w = await makeTenant(t);
    await makeFolder(t, w.key, 'Account', 'Articles about account.');
    const orders = await makeFolder(t, w.key, 'Orders', 'Articles about orders.');
    await makeArticle(t, w.key, orders, { title: 'Returns', mainKnowledge: '30 days, free of charge', isDraft: true } as Parameters<typeof makeArticle>[3]);
    const { backgroundJobId } = await expectStatus<{ backgroundJobId: string }>(t, 200, 'POST', '/v2/knowledge/public', w.key, {
      candidateKnowledge: 'Returned items are refunded to the original card within 5 business days after the return arrives.',
      origin: 'generated',
    });
    const [job] = (await waitForJobs(t, w.key, [backgroundJobId])) as [KnowledgeJob];
    assert.equal(job.linkedOperation, 'ADD_ARTICLE_TO_FOLDER', job.error);
    assert.equal((await getArticle(t, w.key, job.hcArticleId!)).parentFolderId, orders, job.linkedReason ?? '');
  });

  it('a second run on unchanged content does nothing and keeps the link', async () => {
    const folder = await makeFolder(t, tenant.key, 'Payments', 'Paying for orders');
    const article = await makeArticle(t, tenant.key, folder, {
      title: 'Payment methods',
      mainKnowledge: 'We accept Visa, Mastercard, American Express and PayPal. Bank transfers are accepted for orders over 500 euros.',
    });
    site.set('/help/payments', html('Payment methods', 'We accept Visa, Mastercard, American Express and PayPal.', 'Bank transfers are accepted for orders over 500 euros.'));
    const ingest = await ingestUrls(t, tenant.key, [site.url('/help/payments')]);
    const [id] = ingest.addedDocumentIds as [string];
    await waitForSource(t, tenant.key, id);
    const { jobs } = await expectStatus<{ jobs: { backgroundJobId: string }[] }>(t, 200, 'POST', '/v2/knowledge/public/bulk', tenant.key, { documentIds: [id] });
    const [job] = (await waitForJobs(t, tenant.key, [jobs[0]!.backgroundJobId])) as [KnowledgeJob];
    assert.equal(job.jobStatus, 'COMPLETED', job.error);
    assert.equal(job.linkedOperation, 'DO_NOTHING', job.linkedReason ?? '');
    assert.equal(job.hcArticleId, article.id);
    const source = await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${id}`, tenant.key);
    assert.equal(source.linkedKnowledgeId, article.id);
    assert.equal(source.linkedOperation, 'DO_NOTHING');
    const unchanged = await getArticle(t, tenant.key, article.id);
    assert.equal(unchanged.version, 1);
  });
});
