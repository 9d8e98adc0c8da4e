// A help center imported as a user scripts it with @parley/client (built-in engine): the pages
// ingested and waited for, one bulk generation of live articles waited for, then the sources and the
// articles read back through paging. The wire shapes are the client's generated types.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createParleyClient, type ParleyClient, type Schemas } from '../../packages/client/src/index.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant } from '../support/factories.js';
import { type FakeSite, html, startFakeSite } from '../support/fake-site.js';
import { INGEST_ENV } from '../support/sources.js';
import { ROBOTS_ALLOW_ALL } from './support.js';

const PAGES: Record<string, [title: string, folder: string, ...paragraphs: string[]]> = {
  '/help/returns': ['Returns and refunds', 'Returns', 'You can return any unused item within 30 days of delivery for a full refund.'],
  '/help/shipping': ['Shipping times', 'Shipping', 'Orders placed before 2 pm ship the same day. Standard delivery takes 3 to 5 business days.'],
  '/help/payments': ['Payment methods', 'Payments', 'We accept Visa, Mastercard and PayPal. Invoices are emailed as a PDF after each payment.'],
  '/help/gift-cards': ['Gift cards', 'Gift cards', 'Gift cards never expire and cannot be exchanged for cash.'],
  '/help/password': ['Changing your password', 'Account', 'Open Account settings and choose Security to change your password or turn on two-factor sign-in.'],
  '/help/warranty': ['Warranty', 'Warranty', 'Every appliance has a two-year warranty covering manufacturing defects, repaired or replaced free of charge.'],
};

describe('a help center imported through @parley/client (built-in engine)', () => {
  let t: TestApp;
  let site: FakeSite;
  let parley: ParleyClient;
  before(async () => {
    t = await startTestApp({ work: true, env: INGEST_ENV });
    site = await startFakeSite({ '/robots.txt': ROBOTS_ALLOW_ALL, ...Object.fromEntries(Object.entries(PAGES).map(([path, [title, , ...text]]) => [path, html(title, ...text)])) });
    parley = createParleyClient({ baseUrl: t.url, apiKey: (await makeTenant(t)).key });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  const waiting = (queue: string) => ({ intervalMs: 100, timeoutMs: 30_000, onPoll: () => t.wakeWorkers(queue) });

  it('ingests every page, generates a live article of each, and pages through both', async () => {
    const folders = new Map<string, string>();
    for (const [title, folder] of Object.values(PAGES)) {
      const created = await parley.unwrap(parley.POST('/v2/hc-folders/public', { body: { title: folder, description: `${title}: questions customers ask` } }));
      folders.set(folder, created.id);
    }

    const urls = Object.keys(PAGES).map((p) => site.url(p));
    const ingest = await parley.unwrap(parley.POST('/v2/documents/public', { body: { documentIdsToAdd: urls } }));
    assert.equal(ingest.addedDocumentIds.length, urls.length);
    const sources = await parley.waitForIngestion(ingest, waiting('sources.ingest'));
    assert.deepEqual(sources.map((s) => [s.url, s.linkedJobStatus, s.title]), urls.map((url, i) => [url, 'COMPLETED', Object.values(PAGES)[i]![0]]));

    const bulk = await parley.unwrap(parley.POST('/v2/knowledge/public/bulk', { body: { documentIds: ingest.addedDocumentIds, isDraft: false } }));
    assert.deepEqual(bulk.jobs.map((j) => j.documentId), ingest.addedDocumentIds);
    const jobs = await parley.waitForGeneration(bulk, waiting('knowledge.generate'));
    for (const job of jobs) {
      assert.equal(job.jobStatus, 'COMPLETED', job.error);
      assert.equal(job.linkedOperation, 'ADD_ARTICLE_TO_FOLDER', job.linkedReason ?? '');
      assert.equal(job.isDraft, false);
    }

    // Three sources a page: every source once, each linked to the article its job wrote.
    const linked = new Map<string, Schemas['Document']>();
    for await (const source of parley.paginate('/v2/documents/public', { params: { query: { limit: 3, source: 'web' } } })) {
      assert.ok(!linked.has(source.id), `${source.id} listed once`);
      linked.set(source.id, source);
    }
    assert.deepEqual([...linked.keys()].sort(), [...ingest.addedDocumentIds].sort());
    jobs.forEach((job, i) => assert.equal(linked.get(ingest.addedDocumentIds[i]!)!.linkedKnowledgeId, job.hcArticleId));

    // Four articles a page: the six live articles, each in the folder of its page's topic.
    const articles: Schemas['Article'][] = [];
    for await (const article of parley.paginate('/v2/hc-articles/public', { params: { query: { limit: 4, origin: 'SOURCE_IMPORT', type: 'live' } } })) articles.push(article);
    assert.deepEqual(articles.map((a) => a.id).sort(), jobs.map((j) => j.hcArticleId).sort());
    for (const [i, job] of jobs.entries()) {
      const article = articles.find((a) => a.id === job.hcArticleId)!;
      const [, folder, ...text] = Object.values(PAGES)[i]!;
      assert.equal(article.parentFolderId, folders.get(folder), `${article.title} in ${folder}`);
      assert.ok(article.mainKnowledge.includes(text[0]!.split('.')[0]!), article.mainKnowledge);
      assert.deepEqual(article.misc, { knowledgeJobId: job.id, sourceId: ingest.addedDocumentIds[i] });
    }
  });
});
