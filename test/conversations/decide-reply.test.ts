// The reply decision of the answer pipeline (src/modules/conversations/answer/decide-reply.ts) as a
// table: which source replies, and when the reply hands over, with which reason and message.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Guardrail } from '../../src/evaluators/guardrails.js';
import { decideReply, negativeStreak, type ReplyFacts, replySource } from '../../src/modules/conversations/answer/decide-reply.js';
import { handoverMessage } from '../../src/modules/conversations/handover.js';

const chat = { channel: 'chat', customerName: null } as const;
const HANDOVER = {
  other: handoverMessage(chat, 'other'),
  customer: handoverMessage(chat, 'customer_request'),
  tool: handoverMessage(chat, 'tool_failure'),
  guardrail: handoverMessage(chat, 'guardrail_block'),
  negative: handoverMessage(chat, 'negative_sentiment'),
  unsure: handoverMessage(chat, 'low_confidence'),
};

const walk = (over: Partial<NonNullable<ReplyFacts['walk']>> = {}): NonNullable<ReplyFacts['walk']> => ({ replies: [], toolCalls: [], escalation: null, ...over });
const answered = (answer: string, usedArticleIds = ['a1']) => ({ answer, handover: false, reason: null, usedArticleIds });

const facts = (over: Partial<ReplyFacts>): ReplyFacts => ({
  source: 'generated',
  wording: chat,
  walk: null,
  smallTalkReply: null,
  generated: null,
  articleIds: ['a1', 'a2'],
  inputEscalate: false,
  negativeStreak: false,
  angry: false,
  personAsked: false,
  outputGuards: [],
  ...over,
});

const guard = (over: Partial<Guardrail>): Guardrail => ({ id: 'g1', name: 'No refunds talk', kind: 'blocked_phrases', stage: 'output', action: 'block', config: { phrases: ['refund'] }, isEnabled: true, ...over });

describe('replySource', () => {
  const base: Parameters<typeof replySource>[0] = { flowRan: false, intent: 'question', inputBlocked: false, performKnowledgeSearch: true, smallTalkReply: null };
  const table: [string, Partial<typeof base>, string][] = [
    ['a flow that ran replies before anything else', { flowRan: true, intent: 'human_request', inputBlocked: true }, 'flow'],
    ['a request for a person comes next', { intent: 'human_request', performKnowledgeSearch: false, inputBlocked: true }, 'human_request'],
    ['a question put to a person ("ask an agent how ...") is answered from the knowledge', { intent: 'human_request', performKnowledgeSearch: true }, 'generated'],
    ['then an input guardrail that blocked', { inputBlocked: true, performKnowledgeSearch: false, smallTalkReply: 'Hi!' }, 'input_blocked'],
    ['small talk answered without a search', { intent: 'small_talk', performKnowledgeSearch: false, smallTalkReply: 'Hello!' }, 'small_talk'],
    ['small talk the planner did not word is answered from the knowledge', { performKnowledgeSearch: false, smallTalkReply: null }, 'generated'],
    ['a question is answered from the knowledge', {}, 'generated'],
  ];
  for (const [what, over, expected] of table) it(what, () => assert.equal(replySource({ ...base, ...over }), expected));
});

