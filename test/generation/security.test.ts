// The knowledge-generation routes through HTTP with the built-in engine: security of the four routes, and
// what another workspace's ids answer.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { assertError, expectStatus, type SecuredRouteRow, securitySuites } from '../support/security.js';
import { ingestUrls, type Source } from '../support/sources.js';
import { BULK, GENERATE, makeAgent, queue, queueBulk, STATUS, statuses, TREE_INIT, UNKNOWN } from './support.js';

describe('knowledge generation routes: security', () => {
  let t: TestApp;
  before(async () => {
    // No workers: sources stay PENDING (nothing is fetched) and jobs stay PENDING.
    t = await startTestApp();
  });
  after(() => t.close());

  type Build = SecuredRouteRow[3];
  const sourceOf = async (app: TestApp, owner: Tenant) =>
    (await ingestUrls(app, owner.key, [`https://docs.acme.test/page-${randomUUID()}`])).addedDocumentIds[0]!;
  const agentOf = (app: TestApp, owner: Tenant) => makeAgent(app, owner.key);

  const generateFromSource: Build = async (app, owner) => ({
    path: GENERATE,
    body: { candidateKnowledge: 'Refunds take 5 days.', origin: 'sources', documentId: await sourceOf(app, owner) },
  });
  const generateForAgent: Build = async (app, owner) => ({
    path: GENERATE,
    body: { candidateKnowledge: 'Refunds take 5 days.', origin: 'generated', botId: await agentOf(app, owner) },
  });
  const bulkForAgent: Build = async (app, owner) => ({ path: BULK, body: { documentIds: [UNKNOWN], botId: await agentOf(app, owner) } });
  const statusOfJob: Build = async (app, owner) => ({
    path: STATUS,
    body: { jobIds: [await queue(app, owner.key, { candidateKnowledge: 'Refunds take 5 days.', origin: 'generated' })] },
  });
  const initialize: Build = async () => ({ path: TREE_INIT, body: { initPrompt: '# Orders\n- Shipping: within 2 days' } });

  // [label, method, scope, request, status for a resource of another workspace]
  const routes: SecuredRouteRow[] = [
    ['generate (documentId of another workspace: 400)', 'POST', 'write', generateFromSource, 400],
    ['generate (botId of another workspace: 404)', 'POST', 'write', generateForAgent, 404],
    ['bulk (botId of another workspace: 404)', 'POST', 'write', bulkForAgent, 404],
    ['jobs/status (job of another workspace: 404)', 'POST', 'read', statusOfJob, 404],
    ['tree/initialize', 'POST', 'write', initialize, undefined],
  ];
  securitySuites(() => t, routes);

  describe('another workspace, with the messages', () => {
    it("generate names another workspace's source as unknown (400) and another workspace's agent as not found (404)", async () => {
      const [owner, caller] = [await makeTenant(t), await makeTenant(t)];
      const documentId = await sourceOf(t, owner);
      const res = await t.request('POST', GENERATE, { key: caller.key, body: { candidateKnowledge: 'Some text.', origin: 'sources', documentId } });
      assertError(res, 400, `documentId: no source ${documentId} in this workspace`);
      const botId = await agentOf(t, owner);
      assertError(await t.request('POST', GENERATE, { key: caller.key, body: { candidateKnowledge: 'Some text.', origin: 'generated', botId } }), 404, 'agent not found');
      assertError(await t.request('POST', BULK, { key: caller.key, body: { documentIds: [documentId], botId } }), 404, 'agent not found');
    });

    it("jobs/status answers 404 naming another workspace's job, even next to one of the caller's", async () => {
      const [owner, caller] = [await makeTenant(t), await makeTenant(t)];
      const theirs = await queue(t, owner.key, { candidateKnowledge: 'Refunds take 5 days.', origin: 'generated' });
      const mine = await queue(t, caller.key, { candidateKnowledge: 'Refunds take 5 days.', origin: 'generated' });
      assertError(await t.request('POST', STATUS, { key: caller.readKey, body: { jobIds: [mine, theirs] } }), 404, `knowledge job ${theirs} not found`);
      assert.deepEqual((await statuses(t, caller.readKey, [mine])).map((j) => [j.id, j.jobStatus]), [[mine, 'PENDING']]);
    });

    it("bulk gives another workspace's source a job FAILED at once, and does not touch it", async () => {
      const [owner, caller] = [await makeTenant(t), await makeTenant(t)];
      const documentId = await sourceOf(t, owner);
      const untouched = await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${documentId}`, owner.key);
      const [job] = await queueBulk(t, caller.key, { documentIds: [documentId] });
      assert.equal(job!.documentId, documentId);
      const [status] = await statuses(t, caller.key, [job!.backgroundJobId]);
      assert.equal(status!.jobStatus, 'FAILED');
      assert.equal(status!.error, `no source ${documentId} in this workspace`);
      assert.deepEqual(await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${documentId}`, owner.key), untouched);
      assertError(await t.request('POST', STATUS, { key: owner.key, body: { jobIds: [job!.backgroundJobId] } }), 404);
    });
  });
});
