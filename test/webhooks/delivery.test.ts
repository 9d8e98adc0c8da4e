// Webhook delivery end to end: domain events of conversations, articles and sources become signed
// requests to a receiver on 127.0.0.1, verified with the Standard Webhooks library; retries after
// 500s and timeouts under one webhook-id; retries spent; an endpoint failing for 3 days (the test
// clock) switched off with its reason; turning it back on; redelivery through the queue.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { Webhook as Verifier } from 'standardwebhooks';
import { eq } from 'drizzle-orm';
import { webhookEndpoints } from '../../src/db/schema/index.js';
import { jobNamed } from '../../src/jobs/registry.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { testClock, type TestClock } from '../support/clock.js';
import { html, startFakeSite, type FakeSite } from '../support/fake-site.js';
import { type RecordedRequest } from '../support/recording-server.js';
import { poll } from '../support/poll.js';
import { assertError, expectStatus } from '../support/security.js';
import { INGEST_ENV, ingestUrls, waitForSource } from '../support/sources.js';
import { feedbackOf, say, setupAgent, type Setup } from '../conversations/support.js';
import { createWebhook, type Delivery, deliveries, type Receiver, redeliverOf, rotateOf, startReceiver, testOf, waitForDeliveries, type Webhook, webhook, webhookEnv } from './support.js';

const DAY_MS = 24 * 3600 * 1000;

/** The receiver's side: the signature checked with the specification's library, the body parsed. */
function verified(secret: string, request: RecordedRequest): { type: string; timestamp: string; data: Record<string, unknown> } {
  const headers = { 'webhook-id': String(request.headers['webhook-id']), 'webhook-timestamp': String(request.headers['webhook-timestamp']), 'webhook-signature': String(request.headers['webhook-signature']) };
  return new Verifier(secret).verify(request.body, headers) as { type: string; timestamp: string; data: Record<string, unknown> };
}

const settled = (d: Delivery[], n: number) => d.length === n && d.every((x) => x.status !== 'pending');

