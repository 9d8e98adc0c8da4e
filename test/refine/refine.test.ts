// Refine with AI through the routes and the real job: feedback on a bad reply becomes a diagnosis,
// drafts and a replay with them; publishing applies the drafts, closing discards them. The built-in
// engine on a small fixed knowledge base.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Event, type Interaction, interaction, say, type Setup, setupAgent, UNKNOWN } from '../conversations/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { poll } from '../support/poll.js';
import { assertError, expectStatus, type SecuredRouteRow, securitySuites } from '../support/security.js';

interface Warning { fragment: string; message: string }
interface Change {
  id: string; iterationId: string; changeType: string; warnings: Warning[]; draftPromptVersionId: string | null; draftArticleId: string | null; draftRuleVersionId: string | null;
  rootCause: { failureStage: string; failureMode: string; reasoning: string; target: Record<string, unknown> };
}
interface Snapshot { interactionId: string; eventId: string; originalEventId: string | null; content: string | null; role: string; type: string; createdAt: string }
interface Iteration {
  id: string; sessionId: string; status: string; iterationNumber: number; previousIterationId: string | null; backgroundJobId: string;
  replayInteractionId: string | null; replayEventId: string | null; feedbackNote: string; summary: string | null; confidence: string | null;
  error: string | null; warnings: Warning[]; oldAnswerSnapshot: Snapshot | null; newAnswerSnapshot: Snapshot | null; changes: Change[]; publishedAt: string | null;
}
interface Session {
  id: string; status: string; interactionId: string; targetEventId: string; targetUserEventId: string | null; botId: string;
  publishedIterationId: string | null; closedReason: string | null; originalAnswerSnapshot: Snapshot | null; latestIteration: Iteration | null; iterations: Iteration[];
}
interface Article { id: string; title: string; mainKnowledge: string; isDraft: boolean; isDraftPublished: boolean; origin: string; originalArticleId: string | null; questions: string[] }

const iterations = (conversationId: string, eventId: string) => `/v2/fix-review/interactions/${conversationId}/events/${eventId}/sessions/iterations/public`;
const activeSession = (conversationId: string, eventId: string) => `/v2/fix-review/interactions/${conversationId}/events/${eventId}/session/public`;
const sessionPath = (id: string) => `/v2/fix-review/sessions/${id}/public`;
const publishPath = (sessionId: string, iterationId: string) => `/v2/fix-review/sessions/${sessionId}/iterations/${iterationId}/publish/public`;
const closePath = (sessionId: string) => `/v2/fix-review/sessions/${sessionId}/close/public`;
const TERMINAL = ['ready', 'no_change', 'failed'];

