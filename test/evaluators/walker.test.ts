// The flow walker of src/evaluators/walker.ts on every node type, resuming across messages, tools
// through the invoker, and the flow schema's limits.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FLOW_LIMITS, flowConfigSchema, type FlowNode, withNodeIds } from '../../src/evaluators/flow.js';
import { dryRunTools, type FlowState, type ToolInvoker, parseAnswer, walkFlow } from '../../src/evaluators/walker.js';

const TOOL = 'a0000000-0000-4000-8000-0000000000aa';
const TAG = 'a0000000-0000-4000-8000-000000000201';
const flow = (raw: unknown) => flowConfigSchema.parse(raw);
const walk = (f: FlowNode, message: string, state?: FlowState | null, tools: ToolInvoker = dryRunTools, context = {}) => walkFlow(f, { message, context, state }, tools);

describe('walkFlow', () => {
  it('replies with interpolated messages and completes', async () => {
    const f = flow({ id: 'a', type: 'message', message: 'Hi ${userAttributes.name}, plan ${userAttributes.plan}, missing "${rule.nothing}"', next: { id: 'b', type: 'message', message: 'Bye' } });
    const result = await walk(f, 'hello', null, dryRunTools, { userAttributes: { name: 'Ada', plan: { tier: 2 } } });
    assert.equal(result.status, 'completed');
    assert.deepEqual(result.replies, ['Hi Ada, plan {"tier":2}, missing ""', 'Bye']);
    assert.deepEqual(result.steps.map((s) => s.nodeId), ['a', 'b']);
    assert.deepEqual(result.state, { status: 'completed', waitingFor: null, continuation: [], collected: {}, tagIds: [] });
  });

  it('collects across messages, re-asks twice, then hands over for a required field', async () => {
    const f = flow({ id: 'q', type: 'collect', field: 'email', question: 'Your email?', dataType: 'email', next: { id: 'm', type: 'message', message: 'Thanks ${rule.email}' } });
    const first = await walk(f, 'I need help');
    assert.deepEqual([first.status, first.replies], ['waiting_for_input', ['Your email?']]);
    const answered = await walk(f, 'sure, it is Ada@Example.org', first.state);
    assert.deepEqual([answered.status, answered.replies, answered.state.collected], ['completed', ['Thanks ada@example.org'], { email: 'ada@example.org' }]);
    const again1 = await walk(f, 'no idea', first.state);
    assert.deepEqual([again1.replies, again1.state.waitingFor], [['Sorry, I need an email address. Your email?'], { nodeId: 'q', field: 'email', attempts: 1 }]);
    const again2 = await walk(f, 'still no', again1.state);
    assert.equal(again2.state.waitingFor!.attempts, 2);
    const gaveUp = await walk(f, 'nope', again2.state);
    assert.equal(gaveUp.status, 'escalated');
    assert.deepEqual(gaveUp.escalation, { reason: 'rule_escalation', message: 'I could not get the information I need, so a person from our team will follow up with you.' });
    assert.deepEqual(gaveUp.steps.map((s) => (s.type === 'collect' ? s.action : s.type)), ['gave_up']);
  });

  it('moves on without an optional answer', async () => {
    const f = flow({ id: 'q', type: 'collect', field: 'age', question: 'Age?', dataType: 'number', required: false, next: { id: 'e', type: 'end', message: 'Age: ${rule.age}' } });
    const state: FlowState = { status: 'waiting_for_input', waitingFor: { nodeId: 'q', field: 'age', attempts: 2 }, continuation: [], collected: {}, tagIds: [] };
    const result = await walk(f, 'rather not say', state);
    assert.deepEqual([result.status, result.replies, result.state.collected], ['ended', ['Age: '], { age: null }]);
  });

  it('skips a question whose answer the context already holds', async () => {
    const f = flow({ id: 'q', type: 'collect', field: 'orderNumber', question: 'Order?', next: { id: 'e', type: 'end' } });
    const result = await walk(f, 'hi', null, dryRunTools, { rule: { orderNumber: 'A-1' } });
    assert.deepEqual(result.steps.map((s) => [s.nodeId, s.type === 'collect' ? s.action : '']), [['q', 'known'], ['e', '']]);
  });

  it('branches on conditions with the trace and continues with next after the branch', async () => {
    const f = flow({
      id: 'c',
      type: 'condition',
      conditions: [{ scope: 'SCALAR', predicate: [{ left: { path: 'userAttributes.vip', dataType: 'boolean' }, operator: '==', right: { value: true } }] }],
      then: { id: 't', type: 'message', message: 'VIP', next: { id: 't2', type: 'tag', tagIds: [TAG] } },
      else: { id: 'e', type: 'message', message: 'Regular' },
      next: { id: 'n', type: 'message', message: 'After' },
    });
    const vip = await walk(f, 'x', null, dryRunTools, { userAttributes: { vip: true } });
    assert.deepEqual([vip.replies, vip.tagIds, vip.steps.map((s) => s.nodeId)], [['VIP', 'After'], [TAG], ['c', 't', 't2', 'n']]);
    const step = vip.steps[0]!;
    assert.ok(step.type === 'condition' && step.holds && step.branch === 'then' && step.conditions.groups[0]!.predicates[0]!.left === true);
    const regular = await walk(f, 'x', null, dryRunTools, { userAttributes: { vip: 'yes' } });
    assert.deepEqual(regular.replies, ['Regular', 'After']);
  });

  it('resumes a question inside a branch, then runs the outer next', async () => {
    const f = flow({
      id: 'c',
      type: 'condition',
      conditions: [{ scope: 'SCALAR', predicate: [{ left: { path: 'message.content', dataType: 'string' }, operator: 'contains', right: { value: 'refund' } }] }],
      then: { id: 'q', type: 'collect', field: 'order', question: 'Order?', next: { id: 'm', type: 'message', message: 'Refunding ${rule.order}' } },
      next: { id: 'bye', type: 'end', message: 'Bye' },
    });
    const first = await walk(f, 'I want a REFUND', null, dryRunTools, { message: { content: 'I want a REFUND' } });
    assert.deepEqual(first.state.continuation, ['bye']);
    const second = await walk(f, 'B-2', first.state);
    assert.deepEqual([second.status, second.replies], ['ended', ['Refunding B-2', 'Bye']]);
  });

  it('calls tools with typed inputs and takes onSuccess or onFailure; a throwing tool is a failure', async () => {
    const f = flow({
      id: 't',
      type: 'tool',
      toolId: TOOL,
      inputs: { amount: '${rule.amount}', note: 'order ${rule.order}', fixed: 3 },
      onSuccess: { id: 'ok', type: 'message', message: 'Status: ${rule.Lookup.status}' },
      onFailure: { id: 'ko', type: 'escalate', reason: 'tool_failure', message: 'Sorry' },
    });
    const calls: unknown[] = [];
    const ok: ToolInvoker = { call: async (c) => (calls.push(c), { success: true, output: { status: 'shipped' }, toolName: 'Lookup' }) };
    const success = await walk(f, 'x', null, ok, { rule: { amount: 12.5, order: 'A-9' } });
    assert.deepEqual(calls, [{ nodeId: 't', toolId: TOOL, inputs: { amount: 12.5, note: 'order A-9', fixed: 3 } }]);
    assert.deepEqual([success.status, success.replies, success.state.collected], ['completed', ['Status: shipped'], { Lookup: { status: 'shipped' } }]);
    const failing: ToolInvoker = { call: async () => { throw new Error('connection refused'); } };
    const failure = await walk(f, 'x', null, failing);
    assert.deepEqual([failure.status, failure.escalation], ['escalated', { reason: 'tool_failure', message: 'Sorry' }]);
    assert.deepEqual(failure.toolCalls.map((c) => [c.success, c.error]), [[false, 'connection refused']]);
    const dry = await walk(f, 'x');
    assert.deepEqual(dry.toolCalls.map((c) => c.dryRun), [true]);
  });

  it('walks flows saved without ids and answers an error for a state that does not fit', async () => {
    const f = flowConfigSchema.parse({ type: 'collect', field: 'a', question: 'A?', next: { type: 'end' } });
    const first = await walk(f, 'x');
    assert.equal(first.state.waitingFor!.nodeId, '@');
    assert.equal((await walk(f, 'value', first.state)).status, 'ended');
    const bad: FlowState = { status: 'waiting_for_input', waitingFor: { nodeId: 'zzz', field: 'a', attempts: 0 }, continuation: [], collected: {}, tagIds: [] };
    assert.match((await walk(f, 'x', bad)).error!, /^state\.waitingFor\.nodeId: node "zzz"/);
    assert.match((await walk(f, 'x', { ...bad, status: 'ended', waitingFor: null })).error!, /^state\.status: the flow is ended/);
    const withIds = withNodeIds(f);
    assert.match((await walk(withIds, 'x', { ...bad, waitingFor: { nodeId: 'n1', field: 'a', attempts: 0 }, continuation: ['ghost'] })).error!, /^state\.continuation: node "ghost"/);
  });
});

