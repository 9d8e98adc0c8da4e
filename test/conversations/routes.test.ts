// The conversation routes through HTTP: Generate Answer's input checks, listing with its window,
// filters and cursors, get, delete (single and bulk), event metadata, feedback, evaluation, reply
// rules, and the shared security suite on every route.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SYSTEM_TAG_IDS } from '../../src/modules/tags/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { testClock } from '../support/clock.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { assertError, expectStatus, type SecuredRouteRow, securitySuites } from '../support/security.js';
import { EVENTS, type Event, feedbackOf, INTERACTIONS, type Interaction, interaction, metadataOf, say, type Setup, setupAgent, UNKNOWN } from './support.js';

interface Page {
  interactions: Interaction[];
  hasMore: boolean;
  nextCursor: string | null;
  prevCursor: string | null;
}

describe('conversation routes', () => {
  let t: TestApp;
  let s: Setup;
  const clock = testClock();
  before(async () => {
    t = await startTestApp({ clock });
    s = await setupAgent(t);
  });
  after(() => t.close());

  const fail = async (method: string, path: string, status: number, message?: string | RegExp, body?: unknown, key = s.w.key) =>
    assertError(await t.request(method, path, { key, body }), status, message);
  const ask = (content: string, extra: Record<string, unknown> = {}) => say(t, s.w.key, { content, botId: s.agentId, ...extra });

  it('refuses bad Generate Answer input, naming the field, and stores nothing', async () => {
    await fail('POST', EVENTS, 400, /^body\.interactionId: interactionId or botId is required/, { content: 'hi' });
    await fail('POST', EVENTS, 400, /^body\.content: /, { content: '', botId: s.agentId });
    await fail('POST', EVENTS, 400, /^body\.role: /, { content: 'x', botId: s.agentId, role: 'robot' });
    await fail('POST', EVENTS, 400, /^body\.botId: /, { content: 'x', botId: 'nope' });
    await fail('POST', EVENTS, 400, /^body\.metadata\.channel: /, { content: 'x', botId: s.agentId, metadata: { channel: 'fax' } });
    await fail('POST', EVENTS, 400, /^body: Unrecognized key/, { content: 'x', botId: s.agentId, extra: 1 });
    await fail('POST', EVENTS, 404, 'agent not found', { content: 'x', botId: UNKNOWN });
    await fail('POST', EVENTS, 404, 'conversation not found', { content: 'x', interactionId: UNKNOWN });
    const gone = (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/bots/public', s.w.key, { name: 'Gone' })).id;
    await expectStatus(t, 200, 'DELETE', `/v2/bots/${gone}/public`, s.w.key);
    await fail('POST', EVENTS, 400, /^botId: the agent .* was deleted/, { content: 'x', botId: gone });
    const page = await expectStatus<Page>(t, 200, 'GET', INTERACTIONS, s.w.readKey);
    assert.deepEqual(page.interactions, []);
  });

  it('lists conversations newest first in pages with cursors, and filters them', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      const [user] = await ask(`Hello number ${i}`, { metadata: { channel: i % 2 ? 'email' : 'chat' } });
      ids.push(user!.interactionId);
    }
    const first = await expectStatus<Page>(t, 200, 'GET', `${INTERACTIONS}?limit=2`, s.w.readKey);
    assert.deepEqual(first.interactions.map((c) => c.id), [ids[4], ids[3]]);
    assert.deepEqual([first.hasMore, first.nextCursor, first.prevCursor], [true, ids[3], null]);
    const second = await expectStatus<Page>(t, 200, 'GET', `${INTERACTIONS}?limit=2&cursor=${first.nextCursor}`, s.w.readKey);
    assert.deepEqual(second.interactions.map((c) => c.id), [ids[2], ids[1]]);
    assert.deepEqual([second.hasMore, second.nextCursor, second.prevCursor], [true, ids[1], ids[2]]);
    const back = await expectStatus<Page>(t, 200, 'GET', `${INTERACTIONS}?limit=2&cursor=${second.prevCursor}&direction=previous`, s.w.readKey);
    assert.deepEqual(back.interactions.map((c) => c.id), [ids[4], ids[3]]);
    assert.equal(back.hasMore, false);
    const email = await expectStatus<Page>(t, 200, 'GET', `${INTERACTIONS}?channel=email`, s.w.readKey);
    assert.deepEqual(email.interactions.map((c) => c.id), [ids[3], ids[1]]);
    const both = await expectStatus<Page>(t, 200, 'GET', `${INTERACTIONS}?channel=email&channel=chat&botId=${s.agentId}&source=api`, s.w.readKey);
    assert.equal(both.interactions.length, 5);
    const statuses = await expectStatus<Page>(t, 200, 'GET', `${INTERACTIONS}?status=Waiting%20for%20Customer,Escalated%20to%20Human%20Agent`, s.w.readKey);
    assert.equal(statuses.interactions.length, 5);
    assert.deepEqual((await expectStatus<Page>(t, 200, 'GET', `${INTERACTIONS}?status=No%20Reply`, s.w.readKey)).interactions, []);
    const tagged = await expectStatus<Page>(t, 200, 'GET', `${INTERACTIONS}?tagIds=${SYSTEM_TAG_IDS['Waiting for Customer']}&tagIds=${SYSTEM_TAG_IDS['Escalated to Human Agent']}`, s.w.readKey);
    assert.equal(tagged.interactions.length, 5);
    const created = (i: number) => Date.parse(first.interactions.find((c) => c.id === ids[i])?.createdAt ?? '');
    const windowed = await expectStatus<Page>(t, 200, 'GET', `${INTERACTIONS}?since=${created(3)}&until=${new Date(created(4) + 1).toISOString()}`, s.w.readKey);
    assert.deepEqual(windowed.interactions.map((c) => c.id), [ids[4], ids[3]]);
  });

  it('refuses a bad window or filter, naming the parameter', async () => {
    const now = Date.now();
    await fail('GET', `${INTERACTIONS}?since=${now}&until=${now - 1}`, 400, /^query\.since: since must be before until/);
    await fail('GET', `${INTERACTIONS}?since=${now - 91 * 86_400_000}&until=${now}`, 400, /at most 90 days/);
    await fail('GET', `${INTERACTIONS}?since=yesterday`, 400, /^query\.since: /);
    await fail('GET', `${INTERACTIONS}?limit=101`, 400, /^query\.limit: /);
    await fail('GET', `${INTERACTIONS}?source=web`, 400, /^query\.source/);
    await fail('GET', `${INTERACTIONS}?tagIds=nope`, 400, /^query\.tagIds/);
    await fail('GET', `${INTERACTIONS}?cursor=${UNKNOWN}`, 400, /^query\.cursor: /);
  });

  it('shows an agent reply\'s metadata only, and feedback moves the status', async () => {
    const [user, reply] = (await ask('How do I reset my password?')) as [Event, Event];
    await fail('GET', metadataOf(user.id), 400, /is not authored by parleybot/);
    await fail('GET', metadataOf(UNKNOWN), 404, 'event not found');
    await fail('POST', feedbackOf(user.id), 400, /is not authored by parleybot/, { resolved: true });
    await fail('POST', feedbackOf(reply.id), 400, /^body\.csatRating: /, { csatRating: 6 });
    await fail('POST', feedbackOf(reply.id), 400, /at least one/, {});
    const rated = await expectStatus<Event>(t, 200, 'POST', feedbackOf(reply.id), s.w.key, { csatRating: 5, feedback: 'Great', resolved: true, approved: true });
    assert.deepEqual([rated.csatRating, rated.feedback, rated.resolved, rated.approved], [5, 'Great', true, true]);
    let conv = await expectStatus<Interaction>(t, 200, 'GET', interaction(user.interactionId), s.w.readKey);
    assert.deepEqual([conv.status, conv.resolved, conv.hasFeedback], ['Resolved by AI', true, true]);
    assert.ok(conv.tags.some((x) => x.id === SYSTEM_TAG_IDS['Resolved by AI']));
    assert.ok(!conv.tags.some((x) => x.id === SYSTEM_TAG_IDS['Waiting for Customer']));
    await expectStatus(t, 200, 'POST', feedbackOf(reply.id), s.w.key, { resolved: false });
    conv = await expectStatus<Interaction>(t, 200, 'GET', interaction(user.interactionId), s.w.readKey);
    assert.deepEqual([conv.status, conv.resolved], ['Unresolved', false]);
  });

  it('evaluates a conversation and keeps the evaluation on it', async () => {
    const [, reply] = (await ask('How do I reset my password?')) as [Event, Event];
    const [, handover] = (await say(t, s.w.key, { content: 'Does the moon landing count as travel?', interactionId: reply.interactionId })) as [Event, Event];
    assert.equal(handover.handover, true);
    const evaluated = await expectStatus<Interaction>(t, 200, 'POST', `/v2/hc-interactions/${reply.interactionId}/evaluate/public`, s.w.key);
    assert.ok(evaluated.evaluation);
    assert.deepEqual(evaluated.evaluation.replies.map((r) => [r.eventId, r.grounded, r.answered]), [[reply.id, true, true], [handover.id, true, false]]);
    assert.deepEqual([evaluated.evaluation.verdict, evaluated.evaluation.notes], ['good', ['1 of 2 replies answered the question']]);
    const got = await expectStatus<Interaction>(t, 200, 'GET', interaction(reply.interactionId), s.w.readKey);
    assert.deepEqual(got.evaluation, evaluated.evaluation);
    await fail('POST', `/v2/hc-interactions/${UNKNOWN}/evaluate/public`, 404, 'conversation not found');
  });

  it('deletes one conversation (success also for unknown ids) and it disappears everywhere', async () => {
    const [user, reply] = (await ask('How do I export an invoice?')) as [Event, Event];
    assert.deepEqual(await expectStatus(t, 200, 'DELETE', interaction(UNKNOWN), s.w.key), { success: true });
    assert.deepEqual(await expectStatus(t, 200, 'DELETE', interaction(user.interactionId), s.w.key), { success: true });
    await fail('GET', interaction(user.interactionId), 404, 'conversation not found');
    await fail('GET', metadataOf(reply.id), 404, 'event not found');
    await fail('POST', EVENTS, 404, 'conversation not found', { content: 'more', interactionId: user.interactionId });
    const page = await expectStatus<Page>(t, 200, 'GET', `${INTERACTIONS}?limit=100`, s.w.readKey);
    assert.ok(!page.interactions.some((c) => c.id === user.interactionId));
    assert.deepEqual(await expectStatus(t, 200, 'DELETE', interaction(user.interactionId), s.w.key), { success: true });
  });

  it('bulk-deletes the accessible conversations and answers 406 naming the others', async () => {
    const other = await setupAgent(t, await makeTenant(t));
    const [theirs] = (await say(t, other.w.key, { content: 'Hello', botId: other.agentId })) as [Event];
    const [a] = (await ask('Hello a')) as [Event];
    const [b] = (await ask('Hello b')) as [Event];
    await fail('DELETE', INTERACTIONS, 400, /^body\.ids\.1: duplicate id/, { ids: [a.interactionId, a.interactionId] });
    await fail('DELETE', INTERACTIONS, 400, /^body\.ids: /, { ids: [] });
    await fail('DELETE', INTERACTIONS, 400, /^body\.ids: /, { ids: Array.from({ length: 51 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`) });
    assert.deepEqual(await expectStatus(t, 200, 'DELETE', INTERACTIONS, s.w.key, { ids: [a.interactionId] }), { success: true, deletedIds: [a.interactionId] });
    await fail('DELETE', INTERACTIONS, 406, new RegExp(`not accessible: ${theirs.interactionId}, ${UNKNOWN} \\(the 1 others were deleted\\)`), { ids: [theirs.interactionId, b.interactionId, UNKNOWN] });
    await fail('GET', interaction(b.interactionId), 404);
    const kept = await expectStatus<Interaction>(t, 200, 'GET', interaction(theirs.interactionId), other.w.readKey);
    assert.equal(kept.id, theirs.interactionId);
    assert.deepEqual(await expectStatus(t, 200, 'DELETE', interaction(theirs.interactionId), s.w.key), { success: true });
    await expectStatus(t, 200, 'GET', interaction(theirs.interactionId), other.w.readKey);
  });

  it('follows reply rules: NO_REPLY stores the message alone, INTERNAL_COMMENT makes the reply a note', async () => {
    const w = await makeTenant(t);
    const mine = await setupAgent(t, w);
    const rule = (replyType: string, contains: string) =>
      expectStatus(t, 200, 'PUT', `/v2/reply-behavior/${replyType}/public`, w.key, {
        conditions: [{ scope: 'SCALAR', predicate: [{ left: { path: 'message.content', dataType: 'string' }, operator: 'contains', right: { value: contains } }] }],
      });
    await rule('NO_REPLY', 'unsubscribe');
    await rule('INTERNAL_COMMENT', 'invoice');
    const silent = await say(t, w.key, { content: 'Please unsubscribe me', botId: mine.agentId });
    assert.deepEqual(silent.map((e) => e.role), ['user']);
    const conv = await expectStatus<Interaction>(t, 200, 'GET', interaction(silent[0]!.interactionId), w.readKey);
    assert.equal(conv.status, 'No Reply');
    const noted = await say(t, w.key, { content: 'How do I export an invoice as PDF?', botId: mine.agentId });
    assert.deepEqual(noted.map((e) => [e.role, e.type]), [['user', 'message'], ['parleybot', 'internal_comment']]);
    const trace = await expectStatus<{ replyRule: unknown }>(t, 200, 'GET', metadataOf(noted[1]!.id), w.readKey);
    assert.deepEqual(trace.replyRule, { replyType: 'INTERNAL_COMMENT', matched: true });
  });

  it('applies input and output guardrails', async () => {
    const w = await makeTenant(t);
    const mine = await setupAgent(t, w);
    await expectStatus(t, 201, 'POST', '/v2/guardrails/public', w.key, { name: 'No cards', kind: 'pii_redaction', stage: 'input', action: 'redact', config: { types: ['card'] }, botIds: [mine.agentId] });
    await expectStatus(t, 201, 'POST', '/v2/guardrails/public', w.key, { name: 'No refunds talk', kind: 'blocked_topics', stage: 'output', action: 'block', config: { topics: ['refund'] }, botIds: [mine.agentId] });
    const [user, reply] = (await say(t, w.key, { content: 'What is the refund policy for annual plans? My card is 4111 1111 1111 1111.', botId: mine.agentId })) as [Event, Event];
    assert.equal(user.message, 'What is the refund policy for annual plans? My card is [redacted].');
    assert.deepEqual([reply.handover, reply.escalationReason, reply.usedArticles], [true, 'guardrail_block', []]);
    const trace = await expectStatus<{ guardrails: { name: string; stage: string; result: { matched: boolean } }[] }>(t, 200, 'GET', metadataOf(reply.id), w.readKey);
    assert.deepEqual(trace.guardrails.map((g) => [g.name, g.stage, g.result.matched]), [['No cards', 'input', true], ['No refunds talk', 'output', true]]);
  });

  const own = async (app: TestApp, o: Tenant) => {
    const setup = await setupAgent(app, o);
    return (await say(app, o.key, { content: 'How do I reset my password?', botId: setup.agentId })) as [Event, Event];
  };
  const routes: SecuredRouteRow[] = [
    ['generate answer', 'POST', 'write', async (app, o) => ({ path: EVENTS, body: { content: 'more', interactionId: (await own(app, o))[0].interactionId } }), 404],
    ['list', 'GET', 'read', async () => ({ path: INTERACTIONS }), undefined],
    ['get', 'GET', 'read', async (app, o) => ({ path: interaction((await own(app, o))[0].interactionId) }), 404],
    ['delete', 'DELETE', 'write', async (app, o) => ({ path: interaction((await own(app, o))[0].interactionId) }), undefined],
    ['bulk delete', 'DELETE', 'write', async (app, o) => ({ path: INTERACTIONS, body: { ids: [(await own(app, o))[0].interactionId] } }), 406],
    ['evaluate', 'POST', 'write', async (app, o) => ({ path: `/v2/hc-interactions/${(await own(app, o))[0].interactionId}/evaluate/public` }), 404],
    ['metadata', 'GET', 'read', async (app, o) => ({ path: metadataOf((await own(app, o))[1].id) }), 404],
    ['feedback', 'POST', 'write', async (app, o) => ({ path: feedbackOf((await own(app, o))[1].id), body: { csatRating: 4 } }), 404],
  ];
  securitySuites(() => t, routes);
});