describe('decideReply', () => {
  const table: [string, Partial<ReplyFacts>, { message: string; handover: boolean; reason: string | null; usedArticleIds?: string[] }][] = [
    ['a flow replies with its messages in order', { source: 'flow', walk: walk({ replies: ['What is your order number?'] }) }, { message: 'What is your order number?', handover: false, reason: null }],
    ['a flow that could not start hands over', { source: 'flow', walk: walk({ error: 'state: unknown node', replies: ['x'] }) }, { message: HANDOVER.other, handover: true, reason: 'other' }],
    [
      "a flow's escalation with its own message keeps the flow's words",
      { source: 'flow', walk: walk({ replies: ['A colleague will look at your refund.'], escalation: { reason: 'rule_escalation', message: 'A colleague will look at your refund.' } }) },
      { message: 'A colleague will look at your refund.', handover: true, reason: 'rule_escalation' },
    ],
    [
      "a flow's escalation without a message adds the hand-over message last",
      { source: 'flow', walk: walk({ replies: ['Thanks.'], escalation: { reason: 'rule_escalation', message: null } }) },
      { message: `Thanks.\n\n${handoverMessage(chat, 'rule_escalation')}`, handover: true, reason: 'rule_escalation' },
    ],
    [
      'a failed action with nothing to say hands over as a tool failure',
      { source: 'flow', walk: walk({ toolCalls: [{ toolId: 't', inputs: {}, success: false, output: {} }] as never }) },
      { message: HANDOVER.tool, handover: true, reason: 'tool_failure' },
    ],
    ['a flow that says nothing hands over', { source: 'flow', walk: walk() }, { message: HANDOVER.other, handover: true, reason: 'other' }],
    ['a request for a person hands over', { source: 'human_request' }, { message: HANDOVER.customer, handover: true, reason: 'customer_request' }],
    ['a blocked input hands over', { source: 'input_blocked' }, { message: HANDOVER.guardrail, handover: true, reason: 'guardrail_block' }],
    ['small talk gets its reply', { source: 'small_talk', smallTalkReply: 'You are welcome!' }, { message: 'You are welcome!', handover: false, reason: null }],
    ['an answer cites the articles it used', { generated: answered('Click "Forgot password".') }, { message: 'Click "Forgot password".', handover: false, reason: null, usedArticleIds: ['a1'] }],
    ['ids the answer made up are dropped', { generated: answered('Yes.', ['a1', 'made-up', 'a1']) }, { message: 'Yes.', handover: false, reason: null, usedArticleIds: ['a1'] }],
    [
      "the answer's hand-over keeps its reason and message",
      { generated: { answer: HANDOVER.other, handover: true, reason: 'missing_knowledge', usedArticleIds: [] } },
      { message: HANDOVER.other, handover: true, reason: 'missing_knowledge', usedArticleIds: [] },
    ],
    ['an empty answer hands over as unsure', { generated: answered('  ', []) }, { message: HANDOVER.unsure, handover: true, reason: 'low_confidence', usedArticleIds: [] }],
    [
      'an answer from nothing found is no answer from the knowledge',
      { articleIds: [], generated: answered('I think so.', []) },
      { message: 'I think so.', handover: true, reason: 'missing_knowledge', usedArticleIds: [] },
    ],
    ["an input guardrail's escalation answers, then hands over", { inputEscalate: true, generated: answered('Yes.') }, { message: 'Yes.', handover: true, reason: 'guardrail_block', usedArticleIds: ['a1'] }],
    [
      'a second negative message gets the answer, an apology and a hand-over',
      { negativeStreak: true, generated: answered('Refunds take 5 to 7 business days.') },
      { message: `Refunds take 5 to 7 business days.\n\n${HANDOVER.negative}`, handover: true, reason: 'negative_sentiment', usedArticleIds: ['a1'] },
    ],
    [
      'an angry message gets the answer, an apology and a hand-over',
      { angry: true, generated: answered('Refunds take 5 to 7 business days.') },
      { message: `Refunds take 5 to 7 business days.\n\n${HANDOVER.negative}`, handover: true, reason: 'negative_sentiment', usedArticleIds: ['a1'] },
    ],
    [
      'an angry message the knowledge does not answer gets the apology, not "no reliable answer"',
      { angry: true, generated: { answer: HANDOVER.other, handover: true, reason: 'missing_knowledge', usedArticleIds: [] } },
      { message: HANDOVER.negative, handover: true, reason: 'negative_sentiment', usedArticleIds: [] },
    ],
    [
      'a second negative message the knowledge does not answer gets the apology too',
      { negativeStreak: true, generated: { answer: HANDOVER.unsure, handover: true, reason: 'low_confidence', usedArticleIds: [] } },
      { message: HANDOVER.negative, handover: true, reason: 'negative_sentiment', usedArticleIds: [] },
    ],
    ['a calm message the knowledge does not answer keeps its reason', { generated: { answer: HANDOVER.unsure, handover: true, reason: 'low_confidence', usedArticleIds: [] } }, { message: HANDOVER.unsure, handover: true, reason: 'low_confidence' }],
    ['an angry request for a person is a request for a person', { angry: true, source: 'human_request' }, { message: HANDOVER.customer, handover: true, reason: 'customer_request' }],
    [
      "an angry customer gets the flow's reply, then the apology and a hand-over",
      { angry: true, source: 'flow', walk: walk({ replies: ['What is your order number?'] }) },
      { message: `What is your order number?\n\n${HANDOVER.negative}`, handover: true, reason: 'negative_sentiment' },
    ],
    [
      'a question put to a person that the knowledge answers is answered',
      { personAsked: true, generated: answered('Open Account > Orders and click Cancel order.') },
      { message: 'Open Account > Orders and click Cancel order.', handover: false, reason: null, usedArticleIds: ['a1'] },
    ],
    [
      'a question put to a person that the knowledge does not answer goes to a person',
      { personAsked: true, generated: { answer: HANDOVER.other, handover: true, reason: 'missing_knowledge', usedArticleIds: [] } },
      { message: HANDOVER.customer, handover: true, reason: 'customer_request', usedArticleIds: [] },
    ],
    [
      'an angry question put to a person that the knowledge does not answer gets the apology',
      { personAsked: true, angry: true, generated: { answer: HANDOVER.other, handover: true, reason: 'missing_knowledge', usedArticleIds: [] } },
      { message: HANDOVER.negative, handover: true, reason: 'negative_sentiment' },
    ],
    [
      'an angry message whose answer an output guardrail blocks gets the guardrail hand-over',
      { angry: true, outputGuards: [guard({})], generated: answered('Your refund is on its way.') },
      { message: HANDOVER.guardrail, handover: true, reason: 'guardrail_block', usedArticleIds: [] },
    ],
    [
      'a hand-over already decided is not overridden by a negative streak',
      { negativeStreak: true, source: 'human_request' },
      { message: HANDOVER.customer, handover: true, reason: 'customer_request' },
    ],
    [
      'an output guardrail that blocks replaces the answer and drops its citations',
      { outputGuards: [guard({})], generated: answered('Your refund is on its way.') },
      { message: HANDOVER.guardrail, handover: true, reason: 'guardrail_block', usedArticleIds: [] },
    ],
    [
      'an output guardrail that escalates keeps the answer and hands over',
      { outputGuards: [guard({ action: 'escalate' })], generated: answered('Your refund is on its way.') },
      { message: 'Your refund is on its way.', handover: true, reason: 'guardrail_block', usedArticleIds: ['a1'] },
    ],
    [
      'an output guardrail that redacts changes the words only',
      { outputGuards: [guard({ kind: 'pii_redaction', action: 'redact', config: { types: ['email'] } })], generated: answered('Write to help@example.com.') },
      { message: 'Write to [redacted].', handover: false, reason: null, usedArticleIds: ['a1'] },
    ],
  ];
  for (const [what, over, expected] of table) {
    it(what, () => {
      const decision = decideReply(facts(over));
      assert.deepEqual({ message: decision.message, handover: decision.handover, reason: decision.reason }, { message: expected.message, handover: expected.handover, reason: expected.reason });
      if (expected.usedArticleIds) assert.deepEqual(decision.usedArticleIds, expected.usedArticleIds);
    });
  }

  it('reports every output guardrail it ran', () => {
    const decision = decideReply(facts({ outputGuards: [guard({ action: 'flag' })], generated: answered('Your refund is on its way.') }));
    assert.deepEqual(decision.outputResults.map((r) => [r.id, r.matched, r.action]), [['g1', true, 'flag']]);
    assert.equal(decision.handover, false);
  });

  it('frames an email hand-over with a salutation', () => {
    const email = { channel: 'email', customerName: 'Ada Lovelace' } as const;
    assert.equal(decideReply(facts({ source: 'human_request', wording: email })).message, handoverMessage(email, 'customer_request'));
    assert.match(handoverMessage(email, 'customer_request'), /^Hello Ada,/);
  });
});

describe('negativeStreak', () => {
  const user = (sentiment: string | null) => ({ role: 'user', sentiment });
  it('needs this message and the previous customer message negative', () => {
    assert.equal(negativeStreak([user('negative'), { role: 'parleybot', sentiment: null }], 'negative'), true);
    assert.equal(negativeStreak([user('negative')], 'neutral'), false);
    assert.equal(negativeStreak([user('neutral')], 'negative'), false);
    assert.equal(negativeStreak([], 'negative'), false);
    assert.equal(negativeStreak([user('negative'), user('positive')], 'negative'), false);
  });
});
