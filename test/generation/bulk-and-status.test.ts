// The knowledge-generation routes through HTTP with the built-in engine: bulk generation from sources and
// jobs/status.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import type { TestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { type FakeSite, html } from '../support/fake-site.js';
import { assertError, expectStatus } from '../support/security.js';
import { ingestUrls, type Source, waitForSource } from '../support/sources.js';
import { ACCOUNT_TEXT, ADD, assertJob, BILLING_TEXT, BULK, getArticle, ingestPage, makeFolder, makeTopicFolders, queue, queueBulk, SHIPPING_TEXT, startBuiltinApp, STATUS, statuses, UNKNOWN, useApp, waitForJobs } from './support.js';

describe('knowledge generation routes (built-in engine)', () => {
  let t: TestApp, site: FakeSite;
  useApp(startBuiltinApp, (app) => ({ t, site } = app));

  describe('POST /v2/knowledge/public/bulk', () => {
    it('one job per distinct id in order: unknown ids FAILED at once, a failed ingestion FAILED with its reason, the good one COMPLETED', async () => {
      const [w, other] = [await makeTenant(t), await makeTenant(t)];
      const folder = await makeFolder(t, w.key, 'Returns and refunds', 'Returning items, refunds and exchanges');
      const good = await ingestPage(t, w.key, site.url('/help/returns'));
      const failed = await ingestPage(t, w.key, site.url('/help/missing'), 'FAILED');
      assert.ok(failed.error, 'the failed ingestion records why');
      const foreign = await ingestPage(t, other.key, site.url('/help/gift-cards'));
      const random = randomUUID();

      const jobs = await queueBulk(t, w.writeKey, { documentIds: [good.id, failed.id, foreign.id, random, good.id, random], isDraft: false });
      assert.deepEqual(jobs.map((j) => j.documentId), [good.id, failed.id, foreign.id, random]);
      assert.equal(new Set(jobs.map((j) => j.backgroundJobId)).size, 4);
      const ids = jobs.map((j) => j.backgroundJobId);

      // The unknown ids are FAILED at once, before any worker.
      const [, , foreignNow, randomNow] = await statuses(t, w.readKey, ids);
      for (const [job, documentId] of [[foreignNow!, foreign.id], [randomNow!, random]] as const) {
        assertJob(job, {
          id: job.id, jobStatus: 'FAILED', hcArticleId: null, origin: 'sources', documentId, hcEventId: null, isDraft: false, linkedOperation: null,
          error: `no source ${documentId} in this workspace`,
        }, null);
        assert.equal(job.startedAt, job.completedAt, 'ended as it started');
      }

      const [goodJob, failedJob, foreignJob, randomJob] = await waitForJobs(t, w.readKey, ids);
      assertJob(goodJob!, {
        id: ids[0]!, jobStatus: 'COMPLETED', hcArticleId: goodJob!.hcArticleId, origin: 'sources', documentId: good.id, hcEventId: null, isDraft: false, linkedOperation: ADD,
      }, /adding it to folder "Returns and refunds"/);
      assertJob(failedJob!, {
        id: ids[1]!, jobStatus: 'FAILED', hcArticleId: null, origin: 'sources', documentId: failed.id, hcEventId: null, isDraft: false, linkedOperation: null,
        error: `source ${failed.id} has no content: its ingestion failed (${failed.error})`,
      }, null);
      assert.deepEqual([foreignJob, randomJob], [foreignNow, randomNow], 'the failed-at-once jobs do not change');

      const article = await getArticle(t, w.key, goodJob!.hcArticleId!);
      assert.deepEqual([article.isDraft, article.origin, article.parentFolderId], [false, 'SOURCE_IMPORT', folder]);
      assert.match(article.mainKnowledge, /within 30 days of delivery/);
      const linked = await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${good.id}`, w.key);
      assert.deepEqual([linked.linkedKnowledgeId, linked.linkedOperation, linked.linkedReason], [article.id, ADD, goodJob!.linkedReason]);
      const unlinked = await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${failed.id}`, w.key);
      assert.deepEqual([unlinked.linkedKnowledgeId, unlinked.linkedOperation], [null, null]);
      // The other workspace's source is not touched.
      const theirs = await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${foreign.id}`, other.key);
      assert.deepEqual(theirs, foreign);
    });

    it('a source whose ingestion has not completed fails with that reason', async () => {
      const w = await makeTenant(t);
      await makeFolder(t, w.key, 'Returns and refunds', 'Returning items');
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      site.set('/help/slow', {
        handle: async (_req, res) => {
          await held;
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html('Slow page', 'This page answers only when the test lets it.'));
        },
      });
      try {
        const [id] = (await ingestUrls(t, w.key, [site.url('/help/slow')])).addedDocumentIds;
        const busy = await waitForSource(t, w.key, id!, (s) => s.linkedJobStatus === 'IN_PROGRESS' && site.hits('/help/slow') > 0);
        const [job] = await queueBulk(t, w.key, { documentIds: [busy.id] });
        const [status] = await waitForJobs(t, w.key, [job!.backgroundJobId]);
        assert.equal(status!.jobStatus, 'FAILED');
        assert.equal(status!.error, `source ${busy.id} has no content yet: its ingestion is IN_PROGRESS; generate after it is COMPLETED`);
      } finally {
        release();
      }
    });

    it(
      'a job FAILED at once is not started before it was created',
      async () => {
        const w = await makeTenant(t);
        const jobs = await queueBulk(t, w.key, { documentIds: Array.from({ length: 500 }, () => randomUUID()) });
        const all = await statuses(t, w.key, jobs.map((j) => j.backgroundJobId));
        const early = all.filter((j) => j.startedAt! < j.createdAt).map((j) => [j.createdAt, j.startedAt]);
        assert.deepEqual(early.slice(0, 3), [], `${early.length} of 500 jobs started before they were created`);
      },
    );

    it('origin defaults to sources; any other origin is 400', async () => {
      const w = await makeTenant(t);
      const [job] = await queueBulk(t, w.key, { documentIds: [UNKNOWN] });
      assert.equal((await statuses(t, w.key, [job!.backgroundJobId]))[0]!.origin, 'sources');
      await queueBulk(t, w.key, { documentIds: [UNKNOWN], origin: 'sources' });
      for (const origin of ['generated', 'inbox', 'web']) {
        assertError(await t.request('POST', BULK, { key: w.key, body: { documentIds: [UNKNOWN], origin } }), 400, /^body\.origin: /);
      }
    });

    it('validates documentIds: required, 1 to 500 uuids', async () => {
      const w = await makeTenant(t);
      const post = (body: unknown) => t.request('POST', BULK, { key: w.key, body });
      assertError(await post({}), 400, /^body\.documentIds: /);
      assertError(await post({ documentIds: [] }), 400, /^body\.documentIds: /);
      assertError(await post({ documentIds: ['not-a-uuid'] }), 400, /^body\.documentIds\.0: /);
      assertError(await post({ documentIds: Array.from({ length: 501 }, () => randomUUID()) }), 400, /^body\.documentIds: /);
      assertError(await post({ documentIds: [UNKNOWN], candidateKnowledge: 'x' }), 400, /^body: .*candidateKnowledge/);
      assertError(await post({ documentIds: [UNKNOWN], restrictedOps: [] }), 400, /^body\.restrictedOps: /);
      const ids = Array.from({ length: 500 }, () => randomUUID());
      const jobs = await queueBulk(t, w.key, { documentIds: ids });
      assert.deepEqual(jobs.map((j) => j.documentId), ids);
      const all = await statuses(t, w.key, jobs.map((j) => j.backgroundJobId));
      assert.ok(all.every((j) => j.jobStatus === 'FAILED'));
    });
  });

  describe('POST /v2/knowledge/public/jobs/status', () => {
    let w: Tenant;
    let ids: string[];
    before(async () => {
      w = await makeTenant(t);
      await makeTopicFolders(t, w.key);
      ids = [];
      for (const text of [SHIPPING_TEXT, BILLING_TEXT, ACCOUNT_TEXT]) ids.push(await queue(t, w.key, { candidateKnowledge: text, origin: 'generated' }));
      await waitForJobs(t, w.key, ids);
    });
    const post = (body: unknown) => t.request('POST', STATUS, { key: w.readKey, body });

    it('answers the jobs in the order asked, repeated ids once, with a read key', async () => {
      const [a, b, c] = ids as [string, string, string];
      assert.deepEqual((await statuses(t, w.readKey, [c, a, b])).map((j) => j.id), [c, a, b]);
      assert.deepEqual((await statuses(t, w.readKey, [b, b, a, b])).map((j) => j.id), [b, a]);
      const res = await expectStatus<Record<string, unknown>>(t, 200, 'POST', STATUS, w.readKey, { jobIds: [a] });
      assert.deepEqual(Object.keys(res), ['jobs']);
    });

    it('answers 404 naming the first id that is not a knowledge job of the workspace', async () => {
      const other = randomUUID();
      assertError(await post({ jobIds: [ids[0], UNKNOWN, other] }), 404, `knowledge job ${UNKNOWN} not found`);
      assertError(await post({ jobIds: [other, UNKNOWN] }), 404, `knowledge job ${other} not found`);
    });

    it("answers 404 for a source's ingestion job id", async () => {
      const source = await ingestPage(t, w.key, site.url('/help/gift-cards'));
      assert.ok(source.linkedJobId);
      assertError(await post({ jobIds: [source.linkedJobId] }), 404, `knowledge job ${source.linkedJobId} not found`);
    });

    it('answers 400 for a malformed uuid, an empty list, more than 500 ids or an unknown field', async () => {
      assertError(await post({ jobIds: ['not-a-uuid'] }), 400, /^body\.jobIds\.0: /);
      assertError(await post({ jobIds: [] }), 400, /^body\.jobIds: /);
      assertError(await post({}), 400, /^body\.jobIds: /);
      assertError(await post({ jobIds: Array.from({ length: 501 }, () => UNKNOWN) }), 400, /^body\.jobIds: /);
      assertError(await post({ jobIds: [ids[0]], verbose: true }), 400, /^body: .*verbose/);
    });
  });

});
