// Human takeover: after a hand-over (any reason) the agent stays silent, through Generate Answer
// and the widget alike, while a person answers; the release route gives the conversation back
// (conversation.released) and the agent answers again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { defineListener, registeredListener } from '../../src/events/bus.js';
import type { DomainEvents } from '../../src/events/events.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { assertError, expectStatus, securitySuites } from '../support/security.js';
import { type Event, type Interaction, interaction, say, setupAgent, UNKNOWN } from '../conversations/support.js';
import { eventsOf, expectVisit, messagesOf, send, setupWidget, start, type VisitorEvent, type VisitorEvents, visit } from './support.js';

type Held = Interaction & { humanTakeoverAt: string | null; turns?: number };
const releaseOf = (id: string) => `/v2/hc-interactions/${id}/release/public`;

describe('human takeover', () => {
  let t: TestApp;
  const released: { workspaceId: string; payload: DomainEvents['conversation.released'] }[] = [];
  before(async () => {
    t = await startTestApp({
      listeners: [
        registeredListener(
          defineListener({
            name: 'test.record-released',
            event: 'conversation.released',
            phase: 'commit',
            handle: async (ctx, payload) => {
              released.push({ workspaceId: ctx.workspaceId, payload });
            },
          }),
        ),
      ],
    });
  });
  after(() => t.close());

  it('through Generate Answer: silent after the hand-over, a person answers, answering again after the release', async () => {
    const s = await setupAgent(t);
    const [, handover] = (await say(t, s.w.key, { content: 'human please', botId: s.agentId })) as [Event, Event];
    assert.deepEqual([handover.handover, handover.escalationReason], [true, 'customer_request']);
    const id = handover.interactionId;
    const held = await expectStatus<Held>(t, 200, 'GET', interaction(id), s.w.readKey);
    assert.deepEqual([held.status, held.escalationReason], ['Escalated to Human Agent', 'customer_request']);
    assert.ok(held.humanTakeoverAt);

    // The customer writes again: stored, not answered, and the hand-over's status and analytics stay.
    const waiting = await say(t, s.w.key, { content: 'How do I reset my password?', interactionId: id });
    assert.deepEqual(waiting.map((e) => e.role), ['user']);
    const person = await say(t, s.w.key, { content: 'Hi, Sam here. Let me look.', interactionId: id, role: 'agent' });
    assert.deepEqual(person.map((e) => e.role), ['agent']);
    const during = await expectStatus<Held>(t, 200, 'GET', interaction(id), s.w.readKey);
    assert.deepEqual([during.status, during.humanTakeoverAt, during.events!.map((e) => e.role)], ['Escalated to Human Agent', held.humanTakeoverAt, ['user', 'parleybot', 'user', 'agent']]);

    const back = await expectStatus<Held>(t, 200, 'POST', releaseOf(id), s.w.writeKey);
    assert.deepEqual([back.id, back.humanTakeoverAt, back.status], [id, null, 'Escalated to Human Agent']);
    assert.deepEqual(released.filter((r) => r.payload.conversationId === id), [{ workspaceId: s.w.workspaceId, payload: { conversationId: id } }]);
    assertError(await t.request('POST', releaseOf(id), { key: s.w.key }), 409, /not held by the human team/);

    const answered = await say(t, s.w.key, { content: 'How do I reset my password?', interactionId: id });
    assert.deepEqual(answered.map((e) => e.role), ['user', 'parleybot']);
    assert.match(answered[1]!.message, /Forgot password/);
    const after = await expectStatus<Held>(t, 200, 'GET', interaction(id), s.w.readKey);
    assert.deepEqual([after.status, after.humanTakeoverAt], ['Waiting for Customer', null]);
  });

  it('a hand-over for any reason holds the conversation (negative sentiment)', async () => {
    const s = await setupAgent(t);
    const [, handover] = (await say(t, s.w.key, { content: "THREE WEEKS and my order still hasn't arrived, useless company, I want my money back NOW!!", botId: s.agentId })) as [Event, Event];
    assert.deepEqual([handover.handover, handover.escalationReason], [true, 'negative_sentiment']);
    const next = await say(t, s.w.key, { content: 'How do I reset my password?', interactionId: handover.interactionId });
    assert.equal(next.length, 1);
  });

  it('through the widget: the visitor sees the hold, a person answers, and after the release the agent does', async () => {
    const s = await setupWidget(t);
    const c = await start(t, s.widget.key);
    const [, handover] = await send(t, s.widget.key, c, 'can I talk to a human?');
    assert.equal(handover!.handover, true);
    const opts = { key: s.widget.key, token: c.visitorToken };
    const state = await expectVisit<VisitorEvents>(t, 200, 'GET', eventsOf(c.conversationId), opts);
    assert.deepEqual([state.status, state.humanTakeover], ['Escalated to Human Agent', true]);

    const silent = await send(t, s.widget.key, c, 'How do I reset my password?');
    assert.deepEqual(silent.map((e) => e.role), ['user']);
    await say(t, s.w.key, { interactionId: c.conversationId, role: 'agent', content: 'Sam here: use Forgot password.' });
    const seen = await expectVisit<VisitorEvents>(t, 200, 'GET', eventsOf(c.conversationId, `?after=${silent[0]!.id}`), opts);
    assert.deepEqual(seen.events.map((e) => [e.role, e.message]), [['agent', 'Sam here: use Forgot password.']]);

    await expectStatus(t, 200, 'POST', releaseOf(c.conversationId), s.w.key);
    assert.equal((await expectVisit<VisitorEvents>(t, 200, 'GET', eventsOf(c.conversationId), opts)).humanTakeover, false);
    const answered = await send(t, s.widget.key, c, 'How do I export invoices?');
    assert.deepEqual(answered.map((e) => e.role), ['user', 'parleybot']);
    assert.match(answered[1]!.message, /Download/);
  });

  it('"talk to a person" (askForPerson) hands over whatever the message says, in any language, and not during a waiting hold', async () => {
    const s = await setupWidget(t);
    const c = await start(t, s.widget.key);
    const opts = { key: s.widget.key, token: c.visitorToken };
    // A question the knowledge answers, sent with the button: a hand-over all the same.
    const asked = await expectVisit<VisitorEvent[]>(t, 200, 'POST', messagesOf(c.conversationId), { ...opts, body: { content: 'How do I reset my password?', askForPerson: true } });
    assert.deepEqual(asked.map((e) => [e.role, e.handover]), [['user', false], ['parleybot', true]]);
    const held = await expectStatus<Held>(t, 200, 'GET', interaction(c.conversationId), s.w.readKey);
    assert.deepEqual([held.status, held.escalationReason, Boolean(held.humanTakeoverAt)], ['Escalated to Human Agent', 'customer_request', true]);
    // A sentence the built-in engine cannot read (French) works the same through the button.
    const other = await start(t, s.widget.key);
    const french = await expectVisit<VisitorEvent[]>(t, 200, 'POST', messagesOf(other.conversationId), {
      key: s.widget.key,
      token: other.visitorToken,
      body: { content: 'Je voudrais parler à une personne.', askForPerson: true },
    });
    assert.equal(french[1]!.handover, true);
    // Without the button the same question is answered.
    const plain = await start(t, s.widget.key);
    const answered = await send(t, s.widget.key, plain, 'How do I reset my password?');
    assert.equal(answered[1]!.handover, false);
    assertError(await visit(t, 'POST', messagesOf(plain.conversationId), { key: s.widget.key, token: plain.visitorToken, body: { content: 'hi', askForPerson: 'yes' } }), 400, /body\.askForPerson/);
  });

  it('answers 404 for an unknown conversation or one of another workspace', async () => {
    const s = await setupAgent(t);
    assertError(await t.request('POST', releaseOf(UNKNOWN), { key: s.w.key }), 404, 'conversation not found');
  });

  securitySuites(() => t, [
    [
      'POST /v2/hc-interactions/{id}/release/public',
      'POST',
      'write',
      async (app, tenant) => {
        const s = await setupAgent(app, tenant);
        const events = await say(app, s.w.key, { content: 'human please', botId: s.agentId });
        return { path: releaseOf(events[0]!.interactionId) };
      },
      404,
    ],
  ]);
});