describe('webhook delivery', () => {
  let t: TestApp;
  let clock: TestClock;
  let receiver: Receiver;
  let s: Setup;
  before(async () => {
    clock = testClock();
    t = await startTestApp({ work: true, clock, env: webhookEnv(INGEST_ENV) });
    receiver = await startReceiver();
    s = await setupAgent(t);
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  it('sends conversation events, signed as Standard Webhooks specifies, each once', async () => {
    const hook = await createWebhook(t, s.w.key, { url: receiver.url, events: ['conversation.created', 'conversation.answered', 'conversation.escalated', 'conversation.feedback'] });
    const seen = receiver.requests.length;
    const [, answer] = await say(t, s.w.key, { content: 'How do I reset my password?', botId: s.agentId });
    const conversationId = answer!.interactionId;
    const [, handover] = await say(t, s.w.key, { content: 'I want to talk to a real person please', interactionId: conversationId });
    assert.equal(handover!.handover, true);
    await expectStatus(t, 200, 'POST', feedbackOf(answer!.id), s.w.key, { csatRating: 4, resolved: false });
    const sent = await waitForDeliveries(t, s.w.key, hook.id, (d) => settled(d, 4), 'four conversation deliveries');
    assert.ok(sent.every((d) => d.status === 'delivered' && d.attempts === 1 && d.responseStatus === 200), JSON.stringify(sent));

    const requests = receiver.requests.slice(seen);
    assert.equal(requests.length, 4);
    const bodies = requests.map((r) => verified(hook.secret, r));
    const byType = new Map(bodies.map((b) => [b.type, b]));
    assert.deepEqual([...byType.keys()].sort(), ['conversation.answered', 'conversation.created', 'conversation.escalated', 'conversation.feedback']);
    const link = `/console/conversations/${conversationId}`;
    assert.deepEqual(byType.get('conversation.created')!.data, { conversationId, botId: s.agentId, source: 'api', channel: 'chat', consoleUrl: link });
    assert.deepEqual(byType.get('conversation.answered')!.data, { conversationId, botId: s.agentId, eventId: answer!.id, userEventId: answer!.userEventId, consoleUrl: link });
    assert.deepEqual(byType.get('conversation.escalated')!.data, { conversationId, botId: s.agentId, eventId: handover!.id, reason: 'customer_request', consoleUrl: link });
    assert.deepEqual(byType.get('conversation.feedback')!.data, {
      conversationId, botId: s.agentId, eventId: answer!.id, csatRating: 4, feedback: null, resolved: false, approved: null, consoleUrl: link,
    });
    for (const r of requests) {
      assert.equal(r.method, 'POST');
      assert.equal(r.path, '/hooks');
      assert.match(String(r.headers['content-type']), /^application\/json/);
      assert.match(String(r.headers['webhook-id']), /^msg_[0-9a-f]{32}$/);
      assert.match(String(r.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/);
    }
    assert.deepEqual(new Set(requests.map((r) => r.headers['webhook-id'])), new Set(sent.map((d) => d.messageId)));
    // A changed body, or another secret, does not verify.
    assert.throws(() => verified(hook.secret, { ...requests[0]!, body: requests[0]!.body.replace('conversation', 'Conversation') }));
    assert.throws(() => verified(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, requests[0]!));

    // A job run again (a worker that died after sending) finds the attempt recorded and sends nothing.
    const run = { ports: t.ports, id: randomUUID(), retryCount: 1, signal: new AbortController().signal, log: pino({ level: 'silent' }) };
    await jobNamed('webhooks.deliver').handler(run, { workspaceId: s.w.workspaceId, deliveryId: sent[0]!.id, attempt: 1 });
    assert.equal(receiver.requests.length, seen + 4);
    await expectStatus(t, 200, 'DELETE', webhook(hook.id), s.w.key);
  });

  it('sends article.published, source.ingested and source.failed to the endpoints subscribed to them only', async () => {
    const site: FakeSite = await startFakeSite({ '/guide': html('Setting up billing', 'Open Billing and choose a plan.', 'Invoices are sent by e-mail every month.') });
    try {
      const hook = await createWebhook(t, s.w.key, { url: receiver.url, events: ['article.published', 'source.ingested', 'source.failed'] });
      const deaf = await createWebhook(t, s.w.key, { url: receiver.url, events: ['refine.iteration.ready'] });
      const draft = await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/hc-articles/public', s.w.key, {
        title: 'Shipping', mainKnowledge: 'We ship in 2 days.', agentInstruction: '', questions: [], keywords: [], escalation: false, parentFolderId: s.folderId, isDraft: true,
      });
      const live = await expectStatus<{ id: string; version: number }>(t, 200, 'POST', `/v2/hc-articles/${draft.id}/publish/public`, s.w.key);
      const ingested = await ingestUrls(t, s.w.key, [site.url('/guide'), site.url('/missing')]);
      const [good, missing] = ingested.addedDocumentIds as [string, string];
      const goodSource = await waitForSource(t, s.w.key, good);
      assert.equal(goodSource.linkedJobStatus, 'COMPLETED');
      assert.equal((await waitForSource(t, s.w.key, missing)).linkedJobStatus, 'FAILED');
      const sent = await waitForDeliveries(t, s.w.key, hook.id, (d) => settled(d, 3), 'three deliveries');
      const payloads = new Map(sent.map((d) => [d.eventType, d.payload.data]));
      assert.deepEqual(payloads.get('article.published'), { articleId: live.id, draftId: draft.id, version: live.version });
      assert.deepEqual(payloads.get('source.ingested'), { documentId: good, changed: goodSource.changed });
      assert.deepEqual(payloads.get('source.failed'), { documentId: missing });
      assert.deepEqual(await deliveries(t, s.w.key, deaf.id), []);
    } finally {
      await site.close();
    }
  });

  it('sends refine.iteration.ready, and nothing for the conversation its replay creates', async () => {
    const [, reply] = await say(t, s.w.key, { content: 'Do you ship to Canada?', botId: s.agentId });
    const hook = await createWebhook(t, s.w.key, { url: receiver.url, events: ['refine.iteration.ready', 'conversation.created'] });
    const started = await expectStatus<{ sessionId: string; iterationId: string }>(
      t,
      200,
      'POST',
      `/v2/fix-review/interactions/${reply!.interactionId}/events/${reply!.id}/sessions/iterations/public`,
      s.w.key,
      { feedbackNote: 'It should have said that we ship to Canada within 5 business days.' },
    );
    const sent = await waitForDeliveries(t, s.w.key, hook.id, (d) => d.some((x) => x.eventType === 'refine.iteration.ready' && x.status === 'delivered'), 'the iteration to be ready');
    const ready = sent.find((d) => d.eventType === 'refine.iteration.ready')!;
    assert.deepEqual(ready.payload.data, {
      sessionId: started.sessionId,
      iterationId: started.iterationId,
      conversationId: reply!.interactionId,
      eventId: reply!.id,
      consoleUrl: `/console/refine/${reply!.interactionId}/${reply!.id}`,
    });
    // The customer's conversation was created before the endpoint existed; the replay's sends nothing.
    assert.deepEqual(sent.map((d) => d.eventType), ['refine.iteration.ready']);
    await expectStatus(t, 200, 'DELETE', webhook(hook.id), s.w.key);
  });

  it('retries after a 500 and a timeout under the same webhook-id, then delivers', async () => {
    const hook = await createWebhook(t, s.w.key, { url: receiver.url, events: ['conversation.created'] });
    receiver.answers.push(500, 'hang');
    const seen = receiver.requests.length;
    await say(t, s.w.key, { content: 'Hello', role: 'agent', botId: s.agentId });
    const [delivery] = await waitForDeliveries(t, s.w.key, hook.id, (d) => settled(d, 1), 'the delivery to settle');
    assert.equal(delivery!.status, 'delivered');
    assert.equal(delivery!.attempts, 3);
    assert.equal(delivery!.responseStatus, 200);
    assert.equal(delivery!.lastError, null);
    const requests = receiver.requests.slice(seen);
    assert.equal(requests.length, 3);
    assert.deepEqual(new Set(requests.map((r) => r.headers['webhook-id'])), new Set([delivery!.messageId]));
    for (const r of requests) assert.equal(verified(hook.secret, r).type, 'conversation.created');
    assert.equal((await expectStatus<Webhook>(t, 200, 'GET', webhook(hook.id), s.w.key)).failingSince, null, 'a success ends the failure streak');
    await expectStatus(t, 200, 'DELETE', webhook(hook.id), s.w.key);
  });

  it('fails a delivery whose retries are spent, saying why; the endpoint stays on', async () => {
    const hook = await createWebhook(t, s.w.key, { url: receiver.url, events: ['conversation.created'] });
    receiver.answers.push(500, 503, 'hang');
    await say(t, s.w.key, { content: 'Hello', role: 'agent', botId: s.agentId });
    const [delivery] = await waitForDeliveries(t, s.w.key, hook.id, (d) => settled(d, 1), 'the delivery to fail');
    assert.equal(delivery!.status, 'failed');
    assert.equal(delivery!.attempts, 3, 'the first attempt and the two retries of the schedule');
    assert.equal(delivery!.responseStatus, null);
    assert.match(delivery!.lastError!, /took longer than 1 s/);
    const endpoint = await expectStatus<Webhook>(t, 200, 'GET', webhook(hook.id), s.w.key);
    assert.equal(endpoint.enabled, true);
    assert.ok(endpoint.failingSince);
    await expectStatus(t, 200, 'DELETE', webhook(hook.id), s.w.key);
  });

  it('switches off an endpoint failing for 3 days, says so, and takes it back with a clean record', async () => {
    const hook = await createWebhook(t, s.w.key, { url: receiver.url, events: ['conversation.created'] });
    receiver.otherwise = 500;
    try {
      await say(t, s.w.key, { content: 'First', role: 'agent', botId: s.agentId });
      const [first] = await waitForDeliveries(t, s.w.key, hook.id, (d) => settled(d, 1), 'the first delivery to fail');
      assert.equal(first!.status, 'failed');
      const failingSince = (await expectStatus<Webhook>(t, 200, 'GET', webhook(hook.id), s.w.key)).failingSince!;
      assert.ok(failingSince <= first!.lastAttemptAt!, 'the streak began with the first attempt');

      clock.advance(2 * DAY_MS);
      await say(t, s.w.key, { content: 'Two days later', role: 'agent', botId: s.agentId });
      await waitForDeliveries(t, s.w.key, hook.id, (d) => settled(d, 2), 'the second delivery to fail');
      assert.equal((await expectStatus<Webhook>(t, 200, 'GET', webhook(hook.id), s.w.key)).enabled, true, 'two days of failures are not enough');

      clock.advance(DAY_MS);
      await say(t, s.w.key, { content: 'Three days later', role: 'agent', botId: s.agentId });
      const three = await waitForDeliveries(t, s.w.key, hook.id, (d) => settled(d, 3), 'the third delivery to fail');
      const off = await expectStatus<Webhook>(t, 200, 'GET', webhook(hook.id), s.w.key);
      assert.equal(off.enabled, false);
      assert.ok(off.disabledAt);
      assert.match(off.disabledReason!, new RegExp(`every delivery failed for 3 days, since ${failingSince.replace(/[.]/g, '\\.')} \\(last: the endpoint answered HTTP 500\\)`));
      assert.equal(three[0]!.status, 'failed');
      assert.equal(three[0]!.attempts, 1, 'no retry once the endpoint is off');
      assert.match(three[0]!.lastError!, /the endpoint was disabled: every delivery failed for 3 days/);

      // Nothing is queued for a disabled endpoint.
      await say(t, s.w.key, { content: 'While it is off', role: 'agent', botId: s.agentId });
      await say(t, s.w.key, { content: 'And once more', role: 'agent', botId: s.agentId });
      assert.equal((await deliveries(t, s.w.key, hook.id)).length, 3);

      receiver.otherwise = 200;
      const on = await expectStatus<Webhook>(t, 200, 'PATCH', webhook(hook.id), s.w.key, { enabled: true });
      assert.deepEqual([on.enabled, on.disabledReason, on.disabledAt, on.failingSince], [true, null, null, null]);
      const seen = receiver.requests.length;
      const copy = await expectStatus<Delivery>(t, 202, 'POST', redeliverOf(hook.id, three[0]!.id), s.w.key);
      const done = await poll(
        async () => {
          t.wakeWorkers('webhooks.deliver');
          return (await deliveries(t, s.w.key, hook.id)).find((d) => d.id === copy.id)!;
        },
        (d) => d.status !== 'pending',
        { what: 'the redelivery', intervalMs: 100 },
      );
      assert.deepEqual([done.status, done.attempts, done.redeliveryOf, done.messageId], ['delivered', 1, three[0]!.id, three[0]!.messageId]);
      const resent = receiver.requests.slice(seen);
      assert.equal(resent.length, 1);
      assert.equal(resent[0]!.headers['webhook-id'], three[0]!.messageId);
      assert.equal(resent[0]!.body, JSON.stringify(three[0]!.payload));
    } finally {
      receiver.otherwise = 200;
    }
  });
});

describe('webhook secret rotation', () => {
  let t: TestApp;
  let clock: TestClock;
  let receiver: Receiver;
  before(async () => {
    clock = testClock();
    t = await startTestApp({ clock, env: webhookEnv() });
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  /** Sends a test message and answers which of the secrets verify it, and how many signatures it carried. */
  const sendAndVerify = async (key: string, hookId: string, secrets: string[]) => {
    const before = receiver.requests.length;
    await expectStatus<Delivery>(t, 200, 'POST', testOf(hookId), key);
    const request = receiver.requests[before]!;
    const verifies = secrets.map((secret) => {
      try {
        verified(secret, request);
        return true;
      } catch {
        return false;
      }
    });
    return { verifies, signatures: String(request.headers['webhook-signature']).split(' ').length };
  };

  it('keeps the old secret signing beside the new one for the hours asked, then only the new one signs', async () => {
    const s = await setupAgent(t);
    const hook = await createWebhook(t, s.w.key, { url: receiver.url, events: ['conversation.created'] });
    assert.equal(hook.previousSecretExpiresAt, null);
    const rotated = await expectStatus<Webhook & { secret: string }>(t, 200, 'POST', rotateOf(hook.id), s.w.key);
    assert.match(rotated.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.notEqual(rotated.secret, hook.secret);
    const expires = Date.parse(rotated.previousSecretExpiresAt ?? '');
    assert.ok(Math.abs(expires - (clock.now().getTime() + 24 * 3600_000)) < 5_000, `24 hours by default: ${rotated.previousSecretExpiresAt}`);
    const shown = await expectStatus<Webhook>(t, 200, 'GET', webhook(hook.id), s.w.readKey);
    assert.equal(shown.secret, undefined, 'the new secret is shown once');
    assert.equal(shown.previousSecretExpiresAt, rotated.previousSecretExpiresAt);

    // While both sign, a receiver with either secret accepts the message.
    assert.deepEqual(await sendAndVerify(s.w.key, hook.id, [hook.secret, rotated.secret, `whsec_${Buffer.alloc(32, 7).toString('base64')}`]), { verifies: [true, true, false], signatures: 2 });
    // The 24 hours pass (told to the row: a receiver's verifier checks the timestamp against its own clock).
    await t.database.db.update(webhookEndpoints).set({ previousSecretExpiresAt: new Date(clock.now().getTime() - 1000) }).where(eq(webhookEndpoints.id, hook.id));
    assert.deepEqual(await sendAndVerify(s.w.key, hook.id, [hook.secret, rotated.secret]), { verifies: [false, true], signatures: 1 });

    // keepPreviousHours 0: the old secret stops at once; a rotation replaces an earlier previous secret.
    const again = await expectStatus<Webhook & { secret: string }>(t, 200, 'POST', rotateOf(hook.id), s.w.key, { keepPreviousHours: 0 });
    assert.equal(again.previousSecretExpiresAt, null);
    assert.deepEqual(await sendAndVerify(s.w.key, hook.id, [rotated.secret, again.secret]), { verifies: [false, true], signatures: 1 });
    const third = await expectStatus<Webhook & { secret: string }>(t, 200, 'POST', rotateOf(hook.id), s.w.key, { keepPreviousHours: 2 });
    assert.deepEqual(await sendAndVerify(s.w.key, hook.id, [rotated.secret, again.secret, third.secret]), { verifies: [false, true, true], signatures: 2 });
  });

  it('refuses a bad overlap naming the field, a read-only key, and another workspace\'s endpoint', async () => {
    const s = await setupAgent(t);
    const hook = await createWebhook(t, s.w.key, { url: receiver.url, events: ['conversation.created'] });
    for (const keepPreviousHours of [-1, 169, 1.5, '24']) {
      assertError(await t.request('POST', rotateOf(hook.id), { key: s.w.key, body: { keepPreviousHours } }), 400, /body\.keepPreviousHours/);
    }
    assertError(await t.request('POST', rotateOf(hook.id), { key: s.w.key, body: { keepPrevious: 1 } }), 400, /keepPrevious/);
    assertError(await t.request('POST', rotateOf(hook.id), { key: s.w.readKey }), 403);
    const other = await setupAgent(t);
    assertError(await t.request('POST', rotateOf(hook.id), { key: other.w.key }), 404, 'webhook not found');
    // Nothing changed: the creation's secret still signs alone.
    assert.deepEqual(await sendAndVerify(s.w.key, hook.id, [hook.secret]), { verifies: [true], signatures: 1 });
  });
});

describe('webhook links under PARLEY_PUBLIC_URL', () => {
  it('gives consoleUrl as an absolute address of the deployment', async () => {
    const t = await startTestApp({ work: true, env: webhookEnv({ ...INGEST_ENV, PARLEY_PUBLIC_URL: 'https://support.example.com/' }) });
    const receiver = await startReceiver();
    try {
      const s = await setupAgent(t);
      const hook = await createWebhook(t, s.w.key, { url: receiver.url, events: ['conversation.escalated'] });
      const [, handover] = await say(t, s.w.key, { content: 'I want to talk to a real person please', botId: s.agentId });
      await waitForDeliveries(t, s.w.key, hook.id, (d) => settled(d, 1), 'the escalation');
      const [request] = receiver.requests;
      assert.equal(verified(hook.secret, request!).data.consoleUrl, `https://support.example.com/console/conversations/${handover!.interactionId}`);
    } finally {
      await receiver.close();
      await t.close();
    }
  });
});
