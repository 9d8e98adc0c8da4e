// Webhook endpoints through HTTP: create (the secret once, sealed at rest), list, get, update,
// delete, validation naming the field, the test route, the deliveries list with its keyset pages,
// another workspace, read-only keys, and the shared security suite.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { webhookEndpoints } from '../../src/db/schema/index.js';
import { jobNamed } from '../../src/jobs/registry.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { assertError, expectStatus, type SecuredRouteRow, securitySuites } from '../support/security.js';
import { say, setupAgent } from '../conversations/support.js';
import {
  createWebhook,
  type Delivery,
  type DeliveryPage,
  deliveries,
  deliveriesOf,
  type Receiver,
  redeliverOf,
  rotateOf,
  startReceiver,
  testOf,
  UNKNOWN,
  waitForDeliveries,
  type Webhook,
  WEBHOOKS,
  webhook,
  webhookEnv,
} from './support.js';

/** An endpoint as every answer but the creation's shows it. */
function withoutSecret(created: Webhook): Webhook {
  const shown = { ...created };
  delete shown.secret;
  return shown;
}

describe('webhook routes', () => {
  let t: TestApp;
  let w: Tenant;
  let receiver: Receiver;
  before(async () => {
    t = await startTestApp({ env: webhookEnv() });
    w = await makeTenant(t);
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  const ok = <T>(status: number, method: string, path: string, body?: unknown, key = w.key) => expectStatus<T>(t, status, method, path, key, body);
  const fail = async (method: string, path: string, status: number, message?: string | RegExp, body?: unknown, key = w.key) =>
    assertError(await t.request(method, path, { key, body }), status, message);

  it('creates an endpoint with its secret shown once and sealed at rest, then gets, lists, updates and deletes it', async () => {
    const created = await createWebhook(t, w.key, { url: receiver.url, events: ['conversation.escalated', 'source.failed'], description: 'on-call' });
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(created.enabled, true);
    assert.equal(created.companyId, w.workspaceId);
    assert.deepEqual(created.events, ['conversation.escalated', 'source.failed']);
    assert.equal(created.disabledReason, null);
    const [row] = await t.database.db.select().from(webhookEndpoints).where(and(eq(webhookEndpoints.workspaceId, w.workspaceId), eq(webhookEndpoints.id, created.id)));
    assert.ok(row!.secretSealed.startsWith('v1.'), 'the secret is sealed');
    assert.ok(!row!.secretSealed.includes(created.secret.slice(6)), 'the secret is not stored in clear');
    assert.equal(t.ports.secrets.open(row!.secretSealed), created.secret);

    const shown = withoutSecret(created);
    const got = await ok<Webhook>(200, 'GET', webhook(created.id), undefined, w.readKey);
    assert.deepEqual(got, shown);
    assert.equal('secret' in got, false);
    assert.deepEqual(await ok<Webhook[]>(200, 'GET', WEBHOOKS, undefined, w.readKey), [shown]);

    const updated = await ok<Webhook>(200, 'PATCH', webhook(created.id), { events: ['article.published'], enabled: false });
    assert.deepEqual(updated.events, ['article.published']);
    assert.equal(updated.enabled, false);
    assert.equal(updated.disabledReason, null, 'switched off by a client: nothing failed');
    assert.ok(updated.disabledAt);
    const again = await ok<Webhook>(200, 'PATCH', webhook(created.id), { enabled: true, url: `${receiver.url}/v2` });
    assert.equal(again.enabled, true);
    assert.equal(again.disabledAt, null);
    assert.equal(again.url, `${receiver.url}/v2`);
    assert.deepEqual(await ok<Webhook>(200, 'DELETE', webhook(created.id)), again);
    await fail('GET', webhook(created.id), 404, 'webhook not found');
    await fail('PATCH', webhook(created.id), 404, 'webhook not found', { enabled: true });
    await fail('DELETE', webhook(created.id), 404, 'webhook not found');
  });

  it('refuses bad input with a 400 naming the field, storing nothing', async () => {
    const w2 = await makeTenant(t);
    const bad = async (body: unknown, message: RegExp) => fail('POST', WEBHOOKS, 400, message, body, w2.key);
    await bad({ events: ['conversation.created'] }, /body\.url/);
    await bad({ url: 'not a url', events: ['conversation.created'] }, /body\.url: not a valid URL/);
    await bad({ url: 'ftp://example.com/x', events: ['conversation.created'] }, /body\.url: only http and https/);
    await bad({ url: 'https://user:pw@example.com/x', events: ['conversation.created'] }, /body\.url: a URL with credentials/);
    await bad({ url: 'https://example.com/x', events: [] }, /body\.events/);
    await bad({ url: 'https://example.com/x', events: ['conversation.deleted'] }, /body\.events\.0/);
    await bad({ url: 'https://example.com/x', events: ['source.failed', 'source.failed'] }, /body\.events: each event at most once/);
    await bad({ url: 'https://example.com/x', events: ['source.failed'], secret: 'whsec_mine' }, /secret/);
    await fail('GET', webhook('not-a-uuid'), 400, /path\.id/);
    assert.deepEqual(await ok<Webhook[]>(200, 'GET', WEBHOOKS, undefined, w2.key), []);
    const created = await createWebhook(t, w2.key, { url: 'https://example.com/hook', events: ['source.failed'] });
    await fail('PATCH', webhook(created.id), 400, /body\.events/, { events: [] }, w2.key);
    await fail('PATCH', webhook(created.id), 400, /body\.url/, { url: 'mailto:a@b.c' }, w2.key);
    assert.deepEqual(await ok<Webhook>(200, 'GET', webhook(created.id), undefined, w2.key), withoutSecret(created));
  });

  it('refuses private and loopback addresses unless the operator allows them', async () => {
    const strict = await startTestApp();
    try {
      const w3 = await makeTenant(strict);
      for (const url of ['http://127.0.0.1:9/hook', 'http://10.0.0.8/hook', 'http://169.254.169.254/latest', 'http://[::1]/hook']) {
        assertError(await strict.request('POST', WEBHOOKS, { key: w3.key, body: { url, events: ['source.failed'] } }), 400, /body\.url: a private or loopback address/);
      }
      // A name is resolved at delivery, and refused there when it points inside.
      const seen = receiver.requests.length;
      const named = await expectStatus<Webhook>(strict, 201, 'POST', WEBHOOKS, w3.key, { url: receiver.url.replace('127.0.0.1', 'localhost'), events: ['source.failed'] });
      const sent = await expectStatus<Delivery>(strict, 200, 'POST', testOf(named.id), w3.key);
      assert.equal(sent.status, 'failed');
      assert.equal(sent.responseStatus, null);
      assert.match(sent.lastError!, /private or loopback address/);
      assert.equal(receiver.requests.length, seen, 'the receiver was never contacted');
    } finally {
      await strict.close();
    }
  });

  it('sends a test message and lists deliveries newest first in keyset pages, filtered by status', async () => {
    const w4 = await makeTenant(t);
    const hook = await createWebhook(t, w4.key, { url: receiver.url, events: ['source.ingested'] });
    const sent: Delivery[] = [];
    receiver.answers.push(200, 500, 200, 200, 500);
    for (let i = 0; i < 5; i += 1) sent.push(await ok<Delivery>(200, 'POST', testOf(hook.id), undefined, w4.key));
    assert.deepEqual(sent.map((d) => d.status), ['delivered', 'failed', 'delivered', 'delivered', 'failed']);
    assert.deepEqual(sent.map((d) => d.responseStatus), [200, 500, 200, 200, 500]);
    for (const d of sent) {
      assert.equal(d.eventType, 'webhook.test');
      assert.equal(d.isTest, true);
      assert.equal(d.attempts, 1);
      assert.equal(typeof d.responseTimeMs, 'number');
      assert.deepEqual(d.payload.data, { webhookId: hook.id, message: 'A test message from Parley.' });
    }
    assert.equal(sent[1]!.lastError, 'the endpoint answered HTTP 500');
    assert.equal((await ok<Webhook>(200, 'GET', webhook(hook.id), undefined, w4.key)).failingSince, null, 'tests do not count towards disabling');

    const newestFirst = [...sent].reverse().map((d) => d.id);
    const page1 = await ok<DeliveryPage>(200, 'GET', deliveriesOf(hook.id, '?limit=2'), undefined, w4.readKey);
    assert.deepEqual(page1.deliveries.map((d) => d.id), newestFirst.slice(0, 2));
    assert.equal(page1.hasMore, true);
    assert.equal(page1.prevCursor, null);
    const page2 = await ok<DeliveryPage>(200, 'GET', deliveriesOf(hook.id, `?limit=2&cursor=${page1.nextCursor}`), undefined, w4.readKey);
    assert.deepEqual(page2.deliveries.map((d) => d.id), newestFirst.slice(2, 4));
    const page3 = await ok<DeliveryPage>(200, 'GET', deliveriesOf(hook.id, `?limit=2&cursor=${page2.nextCursor}`), undefined, w4.readKey);
    assert.deepEqual(page3.deliveries.map((d) => d.id), newestFirst.slice(4));
    assert.equal(page3.hasMore, false);
    assert.equal(page3.nextCursor, null);
    const back = await ok<DeliveryPage>(200, 'GET', deliveriesOf(hook.id, `?limit=2&direction=previous&cursor=${page3.prevCursor}`), undefined, w4.readKey);
    assert.deepEqual(back.deliveries.map((d) => d.id), newestFirst.slice(2, 4));
    const failed = await ok<DeliveryPage>(200, 'GET', deliveriesOf(hook.id, '?status=failed'), undefined, w4.readKey);
    assert.deepEqual(failed.deliveries.map((d) => d.id), [sent[4]!.id, sent[1]!.id]);
    await fail('GET', deliveriesOf(hook.id, `?cursor=${UNKNOWN}`), 400, /query\.cursor/, undefined, w4.key);
    await fail('GET', deliveriesOf(hook.id, '?limit=0'), 400, /query\.limit/, undefined, w4.key);
    await fail('GET', deliveriesOf(hook.id, '?status=lost'), 400, /query\.status/, undefined, w4.key);
    await fail('GET', deliveriesOf(UNKNOWN), 404, 'webhook not found', undefined, w4.key);
  });

  it('redelivers to an enabled endpoint only, under the same webhook-id', async () => {
    const w5 = await makeTenant(t);
    const hook = await createWebhook(t, w5.key, { url: receiver.url, events: ['source.ingested'] });
    const first = await ok<Delivery>(200, 'POST', testOf(hook.id), undefined, w5.key);
    const copy = await ok<Delivery>(202, 'POST', redeliverOf(hook.id, first.id), undefined, w5.key);
    assert.equal(copy.messageId, first.messageId);
    assert.equal(copy.redeliveryOf, first.id);
    assert.equal(copy.status, 'pending');
    assert.deepEqual(copy.payload, first.payload);
    await fail('POST', redeliverOf(hook.id, UNKNOWN), 404, 'delivery not found', undefined, w5.key);
    await ok(200, 'PATCH', webhook(hook.id), { enabled: false }, w5.key);
    await fail('POST', redeliverOf(hook.id, first.id), 409, /disabled/, undefined, w5.key);
    const check = await ok<Delivery>(200, 'POST', testOf(hook.id), undefined, w5.key);
    assert.equal(check.status, 'delivered', 'a disabled endpoint can still be tested');
    assert.equal((await ok<Webhook>(200, 'GET', webhook(hook.id), undefined, w5.key)).enabled, false);
    const other = await createWebhook(t, w5.key, { url: receiver.url, events: ['source.ingested'] });
    await fail('POST', redeliverOf(other.id, first.id), 404, 'delivery not found', undefined, w5.key);
  });

  it('keeps workspaces apart: another workspace\'s endpoint and deliveries read as 404', async () => {
    const owner = await makeTenant(t);
    const stranger = await makeTenant(t);
    const hook = await createWebhook(t, owner.key, { url: receiver.url, events: ['article.published'] });
    const sent = await ok<Delivery>(200, 'POST', testOf(hook.id), undefined, owner.key);
    for (const [method, path, body] of [
      ['GET', webhook(hook.id)],
      ['PATCH', webhook(hook.id), { enabled: false }],
      ['DELETE', webhook(hook.id)],
      ['POST', testOf(hook.id)],
      ['GET', deliveriesOf(hook.id)],
      ['POST', redeliverOf(hook.id, sent.id)],
    ] as [string, string, unknown?][]) {
      await fail(method, path, 404, 'webhook not found', body, stranger.key);
    }
    assert.deepEqual(await ok<Webhook[]>(200, 'GET', WEBHOOKS, undefined, stranger.key), []);
    assert.equal((await ok<Webhook>(200, 'GET', webhook(hook.id), undefined, owner.key)).enabled, true);
  });

  it('purges finished deliveries older than the retention, keeping pending ones', async () => {
    const w6 = await makeTenant(t);
    const hook = await createWebhook(t, w6.key, { url: receiver.url, events: ['source.failed'] });
    receiver.answers.push(200, 500);
    const delivered = await ok<Delivery>(200, 'POST', testOf(hook.id), undefined, w6.key);
    const failed = await ok<Delivery>(200, 'POST', testOf(hook.id), undefined, w6.key);
    assert.deepEqual([delivered.status, failed.status], ['delivered', 'failed']);
    const pending = await ok<Delivery>(202, 'POST', redeliverOf(hook.id, failed.id), undefined, w6.key);
    const purgeAt = async (days: number) => {
      const now = new Date(Date.now() + days * 24 * 3600 * 1000);
      const run = { ports: { ...t.ports, clock: { now: () => now } }, id: randomUUID(), retryCount: 0, signal: new AbortController().signal, log: pino({ level: 'silent' }) };
      await jobNamed('webhooks.purge').handler(run, {});
      return (await deliveries(t, w6.key, hook.id)).map((d) => d.id);
    };
    assert.deepEqual(await purgeAt(29), [pending.id, failed.id, delivered.id]);
    assert.deepEqual(await purgeAt(31), [pending.id]);
    await ok(200, 'DELETE', webhook(hook.id), undefined, w6.key);
  });

  it('queues a delivery for each subscribed endpoint at the commit, and fails one whose endpoint is off when its turn comes', async () => {
    // This app runs no worker until the end of this test: what the commit queued stays visible.
    const s = await setupAgent(t);
    const on = await createWebhook(t, s.w.key, { url: receiver.url, events: ['conversation.created'] });
    const off = await createWebhook(t, s.w.key, { url: receiver.url, events: ['conversation.created'] });
    const other = await createWebhook(t, s.w.key, { url: receiver.url, events: ['conversation.answered'] });
    const [started] = await say(t, s.w.key, { content: 'Hello', role: 'agent', botId: s.agentId });
    const [queued] = await deliveries(t, s.w.key, on.id);
    assert.deepEqual([queued!.status, queued!.attempts, queued!.eventType, queued!.responseStatus], ['pending', 0, 'conversation.created', null]);
    assert.equal(queued!.payload.data.conversationId, started!.interactionId);
    assert.ok(queued!.nextAttemptAt);
    assert.equal((await deliveries(t, s.w.key, off.id))[0]!.messageId, queued!.messageId, 'one message, one webhook-id, to every endpoint');
    assert.deepEqual(await deliveries(t, s.w.key, other.id), []);
    await ok(200, 'PATCH', webhook(off.id), { enabled: false }, s.w.key);

    const seen = receiver.requests.length;
    await t.queue.work(t.ports);
    const [sent] = await waitForDeliveries(t, s.w.key, on.id, (d) => d[0]?.status === 'delivered', 'the delivery to the enabled endpoint');
    assert.equal(sent!.attempts, 1);
    const [refused] = await waitForDeliveries(t, s.w.key, off.id, (d) => d[0]?.status === 'failed', 'the delivery to the disabled endpoint to fail');
    assert.deepEqual([refused!.attempts, refused!.lastError], [0, 'not sent: the endpoint is disabled']);
    assert.equal(receiver.requests.length, seen + 1);
  });

  const made = async (app: TestApp, tenant: Tenant) => createWebhook(app, tenant.key, { url: receiver.url, events: ['source.failed'] });
  const routes: SecuredRouteRow[] = [
    ['list', 'GET', 'read', async () => ({ path: WEBHOOKS }), undefined],
    ['create', 'POST', 'write', async () => ({ path: WEBHOOKS, body: { url: receiver.url, events: ['source.failed'] } }), undefined],
    ['get', 'GET', 'read', async (app, tenant) => ({ path: webhook((await made(app, tenant)).id) }), 404],
    ['update', 'PATCH', 'write', async (app, tenant) => ({ path: webhook((await made(app, tenant)).id), body: { description: 'x' } }), 404],
    ['delete', 'DELETE', 'write', async (app, tenant) => ({ path: webhook((await made(app, tenant)).id) }), 404],
    ['test', 'POST', 'write', async (app, tenant) => ({ path: testOf((await made(app, tenant)).id) }), 404],
    ['rotate secret', 'POST', 'write', async (app, tenant) => ({ path: rotateOf((await made(app, tenant)).id), body: { keepPreviousHours: 1 } }), 404],
    ['deliveries', 'GET', 'read', async (app, tenant) => ({ path: deliveriesOf((await made(app, tenant)).id) }), 404],
    [
      'redeliver',
      'POST',
      'write',
      async (app, tenant) => {
        const hook = await made(app, tenant);
        const sent = await expectStatus<Delivery>(app, 200, 'POST', testOf(hook.id), tenant.key);
        return { path: redeliverOf(hook.id, sent.id) };
      },
      404,
    ],
  ];
  securitySuites(() => t, routes);
});
