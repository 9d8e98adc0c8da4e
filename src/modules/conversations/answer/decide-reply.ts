import type { EscalationReason } from '../../../ai/contracts/answer.js';
import type { Intent } from '../../../ai/contracts/plan.js';
import { type Guardrail, type GuardrailResult, runGuardrails } from '../../../evaluators/guardrails.js';
import type { FlowWalk } from '../../../evaluators/walker.js';
import type { EventRow } from '../conversations.repository.js';
import { handoverMessage, type HandoverWording } from '../handover.js';

/** Where the reply comes from, in order of precedence. */
export type ReplySource = 'flow' | 'human_request' | 'input_blocked' | 'small_talk' | 'generated';

/**
 * Which source replies: a flow that ran; else a request for a person (one that puts a question to
 * a person, "can you ask an agent how ...", searches: the answer replies when there is one);
 * else an input guardrail that blocked; else small talk the planner answered (no search); else a
 * generated answer.
 */
export function replySource(facts: { flowRan: boolean; intent: Intent; inputBlocked: boolean; performKnowledgeSearch: boolean; smallTalkReply: string | null }): ReplySource {
  if (facts.flowRan) return 'flow';
  if (facts.intent === 'human_request' && !facts.performKnowledgeSearch) return 'human_request';
  if (facts.inputBlocked) return 'input_blocked';
  if (!facts.performKnowledgeSearch && facts.smallTalkReply) return 'small_talk';
  return 'generated';
}

export interface ReplyFacts {
  source: ReplySource;
  wording: HandoverWording;
  /** The walk, when a flow replies. */
  walk: Pick<FlowWalk, 'error' | 'escalation' | 'replies' | 'toolCalls'> | null;
  smallTalkReply: string | null;
  /** The answer task's output, when a generated answer replies. */
  generated: { answer: string; handover: boolean; reason: EscalationReason | null; usedArticleIds: readonly string[] } | null;
  /** The ids of the articles the answer task read. */
  articleIds: readonly string[];
  /** An input guardrail asked to answer, then hand over. */
  inputEscalate: boolean;
  /** This message and the customer's previous one are negative. */
  negativeStreak: boolean;
  /** The planner found this message clearly angry or abusive. */
  angry: boolean;
  /** The customer put the question to a person ("ask an agent how ..."): unanswered, it goes to one. */
  personAsked: boolean;
  outputGuards: readonly Guardrail[];
}

export interface ReplyDecision {
  message: string;
  handover: boolean;
  reason: EscalationReason | null;
  /** The articles the reply cites (none when an output guardrail blocked it). */
  usedArticleIds: string[];
  outputResults: GuardrailResult[];
}

type Draft = Omit<ReplyDecision, 'outputResults'>;

const handover = (facts: ReplyFacts, reason: EscalationReason, message = handoverMessage(facts.wording, reason)): Draft => ({ message, handover: true, reason, usedArticleIds: [] });

/** The reply of its source, before the checks every reply goes through. */
function sourceReply(facts: ReplyFacts): Draft {
  switch (facts.source) {
    case 'flow': {
      const walk = facts.walk;
      if (!walk || walk.error) return handover(facts, 'other');
      if (walk.escalation) {
        const reason = walk.escalation.reason as EscalationReason;
        // The walk's replies hold the escalation's own message; without one, the hand-over message goes last.
        return handover(facts, reason, [...walk.replies, ...(walk.escalation.message ? [] : [handoverMessage(facts.wording, reason)])].join('\n\n'));
      }
      if (walk.toolCalls.some((c) => !c.success) && walk.replies.length === 0) return handover(facts, 'tool_failure');
      if (walk.replies.length === 0) return handover(facts, 'other');
      return { message: walk.replies.join('\n\n'), handover: false, reason: null, usedArticleIds: [] };
    }
    case 'human_request':
      return handover(facts, 'customer_request');
    case 'input_blocked':
      return handover(facts, 'guardrail_block');
    case 'small_talk':
      return { message: facts.smallTalkReply ?? '', handover: false, reason: null, usedArticleIds: [] };
    case 'generated': {
      const generated = facts.generated ?? { answer: '', handover: true, reason: null, usedArticleIds: [] };
      const known = new Set(facts.articleIds);
      const usedArticleIds = [...new Set(generated.usedArticleIds.filter((id) => known.has(id)))];
      const handedOver = generated.handover || generated.answer.trim() === '';
      const reason = handedOver ? (generated.reason ?? 'low_confidence') : null;
      const message = generated.answer.trim() || handoverMessage(facts.wording, reason ?? 'low_confidence');
      // An answer that cites nothing when nothing was found is not an answer from the knowledge.
      if (!handedOver && usedArticleIds.length === 0 && facts.articleIds.length === 0) return { message, handover: true, reason: 'missing_knowledge', usedArticleIds };
      return { message, handover: handedOver, reason, usedArticleIds };
    }
  }
}

/** A generated reply that hands over because the knowledge had no reliable answer. */
const unanswered = (facts: ReplyFacts, reply: Draft) => facts.source === 'generated' && reply.handover && (reply.reason === 'missing_knowledge' || reply.reason === 'low_confidence');

/**
 * The agent's reply to one message, from what the stages found: the source's reply, then the
 * customer's mood and wishes, then the output guardrails (redact; block: the hand-over message
 * instead; escalate). An angry message, or a second negative one in a row, hands over with
 * `negative_sentiment` and an apology: after the answer when the knowledge answers it, instead of
 * the "no reliable answer" hand-over when it does not. A question put to a person that the
 * knowledge does not answer hands over as `customer_request`. An input guardrail's escalation
 * answers, then hands over. Pure: the decision table of `test/conversations/decide-reply.test.ts`.
 */
export function decideReply(facts: ReplyFacts): ReplyDecision {
  let reply = sourceReply(facts);
  const upset = facts.angry || facts.negativeStreak;
  if (unanswered(facts, reply) && upset) reply = handover(facts, 'negative_sentiment');
  else if (unanswered(facts, reply) && facts.personAsked) reply = handover(facts, 'customer_request');
  if (!reply.handover && facts.inputEscalate) reply = { ...reply, handover: true, reason: 'guardrail_block' };
  if (!reply.handover && upset) {
    reply = { ...reply, handover: true, reason: 'negative_sentiment', message: `${reply.message}\n\n${handoverMessage(facts.wording, 'negative_sentiment')}` };
  }
  const output = runGuardrails(facts.outputGuards, { stage: 'output', text: reply.message, citations: reply.usedArticleIds });
  if (output.blocked) return { ...handover(facts, 'guardrail_block'), outputResults: output.results };
  reply = { ...reply, message: output.text };
  if (output.escalate && !reply.handover) reply = { ...reply, handover: true, reason: 'guardrail_block' };
  return { ...reply, outputResults: output.results };
}

/** Two negative customer messages in a row hand over (the second one's answer goes out first). */
export function negativeStreak(history: readonly Pick<EventRow, 'role' | 'sentiment'>[], current: string | null): boolean {
  if (current !== 'negative') return false;
  const lastUser = [...history].reverse().find((e) => e.role === 'user');
  return lastUser?.sentiment === 'negative';
}
