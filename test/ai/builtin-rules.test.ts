// The built-in engine's rule drafting, refinement and matching (src/ai/builtin/draft-rule.ts, refine-rule.ts, match-rule.ts): each
// instruction shape with the flow it must give, all valid in the flow language.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { draftRuleFlow } from '../../src/ai/builtin/draft-rule.js';
import { matchRules } from '../../src/ai/builtin/match-rule.js';
import { RULE_MATCH_THRESHOLD } from '../../src/ai/contracts/match-rule.js';
import { refineRuleFlow } from '../../src/ai/builtin/refine-rule.js';
import { draftRuleTask, flowOfDraft } from '../../src/modules/rules/rules.tasks.js';
import { flowConfigSchema, type FlowNode } from '../../src/evaluators/flow.js';

const REFUND_TAG = '11111111-1111-4111-8111-111111111111';
const VIP_TAG = '22222222-2222-4222-8222-222222222222';
const LOOKUP = '33333333-3333-4333-8333-333333333333';
const tags = [
  { id: REFUND_TAG, tagName: 'Refund', groupTitle: 'Topic' },
  { id: VIP_TAG, tagName: 'VIP', groupTitle: 'Segment' },
];
const actions = [{ id: LOOKUP, name: 'Order lookup', description: 'Looks up an order by its order number', inputNames: ['orderNumber'] }];

const draft = (behaviorInstructions: string) => {
  const drafted = draftRuleFlow({ behaviorInstructions, tags, actions });
  if (drafted.flowConfig) assert.ok(flowConfigSchema.safeParse(drafted.flowConfig).success, JSON.stringify(drafted.flowConfig));
  return drafted;
};
const flowOf = (instructions: string) => draft(instructions).flowConfig as FlowNode;
const collect = (id: string, field: string, question: string, dataType = 'string') => ({ id, type: 'collect', field, question, dataType, required: true });
const scalar = (path: string, dataType: string, operator: string, value?: unknown) => [
  { scope: 'SCALAR', predicate: [{ left: { path, dataType }, operator, ...(value === undefined ? {} : { right: { value } }) }] },
];

