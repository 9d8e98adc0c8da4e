// POST /v2/hc-rules/{id}/test/public: the trigger and a dry-run walk, resumed with the state it answers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SYSTEM_TAG_IDS } from '../../src/modules/tags/index.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { assertError, expectStatus } from '../support/security.js';
import { createRule, type Rule, rulePath, testPath, UNKNOWN } from './support.js';

interface Walk {
  status: string;
  steps: { nodeId: string; type: string; [key: string]: unknown }[];
  replies: string[];
  toolCalls: unknown[];
  tagIds: string[];
  escalation: { reason: string; message: string | null } | null;
  state: Record<string, unknown>;
}
interface TestResult {
  ruleId: string;
  version: number | null;
  threshold: number;
  trigger: { matched: boolean; score: number; reason: string };
  walk: Walk | null;
}

const refundFlow = {
  id: 'ask_order',
  type: 'collect',
  field: 'orderNumber',
  question: 'What is your order number?',
  next: {
    id: 'ask_amount',
    type: 'collect',
    field: 'amount',
    question: 'How much was the order?',
    dataType: 'number',
    next: {
      id: 'check_amount',
      type: 'condition',
      conditions: [{ scope: 'SCALAR', predicate: [{ left: { path: 'rule.amount', dataType: 'number' }, operator: '>', right: { value: 100 } }] }],
      then: { id: 'hand_over', type: 'escalate', reason: 'rule_escalation', message: 'A colleague will review the refund of order ${rule.orderNumber}.' },
      else: { id: 'tag_refund', type: 'tag', tagIds: [SYSTEM_TAG_IDS.other] },
      next: { id: 'done', type: 'end', message: 'Your refund of ${rule.amount} for order ${rule.orderNumber} is on its way.' },
    },
  },
};

describe('rule test route', () => {
  let t: TestApp;
  let w: Tenant;
  let rule: Rule;
  before(async () => {
    t = await startTestApp();
    w = await makeTenant(t);
    rule = await createRule(t, w, { name: 'Refund request', description: 'The customer wants a refund for an order', flowConfig: refundFlow });
  });
  after(() => t.close());

  const run = (body: unknown, id = rule.id) => expectStatus<TestResult>(t, 200, 'POST', testPath(id), w.readKey, body);

  it('matches the trigger and asks the first question', async () => {
    const result = await run({ message: 'I want a refund for my order' });
    assert.equal(result.ruleId, rule.id);
    assert.equal(result.version, 1);
    assert.equal(result.trigger.matched, true);
    assert.ok(result.trigger.score >= result.threshold);
    assert.match(result.trigger.reason, /"refund"/);
    assert.equal(result.walk!.status, 'waiting_for_input');
    assert.deepEqual(result.walk!.replies, ['What is your order number?']);
    assert.deepEqual(result.walk!.state, { status: 'waiting_for_input', waitingFor: { nodeId: 'ask_order', field: 'orderNumber', attempts: 0 }, continuation: [], collected: {}, tagIds: [] });
  });

  it('does not match an unrelated message', async () => {
    const result = await run({ message: 'What are your opening hours?' });
    assert.equal(result.trigger.matched, false);
    assert.equal(result.trigger.score, 0);
  });

  it('resumes with the state across three messages and escalates above 100', async () => {
    const first = await run({ message: 'I want a refund' });
    const second = await run({ message: 'A-1001', state: first.walk!.state });
    assert.deepEqual(second.walk!.replies, ['How much was the order?']);
    assert.deepEqual(second.walk!.state.collected, { orderNumber: 'A-1001' });
    const retry = await run({ message: 'quite a lot', state: second.walk!.state });
    assert.deepEqual(retry.walk!.replies, ['Sorry, I need a number. How much was the order?']);
    const third = await run({ message: 'It was 149,90 euros', state: retry.walk!.state });
    assert.equal(third.walk!.status, 'escalated');
    assert.deepEqual(third.walk!.escalation, { reason: 'rule_escalation', message: 'A colleague will review the refund of order A-1001.' });
    const condition = third.walk!.steps.find((s) => s.type === 'condition') as unknown as { holds: boolean; conditions: { groups: { predicates: { left: unknown }[] }[] } };
    assert.equal(condition.holds, true);
    assert.equal(condition.conditions.groups[0]!.predicates[0]!.left, 149.9);
  });

  it('takes the else branch, then the node after the condition', async () => {
    const result = await run({ message: '40', state: { status: 'waiting_for_input', waitingFor: { nodeId: 'ask_amount', field: 'amount', attempts: 0 }, continuation: [], collected: { orderNumber: 'B-7' }, tagIds: [] } });
    assert.equal(result.walk!.status, 'ended');
    assert.deepEqual(result.walk!.tagIds, [SYSTEM_TAG_IDS.other]);
    assert.deepEqual(result.walk!.replies, ['Your refund of 40 for order B-7 is on its way.']);
    assert.deepEqual(result.walk!.steps.map((s) => s.nodeId), ['ask_amount', 'check_amount', 'tag_refund', 'done']);
  });

  it('uses collected values from the context', async () => {
    const result = await run({ message: 'refund please', context: { rule: { orderNumber: 'C-3', amount: 500 } } });
    assert.equal(result.walk!.status, 'escalated');
    assert.deepEqual(result.walk!.steps.map((s) => [s.nodeId, s.type === 'collect' ? s.action : undefined]), [
      ['ask_order', 'known'],
      ['ask_amount', 'known'],
      ['check_amount', undefined],
      ['hand_over', undefined],
    ]);
  });

  it('refuses a state that does not fit the flow, and a malformed one', async () => {
    const state = { status: 'waiting_for_input', waitingFor: { nodeId: 'nowhere', field: 'x', attempts: 0 }, continuation: [], collected: {}, tagIds: [] };
    assertError(await t.request('POST', testPath(rule.id), { key: w.key, body: { message: 'x', state } }), 400, /^body\.state\.waitingFor\.nodeId: node "nowhere"/);
    assertError(await t.request('POST', testPath(rule.id), { key: w.key, body: { message: 'x', state: { status: 'sleeping' } } }), 400, /^body\.state\.status/);
    assertError(await t.request('POST', testPath(rule.id), { key: w.key, body: { message: 'x', context: { weather: {} } } }), 400, /body\.context/);
    assertError(await t.request('POST', testPath(UNKNOWN), { key: w.key, body: { message: 'x' } }), 404, 'rule not found');
  });

  it('runs on_escalation rules only at hand-over and refuses business rules', async () => {
    const onEscalation = await createRule(t, w, { name: 'After hand-over', description: 'Collect a callback number', triggerType: 'on_escalation', flowConfig: { type: 'message', message: 'We will call you back.' } });
    const idle = await run({ message: 'hello' }, onEscalation.id);
    assert.equal(idle.trigger.matched, false);
    const escalated = await run({ message: 'hello', context: { conversation: { status: 'Escalated to Human Agent' } } }, onEscalation.id);
    assert.equal(escalated.trigger.matched, true);
    assert.deepEqual(escalated.walk!.replies, ['We will call you back.']);
    const business = await createRule(t, w, { type: 'business', flowConfig: undefined });
    assertError(await t.request('POST', testPath(business.id), { key: w.key, body: { message: 'x' } }), 400, /business rules have no flow to test/);
  });

  it('changes nothing', async () => {
    const before = await expectStatus<Rule>(t, 200, 'GET', rulePath(rule.id), w.key);
    await run({ message: 'refund' });
    assert.deepEqual(await expectStatus<Rule>(t, 200, 'GET', rulePath(rule.id), w.key), before);
  });
});
