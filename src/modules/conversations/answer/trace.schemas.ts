import { z } from 'zod';
import { FLOW_ESCALATION_REASONS } from '../../../evaluators/flow.js';
import { REPLY_TYPES } from '../../../evaluators/reply.js';

/**
 * The trace of one agent reply: the specification's "Event metadata" (every top-level field may be
 * null) with Parley's additions under new top-level keys only (wave2-decisions §6). The answer
 * pipeline builds it, `conversation_events.metadata` stores it, `GET /v2/hc-events/{id}/metadata`
 * answers it and Refine with AI reads it (`readTrace`).
 */

const reasoned = z.object({ name: z.string(), reasoning: z.string() });
const tagSelection = z.object({ reasoning: z.string(), chosenTags: z.record(z.string(), z.array(z.string())) });

/** `knowledgeSearch`: exactly the specification's object; an article is `{ id, title, version }`. */
export const knowledgeSearchTraceSchema = z.object({
  topOneReasoning: z.string(),
  selectionReasoning: z.string(),
  articles: z.array(z.object({ id: z.string(), title: z.string(), version: z.number().int() })),
});

export const executedRulesTraceSchema = z.object({
  ruleId: z.string(),
  ruleName: z.string(),
  results: z.array(z.object({ id: z.string(), name: z.string(), type: z.string(), success: z.boolean(), result: z.record(z.string(), z.unknown()) })),
});

export const executedAttributeTraceSchema = z.object({
  id: z.string(),
  name: z.string(),
  success: z.boolean(),
  extractedData: z.record(z.string(), z.unknown()).nullable(),
  results: z.array(z.object({ id: z.string(), name: z.string(), success: z.boolean(), data: z.unknown() })),
});

export const guardrailTraceSchema = z.object({
  id: z.string(),
  name: z.string(),
  action: z.string(),
  stage: z.string(),
  result: z.object({
    kind: z.string(),
    matched: z.boolean(),
    matches: z.array(z.object({ type: z.string(), value: z.string().optional(), start: z.number().optional(), end: z.number().optional() })),
    detail: z.string(),
  }),
});

/** The evaluation context the stages read (evaluators/context.ts), as stored: no request limits. */
const evaluationContextTraceSchema = z.object({
  message: z.object({ content: z.string().optional(), language: z.string().optional() }).optional(),
  conversation: z
    .object({ id: z.string().optional(), turn: z.number().optional(), channel: z.string().optional(), source: z.string().optional(), status: z.string().optional() })
    .optional(),
  userAttributes: z.record(z.string(), z.unknown()).optional(),
  attributes: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  tags: z.record(z.string(), z.array(z.string())).optional(),
  rule: z.record(z.string(), z.unknown()).optional(),
  time: z.object({ hour: z.number().optional(), weekday: z.number().optional(), date: z.string().optional() }).optional(),
});

export const answerTraceSchema = z.object({
  planning: z.object({ reasoning: z.string(), performKnowledgeSearch: z.boolean() }).nullable(),
  knowledgeSearch: knowledgeSearchTraceSchema.nullable(),
  relevantMemories: z.array(z.object({ id: z.string(), summary: z.string(), conversationEndedAt: z.string() })).nullable(),
  generateAnswer: z.object({ reasoning: z.array(reasoned) }).nullable(),
  inputTagSelection: tagSelection.nullable(),
  outputTagSelection: tagSelection.nullable(),
  executedUserAttributes: z.array(executedAttributeTraceSchema).nullable(),
  executedRules: executedRulesTraceSchema.nullable(),
  // Parley's additions.
  guardrails: z.array(guardrailTraceSchema),
  replyRule: z.object({ replyType: z.enum(REPLY_TYPES), matched: z.boolean() }),
  handover: z.object({ reason: z.enum(FLOW_ESCALATION_REASONS).nullable() }).nullable(),
  /** The built-in engine's (or the model's) confidence that its best article answers; null without a generated answer. */
  confidence: z.number().nullable(),
  bestArticleId: z.string().nullable(),
  sentiment: z.enum(['positive', 'neutral', 'negative']).nullable(),
  evaluationContext: evaluationContextTraceSchema,
  configVersion: z.object({
    promptVersion: z.union([z.number(), z.literal('overlay')]).nullable(),
    rules: z.array(z.object({ id: z.string(), version: z.number().nullable() })),
    articles: z.array(z.object({ id: z.string(), version: z.number() })),
  }),
  timings: z.record(z.string(), z.number()),
  errors: z.array(z.object({ stage: z.string(), message: z.string() })),
  model: z.object({
    provider: z.string(),
    model: z.string(),
    usage: z.object({ inputTokens: z.number(), outputTokens: z.number(), totalTokens: z.number() }),
  }),
});
export type AnswerTrace = z.infer<typeof answerTraceSchema>;
export type KnowledgeSearchTrace = z.infer<typeof knowledgeSearchTraceSchema>;
export type ExecutedRulesTrace = z.infer<typeof executedRulesTraceSchema>;
export type ExecutedAttributeTrace = z.infer<typeof executedAttributeTraceSchema>;
export type GuardrailTrace = z.infer<typeof guardrailTraceSchema>;

/** A stored trace as the pipeline wrote it; null for an event without one (or one this version cannot read). */
export function readTrace(metadata: unknown): AnswerTrace | null {
  const parsed = answerTraceSchema.safeParse(metadata);
  return parsed.success ? parsed.data : null;
}