describe('built-in rule drafting: instruction shapes', () => {
  it('1. numbered steps: ask, then a quoted reply with interpolation', () => {
    assert.deepEqual(flowOf('1. Ask for the order number.\n2. Say "Thanks, I am checking order ${rule.orderNumber}."'), {
      ...collect('ask_order_number', 'orderNumber', 'What is your order number?', 'identifier'),
      next: { id: 'say_thanks_checking_order', type: 'message', message: 'Thanks, I am checking order ${rule.orderNumber}.' },
    });
  });

  it('2. a trigger line, bullets, a numeric condition and an "Otherwise" step', () => {
    const drafted = draft('When a customer asks about a refund:\n- Ask for the order number\n- Ask for the refund amount\n- If the amount is over 100, hand over to a human\n- Otherwise say "Your refund is on its way."');
    assert.equal(drafted.name, 'Refund');
    assert.equal(drafted.description, 'A customer asks about a refund');
    assert.deepEqual(drafted.flowConfig, {
      ...collect('ask_order_number', 'orderNumber', 'What is your order number?', 'identifier'),
      next: {
        ...collect('ask_refund_amount', 'refundAmount', 'What is your refund amount?', 'number'),
        next: {
          id: 'check_amount_100',
          type: 'condition',
          conditions: scalar('rule.refundAmount', 'number', '>', 100),
          then: { id: 'hand_over', type: 'escalate', reason: 'rule_escalation' },
          else: { id: 'say_refund_way', type: 'message', message: 'Your refund is on its way.' },
        },
      },
    });
  });

  it('3. prose: two fields in one sentence, an action call with its input, a tag', () => {
    assert.deepEqual(flowOf('Ask the customer for their email address and order number. Then look up the order. Tag the conversation as Refund.'), {
      ...collect('ask_email', 'email', 'What is your email address?', 'email'),
      next: {
        ...collect('ask_order_number', 'orderNumber', 'What is your order number?', 'identifier'),
        next: { id: 'call_order_lookup', type: 'tool', toolId: LOOKUP, inputs: { orderNumber: '${rule.orderNumber}' }, next: { id: 'tag_refund', type: 'tag', tagIds: [REFUND_TAG] } },
      },
    });
  });

  it('4. the customer asks for a person: escalate with reason customer_request', () => {
    assert.deepEqual(flowOf('If the customer asks to speak to a human, escalate.'), {
      id: 'check_speak_human',
      type: 'condition',
      conditions: scalar('message.content', 'string', 'matches', '\\b(human|person|agent|representative|someone|operator|manager)\\b'),
      then: { id: 'hand_over', type: 'escalate', reason: 'customer_request' },
    });
  });

  it('5. "escalate when X" with a topic word', () => {
    assert.deepEqual(flowOf('Escalate to a human agent when the customer mentions a lawyer.'), {
      id: 'check_lawyer',
      type: 'condition',
      conditions: scalar('message.content', 'string', 'matches', '\\blawyer'),
      then: { id: 'hand_over', type: 'escalate', reason: 'rule_escalation' },
    });
  });

  it('6. reply and end the conversation', () => {
    assert.deepEqual(flowOf('Reply "We are open 9 to 5 on weekdays." and end the conversation.'), { id: 'say_open_9_5', type: 'message', message: 'We are open 9 to 5 on weekdays.', next: { id: 'end', type: 'end' } });
  });

  it('7. a yes/no question, a boolean condition, an escalation with its own message', () => {
    assert.deepEqual(flowOf('* Ask whether they have the receipt\n* If the receipt is yes, say "Great, please upload it."\n* Otherwise hand over "A colleague will help you without a receipt."'), {
      ...collect('ask_have_receipt', 'haveReceipt', 'Could you tell me whether you have the receipt?', 'boolean'),
      next: {
        id: 'check_receipt',
        type: 'condition',
        conditions: scalar('rule.haveReceipt', 'boolean', '==', true),
        then: { id: 'say_great_please_upload', type: 'message', message: 'Great, please upload it.' },
        else: { id: 'hand_over', type: 'escalate', reason: 'rule_escalation', message: 'A colleague will help you without a receipt.' },
      },
    });
  });

  it('8. "tell them that ..." becomes a reply in the second person', () => {
    assert.deepEqual(flowOf('Tell them that shipping takes 3 to 5 business days.'), { id: 'say_shipping_takes_3', type: 'message', message: 'Shipping takes 3 to 5 business days.' });
  });

  it('9. a user attribute condition with a tag and an inline otherwise', () => {
    assert.deepEqual(flowOf('If the customer plan is premium, tag as VIP, otherwise say "Upgrade to premium for priority support."'), {
      id: 'check_plan_premium',
      type: 'condition',
      conditions: scalar('userAttributes.plan', 'string', '==', 'premium'),
      then: { id: 'tag_vip', type: 'tag', tagIds: [VIP_TAG] },
      else: { id: 'say_upgrade_premium_priority', type: 'message', message: 'Upgrade to premium for priority support.' },
    });
  });

  it('10. a date field and a condition on what the message says (all words, by stem)', () => {
    assert.deepEqual(flowOf('Collect the date of the delivery.\nIf the customer says the parcel is damaged then escalate.'), {
      ...collect('ask_date_delivery', 'dateDelivery', 'When was the delivery? (a date, or how many days ago)', 'days'),
      next: {
        id: 'check_parcel_damaged',
        type: 'condition',
        conditions: scalar('message.content', 'string', 'matches', '^(?=[\\s\\S]*\\bparcel)(?=[\\s\\S]*\\bdamag)'),
        then: { id: 'hand_over', type: 'escalate', reason: 'rule_escalation' },
      },
    });
  });

  it('11. numbered with ")": "at least", then the step after the condition, an end with a message', () => {
    assert.deepEqual(flowOf('1) Ask for the quantity\n2) If quantity is at least 10 then say "You qualify for a bulk discount."\n3) End the conversation with "Thanks for your order!"'), {
      ...collect('ask_quantity', 'quantity', 'What is your quantity?', 'number'),
      next: {
        id: 'check_quantity_least_10',
        type: 'condition',
        conditions: scalar('rule.quantity', 'number', '>=', 10),
        then: { id: 'say_qualify_bulk_discount', type: 'message', message: 'You qualify for a bulk discount.' },
        next: { id: 'end', type: 'end', message: 'Thanks for your order!' },
      },
    });
  });

  it('12. typographic quotes', () => {
    const drafted = draft('Say “Hello! How can I help?”');
    assert.deepEqual(drafted.flowConfig, { id: 'say_hello_help', type: 'message', message: 'Hello! How can I help?' });
    assert.equal(drafted.name, 'Hello');
  });

  it('13. two actions in one sentence with ", then"', () => {
    assert.deepEqual(flowOf('Ask for the phone number, then hand over.'), {
      ...collect('ask_phone_number', 'phoneNumber', 'What is your phone number?'),
      next: { id: 'hand_over', type: 'escalate', reason: 'rule_escalation' },
    });
  });

  it('14. a prose trigger, an "exists" condition on a collected field, closing the chat', () => {
    const drafted = draft('When a customer wants to cancel a subscription: ask for their account email. If the account email exists, say "We will cancel it today." Close the chat.');
    assert.equal(drafted.description, 'A customer wants to cancel a subscription');
    assert.deepEqual(drafted.flowConfig, {
      ...collect('ask_email', 'email', 'What is your email address?', 'email'),
      next: {
        id: 'check_account_email_exists',
        type: 'condition',
        conditions: scalar('rule.email', 'string', 'exists'),
        then: { id: 'say_cancel_today', type: 'message', message: 'We will cancel it today.' },
        next: { id: 'end', type: 'end' },
      },
    });
  });

  it('15. guidance without steps gives a rule without a flow', () => {
    assert.deepEqual(draft('Always be polite.'), { name: 'Always polite', description: 'Always be polite.', flowConfig: null, warnings: [] });
  });

  it('16. "below" and a tag that does not exist (no invented ids), under a number condition', () => {
    assert.deepEqual(flowOf('Ask for the order total. If the total is below 20, say "Shipping costs 4.90." Tag as Priority.'), {
      ...collect('ask_order_total', 'orderTotal', 'What is your order total?', 'number'),
      next: {
        id: 'check_total_20',
        type: 'condition',
        conditions: scalar('rule.orderTotal', 'number', '<', 20),
        then: { id: 'say_shipping_costs_4', type: 'message', message: 'Shipping costs 4.90.' },
      },
    });
  });

  it('is deterministic and answers in the model\'s flat shape through the task', () => {
    const instructions = '1. Ask for the order number.\n2. If the customer asks for a manager, hand over.';
    const output = draftRuleTask.builtin({ behaviorInstructions: instructions, tags, actions });
    assert.deepEqual(output, draftRuleTask.builtin({ behaviorInstructions: instructions, tags, actions }));
    assert.ok(draftRuleTask.schema.safeParse(output).success);
    const tree = flowOfDraft(output);
    assert.ok('flow' in tree);
    assert.deepEqual(tree.flow, draftRuleFlow({ behaviorInstructions: instructions, tags, actions }).flowConfig);
  });

  it('refuses a flat draft whose children are missing or reused', () => {
    const node = (id: string, next: string | null) => ({ id, type: 'message' as const, message: 'x', field: null, question: null, dataType: null, required: null, conditions: null, toolId: null, inputs: null, tagIds: null, reason: null, next, then: null, else: null, onSuccess: null, onFailure: null });
    assert.deepEqual(flowOfDraft({ name: 'r', description: 'd', rootId: 'a', nodes: [node('a', 'b')], warnings: [] }), { error: 'node "b" is named as a child but not listed' });
    assert.deepEqual(flowOfDraft({ name: 'r', description: 'd', rootId: 'a', nodes: [node('a', 'a')], warnings: [] }), { error: 'node "a" is used twice (a flow is a tree)' });
  });
});

