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

// Written before the fixes they test, in wordings of our own (not the first-day bench's): each is a
// way a reader once turned an instruction into a flow that did the opposite of what it said.
describe('instruction reader: never the opposite of the instruction', () => {
  it('a sentence that asks for something the flow does not show is a warning, whole', () => {
    const text = "pls hand over anyone asking about a refund over 100 dollars. refunds of 100 or less: say we'll process it within 3 days";
    const drafted = draft(text);
    assert.deepEqual(
      drafted.warnings.map((w) => w.fragment),
      ['pls hand over anyone asking about a refund over 100 dollars', "refunds of 100 or less: say we'll process it within 3 days"],
      'the comparison the flow lacks and the reply it lacks are both named',
    );
    assert.match(drafted.warnings[1]!.message, /^Not understood: the flow would not do all that .*, so the draft has no flow;/, drafted.warnings[1]!.message);
    assert.equal(drafted.flowConfig, null, 'no flow that hands over every refund');
    // A draft the reader reads whole has no such warning.
    const whole = draft('Ask for the refund amount. If the amount is over 100 dollars, hand over to a human. Otherwise say "We will process it within 3 days."');
    assert.deepEqual(whole.warnings, [], JSON.stringify(whole.warnings));
  });

  it('"don\'t hand over" after a reply keeps the conversation with the agent', async () => {
    for (const text of [
      'When someone wants a catalogue, ask for their postal address. Reply "Your catalogue is on its way." Do not escalate.',
      'Catalogue requests: ask for the postal address, say "Your catalogue is on its way." and don\'t transfer to an agent.',
      'When a customer asks for a catalogue: ask for their postal address, then tell them "Your catalogue is on its way." No need to hand over.',
    ]) {
      const drafted = draft(text);
      const run = await converse(drafted.flowConfig, 'Can I get a paper catalogue?', ['12 Elm Street, Leeds']);
      assert.notEqual(run.status, 'escalated', text);
      assert.match(run.said, /catalogue is on its way/, text);
    }
  });

  it('"if someone asks for X" opening the rule is its trigger, not a condition on the message', async () => {
    for (const text of [
      'If someone asks about a teacher discount, ask for their school name. Then say "Teachers get 15% off with code TEACH15."',
      'If somebody asks for a teacher discount ask for their school name, then say "Teachers get 15% off with code TEACH15."',
    ]) {
      const drafted = draft(text);
      assert.match(drafted.description, /teacher discount/i, text);
      const run = await converse(drafted.flowConfig, 'do teachers get a discount?', ['Hillside Primary']);
      assert.match(run.said, /TEACH15/, text);
      assert.notEqual(run.status, 'escalated', text);
    }
  });

  it('a lower-case "if ... else ..." after a full stop keeps both branches apart', async () => {
    const drafted = draft('Late returns: ask how many days late the return is. if it is more than 14 days say "We can no longer accept this return." else say "No problem, send it back with the label."');
    const late = await converse(drafted.flowConfig, 'my return is late', ['20 days late']);
    assert.match(late.said, /no longer accept/);
    assert.doesNotMatch(late.said, /No problem/);
    const fine = await converse(drafted.flowConfig, 'my return is late', ['3 days']);
    assert.match(fine.said, /No problem/);
    assert.doesNotMatch(fine.said, /no longer accept/);
  });

  it('quoted replies inside a step it cannot read are a warning, not unconditional replies', async () => {
    const drafted = draft('Ask for the plan. Depending on the plan say "Basic is $5." or "Pro is $15."');
    assert.ok(drafted.warnings.some((w) => /Depending on the plan/.test(w.fragment)), JSON.stringify(drafted.warnings));
    if (drafted.flowConfig) {
      const run = await converse(drafted.flowConfig, 'prices?', ['pro']);
      assert.doesNotMatch(run.said, /Basic is \$5/);
    }
  });

  it('an exception after a hand-over makes the hand-over the other branch', async () => {
    const drafted = draft('When a company wants a quote, ask how many seats they need and hand over to sales. For fewer than 5 seats tell them to sign up on the pricing page.');
    assert.deepEqual(drafted.warnings, []);
    const big = await converse(drafted.flowConfig, 'we need a quote', ['40 seats']);
    assert.equal(big.status, 'escalated');
    assert.doesNotMatch(big.said, /pricing page/);
    const small = await converse(drafted.flowConfig, 'we need a quote', ['3']);
    assert.match(small.said, /pricing page/);
    assert.notEqual(small.status, 'escalated');
  });

  it('a step after the hand-over that is no exception is named, not dropped in silence', () => {
    const drafted = draft('Ask for the order number and hand over to the warehouse team. Thank them for their patience.');
    assert.ok(drafted.warnings.some((w) => /Thank them for their patience/.test(w.fragment)), JSON.stringify(drafted.warnings));
  });

  it('a tag of the rule labels every path, also after a hand-over or a branch that ends', async () => {
    const inline = draft('Broken items: ask for the order number. If the item is worth more than $80 escalate to a human and tag as Damaged. Otherwise say "We will send a new one."');
    const run = await converse(inline.flowConfig, 'it arrived broken', ['5521', '$95']);
    assert.equal(run.status, 'escalated');
    assert.ok(JSON.stringify(inline.flowConfig).includes(tags[0]!.id));
    const last = draft('When a customer says an item arrived broken:\n1. Ask for the order number\n2. Ask how much the item cost\n3. If it cost over $80, hand over to a human\n4. Otherwise say "We will send a new one."\n5. Tag it as Damaged');
    assert.equal(last.flowConfig!.type, 'collect');
    const order: string[] = [];
    for (let n: FlowNode | undefined = last.flowConfig!; n; n = (n as { next?: FlowNode }).next) order.push(n.type);
    assert.deepEqual(order, ['collect', 'collect', 'tag', 'condition']);
  });

  it('a text condition on a reason matches the words customers use for it', async () => {
    const drafted = draft('Ask why they want to close their account. If the reason is delivery, say "Sorry about the delays, here is 10% off: SORRY10." Otherwise say "Your account will be closed within 24 hours."');
    const slow = await converse(drafted.flowConfig, 'close my account', ['your shipments always arrive late']);
    assert.match(slow.said, /SORRY10/);
    assert.doesNotMatch(slow.said, /will be closed/);
    const other = await converse(drafted.flowConfig, 'close my account', ['I am moving to another country']);
    assert.match(other.said, /will be closed/);
  });
});