describe('parseAnswer', () => {
  it('reads each data type from a message', () => {
    assert.equal(parseAnswer('number', 'It was 149,90 euros'), 149.9);
    assert.equal(parseAnswer('number', 'about 1 299 dollars'), 1299);
    assert.equal(parseAnswer('number', 'a lot'), undefined);
    assert.equal(parseAnswer('boolean', 'Yes please'), true);
    assert.equal(parseAnswer('boolean', 'nope'), false);
    assert.equal(parseAnswer('boolean', 'maybe'), undefined);
    assert.equal(parseAnswer('date', 'on 2026-03-04 I think'), '2026-03-04');
    assert.equal(parseAnswer('date', 'March 4, 2026'), '2026-03-04');
    assert.equal(parseAnswer('date', 'soon'), undefined);
    assert.equal(parseAnswer('email', 'mail me: A.B@Example.com'), 'a.b@example.com');
    assert.equal(parseAnswer('string', '   '), undefined);
  });
});

describe('flow schema limits', () => {
  const chain = (n: number): Record<string, unknown> => {
    let node: Record<string, unknown> = { type: 'end' };
    for (let i = 1; i < n; i += 1) node = { type: 'message', message: `m${i}`, next: node };
    return node;
  };
  const tree = (depth: number): Record<string, unknown> =>
    depth === 0 ? { type: 'end' } : { type: 'condition', conditions: [{ scope: 'SCALAR', predicate: [] }], then: tree(depth - 1), else: tree(depth - 1) };
  const issue = (raw: unknown) => {
    const r = flowConfigSchema.safeParse(raw);
    return r.success ? null : `${r.error.issues[0]!.path.join('.')}: ${r.error.issues[0]!.message}`;
  };
  it('accepts 30 levels and refuses 31; accepts 200 nodes and refuses more', () => {
    assert.equal(issue(chain(FLOW_LIMITS.depth)), null);
    assert.equal(issue(chain(FLOW_LIMITS.depth + 1)), ': a flow nests at most 30 nodes deep');
    assert.equal(issue(tree(7)), ': a flow has at most 200 nodes'); // 255 nodes
    assert.equal(issue(tree(6)), null); // 127 nodes
  });
  it('names unknown types, bad fields and duplicate ids by path', () => {
    assert.match(issue({ type: 'message', message: 'x', next: { type: 'jump' } })!, /^next\.type: /);
    assert.match(issue({ type: 'collect', field: '1bad', question: 'q' })!, /^field: /);
    assert.match(issue({ type: 'tool', toolId: 'nope' })!, /^toolId: /);
    assert.match(issue({ type: 'escalate', reason: 'bored' })!, /^reason: /);
    assert.match(issue({ id: 'x', type: 'message', message: 'a', next: { id: 'x', type: 'end' } })!, /^next\.id: node id "x" is used twice/);
    assert.match(issue([])!, /a flow is a node object/);
  });
  it('assigns free ids in document order', () => {
    assert.deepEqual(withNodeIds(flowConfigSchema.parse({ type: 'message', message: 'a', next: { id: 'n1', type: 'end' } })), { id: 'n2', type: 'message', message: 'a', next: { id: 'n1', type: 'end' } });
  });
});

