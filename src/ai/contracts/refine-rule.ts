import { z } from 'zod';
import { draftRuleOutputSchema, type DraftRuleOutput, ruleDraftingContextSchema } from './draft-rule.js';

/** The `refine_rule` task (docs/rules.md): a rule with the team's refinement applied, in the shape `draft_rule` answers. */

export const refineRuleInputSchema = ruleDraftingContextSchema.extend({
  rule: z.object({ name: z.string(), description: z.string(), flowConfig: z.record(z.string(), z.unknown()).nullable() }),
  refinementInstructions: z.string(),
});
export type RefineRuleInput = z.infer<typeof refineRuleInputSchema>;

export const refineRuleOutputSchema = draftRuleOutputSchema;
export type RefineRuleOutput = DraftRuleOutput;
