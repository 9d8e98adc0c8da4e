// The visitor routes with a widget key: start, messages through the answer pipeline, events,
// feedback; what a widget key, a visitor token and an Origin may and may not do; CORS.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.js';
import { makeTenant } from '../support/factories.js';
import { assertError, expectStatus } from '../support/security.js';
import { EVENTS, type Interaction, interaction, INTERACTIONS, say, UNKNOWN } from '../conversations/support.js';
import {
  createKey, eventsOf, expectVisit, feedbackOf, messagesOf, ORIGIN, OTHER_ORIGIN, send, setupWidget, start, START, streamOf, visit,
  type VisitorEvent, type VisitorEvents, type WidgetSetup,
} from './support.js';

describe('visitor routes', () => {
  let t: TestApp;
  let s: WidgetSetup;
  before(async () => {
    t = await startTestApp();
    s = await setupWidget(t);
  });
  after(() => t.close());

  it('starts a conversation that appears with its first message, answered as Generate Answer answers', async () => {
    const c = await start(t, s.widget.key, { userAttributes: { email: 'ada@example.com', plan: 'pro' }, locale: 'fr-CA' });
    assert.match(c.visitorToken, /^vt_[A-Za-z0-9_-]{43}$/);
    // Nothing written to the workspace's conversations before the visitor says something.
    assertError(await t.request('GET', interaction(c.conversationId), { key: s.w.key }), 404);
    const empty = await expectVisit<VisitorEvents>(t, 200, 'GET', eventsOf(c.conversationId), { key: s.widget.key, token: c.visitorToken });
    assert.deepEqual(empty, { interactionId: c.conversationId, status: null, humanTakeover: false, events: [], hasMore: false });

    const [user, reply] = (await send(t, s.widget.key, c, 'How do I reset my password?')) as [VisitorEvent, VisitorEvent];
    assert.deepEqual([user.role, user.message, user.interactionId], ['user', 'How do I reset my password?', c.conversationId]);
    assert.equal(reply.role, 'parleybot');
    assert.match(reply.message, /Forgot password/);
    assert.deepEqual(Object.keys(reply).sort(), ['createdAt', 'csatRating', 'handover', 'id', 'interactionId', 'message', 'resolved', 'role']);

    const conv = await expectStatus<Interaction & { humanTakeoverAt: string | null }>(t, 200, 'GET', interaction(c.conversationId), s.w.readKey);
    assert.deepEqual([conv.botId, conv.channel, conv.source, conv.status, conv.humanTakeoverAt], [s.agentId, 'chat', 'api', 'Waiting for Customer', null]);
    assert.deepEqual(conv.userAttributes, { email: 'ada@example.com', plan: 'pro', locale: 'fr-CA' });
    assert.deepEqual(conv.events!.map((e) => e.id), [user.id, reply.id]);
    // The start's body is optional.
    const bare = await t.request<{ conversationId: string }>('POST', START, { key: s.widget.key, headers: { origin: ORIGIN } });
    assert.equal(bare.status, 201, bare.text);

    // The second message continues the same conversation.
    const next = await send(t, s.widget.key, c, 'Can I get a refund on my annual plan?');
    assert.match(next[1]!.message, /30 days/);
    const polled = await expectVisit<VisitorEvents>(t, 200, 'GET', eventsOf(c.conversationId), { key: s.widget.key, token: c.visitorToken });
    assert.deepEqual([polled.status, polled.humanTakeover, polled.hasMore], ['Waiting for Customer', false, false]);
    assert.deepEqual(polled.events.map((e) => e.id), [user.id, reply.id, next[0]!.id, next[1]!.id]);
    const after2 = await expectVisit<VisitorEvents>(t, 200, 'GET', eventsOf(c.conversationId, `?after=${reply.id}&limit=1`), { key: s.widget.key, token: c.visitorToken });
    assert.deepEqual([after2.events.map((e) => e.id), after2.hasMore], [[next[0]!.id], true]);
  });

  it("shows the visitor the team's messages but never its internal comments", async () => {
    const c = await start(t, s.widget.key);
    await send(t, s.widget.key, c, 'How do I export invoices?');
    await say(t, s.w.key, { interactionId: c.conversationId, role: 'agent', type: 'internal_comment', content: 'customer on the pro plan' });
    await say(t, s.w.key, { interactionId: c.conversationId, role: 'agent', content: 'Hi, Sam here: the PDF is under Billing.' });
    const polled = await expectVisit<VisitorEvents>(t, 200, 'GET', eventsOf(c.conversationId), { key: s.widget.key, token: c.visitorToken });
    assert.deepEqual(polled.events.map((e) => e.role), ['user', 'parleybot', 'agent']);
    assert.equal(polled.events[2]!.message, 'Hi, Sam here: the PDF is under Billing.');
  });

  it('takes a rating and resolved on the agent replies of its own conversation only', async () => {
    const c = await start(t, s.widget.key);
    const [user, reply] = (await send(t, s.widget.key, c, 'How do I reset my password?')) as [VisitorEvent, VisitorEvent];
    const rated = await expectVisit<VisitorEvent>(t, 200, 'POST', feedbackOf(c.conversationId, reply.id), { key: s.widget.key, token: c.visitorToken, body: { csatRating: 5, resolved: true } });
    assert.deepEqual([rated.id, rated.csatRating, rated.resolved], [reply.id, 5, true]);
    const conv = await expectStatus<Interaction>(t, 200, 'GET', interaction(c.conversationId), s.w.readKey);
    assert.deepEqual([conv.status, conv.resolved, conv.hasFeedback], ['Resolved by AI', true, true]);

    const opts = { key: s.widget.key, token: c.visitorToken };
    assertError(await visit(t, 'POST', feedbackOf(c.conversationId, reply.id), { ...opts, body: { feedback: 'great' } }), 400, /feedback/);
    assertError(await visit(t, 'POST', feedbackOf(c.conversationId, reply.id), { ...opts, body: { approved: true } }), 400, /approved/);
    assertError(await visit(t, 'POST', feedbackOf(c.conversationId, reply.id), { ...opts, body: {} }), 400, /csatRating or resolved/);
    assertError(await visit(t, 'POST', feedbackOf(c.conversationId, reply.id), { ...opts, body: { csatRating: 6 } }), 400, /body\.csatRating/);
    assertError(await visit(t, 'POST', feedbackOf(c.conversationId, user.id), { ...opts, body: { csatRating: 3 } }), 400, /not authored by parleybot/);
    // A reply of another conversation (even the visitor's own other one) is not found here.
    const other = await start(t, s.widget.key);
    const otherReply = (await send(t, s.widget.key, other, 'How do I export invoices?'))[1]!;
    assertError(await visit(t, 'POST', feedbackOf(c.conversationId, otherReply.id), { ...opts, body: { csatRating: 1 } }), 404, 'event not found');
    assertError(await visit(t, 'POST', feedbackOf(c.conversationId, UNKNOWN), { ...opts, body: { csatRating: 1 } }), 404, 'event not found');
  });

  it('answers 400 naming the field for bad input, and writes nothing', async () => {
    const c = await start(t, s.widget.key);
    const opts = { key: s.widget.key, token: c.visitorToken };
    assertError(await visit(t, 'POST', messagesOf(c.conversationId), { ...opts, body: { content: '   ' } }), 400, /body\.content/);
    assertError(await visit(t, 'POST', messagesOf(c.conversationId), { ...opts, body: { content: 'hi', role: 'agent' } }), 400, /role/);
    assertError(await visit(t, 'POST', START, { key: s.widget.key, body: { locale: 'not a locale' } }), 400, /body\.locale/);
    assertError(await visit(t, 'POST', START, { key: s.widget.key, body: { botId: UNKNOWN } }), 400, /botId/);
    assertError(await visit(t, 'GET', eventsOf(c.conversationId, `?after=${UNKNOWN}`), opts), 400, /query\.after/);
    assertError(await visit(t, 'GET', eventsOf(c.conversationId, '?after=nope'), opts), 400, /query\.after/);
    assertError(await visit(t, 'GET', eventsOf('nope'), opts), 400, /path\.id/);
    assert.equal((await expectVisit<VisitorEvents>(t, 200, 'GET', eventsOf(c.conversationId), opts)).status, null);
  });

  describe('what a widget key may do', () => {
    it('answers 403 to a widget key on every workspace route, and to a workspace key on the visitor routes', async () => {
      for (const [method, path] of [['GET', '/v2/bots/public'], ['GET', INTERACTIONS], ['POST', EVENTS], ['GET', '/v2/workspace/public'], ['GET', `/v2/hc-events/${UNKNOWN}/metadata`]] as const) {
        const res = await t.request(method, path, { key: s.widget.key, headers: { origin: ORIGIN }, body: method === 'POST' ? { content: 'hi', botId: s.agentId } : undefined });
        assertError(res, 403, /widget key can only call the visitor routes/);
      }
      assertError(await t.request('POST', START, { key: s.w.key, body: {}, headers: { origin: ORIGIN } }), 403, /takes a widget key/);
      assertError(await t.request('POST', START, { body: {}, headers: { origin: ORIGIN } }), 401, /missing API key/);
      assertError(await t.request('POST', START, { key: 'pk_short', body: {}, headers: { origin: ORIGIN } }), 401, 'malformed API key');
      assertError(await t.request('POST', START, { key: `pk_${'A'.repeat(32)}`, body: {}, headers: { origin: ORIGIN } }), 401, 'invalid or revoked API key');
    });

    it('answers 403 from a missing or another origin', async () => {
      assertError(await visit(t, 'POST', START, { key: s.widget.key, origin: null, body: {} }), 403, /missing Origin/);
      assertError(await visit(t, 'POST', START, { key: s.widget.key, origin: OTHER_ORIGIN, body: {} }), 403, `origin ${OTHER_ORIGIN} is not allowed for this widget key`);
      assertError(await visit(t, 'POST', START, { key: s.widget.key, origin: 'https://shop.example.evil.example', body: {} }), 403);
    });

    it('proves a conversation by its visitor token only', async () => {
      const mine = await start(t, s.widget.key);
      const theirs = await start(t, s.widget.key);
      await send(t, s.widget.key, theirs, 'How do I export invoices?');
      for (const [method, path, body] of [
        ['POST', messagesOf(theirs.conversationId), { content: 'hi' }],
        ['GET', eventsOf(theirs.conversationId), undefined],
        ['GET', streamOf(theirs.conversationId), undefined],
      ] as const) {
        assertError(await visit(t, method, path, { key: s.widget.key, token: mine.visitorToken, body }), 403, 'the visitor token does not prove this conversation');
        assertError(await visit(t, method, path, { key: s.widget.key, body }), 401, /missing visitor token/);
        assertError(await visit(t, method, path, { key: s.widget.key, token: 'vt_forged', body }), 403);
      }
      const events = await expectVisit<VisitorEvents>(t, 200, 'GET', eventsOf(theirs.conversationId), { key: s.widget.key, token: theirs.visitorToken });
      assert.equal(events.events.length, 2);
    });

    it("answers 404 for a conversation of another agent, another workspace, or one not started by a widget", async () => {
      const c = await start(t, s.widget.key);
      await send(t, s.widget.key, c, 'How do I export invoices?');
      // Another agent of the same workspace, with its own key.
      const otherAgent = (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/bots/public', s.w.key, { name: 'Sales' })).id;
      const otherAgentKey = await createKey(t, s.w.key, otherAgent);
      assertError(await visit(t, 'GET', eventsOf(c.conversationId), { key: otherAgentKey.key, token: c.visitorToken }), 404, 'conversation not found');
      // Another workspace's key.
      const elsewhere = await setupWidget(t, { tenant: await makeTenant(t) });
      assertError(await visit(t, 'POST', messagesOf(c.conversationId), { key: elsewhere.widget.key, token: c.visitorToken, body: { content: 'hi' } }), 404, 'conversation not found');
      // A Generate Answer conversation of the same agent.
      const api = await say(t, s.w.key, { content: 'How do I export invoices?', botId: s.agentId });
      assertError(await visit(t, 'GET', eventsOf(api[0]!.interactionId), { key: s.widget.key, token: c.visitorToken }), 404, 'conversation not found');
      // A deleted conversation.
      await expectStatus(t, 200, 'DELETE', interaction(c.conversationId), s.w.key);
      assertError(await visit(t, 'GET', eventsOf(c.conversationId), { key: s.widget.key, token: c.visitorToken }), 404, 'conversation not found');
      assertError(await visit(t, 'POST', messagesOf(c.conversationId), { key: s.widget.key, token: c.visitorToken, body: { content: 'hi' } }), 404, 'conversation not found');
    });

    it("another key of the same agent continues a visitor's conversation (keys rotate)", async () => {
      const c = await start(t, s.widget.key);
      await send(t, s.widget.key, c, 'How do I export invoices?');
      const rotated = await createKey(t, s.w.key, s.agentId);
      assert.equal((await send(t, rotated.key, c, 'How do I reset my password?')).length, 2);
    });
  });

  describe('CORS', () => {
    const preflight = (path: string, origin?: string) =>
      fetch(`${t.url}${path}`, {
        method: 'OPTIONS',
        headers: { ...(origin ? { origin } : {}), 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,x-visitor-token' },
      });

    it('answers a preflight from an origin a widget key allows', async () => {
      const res = await preflight(START, ORIGIN);
      assert.equal(res.status, 204);
      assert.equal(res.headers.get('access-control-allow-origin'), ORIGIN);
      assert.match(res.headers.get('access-control-allow-headers') ?? '', /x-visitor-token/);
      assert.match(res.headers.get('access-control-allow-methods') ?? '', /POST/);
      const stream = await preflight(streamOf(UNKNOWN), ORIGIN);
      assert.equal(stream.status, 204);
    });

    it('answers 403 to a preflight from another origin or none, and 404 off the visitor routes', async () => {
      for (const origin of [OTHER_ORIGIN, undefined]) {
        const res = await preflight(START, origin);
        assert.equal(res.status, 403);
        assert.equal(res.headers.get('access-control-allow-origin'), null);
        const body = (await res.json()) as { statusCode: number; error: string };
        assert.deepEqual([body.statusCode, body.error], [403, 'Forbidden']);
      }
      const api = await preflight('/v2/bots/public', ORIGIN);
      assert.equal(api.status, 404);
      assert.equal(api.headers.get('access-control-allow-origin'), null);
    });

    it("lets the page read the visitor routes' answers, errors included", async () => {
      const ok = await visit(t, 'POST', START, { key: s.widget.key, body: {} });
      assert.equal(ok.headers.get('access-control-allow-origin'), ORIGIN);
      assert.match(ok.headers.get('access-control-expose-headers') ?? '', /retry-after/);
      const missingToken = await visit(t, 'GET', eventsOf(UNKNOWN), { key: s.widget.key });
      assert.equal(missingToken.status, 401);
      assert.equal(missingToken.headers.get('access-control-allow-origin'), ORIGIN);
      const api = await t.request('GET', '/v2/bots/public', { key: s.w.key, headers: { origin: ORIGIN } });
      assert.equal(api.headers.get('access-control-allow-origin'), null);
    });
  });
});