describe('built-in rule refinement', () => {
  const base = () => flowOf('1. Ask for the order number.\n2. Say "Thanks, I am checking order ${rule.orderNumber}."');
  const refine = (refinementInstructions: string, flowConfig: FlowNode | null = base()) => {
    const out = refineRuleFlow({ rule: { name: 'Order', description: 'Order status', flowConfig }, refinementInstructions, tags, actions });
    assert.ok(flowConfigSchema.safeParse(out.flowConfig).success);
    return out.flowConfig as FlowNode & Record<string, unknown>;
  };
  const chain = (node: FlowNode | undefined): string[] => (node ? [node.id ?? '?', ...chain('next' in node ? node.next : undefined)] : []);

  it('adds a question after the existing ones, or first when asked', () => {
    assert.deepEqual(chain(refine('Also ask for the email address.')), ['ask_order_number', 'ask_email', 'say_thanks_checking_order']);
    assert.deepEqual(chain(refine('Ask for the email address first.')), ['ask_email', 'ask_order_number', 'say_thanks_checking_order']);
  });
  it('removes a question', () => {
    assert.deepEqual(chain(refine("Don't ask for the order number.")), ['say_thanks_checking_order']);
  });
  it('changes the reply text', () => {
    const out = refine('Change the message to "One moment, checking ${rule.orderNumber}."');
    assert.equal((out.next as { message: string }).message, 'One moment, checking ${rule.orderNumber}.');
  });
  it('puts a hand-over condition right after the field it tests', () => {
    const withAmount = flowOf('Ask for the order number. Ask for the amount. Say "Done."');
    const out = refine('Hand over when the amount is over 500.', withAmount);
    assert.deepEqual(chain(out), ['ask_order_number', 'ask_amount', 'check_amount_500', 'say_done']);
    const condition = (out.next as FlowNode & { next: FlowNode }).next as FlowNode & { conditions: unknown; then: unknown };
    assert.deepEqual(condition.conditions, scalar('rule.amount', 'number', '>', 500));
    assert.deepEqual(condition.then, { id: 'hand_over', type: 'escalate', reason: 'rule_escalation' });
  });
  it('appends a tag before a final node, and builds a flow for a rule without one', () => {
    assert.deepEqual(chain(refine('Tag as Refund.')), ['ask_order_number', 'say_thanks_checking_order', 'tag_refund']);
    const ended = flowOf('Ask for the order number. End the conversation.');
    assert.deepEqual(chain(refine('Tag as VIP.', ended)), ['ask_order_number', 'tag_vip', 'end']);
    assert.deepEqual(chain(refine('Ask for the order number.', null)), ['ask_order_number']);
  });
});

