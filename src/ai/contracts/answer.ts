import { z } from 'zod';
import { FLOW_ESCALATION_REASONS } from '../../evaluators/flow.js';
import { historySchema } from './history.js';

/** The `generate_answer` task (docs/conversations.md): the reply, grounded in articles, or a hand-over. */

export type EscalationReason = (typeof FLOW_ESCALATION_REASONS)[number];

export const answerArticleSchema = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  questions: z.array(z.string()),
  keywords: z.array(z.string()),
  /** The article asks for a hand-over when it applies. */
  escalation: z.boolean(),
  /** The retrieval score (knowledge search). */
  score: z.number(),
  /** The built-in sentence encoder's cosine similarity of the question and the article, when it ran (ai/encoder.ts). */
  similarity: z.number().optional(),
});
export type AnswerArticle = z.infer<typeof answerArticleSchema>;

export const answerInputSchema = z.object({
  question: z.string(),
  channel: z.enum(['chat', 'email']),
  history: historySchema,
  prompts: z.object({ planning: z.string(), guideline: z.string(), channel: z.string() }),
  businessRules: z.array(z.object({ name: z.string(), description: z.string() })),
  /** The knowledge search's best articles, best first. */
  articles: z.array(answerArticleSchema),
  /** Below this confidence (0 to 1) the built-in engine hands over (PARLEY_ANSWER_MIN_CONFIDENCE). */
  minConfidence: z.number(),
  customerName: z.string().nullable(),
});
export type AnswerInput = z.infer<typeof answerInputSchema>;

export const answerOutputSchema = z.object({
  answer: z.string().describe('the reply to the customer (for a hand-over: a short message that a person will follow up)'),
  usedArticleIds: z.array(z.string()).describe('ids of the articles the answer is based on, most important first'),
  handover: z.boolean().describe('true when the articles do not answer the question or a person must take over'),
  reason: z.enum(FLOW_ESCALATION_REASONS).nullable().describe('why the agent hands over; null when it answers'),
  /** How sure the answer is, 0 to 1 (the built-in engine's model; a model's own estimate). */
  confidence: z.number().min(0).max(1).describe('how sure the answer is correct and complete, 0 to 1'),
  /** The article that came closest to answering, also when the agent hands over. */
  bestArticleId: z.string().nullable().describe('the article that came closest to answering, also when handing over; null when none is relevant'),
  reasoning: z.string().describe('why this answer, or why a hand-over'),
});
export type AnswerOutput = z.infer<typeof answerOutputSchema>;
