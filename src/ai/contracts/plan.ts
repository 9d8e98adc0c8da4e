import { z } from 'zod';
import { historySchema } from './history.js';

/** The `plan_answer` task (docs/conversations.md): what a customer message is, whether to search the knowledge base. */

export const planInputSchema = z.object({
  message: z.string(),
  history: historySchema,
  planningPrompt: z.string(),
  rules: z.array(z.object({ id: z.string(), name: z.string(), description: z.string() })),
});
export type PlanInput = z.infer<typeof planInputSchema>;

export const planOutputSchema = z.object({
  reasoning: z.string(),
  performKnowledgeSearch: z.boolean(),
  intent: z
    .enum(['question', 'small_talk', 'human_request'])
    .describe('question: needs an answer; small_talk: greeting, thanks, goodbye; human_request: asks for a person (with performKnowledgeSearch true: asks a person a question, "can you ask an agent how ...")'),
  smallTalkReply: z.string().nullable().describe('the reply to small talk; null otherwise'),
  sentiment: z.enum(['positive', 'neutral', 'negative']).describe("the customer message's sentiment"),
  angry: z.boolean().describe('the customer is clearly angry or abusive: a person takes over (after the answer, when there is one)'),
});
export type PlanOutput = z.infer<typeof planOutputSchema>;
export type Intent = PlanOutput['intent'];
