import { z } from 'zod';

/** The `evaluate_conversation` task (docs/conversations.md): is each agent reply grounded, did it answer. */

export const evaluateInputSchema = z.object({
  replies: z.array(
    z.object({
      eventId: z.string(),
      question: z.string(),
      answer: z.string(),
      handover: z.boolean(),
      articles: z.array(z.object({ id: z.string(), title: z.string(), body: z.string() })),
    }),
  ),
});
export type EvaluateInput = z.infer<typeof evaluateInputSchema>;

export const evaluateOutputSchema = z.object({
  replies: z.array(z.object({ eventId: z.string(), grounded: z.boolean(), answered: z.boolean(), score: z.number().min(0).max(1), notes: z.array(z.string()) })),
  verdict: z.enum(['good', 'needs_review', 'poor']),
  score: z.number().min(0).max(1),
  notes: z.array(z.string()),
});
export type EvaluateOutput = z.infer<typeof evaluateOutputSchema>;