describe('collect: values read out of the customer words', () => {
  const today = '2026-11-26';
  it('reads identifiers, amounts and days the way customers write them', () => {
    assert.equal(parseAnswer('identifier', 'It is order 48213, I bought it 45 days ago'), '48213');
    assert.equal(parseAnswer('identifier', 'order #77120 and it cost $149.99'), '77120');
    assert.equal(parseAnswer('identifier', 'my member number is TR-55821'), 'TR-55821');
    assert.equal(parseAnswer('identifier', 'I paid $320 for it'), undefined);
    assert.equal(parseAnswer('number', 'It was $149.99'), 149.99);
    assert.equal(parseAnswer('number', 'order 48213, it cost $1,299.00'), 1299);
    assert.equal(parseAnswer('number', '149,90 euros'), 149.9);
    assert.equal(parseAnswer('days', 'I bought it 45 days ago', today), 45);
    assert.equal(parseAnswer('days', 'about 3 weeks ago', today), 21);
    assert.equal(parseAnswer('days', 'two months ago', today), 60);
    assert.equal(parseAnswer('days', 'on November 24th', today), 2);
    assert.equal(parseAnswer('days', 'I bought it on 7 November 2023', today), 1115);
    assert.equal(parseAnswer('days', '2026-11-06', today), 20);
    assert.equal(parseAnswer('days', 'can you make it December 6th?', today), 10);
    assert.equal(parseAnswer('days', 'no idea', today), undefined);
  });

  /** Asks for the order number and how many days ago it was; hands over past 30 days, else confirms. */
  const orderAgeFlow = () =>
    flow({
      id: 'o', type: 'collect', field: 'orderNumber', question: 'Order number?', dataType: 'identifier',
      next: { id: 'a', type: 'collect', field: 'orderAgeDays', question: 'How many days ago?', dataType: 'days',
        next: { id: 'c', type: 'condition', conditions: [{ scope: 'SCALAR', predicate: [{ left: { path: 'rule.orderAgeDays', dataType: 'number' }, operator: '>', right: { value: 30 } }] }],
          then: { id: 'h', type: 'escalate', reason: 'rule_escalation' }, else: { id: 'm', type: 'message', message: 'Refund for ${rule.orderNumber}' } } },
    });

  it('stores the value, not the sentence, and a condition compares it', async () => {
    const f = orderAgeFlow();
    const context = { time: { date: today, hour: 9, weekday: 4 } };
    const first = await walk(f, 'refund please', null, dryRunTools, context);
    const second = await walk(f, 'It is order 48213', first.state, dryRunTools, context);
    assert.deepEqual([second.status, second.state.waitingFor?.field], ['waiting_for_input', 'orderAgeDays'], 'the order number alone: asks its age');
    const third = await walk(f, '45 days ago', second.state, dryRunTools, context);
    assert.deepEqual([third.status, third.state.collected], ['escalated', { orderNumber: '48213', orderAgeDays: 45 }]);
    const recent = await walk(f, 'November 20th', second.state, dryRunTools, context);
    assert.deepEqual([recent.status, recent.replies], ['completed', ['Refund for 48213']]);
  });

  it('takes what the customer already said instead of asking for it again, only where it cannot be mistaken', async () => {
    const f = orderAgeFlow();
    const context = { time: { date: today, hour: 9, weekday: 4 } };
    const all = await walk(f, 'order 48213, bought 45 days ago', null, dryRunTools, context);
    assert.deepEqual([all.status, all.state.collected], ['escalated', { orderNumber: '48213', orderAgeDays: 45 }], 'both values in the first message: no question asked');
    assert.deepEqual(all.steps.slice(0, 2).map((s) => s.type === 'collect' && s.action), ['accepted', 'accepted']);
    const answered = await walk(f, 'refund please', null, dryRunTools, context);
    const both = await walk(f, 'It is order 48213, I bought it 10 days ago', answered.state, dryRunTools, context);
    assert.deepEqual([both.status, both.replies], ['completed', ['Refund for 48213']], 'the answer to the first question gives the second value too');
    const asked = flow({ id: 'q', type: 'collect', field: 'orderNumber', question: 'Could you give me the number for your order?', dataType: 'identifier' });
    const forYour = await walk(asked, 'refund for your 48213 please', null, dryRunTools, {});
    assert.equal(forYour.status, 'waiting_for_input', 'words of the question that say nothing of the order ("for", "your") are no cue');
    const uncued = await walk(f, 'I want a refund for 48213', null, dryRunTools, context);
    assert.deepEqual([uncued.status, uncued.state.waitingFor?.field], ['waiting_for_input', 'orderNumber'], 'a number without "order" / "#" before it is not taken unasked');
    const duration = await walk(f, 'Your 30 days return policy: can I get a refund, order #48213?', null, dryRunTools, context);
    assert.deepEqual([duration.status, duration.state.waitingFor?.field], ['waiting_for_input', 'orderAgeDays'], 'days without "ago" or a date are not the order\'s age');

    const amounts = flow({
      id: 'n', type: 'collect', field: 'amount', question: 'How much?', dataType: 'number',
      next: { id: 'r', type: 'collect', field: 'reason', question: 'Why?', dataType: 'string',
        next: { id: 't', type: 'collect', field: 'trackingNumber', question: 'Tracking number?', dataType: 'identifier' } },
    });
    const unasked = await walk(amounts, 'I paid 120 dollars for order #48213 and it broke', null, dryRunTools, {});
    assert.deepEqual([unasked.status, unasked.state.waitingFor?.field, unasked.state.collected], ['waiting_for_input', 'amount', {}], 'numbers and free text are never taken unasked');
    const amount = await walk(amounts, '120', unasked.state, dryRunTools, {});
    const reason = await walk(amounts, 'order #48213 broke', amount.state, dryRunTools, {});
    assert.deepEqual([reason.status, reason.state.waitingFor?.field], ['waiting_for_input', 'trackingNumber'], 'an order number is not taken for the tracking number');
    const tracking = await walk(amounts, 'it never came, tracking number TR-55821', amount.state, dryRunTools, {});
    assert.deepEqual([tracking.status, tracking.state.collected.trackingNumber], ['completed', 'TR-55821'], 'a tracking number given with the reason is');
  });
});