describe('Refine with AI', () => {
  let t: TestApp;
  let s: Setup;
  before(async () => {
    t = await startTestApp({ work: true });
    s = await setupAgent(t);
  });
  after(() => t.close());

  const ok = <T>(status: number, method: string, path: string, body?: unknown, key = s.w.key) => expectStatus<T>(t, status, method, path, key, body);
  const fail = async (method: string, path: string, status: number, message?: string | RegExp, body?: unknown, key = s.w.key) =>
    assertError(await t.request(method, path, { key, body }), status, message);
  const ask = async (content: string, setup = s) => (await say(t, setup.w.key, { content, botId: setup.agentId })) as [Event, Event];
  const articles = (ids: string[], key = s.w.readKey) => ok<Article[]>(200, 'POST', '/v2/hc-articles/ids/public', { articleIds: ids }, key);
  /** Queues an iteration and polls the session until it ends, as a client does. */
  const refine = async (reply: Event, feedbackNote: string, w: Tenant = s.w) => {
    const created = await ok<{ sessionId: string; iterationId: string; backgroundJobId: string }>(200, 'POST', iterations(reply.interactionId, reply.id), { feedbackNote }, w.key);
    assert.equal(created.backgroundJobId, created.iterationId);
    return poll(
      () => {
        t.wakeWorkers('refine.iterate');
        return ok<Session>(200, 'GET', activeSession(reply.interactionId, reply.id), undefined, w.readKey);
      },
      (session) => session !== null && session.latestIteration?.id === created.iterationId && TERMINAL.includes(session.latestIteration.status),
      { what: `iteration ${created.iterationId} to end`, timeoutMs: 30_000, intervalMs: 100 },
    );
  };

  it('creates an article the knowledge lacks, replays with the draft, publishes it', async () => {
    const [user, reply] = await ask('Do you ship to Canada?');
    assert.equal(reply.handover, true);
    assert.equal(await ok(200, 'GET', activeSession(reply.interactionId, reply.id)), null, 'no session before the first iteration');

    const session = await refine(reply, 'It should have said that we ship to Canada within 5 business days. Shipping to Canada costs 15 dollars.');
    const it1 = session.latestIteration!;
    assert.equal(it1.status, 'ready', it1.error ?? '');
    assert.deepEqual([session.status, session.targetEventId, session.targetUserEventId, session.iterations.length], ['active', reply.id, user.id, 1]);
    assert.deepEqual([session.originalAnswerSnapshot?.eventId, session.originalAnswerSnapshot?.content, session.originalAnswerSnapshot?.originalEventId], [reply.id, reply.message, user.id]);
    assert.equal(it1.oldAnswerSnapshot?.content, reply.message);
    const [change] = it1.changes;
    assert.deepEqual([change?.changeType, change?.rootCause.failureStage, change?.rootCause.failureMode, change?.rootCause.target.kind, change?.rootCause.target.operation],
      ['create_article', 'knowledge_search', 'relevant_knowledge_not_available', 'kb_article', 'create']);
    const [draft] = await articles([change!.draftArticleId!]);
    assert.deepEqual([draft?.isDraft, draft?.origin, draft?.title, draft?.questions], [true, 'FIX_REVIEW', 'Shipping to Canada', ['Do you ship to Canada?']]);
    assert.equal(draft?.mainKnowledge, 'We ship to Canada within 5 business days. Shipping to Canada costs 15 dollars.');

    // The replay: a new conversation of source replay, answered from the draft; live answers are unchanged.
    assert.match(it1.newAnswerSnapshot?.content ?? '', /ship to Canada within 5 business days/);
    const replay = await ok<Interaction>(200, 'GET', interaction(it1.replayInteractionId!), undefined, s.w.readKey);
    assert.equal(replay.source, 'replay');
    assert.equal(replay.events?.find((e) => e.id === it1.replayEventId)?.message, it1.newAnswerSnapshot?.content);
    const [, live] = await ask('Do you ship to Canada?');
    assert.equal(live.handover, true, 'a draft does not answer live customers');

    const published = await ok<Session>(200, 'POST', publishPath(session.id, it1.id));
    assert.deepEqual([published.status, published.publishedIterationId, published.latestIteration?.status], ['published', it1.id, 'published']);
    const [, after] = await ask('Do you ship to Canada?');
    assert.equal(after.handover, false);
    assert.match(after.message, /5 business days/);
    assert.equal(await ok(200, 'GET', activeSession(reply.interactionId, reply.id)), null, 'a published session is no longer active');
    assert.equal((await ok<Session>(200, 'GET', sessionPath(session.id))).status, 'published');
  });

  it('corrects an article that states another number, and a second iteration builds on the first', async () => {
    const [, reply] = await ask('Can I get a refund on my annual plan?');
    assert.match(reply.message, /30 days/);
    const session = await refine(reply, 'Wrong: annual plans can be refunded within 60 days of purchase.');
    const first = session.latestIteration!;
    assert.equal(first.status, 'ready', first.error ?? '');
    const [change] = first.changes;
    assert.deepEqual([change?.changeType, change?.rootCause.failureStage, change?.rootCause.failureMode, change?.rootCause.target.articleId],
      ['update_article', 'knowledge_content', 'incorrect_knowledge', s.articleIds[1]]);
    const [draft] = await articles([change!.draftArticleId!]);
    assert.deepEqual([draft?.isDraft, draft?.originalArticleId, draft?.origin], [true, s.articleIds[1], 'FIX_REVIEW']);
    assert.match(draft!.mainKnowledge, /^Annual plans can be refunded within 60 days of purchase\. After 30 days/);
    assert.match(first.newAnswerSnapshot?.content ?? '', /60 days/);
    const [live] = await articles([s.articleIds[1]!]);
    assert.match(live!.mainKnowledge, /within 30 days/, 'the live article is unchanged until publish');

    // Running: a second create is refused until the first ends (checked here on a fresh reply).
    const [, other] = await ask('How do I export an invoice as PDF?');
    await ok(200, 'POST', iterations(other.interactionId, other.id), { feedbackNote: 'It should mention that invoices are kept for 7 years.' });
    await fail('POST', iterations(other.interactionId, other.id), 400, /a fix iteration is already running/, { feedbackNote: 'Again' });

    assert.deepEqual([first.warnings, change!.warnings], [[], []]);

    const second = (await refine(reply, 'Also: after 60 days, an annual plan is not refundable. Be friendlier too.')).latestIteration!;
    // The part not understood is named on the iteration and on the change that leaves it out.
    assert.deepEqual(second.warnings.map((w) => w.fragment), ['Be friendlier too.']);
    assert.deepEqual(second.changes[0]!.warnings, second.warnings);
    assert.equal(second.previousIterationId, first.id);
    assert.equal(second.iterationNumber, 2);
    assert.equal(second.oldAnswerSnapshot?.content, first.newAnswerSnapshot?.content);
    // The same article again: the new draft starts from the first one's content, and replaces it.
    assert.equal(second.status, 'ready', second.error ?? '');
    assert.deepEqual(second.changes.map((c) => [c.changeType, c.rootCause.target.articleId]), [['update_article', s.articleIds[1]]]);
    const [both] = await articles([second.changes[0]!.draftArticleId!]);
    assert.match(both!.mainKnowledge, /^Annual plans can be refunded within 60 days of purchase\. After 60 days, an annual plan is not refundable/);

    const published = await ok<Session>(200, 'POST', publishPath(session.id, second.id));
    assert.deepEqual(published.iterations.map((i) => [i.iterationNumber, i.status]), [[2, 'published'], [1, 'superseded']]);
    const [now] = await articles([s.articleIds[1]!]);
    assert.equal(now!.mainKnowledge, both!.mainKnowledge);
    assert.deepEqual(await articles([change!.draftArticleId!]), [], "the superseded iteration's draft is discarded");
  });

  it('adds the step the feedback names to the rule that ran, replays it, and publishes a new rule version', async () => {
    const rule = await ok<{ id: string; version: number }>(201, 'POST', '/v2/hc-rules/public', {
      name: 'Order status',
      description: 'The customer asks where their order is or about its shipping status',
      botIds: [s.agentId],
      flowConfig: { type: 'message', message: 'Your order is on its way.' },
    });
    const [, reply] = await ask('Where is my order?');
    assert.equal(reply.message, 'Your order is on its way.');
    const session = await refine(reply, 'It should have asked for the order number first.');
    const iteration = session.latestIteration!;
    assert.equal(iteration.status, 'ready', iteration.error ?? '');
    const [change] = iteration.changes;
    assert.deepEqual([change?.changeType, change?.rootCause.failureStage, change?.rootCause.failureMode, change?.rootCause.target.ruleId],
      ['update_rule', 'rule_execution', 'required_rule_behavior_missing', rule.id]);
    assert.match(iteration.newAnswerSnapshot?.content ?? '', /order number/i);
    assert.equal((await ok<{ version: number }>(200, 'GET', `/v2/hc-rules/${rule.id}/public`)).version, 1, 'the rule is unchanged until publish');

    await ok(200, 'POST', publishPath(session.id, iteration.id));
    const published = await ok<{ version: number; flowConfig: { type: string } }>(200, 'GET', `/v2/hc-rules/${rule.id}/public`);
    assert.deepEqual([published.version, published.flowConfig.type], [2, 'collect']);
    const [, now] = await ask('Where is my order?');
    assert.match(now.message, /order number/i);
  });

  it('closes a session and discards its drafts; publishing needs an active session and a ready iteration', async () => {
    const [, reply] = await ask('Is there a student discount?');
    const session = await refine(reply, 'It should have said that students get 50 percent off with a valid student card.');
    const iteration = session.latestIteration!;
    assert.equal(iteration.status, 'ready', iteration.error ?? '');
    const draftId = iteration.changes[0]!.draftArticleId!;
    await fail('POST', publishPath(session.id, UNKNOWN), 404, 'fix iteration not found in this session');
    const closed = await ok<Session>(200, 'POST', closePath(session.id), { reason: 'Not our policy' });
    assert.deepEqual([closed.status, closed.closedReason], ['closed', 'Not our policy']);
    assert.deepEqual(await articles([draftId]), [], 'the draft is gone');
    await fail('POST', publishPath(session.id, iteration.id), 400, 'the session is closed: only an active session can change');
    await fail('POST', closePath(session.id), 400, 'the session is closed: only an active session can change');
    // A closed session frees the reply for a new one.
    const again = await refine(reply, 'Students get 50 percent off.');
    assert.notEqual(again.id, session.id);
  });

  it('refuses to publish a draft whose live article moved on, naming it, and publishes nothing', async () => {
    const [, reply] = await ask('How long is the password reset link valid?');
    const session = await refine(reply, 'Not quite: the reset link expires after 2 hours.');
    const iteration = session.latestIteration!;
    assert.equal(iteration.status, 'ready', iteration.error ?? '');
    const draftId = iteration.changes[0]!.draftArticleId!;
    const [live] = await articles([s.articleIds[0]!]);
    await ok(200, 'PUT', `/v2/hc-articles/${live!.id}/public`, { title: live!.title, mainKnowledge: `${live!.mainKnowledge} Links are sent from no-reply@example.com.`, agentInstruction: '', questions: [], keywords: [], escalation: false });
    await fail('POST', publishPath(session.id, iteration.id), 409, new RegExp(`^article draft ${draftId}: the live article changed since this draft was made`));
    const after = await ok<Session>(200, 'GET', sessionPath(session.id));
    assert.deepEqual([after.status, after.latestIteration?.status], ['active', 'ready']);
    const [draft] = await articles([draftId]);
    assert.equal(draft?.isDraftPublished, false);

    // The replays are conversations of source replay: analytics leaves them out unless asked.
    const end = Math.floor(Date.now() / 1000) + 60;
    const analytics = (query: string) => ok<{ summary: { totalConversations: number } }>(200, 'GET', `/v2/bots/${s.agentId}/hc-analytics/public?startEpoch=${end - 86_400}&endEpoch=${end}${query}`, undefined, s.w.readKey);
    const replays = (await analytics('&source=replay')).summary.totalConversations;
    assert.ok(replays >= 4, `${replays} replays`);
    assert.equal((await analytics('&source=all')).summary.totalConversations, (await analytics('')).summary.totalConversations + replays);
  });

  it('refuses to publish a prompt draft or a rule draft whose base moved on, naming the draft', async () => {
    const w = await makeTenant(t);
    const mine = await setupAgent(t, w);
    await ok(201, 'POST', '/v2/hc-articles/public', {
      title: 'Gift cards', agentInstruction: '', questions: [], keywords: [], escalation: false, parentFolderId: mine.folderId,
      mainKnowledge: 'Gift cards can be bought in the shop for any plan. Gift cards can be used for any plan. Gift cards never expire. A voucher bought by mistake is not refundable.',
    }, w.key);
    const [, reply] = await ask('Can I buy gift cards for any plan?', mine);
    const session = await refine(reply, 'It should have said that a voucher bought by mistake is not refundable.', w);
    const iteration = session.latestIteration!;
    assert.equal(iteration.status, 'ready', iteration.error ?? '');
    const [change] = iteration.changes;
    assert.deepEqual([change?.changeType, change?.rootCause.failureMode, change?.rootCause.target.promptType], ['update_prompt', 'required_information_omitted', 'hcGuidelinePrompt']);
    assert.match(iteration.newAnswerSnapshot?.content ?? '', /A voucher bought by mistake is not refundable\./);
    const current = await ok<{ hcPlanningPrompt: unknown[]; hcGuidelinePrompt: unknown[]; hcChannelPrompt: unknown[] }>(200, 'GET', `/v2/bots/${mine.agentId}/hc-prompt/public`, undefined, w.readKey);
    await ok(201, 'POST', `/v2/bots/${mine.agentId}/hc-prompt`, { hcPlanningPrompt: current.hcPlanningPrompt, hcGuidelinePrompt: current.hcGuidelinePrompt, hcChannelPrompt: current.hcChannelPrompt }, w.key);
    const stale = await t.request('POST', publishPath(session.id, iteration.id), { key: w.key });
    assertError(stale, 409, new RegExp(`^prompt draft ${change!.draftPromptVersionId}: prompts changed since the draft was made`));

    const rule = await ok<{ id: string }>(201, 'POST', '/v2/hc-rules/public', { name: 'Gift card balance', description: 'The customer asks about the balance left on a gift card', botIds: [mine.agentId], flowConfig: { type: 'message', message: 'Your balance is shown in your account.' } }, w.key);
    const [, ruled] = await ask('What is the balance left on my gift card?', mine);
    assert.equal(ruled.message, 'Your balance is shown in your account.');
    const ruleSession = await refine(ruled, 'It should have asked for the gift card number first.', w);
    const ruleIteration = ruleSession.latestIteration!;
    assert.equal(ruleIteration.status, 'ready', ruleIteration.error ?? '');
    await ok(200, 'PATCH', `/v2/hc-rules/${rule.id}/public`, { description: 'The customer asks about the balance of a gift card' }, w.key);
    const draftId = ruleIteration.changes[0]!.draftRuleVersionId!;
    assertError(await t.request('POST', publishPath(ruleSession.id, ruleIteration.id), { key: w.key }), 409,
      new RegExp(`^rule draft ${draftId}: the rule "Gift card balance" changed since the draft was made \\(draft of version 1, current version 2\\)`));
    assert.equal((await ok<{ version: number }>(200, 'GET', `/v2/hc-rules/${rule.id}/public`, undefined, w.readKey)).version, 2, 'nothing published');
  });

  it('ends no_change when the feedback names nothing to change, and the next iteration starts from the reply', async () => {
    const [, reply] = await ask('How do I export an invoice as PDF?');
    const session = await refine(reply, 'Be a bit friendlier.');
    const iteration = session.latestIteration!;
    assert.deepEqual([iteration.status, iteration.changes, iteration.newAnswerSnapshot, iteration.replayInteractionId], ['no_change', [], null, null]);
    assert.equal(iteration.summary, 'The feedback states no fact and no step the agent should have taken: nothing to change.');
    // What was not understood is said, on the iteration, and nothing is made of the note's words.
    assert.deepEqual(iteration.warnings, [
      { fragment: 'Be a bit friendlier.', message: 'This reads as an instruction on how to answer, not as a fact; the built-in engine drafts no change from it.' },
    ]);
    const blank = (await refine((await ask('How do I reset my password?'))[1], '?? meh')).latestIteration!;
    assert.deepEqual([blank.status, blank.changes.length, blank.warnings.map((w) => w.fragment)], ['no_change', 0, ['?? meh']]);
    assert.match(blank.warnings[0]!.message, /^Not understood/);
    const next = (await refine(reply, 'Invoices are issued on the first day of each month.')).latestIteration!;
    assert.deepEqual([next.iterationNumber, next.previousIterationId, next.oldAnswerSnapshot?.content], [2, null, reply.message]);
  });

  it('documents the warnings of an iteration and of a change in the OpenAPI document', async () => {
    const doc = await t.request<{ components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> } }>('GET', '/openapi.json');
    const { FixIteration, FixChange, FixNoteWarning } = doc.body.components.schemas;
    assert.ok(FixIteration?.required?.includes('warnings') && FixChange?.required?.includes('warnings'));
    assert.deepEqual(FixNoteWarning?.required, ['fragment', 'message']);
  });

  it('refuses bad input, naming it', async () => {
    const [user, reply] = await ask('How do I reset my password?');
    await fail('POST', iterations(reply.interactionId, reply.id), 400, /^body\.feedbackNote: /, { feedbackNote: '   ' });
    await fail('POST', iterations(reply.interactionId, reply.id), 400, /^body\.feedbackNote: /, { feedbackNote: 'x'.repeat(2001) });
    await fail('POST', iterations(reply.interactionId, reply.id), 400, /^body\.feedbackNote: /, {});
    await fail('POST', iterations(reply.interactionId, user.id), 400, `event ${user.id} is not authored by parleybot (its role is user)`, { feedbackNote: 'x' });
    const [, elsewhere] = await ask('How do I export an invoice as PDF?');
    await fail('POST', iterations(reply.interactionId, elsewhere.id), 400, `event ${elsewhere.id} is not in conversation ${reply.interactionId}`, { feedbackNote: 'x' });
    const [note] = await say(t, s.w.key, { content: 'Looking into it', role: 'parleybot', interactionId: reply.interactionId });
    await fail('POST', iterations(reply.interactionId, note!.id), 400, `event ${note!.id} has no linked user event`, { feedbackNote: 'x' });
    await fail('GET', activeSession(reply.interactionId, note!.id), 400, `event ${note!.id} has no linked user event`);
    await fail('POST', iterations(UNKNOWN, reply.id), 404, 'conversation not found', { feedbackNote: 'x' });
    await fail('POST', iterations(reply.interactionId, UNKNOWN), 404, 'event not found', { feedbackNote: 'x' });
    await fail('GET', activeSession('not-a-uuid', reply.id), 400, /^path\.id: /);
    await fail('GET', sessionPath(UNKNOWN), 404, 'fix-review session not found');
    await fail('POST', closePath(UNKNOWN), 404, 'fix-review session not found');
    await fail('POST', closePath(UNKNOWN), 400, /^body: /, { color: 'red' });
  });

  const target = async (app: TestApp, o: Tenant) => {
    const setup = await setupAgent(app, o);
    return (await say(app, o.key, { content: 'How do I reset my password?', botId: setup.agentId }))[1]!;
  };
  const withSession = async (app: TestApp, o: Tenant) => {
    const reply = await target(app, o);
    return (await expectStatus<{ sessionId: string; iterationId: string }>(app, 200, 'POST', iterations(reply.interactionId, reply.id), o.key, { feedbackNote: 'It should say the link expires after 24 hours.' }));
  };
  const routes: SecuredRouteRow[] = [
    ['create iteration', 'POST', 'write', async (app, o) => {
      const reply = await target(app, o);
      return { path: iterations(reply.interactionId, reply.id), body: { feedbackNote: 'Be shorter.' } };
    }, 404],
    ['active session', 'GET', 'read', async (app, o) => {
      const reply = await target(app, o);
      return { path: activeSession(reply.interactionId, reply.id) };
    }, 404],
    ['session', 'GET', 'read', async (app, o) => ({ path: sessionPath((await withSession(app, o)).sessionId) }), 404],
    ['publish', 'POST', 'write', async (app, o) => {
      const created = await withSession(app, o);
      return { path: publishPath(created.sessionId, created.iterationId) };
    }, 404],
    ['close', 'POST', 'write', async (app, o) => ({ path: closePath((await withSession(app, o)).sessionId), body: {} }), 404],
  ];
  securitySuites(() => t, routes);
});
