// Test cases, runs and the publish gate (docs/testing.md) through the routes and the real jobs, with
// the built-in engine on the small fixed knowledge base of the conversation tests.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { defineListener, registeredListener } from '../../src/events/bus.js';
import type { DomainEvents } from '../../src/events/events.js';
import { jobNamed } from '../../src/jobs/registry.js';
import { type Event, INTERACTIONS, KB, say, type Setup, setupAgent, UNKNOWN } from '../conversations/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import type { Tenant } from '../support/factories.js';
import { poll } from '../support/poll.js';
import { assertError, expectStatus, type SecuredRouteRow, securitySuites } from '../support/security.js';

interface TestCase { id: string; botId: string; name: string; turns: { content: string; expect?: Record<string, unknown> }[]; expect: Record<string, unknown>; tags: string[]; liveActions: boolean; fromInteractionId: string | null }
interface Failure { run: number; turn: number; expectation: string; actual: string; reply: string | null; eventId: string | null }
interface CaseResult { caseId: string; name: string; passes: number; k: number; passK: boolean; regressed: boolean; interactionIds: string[]; failures: Failure[] }
interface Run {
  id: string; botId: string; state: string; trigger: string; k: number; deterministic: boolean; cases: CaseResult[]; caseCount: number; completedCases: number;
  passRate: number | null; passKRate: number | null; previousRunId: string | null; regressedCaseIds: string[]; error: string | null;
  overlay: Record<string, unknown> | null; gate: { kind: string; targetId: string; regressedCaseIds: string[]; blocked: boolean; forced: boolean } | null;
}
interface Article { id: string; mainKnowledge: string; isDraft: boolean }

const cases = (agentId: string) => `/v2/bots/${agentId}/test-cases/public`;
const caseOf = (id: string) => `/v2/test-cases/${id}/public`;
const runs = (agentId: string) => `/v2/bots/${agentId}/test-runs/public`;
const runOf = (id: string) => `/v2/test-runs/${id}/public`;

const REFUND = { name: 'Refund window', turns: [{ content: 'can i get my money back on a yearly plan?' }], expect: { answers: true, contains: '30 days' }, tags: ['billing'] };
const RESET = { name: 'Password reset', turns: [{ content: 'forgot my pasword, how do i reset it' }], expect: { answers: true, contains: ['Forgot password'] }, tags: ['account'] };
const UNKNOWN_TOPIC = { name: 'Shipping to Mars', turns: [{ content: 'Do you deliver parcels to the planet Mars?' }], expect: { answers: false }, tags: ['edge'] };