describe('built-in rule matching', () => {
  const rules = [
    { id: 'refund', name: 'Refund request', description: 'The customer wants a refund for an order' },
    { id: 'shipping', name: 'Shipping times', description: 'The customer asks how long delivery takes' },
  ];
  it('scores the matching rule first, above the threshold, with the shared terms', () => {
    const { matches } = matchRules({ message: 'I want my money back, please refund my order', rules });
    assert.equal(matches[0]!.ruleId, 'refund');
    assert.ok(matches[0]!.score >= RULE_MATCH_THRESHOLD);
    assert.equal(matches[0]!.reason, 'the message shares "refund", "want", "order" with the rule\'s name and description');
    assert.equal(matches[1]!.score, 0);
  });
  // Written before the method, in our own wording: a request or a problem that names the rule's
  // topic fires it; a question for information that only shares that word does not.
  const exchange = [{ id: 'exchange', name: 'Exchanges', description: 'Ask for the order number and the new size, then say "We will send the new size."' }];
  const fires = (message: string, list = exchange) => matchRules({ message, rules: list }).matches[0]!.score >= RULE_MATCH_THRESHOLD;
  it('fires on a request or a problem that names the topic of the rule', () => {
    for (const message of ['Hi, I need to exchange the jacket I got last week', 'exchanging my boots for a bigger pair please', 'The shoes are too small, I want an exchange', 'Could I get an exchange for these gloves?']) {
      assert.ok(fires(message), message);
    }
  });
  it('does not fire on a question for information that shares only the topic word', () => {
    for (const message of ['How long do exchanges take to process?', 'Do you charge for exchanges?', 'What is your exchange policy for sale items?', 'Can I pay for an exchange with a gift card?', 'Are exchanges free?']) {
      assert.ok(!fires(message), message);
    }
  });
  it('counts the words customers use for the same thing', () => {
    const refunds = [{ id: 'refund', name: 'Refund', description: 'Ask for the order number. If the order is older than 30 days, hand over.' }];
    assert.ok(fires('I want my money back for this lamp', refunds), 'money back');
    assert.ok(!fires('When will my refund arrive?', refunds), 'an information question');
  });
  it('reads a closed compound of the rule as the two words a customer writes', () => {
    const callback = [{ id: 'callback', name: 'Callback', description: 'Ask for the phone number, then say "We will call you."' }];
    assert.ok(fires('Could you please call me back tomorrow?', callback), 'call me back');
    const pickup = [{ id: 'pickup', name: 'Pickup slot', description: 'Ask which store, then say "Your order is ready."' }];
    assert.ok(fires('I want to pick up my order in Leeds', pickup), 'pick up my order');
    assert.ok(!fires('What time do you pick up returns?', pickup), 'an information question');
  });
  it('matches nothing for an unrelated message', () => {
    const { matches } = matchRules({ message: 'Do you have a dark mode?', rules });
    assert.ok(matches.every((m) => m.score < RULE_MATCH_THRESHOLD));
    assert.match(matches[0]!.reason, /shares no terms/);
  });
});
