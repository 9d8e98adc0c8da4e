// @parley/client's job waits against a working app: an uploaded file's and a fake site's page's
// ingestion, a knowledge-generation job (built-in engine), a wait that times out and one aborted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createParleyClient, type ParleyClient, ParleyTimeoutError, type Source } from '../../packages/client/src/index.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant } from '../support/factories.js';
import { type FakeSite, html, startFakeSite } from '../support/fake-site.js';
import { INGEST_ENV } from '../support/sources.js';

const ROBOTS = { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' };
const SHIPPING_TEXT =
  'Orders placed before 2 pm ship the same day from our warehouse. Standard delivery takes 3 to 5 business days, and shipping is free for orders over 50 euros.';

describe('@parley/client: waiting for jobs', () => {
  let t: TestApp;
  let site: FakeSite;
  before(async () => {
    t = await startTestApp({ work: true, env: INGEST_ENV });
    site = await startFakeSite({
      '/robots.txt': ROBOTS,
      '/help/returns': html('Returns and refunds', 'You can return any unused item within 30 days of delivery for a full refund.'),
      '/help/slow': { body: html('Slow page', 'This page takes a while to answer.'), headers: { 'content-type': 'text/html' }, delayMs: 1500 },
    });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  async function tenantClient(): Promise<ParleyClient> {
    const { key } = await makeTenant(t);
    return createParleyClient({ baseUrl: t.url, apiKey: key });
  }

  /** Each look wakes the queue's workers, as the test helpers' polls do (a worker polls every 0.5 s). */
  const wake = (queue: string) => ({ intervalMs: 100, timeoutMs: 20_000, onPoll: () => t.wakeWorkers(queue) });

  it('waits for an uploaded file to be ingested (a File in the body goes as multipart)', async () => {
    const parley = await tenantClient();
    const file = new File(['# Returns\n\nYou can return any unused item within 30 days of delivery.\n'], 'returns.md', { type: 'text/markdown' });
    const { data, response } = await parley.POST('/v2/documents/public/files', { body: { file, title: 'Returns policy' } });
    assert.equal(response.status, 202);
    assert.ok(data);
    assert.equal(data.jobs.length, 1);
    assert.equal(data.jobs[0]!.status, 'PENDING');
    const states: string[] = [];
    const [source] = await parley.waitForIngestion(data, { ...wake('sources.ingest'), onPoll: (sources) => (t.wakeWorkers('sources.ingest'), states.push(sources[0]!.linkedJobStatus ?? 'none')) });
    assert.ok(source);
    assert.equal(source.id, data.jobs[0]!.documentId);
    assert.equal(source.linkedJobId, data.jobs[0]!.id);
    assert.equal(source.linkedJobStatus, 'COMPLETED');
    assert.equal(source.success, true);
    assert.equal(source.source, 'files');
    assert.equal(source.title, 'Returns policy');
    assert.equal(source.originalUrl, 'returns.md');
    assert.deepEqual(source.paragraphs, ['Returns', 'You can return any unused item within 30 days of delivery.']);
    assert.equal(states.at(-1), 'COMPLETED');
    assert.ok(states.slice(0, -1).every((s) => s === 'PENDING' || s === 'IN_PROGRESS'), states.join(' '));
  });

  it("waits for a web page's ingestion by source id", async () => {
    const parley = await tenantClient();
    const ingest = await parley.unwrap(parley.POST('/v2/documents/public', { body: { documentIdsToAdd: [site.url('/help/returns')] } }));
    const source: Source = await parley.waitForIngestion(ingest.addedDocumentIds[0]!, wake('sources.ingest'));
    assert.equal(source.linkedJobStatus, 'COMPLETED');
    assert.equal(source.url, site.url('/help/returns'));
    assert.equal(source.title, 'Returns and refunds');
    assert.deepEqual(source.paragraphs, ['Returns and refunds', 'You can return any unused item within 30 days of delivery for a full refund.']);
    assert.equal(site.hits('/help/returns'), 1);
  });

  it('waits for a knowledge-generation job and reads the article it wrote', async () => {
    const parley = await tenantClient();
    const folder = await parley.unwrap(parley.POST('/v2/hc-folders/public', { body: { title: 'Shipping and delivery', description: 'Delivery times, carriers and shipping costs' } }));
    const queued = await parley.unwrap(parley.POST('/v2/knowledge/public', { body: { candidateKnowledge: SHIPPING_TEXT, origin: 'generated' } }));
    const job = await parley.waitForGeneration(queued, wake('knowledge.generate'));
    assert.equal(job.id, queued.backgroundJobId);
    assert.equal(job.jobStatus, 'COMPLETED', job.error);
    assert.equal(job.linkedOperation, 'ADD_ARTICLE_TO_FOLDER');
    assert.ok(job.hcArticleId);
    const [article] = await parley.unwrap(parley.POST('/v2/hc-articles/ids/public', { body: { articleIds: [job.hcArticleId] } }));
    assert.ok(article);
    assert.equal(article.parentFolderId, folder.id);
    assert.equal(article.origin, 'MAGIC_ARTICLE');
    assert.equal(article.isDraft, true);
    assert.match(article.mainKnowledge, /Standard delivery takes 3 to 5 business days/);
    // The same job by id, in a list: already finished, one look.
    let looks = 0;
    const [again] = await parley.waitForGeneration([job.id.toUpperCase()], { onPoll: () => (looks += 1) });
    assert.deepEqual(again, job);
    assert.equal(looks, 1);
  });

  it('a wait past its timeout fails with the last state seen; an aborted wait with the reason', async () => {
    const parley = await tenantClient();
    const ingest = await parley.unwrap(parley.POST('/v2/documents/public', { body: { documentIdsToAdd: [site.url('/help/slow')] } }));
    const id = ingest.addedDocumentIds[0]!;
    const timedOut = await parley.waitForIngestion(id, { intervalMs: 50, timeoutMs: 300, onPoll: () => t.wakeWorkers('sources.ingest') }).catch((e: unknown) => e);
    assert.ok(timedOut instanceof ParleyTimeoutError);
    assert.equal(timedOut.message, `ingestion of source ${id} did not finish within 300 ms`);
    const last = timedOut.last as Source[];
    assert.equal(last[0]!.id, id);
    assert.ok(last[0]!.linkedJobStatus === 'PENDING' || last[0]!.linkedJobStatus === 'IN_PROGRESS', String(last[0]!.linkedJobStatus));

    const controller = new AbortController();
    const reason = new Error('the user pressed stop');
    setTimeout(() => controller.abort(reason), 100);
    await assert.rejects(parley.waitForIngestion(id, { intervalMs: 50, signal: controller.signal }), (e: unknown) => e === reason);

    const done = await parley.waitForIngestion(id, wake('sources.ingest'));
    assert.equal(done.linkedJobStatus, 'COMPLETED');
    assert.equal(done.title, 'Slow page');
  });
});