describe('test cases and runs', () => {
  let t: TestApp;
  let s: Setup;
  const seen: { name: string; payload: unknown }[] = [];
  before(async () => {
    t = await startTestApp({
      work: true,
      listeners: [registeredListener(defineListener({ name: 'test.regressed', event: 'testrun.regressed', phase: 'commit', handle: async (_ctx, payload: DomainEvents['testrun.regressed']) => void seen.push({ name: 'testrun.regressed', payload }) }))],
    });
    s = await setupAgent(t);
  });
  after(() => t.close());

  const ok = <T>(status: number, method: string, path: string, body?: unknown, key = s.w.key) => expectStatus<T>(t, status, method, path, key, body);
  const fail = async (method: string, path: string, status: number, message?: string | RegExp, body?: unknown, key = s.w.key) =>
    assertError(await t.request(method, path, { key, body }), status, message);
  const run = async (body: Record<string, unknown> = {}, setup = s) => {
    const queued = await ok<Run>(202, 'POST', runs(setup.agentId), body, setup.w.key);
    assert.equal(queued.state, 'queued');
    return poll(
      () => {
        t.wakeWorkers('testing.run');
        return ok<Run>(200, 'GET', runOf(queued.id), undefined, setup.w.readKey);
      },
      (r) => r.state === 'completed' || r.state === 'failed',
      { what: `test run ${queued.id} to end`, timeoutMs: 240_000, intervalMs: 100 },
    );
  };

  /** A draft of the fixed knowledge base's article `index` with new body text. */
  const draftOf = (index: number, mainKnowledge: string) =>
    ok<Article>(201, 'POST', `/v2/hc-articles/${s.articleIds[index]}/draft/public`, { title: KB[index]!.title, mainKnowledge, agentInstruction: '', questions: [], keywords: [], escalation: false });

  let refund: TestCase;
  let reset: TestCase;
  let unknown: TestCase;

  it('creates, reads, changes and lists cases, a phrase stored as a list', async () => {
    refund = await ok<TestCase>(201, 'POST', cases(s.agentId), REFUND);
    assert.deepEqual(refund.expect, { answers: true, contains: ['30 days'] });
    assert.deepEqual(refund.tags, ['billing']);
    assert.equal(refund.liveActions, false);
    assert.equal(refund.botId, s.agentId);
    reset = await ok<TestCase>(201, 'POST', cases(s.agentId), RESET);
    unknown = await ok<TestCase>(201, 'POST', cases(s.agentId), UNKNOWN_TOPIC);
    assert.deepEqual(await ok<TestCase>(200, 'GET', caseOf(refund.id), undefined, s.w.readKey), refund);
    const changed = await ok<TestCase>(200, 'PATCH', caseOf(unknown.id), { tags: ['edge', 'edge', 'space'] });
    assert.deepEqual(changed.tags, ['edge', 'space']);
    const page1 = await ok<{ testCases: TestCase[]; hasMore: boolean; nextCursor: string | null }>(200, 'GET', `${cases(s.agentId)}?limit=2`, undefined, s.w.readKey);
    assert.deepEqual(page1.testCases.map((c) => c.name), ['Shipping to Mars', 'Password reset']);
    assert.equal(page1.hasMore, true);
    const page2 = await ok<{ testCases: TestCase[]; hasMore: boolean; prevCursor: string | null }>(200, 'GET', `${cases(s.agentId)}?limit=2&cursor=${page1.nextCursor}`, undefined, s.w.readKey);
    assert.deepEqual(page2.testCases.map((c) => c.name), ['Refund window']);
    assert.equal(page2.hasMore, false);
    const billing = await ok<{ testCases: TestCase[] }>(200, 'GET', `${cases(s.agentId)}?tag=billing`, undefined, s.w.readKey);
    assert.deepEqual(billing.testCases.map((c) => c.id), [refund.id]);
  });

  it('names the field of a bad case', async () => {
    await fail('POST', cases(s.agentId), 400, /expect\.answers/, { ...REFUND, expect: { answers: 'yes' } });
    await fail('POST', cases(s.agentId), 400, /turns/, { ...REFUND, turns: [] });
    await fail('POST', cases(s.agentId), 400, /expect\.handoverReason/, { ...REFUND, expect: { handoverReason: 'bored' } });
    await fail('POST', cases(s.agentId), 400, /expect/, { ...REFUND, expect: { answer: true } });
    await fail('POST', cases(s.agentId), 400, /turns\.0\.content/, { ...REFUND, turns: [{ content: '  ' }] });
    await fail('POST', cases(UNKNOWN), 404, 'agent not found', REFUND);
    await fail('GET', caseOf(UNKNOWN), 404, 'test case not found');
    await fail('PATCH', caseOf(refund.id), 400, /expect\.maxLatencyMs/, { expect: { maxLatencyMs: 0 } });
  });

  it('runs every case k times through the answer pipeline: passes, failures with what the reply did, pass@1 and pass^k', async () => {
    const extra = await ok<TestCase>(201, 'POST', cases(s.agentId), {
      name: 'Monthly refund (wrong expectation)',
      turns: [{ content: 'are monthly plans refundable?' }],
      expect: { answers: true, contains: ['60 days'], notContains: 'never' },
    });
    const done = await run({ k: 3 });
    assert.equal(done.state, 'completed', done.error ?? '');
    assert.equal(done.trigger, 'api');
    assert.equal(done.deterministic, true);
    assert.equal(done.caseCount, 4);
    assert.equal(done.completedCases, 4);
    const byName = new Map(done.cases.map((c) => [c.name, c]));
    for (const name of ['Refund window', 'Password reset', 'Shipping to Mars']) {
      const c = byName.get(name)!;
      assert.deepEqual([c.passes, c.k, c.passK], [3, 3, true], `${name}: ${JSON.stringify(c.failures)}`);
    }
    const wrong = byName.get('Monthly refund (wrong expectation)')!;
    assert.deepEqual([wrong.passes, wrong.passK], [0, false]);
    assert.deepEqual(wrong.failures.map((f) => f.expectation), ['contains "60 days"', 'notContains "never"']);
    assert.match(wrong.failures[0]!.actual, /^said "Annual plans can be refunded within 30 days/);
    assert.equal(wrong.failures[0]!.turn, 1);
    assert.ok(wrong.failures[0]!.eventId);
    assert.equal(done.passRate, 0.75);
    assert.equal(done.passKRate, 0.75);
    // The runs' conversations are of source testsuite (analytics' default, api, leaves them out).
    const conversationId = byName.get('Refund window')!.interactionIds[0]!;
    const listed = await ok<{ interactions: { id: string }[] }>(200, 'GET', `${INTERACTIONS}?botId=${s.agentId}&source=api&limit=100`, undefined, s.w.readKey);
    assert.ok(!listed.interactions.some((i) => i.id === conversationId));
    const tests = await ok<{ interactions: { id: string; source?: string }[] }>(200, 'GET', `${INTERACTIONS}?botId=${s.agentId}&source=testsuite&limit=100`, undefined, s.w.readKey);
    assert.ok(tests.interactions.some((i) => i.id === conversationId));
    await ok(200, 'DELETE', caseOf(extra.id));
  });

  it('picks cases by ids or tags, and refuses a case of another agent or nothing to run', async () => {
    const byTag = await run({ tags: ['account', 'space'] });
    assert.deepEqual(byTag.cases.map((c) => c.name).sort(), ['Password reset', 'Shipping to Mars']);
    const byId = await run({ caseIds: [refund.id] });
    assert.deepEqual(byId.cases.map((c) => c.caseId), [refund.id]);
    await fail('POST', runs(s.agentId), 400, new RegExp(`caseIds: test case ${UNKNOWN}`), { caseIds: [UNKNOWN] });
    await fail('POST', runs(s.agentId), 400, /tags: .*no test case tagged nothing/, { tags: ['nothing'] });
    await fail('POST', runs(s.agentId), 400, /give caseIds or tags, not both/, { caseIds: [refund.id], tags: ['billing'] });
    await fail('POST', runs(s.agentId), 400, /k/, { k: 11 });
  });

  it('answers with drafts overlaid and changes nothing live', async () => {
    const live = await ok<Article[]>(200, 'POST', '/v2/hc-articles/ids/public', { articleIds: [s.articleIds[1]] }, s.w.readKey);
    const draft = await draftOf(1, 'Annual plans can be refunded within 45 days of purchase. Monthly plans are never refunded.');
    const withDraft = await run({ caseIds: [refund.id], overlay: { articleDraftIds: [draft.id] } });
    assert.deepEqual(withDraft.overlay, { promptDraftIds: [], articleDraftIds: [draft.id], ruleDraftIds: [] });
    const c = withDraft.cases[0]!;
    assert.equal(c.passK, false);
    assert.deepEqual(c.failures.map((f) => f.expectation), ['contains "30 days"']);
    assert.match(c.failures[0]!.reply ?? '', /45 days/);
    // Live is as it was: the article, and a run without drafts.
    assert.deepEqual(await ok<Article[]>(200, 'POST', '/v2/hc-articles/ids/public', { articleIds: [s.articleIds[1]] }, s.w.readKey), live);
    assert.equal((await run({ caseIds: [refund.id] })).cases[0]!.passK, true);
    await fail('POST', runs(s.agentId), 400, /overlay\.articleDraftIds: article .* is not an article draft/, { overlay: { articleDraftIds: [s.articleIds[0]] } });
    await ok(200, 'DELETE', `/v2/hc-articles/${draft.id}/public`);
  });

  it('gates an article publish: 409 naming the broken case, force publishes, a harmless draft passes', async () => {
    const breaking = await draftOf(1, 'Annual plans can be refunded within 45 days of purchase. Monthly plans are never refunded.');
    const refused = await t.request('POST', `/v2/hc-articles/${breaking.id}/publish/public`, { key: s.w.key, body: {} });
    assertError(refused, 409, /the drafts break 1 test case that passes today \(test run [0-9a-f-]+\): "Refund window" \(contains "30 days": said ".*45 days/);
    const runId = /test run ([0-9a-f-]{36})/.exec((refused.body as { message: string }).message)![1]!;
    const gateRun = await ok<Run>(200, 'GET', runOf(runId), undefined, s.w.readKey);
    assert.equal(gateRun.trigger, 'gate');
    assert.deepEqual(gateRun.gate, { kind: 'article_draft', targetId: breaking.id, regressedCaseIds: [refund.id], blocked: true, forced: false });
    // Nothing went live.
    const stillLive = await ok<Article[]>(200, 'POST', '/v2/hc-articles/ids/public', { articleIds: [s.articleIds[1]] }, s.w.readKey);
    assert.match(stillLive[0]!.mainKnowledge, /30 days/);

    const harmless = await draftOf(2, 'Every invoice can be downloaded as a PDF from the Billing page: open Billing, choose Invoices, and click Download.');
    await ok(200, 'POST', `/v2/hc-articles/${harmless.id}/publish/public`, {});
    const gates = await ok<{ testRuns: Run[] }>(200, 'GET', `${runs(s.agentId)}?trigger=gate`, undefined, s.w.readKey);
    assert.deepEqual(gates.testRuns[0]!.gate, { kind: 'article_draft', targetId: harmless.id, regressedCaseIds: [], blocked: false, forced: false });

    const forced = await ok<{ mainKnowledge: string }>(200, 'POST', `/v2/hc-articles/${breaking.id}/publish/public`, { force: true });
    assert.match(forced.mainKnowledge, /45 days/);
    const latest = await ok<{ testRuns: Run[] }>(200, 'GET', `${runs(s.agentId)}?trigger=gate&limit=1`, undefined, s.w.readKey);
    assert.deepEqual(latest.testRuns[0]!.gate, { kind: 'article_draft', targetId: breaking.id, regressedCaseIds: [refund.id], blocked: false, forced: true });
  });

  it('compares a run with the previous one: a case that passed and fails now is regressed (testrun.regressed)', async () => {
    // The 45-day article is live now (forced above): the refund case fails on what is live.
    const done = await run();
    const c = done.cases.find((x) => x.caseId === refund.id)!;
    assert.equal(c.passK, false);
    assert.equal(c.regressed, true);
    assert.deepEqual(done.regressedCaseIds, [refund.id]);
    assert.ok(done.previousRunId);
    const event = await poll(() => seen.find((e) => (e.payload as { runId: string }).runId === done.id), Boolean, { what: 'testrun.regressed' });
    assert.deepEqual(event!.payload, { runId: done.id, agentId: s.agentId, previousRunId: done.previousRunId, caseIds: [refund.id], trigger: 'api' });
    await ok(200, 'PATCH', caseOf(refund.id), { expect: { answers: true, contains: ['45 days'] } });
  });

  it('gates a rule publish for its agents: a draft rule that hands refunds over breaks the refund case', async () => {
    const rule = await ok<{ id: string; flowConfig: unknown }>(201, 'POST', '/v2/hc-rules/draft/public', {
      name: 'Refunds go to a person',
      behaviorInstructions: 'When a customer asks about a refund or getting their money back, hand over to a human.',
    });
    assert.ok(rule.flowConfig, 'the built-in engine drafts a flow from the instructions');
    const refused = await t.request('POST', `/v2/hc-rules/${rule.id}/publish/public`, { key: s.w.key, body: { botIds: [s.agentId] } });
    assertError(refused, 409, /the drafts break 1 test case .*"Refund window" \(answers: true \(an answer citing an article\): a hand-over/);
    const published = await ok<{ status: string }>(200, 'POST', `/v2/hc-rules/${rule.id}/publish/public`, { botIds: [s.agentId], force: true });
    assert.equal(published.status, 'PUBLISHED');
    await ok(200, 'DELETE', `/v2/hc-rules/${rule.id}/public`);
  });

  it('makes a case from a conversation: a reply rated resolved expects an answer citing its article', async () => {
    const [, reply] = (await say(t, s.w.key, { content: 'How do I download an invoice as PDF?', botId: s.agentId, metadata: { user_attributes: { plan: 'pro' } } })) as [Event, Event];
    await ok(200, 'POST', `/v2/hc-events/${reply.id}/feedback/public`, { resolved: true });
    const made = await ok<TestCase & { warnings: { turn: number; message: string }[] }>(201, 'POST', `/v2/hc-interactions/${reply.interactionId}/test-case/public`, { tags: ['from-real'] });
    assert.equal(made.fromInteractionId, reply.interactionId);
    assert.equal(made.name, 'How do I download an invoice as PDF?');
    assert.deepEqual(made.turns, [{ content: 'How do I download an invoice as PDF?', attributes: { plan: 'pro' }, expect: { answers: true, citesArticleIds: [s.articleIds[2]] } }]);
    assert.deepEqual(made.warnings, []);
    const done = await run({ caseIds: [made.id] });
    assert.equal(done.cases[0]!.passK, true, JSON.stringify(done.cases[0]!.failures));
    const [, plain] = (await say(t, s.w.key, { content: 'hello, how do I reset my password?', botId: s.agentId })) as [Event, Event];
    const bare = await ok<TestCase & { warnings: { turn: number; message: string }[] }>(201, 'POST', `/v2/hc-interactions/${plain.interactionId}/test-case/public`);
    assert.equal(bare.turns[0]!.expect, undefined);
    assert.match(bare.warnings[0]!.message, /no reply of the conversation was rated/);
    await fail('POST', `/v2/hc-interactions/${UNKNOWN}/test-case/public`, 404, 'conversation not found');
  });

  it('gates a Refine with AI publish: the iteration records the gate, and a case made from the fixed conversation holds the corrected facts', async () => {
    const own = await setupAgent(t);
    await ok(201, 'POST', cases(own.agentId), { name: 'No shipping to Canada', turns: [{ content: 'Do you ship to Canada?' }], expect: { answers: false } }, own.w.key);
    const [, reply] = (await say(t, own.w.key, { content: 'Do you ship to Canada?', botId: own.agentId })) as [Event, Event];
    const created = await ok<{ sessionId: string; iterationId: string }>(200, 'POST', `/v2/fix-review/interactions/${reply.interactionId}/events/${reply.id}/sessions/iterations/public`,
      { feedbackNote: 'It should have said that we ship to Canada within 5 business days. Shipping to Canada costs 15 dollars.' }, own.w.key);
    type Iteration = { id: string; status: string; error: string | null; gateRun: { runIds: string[]; regressedCaseIds: string[]; forced: boolean } | null };
    const session = () => ok<{ latestIteration: Iteration }>(200, 'GET', `/v2/fix-review/sessions/${created.sessionId}/public`, undefined, own.w.readKey);
    const ready = await poll(() => { t.wakeWorkers('refine.iterate'); return session(); }, (x) => ['ready', 'no_change', 'failed'].includes(x.latestIteration.status), { what: 'the iteration', timeoutMs: 120_000, intervalMs: 100 });
    assert.equal(ready.latestIteration.status, 'ready', ready.latestIteration.error ?? '');
    assert.equal(ready.latestIteration.gateRun, null);
    const publish = `/v2/fix-review/sessions/${created.sessionId}/iterations/${created.iterationId}/publish/public`;
    assertError(await t.request('POST', publish, { key: own.w.key }), 409, /"No shipping to Canada" \(answers: false \(a hand-over\): an answer citing 1 article\)/);
    const blocked = (await session()).latestIteration;
    assert.equal(blocked.status, 'ready');
    assert.equal(blocked.gateRun?.runIds.length, 1);
    assert.equal(blocked.gateRun?.regressedCaseIds.length, 1);
    assert.equal(blocked.gateRun?.forced, false);
    const gateRun = await ok<Run>(200, 'GET', runOf(blocked.gateRun!.runIds[0]!), undefined, own.w.readKey);
    assert.deepEqual([gateRun.gate?.kind, gateRun.gate?.targetId, gateRun.gate?.blocked], ['fix_iteration', created.iterationId, true]);
    const published = await ok<{ status: string; latestIteration: Iteration }>(200, 'POST', publish, { force: true }, own.w.key);
    assert.equal(published.status, 'published');
    assert.equal(published.latestIteration.gateRun?.forced, true);

    const made = await ok<TestCase & { warnings: unknown[] }>(201, 'POST', `/v2/hc-interactions/${reply.interactionId}/test-case/public`, {}, own.w.key);
    assert.deepEqual(made.turns, [{ content: 'Do you ship to Canada?', expect: { answers: true, contains: ['5 business days', '15 dollars'] } }]);
    const rerun = await run({ caseIds: [made.id] }, own);
    assert.equal(rerun.cases[0]!.passK, true, JSON.stringify(rerun.cases[0]!.failures));
  });

  it('resumes a run from the results already written', async () => {
    const queued = await ok<Run>(202, 'POST', runs(s.agentId), { caseIds: [reset.id, unknown.id] });
    // As if a worker had finished the first case and died: its result is kept, not run again.
    await t.database.db.execute(sql`INSERT INTO test_run_results (workspace_id, run_id, case_id, attempt, passed, failures, latency_ms)
      VALUES (${s.w.workspaceId}, ${queued.id}, ${reset.id}, 1, false, ${JSON.stringify([{ run: 1, turn: 1, expectation: 'marker', actual: 'written before the worker died', reply: null, eventId: null }])}::jsonb, 5)`);
    await t.database.db.execute(sql`UPDATE test_runs SET state = 'running' WHERE id = ${queued.id}`);
    const done = await poll(
      () => {
        t.wakeWorkers('testing.run');
        return ok<Run>(200, 'GET', runOf(queued.id), undefined, s.w.readKey);
      },
      (r) => r.state === 'completed',
      { what: 'the resumed run', timeoutMs: 240_000, intervalMs: 100 },
    );
    assert.deepEqual(done.cases.find((c) => c.caseId === reset.id)!.failures.map((f) => f.expectation), ['marker']);
    assert.equal(done.cases.find((c) => c.caseId === unknown.id)!.passK, true);
  });

  it('schedules runs per agent: the schedule job queues a run of trigger schedule', async () => {
    await fail('PUT', `/v2/bots/${s.agentId}/test-schedule/public`, 400, /^cron: "every day" is not a five-field cron expression/, { cron: 'every day' });
    await fail('PUT', `/v2/bots/${s.agentId}/test-schedule/public`, 400, /^timezone: Mars\/Olympus is not an IANA time zone/, { cron: '0 6 * * *', timezone: 'Mars/Olympus' });
    assert.equal(await ok(200, 'GET', `/v2/bots/${s.agentId}/test-schedule/public`, undefined, s.w.readKey), null);
    const schedule = await ok<{ cron: string; timezone: string; nextRunAt: string; k: number }>(200, 'PUT', `/v2/bots/${s.agentId}/test-schedule/public`, { cron: '0 6 * * *', timezone: 'Europe/Amsterdam', tags: ['account'] });
    assert.equal(schedule.cron, '0 6 * * *');
    assert.match(schedule.nextRunAt, /T0[45]:00:00\.000Z$/);
    const job = jobNamed('testing.scheduled');
    await job.handler({ ports: t.ports, id: 'scheduled-test', retryCount: 0, signal: new AbortController().signal, log: t.ports.log } as never, { workspaceId: s.w.workspaceId, agentId: s.agentId });
    const listed = await ok<{ testRuns: Run[] }>(200, 'GET', `${runs(s.agentId)}?trigger=schedule`, undefined, s.w.readKey);
    assert.equal(listed.testRuns.length, 1);
    assert.equal(listed.testRuns[0]!.caseCount, 1);
    await ok(200, 'DELETE', `/v2/bots/${s.agentId}/test-schedule/public`);
    await fail('DELETE', `/v2/bots/${s.agentId}/test-schedule/public`, 404, 'the agent has no test schedule');
  });

  it('keeps each workspace to its own cases and runs', async () => {
    const other = await setupAgent(t);
    await fail('GET', caseOf(refund.id), 404, 'test case not found', undefined, other.w.readKey);
    await fail('POST', runs(other.agentId), 400, new RegExp(`caseIds: test case ${refund.id} is not a case of agent`), { caseIds: [refund.id] }, other.w.key);
    await fail('GET', cases(s.agentId), 404, 'agent not found', undefined, other.w.readKey);
    await fail('GET', runOf(UNKNOWN), 404, 'test run not found', undefined, other.w.readKey);
    await fail('GET', `${runs(s.agentId)}?cursor=${UNKNOWN}`, 400, new RegExp(`^cursor: ${UNKNOWN} is not a test run of this agent`), undefined, s.w.readKey);
    await fail('GET', `${cases(s.agentId)}?cursor=${UNKNOWN}`, 400, new RegExp(`^cursor: ${UNKNOWN} is not a test case of this agent`), undefined, s.w.readKey);
    await fail('PUT', `/v2/bots/${other.agentId}/test-schedule/public`, 400, /k/, { cron: '0 6 * * *', k: 0 }, other.w.key);
  });

  const withCase = async (app: TestApp, o: Tenant) => {
    const setup = await setupAgent(app, o);
    return { setup, testCase: await expectStatus<TestCase>(app, 201, 'POST', cases(setup.agentId), o.key, REFUND) };
  };
  const routes: SecuredRouteRow[] = [
    ['create case', 'POST', 'write', async (app, o) => ({ path: cases((await setupAgent(app, o)).agentId), body: REFUND }), 404],
    ['list cases', 'GET', 'read', async (app, o) => ({ path: cases((await setupAgent(app, o)).agentId) }), 404],
    ['get case', 'GET', 'read', async (app, o) => ({ path: caseOf((await withCase(app, o)).testCase.id) }), 404],
    ['update case', 'PATCH', 'write', async (app, o) => ({ path: caseOf((await withCase(app, o)).testCase.id), body: { name: 'x' } }), 404],
    ['delete case', 'DELETE', 'write', async (app, o) => ({ path: caseOf((await withCase(app, o)).testCase.id) }), 404],
    ['case from conversation', 'POST', 'write', async (app, o) => {
      const setup = await setupAgent(app, o);
      const [first] = await say(app, o.key, { content: 'How do I reset my password?', botId: setup.agentId });
      return { path: `/v2/hc-interactions/${first!.interactionId}/test-case/public`, body: {} };
    }, 404],
    ['create run', 'POST', 'write', async (app, o) => ({ path: runs((await withCase(app, o)).setup.agentId), body: {} }), 404],
    ['list runs', 'GET', 'read', async (app, o) => ({ path: runs((await setupAgent(app, o)).agentId) }), 404],
    ['get run', 'GET', 'read', async (app, o) => {
      const { setup } = await withCase(app, o);
      return { path: runOf((await expectStatus<Run>(app, 202, 'POST', runs(setup.agentId), o.key, {})).id) };
    }, 404],
    ['get schedule', 'GET', 'read', async (app, o) => ({ path: `/v2/bots/${(await setupAgent(app, o)).agentId}/test-schedule/public` }), 404],
    ['set schedule', 'PUT', 'write', async (app, o) => ({ path: `/v2/bots/${(await setupAgent(app, o)).agentId}/test-schedule/public`, body: { cron: '0 6 * * *' } }), 404],
    ['delete schedule', 'DELETE', 'write', async (app, o) => ({ path: `/v2/bots/${(await setupAgent(app, o)).agentId}/test-schedule/public` }), 404],
  ];
  securitySuites(() => t, routes);
});
