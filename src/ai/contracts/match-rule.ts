import { z } from 'zod';

/** The `match_rules` task (docs/rules.md): how well a customer message matches each intent rule. */

/**
 * Score at or above which a message triggers a rule: the prompt tells a model so, and the built-in
 * engine's scores (the cosine of stemmed terms) are calibrated to it.
 */
export const RULE_MATCH_THRESHOLD = 0.2;

export const matchRulesInputSchema = z.object({
  message: z.string(),
  rules: z.array(z.object({ id: z.string(), name: z.string(), description: z.string() })),
});
export type MatchRulesInput = z.infer<typeof matchRulesInputSchema>;

export const matchRulesOutputSchema = z.object({
  matches: z.array(z.object({ ruleId: z.string(), score: z.number().min(0).max(1), reason: z.string() })),
});
export type MatchRulesOutput = z.infer<typeof matchRulesOutputSchema>;
