import type { EvaluationContext } from '../../../evaluators/context.js';
import { type Guardrail, type GuardrailResult, type GuardrailsOutcome, runGuardrails } from '../../../evaluators/guardrails.js';
import { chooseReplyType, type ReplySlot, type ReplyType } from '../../../evaluators/reply.js';
import type { ConversationRow } from '../conversations.repository.js';
import type { GuardrailTrace } from './trace.schemas.js';

/** What rules, conditions and flows read about this message (docs/rules.md, the evaluation context). */
export type AnswerContext = EvaluationContext & { attributes: Record<string, Record<string, unknown>>; rule: Record<string, unknown> };

/** The evaluation context of a customer message before any stage ran. */
export function evaluationContext(conversation: ConversationRow, message: string, tags: Record<string, string[]>, now: Date): AnswerContext {
  const channel = conversation.channel === 'email' ? 'email' : 'chat';
  return {
    message: { content: message, language: 'en' },
    conversation: { id: conversation.id, turn: conversation.turns + 1, channel, source: conversation.source, status: conversation.status },
    userAttributes: conversation.userAttributes,
    attributes: {},
    tags,
    rule: {},
    time: { hour: now.getUTCHours(), weekday: now.getUTCDay(), date: now.toISOString().slice(0, 10) },
  };
}

/** Guardrail results in the trace's shape, with the stage that ran them. */
export function guardrailTrace(stage: 'input' | 'output', results: readonly GuardrailResult[]): GuardrailTrace[] {
  return results.map(({ id, name, action, ...result }) => ({ id, name, action, stage, result }));
}

export interface InputStage {
  /** The customer's message after input redactions: what is stored and answered. */
  userMessage: string;
  check: GuardrailsOutcome;
  replyType: ReplyType;
  replyRule: { replyType: ReplyType; matched: boolean };
}

/** Stage 1: the input guardrails (redact, block, escalate), then which reply slot applies. */
export function checkInput(guards: readonly Guardrail[], slots: readonly ReplySlot[], context: AnswerContext, message: string): InputStage {
  const check = runGuardrails(guards, { stage: 'input', text: message });
  context.message = { ...context.message, content: check.text };
  const decision = chooseReplyType(slots, context);
  return { userMessage: check.text, check, replyType: decision.replyType, replyRule: { replyType: decision.replyType, matched: decision.matched } };
}
