// The built-in instruction reader (src/ai/builtin/draft-rule.ts) on instructions worded the way
// support leads write them (written before the reader was tuned): each drafted flow is walked with a
// scripted customer, and the test asserts where every path ends, what it says and what it stored;
// what the reader cannot read is named in `warnings`, never guessed into a flow.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { draftRuleFlow } from '../../src/ai/builtin/draft-rule.js';
import { flowConfigSchema, type FlowNode } from '../../src/evaluators/flow.js';
import { dryRunTools, type FlowState, walkFlow } from '../../src/evaluators/walker.js';

const TODAY = '2026-11-26';
const tags = [{ id: '11111111-1111-4111-8111-111111111111', tagName: 'Damaged', groupTitle: 'Topic' }];
const draft = (behaviorInstructions: string) => {
  const drafted = draftRuleFlow({ behaviorInstructions, tags, actions: [] });
  if (drafted.flowConfig) assert.ok(flowConfigSchema.safeParse(drafted.flowConfig).success, JSON.stringify(drafted.flowConfig));
  return drafted;
};

/** Walks a flow: the opener, then one scripted answer per question; answers the end state and everything said. */
async function converse(flow: FlowNode | null, opener: string, answers: string[]) {
  assert.ok(flow, 'a flow was drafted');
  let state: FlowState | null = null;
  const said: string[] = [];
  const questions: string[] = [];
  let message = opener;
  for (let turn = 0; turn < 8; turn++) {
    const walk = await walkFlow(flow, { message, context: { message: { content: message }, time: { date: TODAY, hour: 10, weekday: 4 } }, state }, dryRunTools);
    for (const step of walk.steps) {
      if (step.type === 'collect' && 'reply' in step && step.reply) questions.push(step.reply);
      else if ('reply' in step && step.reply) said.push(step.reply);
    }
    if (walk.status !== 'waiting_for_input') return { status: walk.status, said: said.join(' '), questions, collected: walk.state.collected };
    state = walk.state;
    message = answers.shift() ?? 'I do not know';
  }
  throw new Error('the flow keeps asking');
}

const REFUND = "Ask for the order number, then if the order is older than 30 days escalate to a human, otherwise say 'We will refund you'";

describe('instruction reader: the issue example', () => {
  it('hands over for an old order and promises the refund only to the other path', async () => {
    const drafted = draft(REFUND);
    assert.deepEqual(drafted.warnings, []);
    const old = await converse(drafted.flowConfig, 'I want a refund', ['It is order 48213, I bought it 45 days ago', '45 days ago']);
    assert.equal(old.status, 'escalated');
    assert.doesNotMatch(old.said, /refund you/i);
    assert.equal(old.collected.orderNumber, '48213');
    const recent = await converse(drafted.flowConfig, 'I want a refund', ['48213', 'I bought it on 20 November 2026']);
    assert.match(recent.said, /We will refund you/);
    assert.notEqual(recent.status, 'escalated');
  });

  it('names the rule with a short title, not the instruction cut off', () => {
    const { name } = draft(REFUND);
    assert.ok(name.split(/\s+/).length <= 6, name);
    assert.doesNotMatch(name, /^Ask for/i);
  });

  it('reads the same rule without commas and as numbered steps, collecting the age it tests', async () => {
    for (const text of [
      "Ask for the order number then if the order is older than 30 days escalate to a human otherwise say 'We will refund you'",
      "1. Ask the customer for their order number\n2. If the order is more than 30 days old hand over to an agent\n3. Else reply 'We will refund you'",
    ]) {
      const drafted = draft(text);
      assert.deepEqual(drafted.warnings, [], text);
      const old = await converse(drafted.flowConfig, 'refund please', ['order 48213', '2 months ago']);
      assert.equal(old.status, 'escalated', text);
      const recent = await converse(drafted.flowConfig, 'refund please', ['#48213', '3 days ago']);
      assert.match(recent.said, /We will refund you/, text);
    }
  });
});

describe('instruction reader: forms leads write', () => {
  it('unless: the reply is for the other path', async () => {
    const drafted = draft('Ask for the order total. Say "Shipping is on us!" unless the total is under $50, in that case transfer to an agent.');
    const low = await converse(drafted.flowConfig, 'shipping fee?', ['it was $42.50']);
    assert.equal(low.status, 'escalated');
    assert.doesNotMatch(low.said, /on us/);
    const high = await converse(drafted.flowConfig, 'shipping fee?', ['$1,299.00']);
    assert.match(high.said, /Shipping is on us!/);
    assert.equal(high.collected.orderTotal, 1299);
  });

  it('two conditions joined by "or" on collected values, bulleted', async () => {
    const drafted = draft('- ask for the amount and the number of items\n- if the amount is over $500 or there are more than 10 items, hand over to a manager\n- otherwise tell them "We can approve this today."');
    assert.deepEqual(drafted.warnings, []);
    const big = await converse(drafted.flowConfig, 'bulk order', ['$149.99', '12']);
    assert.equal(big.status, 'escalated');
    const small = await converse(drafted.flowConfig, 'bulk order', ['149.99 dollars', '3 items']);
    assert.match(small.said, /We can approve this today\./);
    assert.doesNotMatch(small.said, /tell them/i);
  });

  it('a condition it cannot read is named in warnings, and the flow promises nothing on it', async () => {
    const drafted = draft("Ask for the order number. If the moon is waning and the parcel smells odd, escalate. Otherwise say 'All good'.");
    assert.match(drafted.warnings[0]!.fragment, /moon is waning/);
    assert.ok(drafted.warnings.some((w) => /All good/.test(w.fragment)), 'its other branch is named too');
    assert.match(drafted.warnings[0]!.message, /not understood/i);
    const run = await converse(drafted.flowConfig, 'hi', ['48213']);
    assert.doesNotMatch(run.said, /All good/);
  });

  it('an action it cannot do is named in warnings', () => {
    const drafted = draft('Ask for their email. Then send them a coupon by SMS.');
    assert.ok(drafted.warnings.some((w) => /coupon by SMS/i.test(w.fragment)), JSON.stringify(drafted.warnings));
  });

  it('the customer asking for a person hands over with customer_request', async () => {
    const drafted = draft('When the customer asks to speak to a human, transfer them to an agent.');
    const run = await converse(drafted.flowConfig, 'can I talk to a real person please', []);
    assert.equal(run.status, 'escalated');
  });
});
