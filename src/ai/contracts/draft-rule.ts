import { z } from 'zod';
import { CONDITION_DATA_TYPES, CONDITION_OPERATORS, CONDITION_SCOPES } from '../../evaluators/conditions.js';
import { COLLECT_DATA_TYPES, FLOW_ESCALATION_REASONS, FLOW_NODE_TYPES } from '../../evaluators/flow.js';

/**
 * The `draft_rule` task (docs/rules.md): an intent rule drafted from instructions. A model fills a
 * FLAT list of nodes (children named by id): strict structured output cannot describe a recursive
 * tree well, and a list is easy for a model to write. `refine_rule` answers the same shape.
 */

export const draftingTagSchema = z.object({ id: z.string(), tagName: z.string(), groupTitle: z.string() });
export type DraftingTag = z.infer<typeof draftingTagSchema>;

export const draftingActionSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Input names of the action, filled from collected fields of the same name. */
  inputNames: z.array(z.string()).optional(),
});
export type DraftingAction = z.infer<typeof draftingActionSchema>;

/** The workspace's tags and actions a drafted flow may name. */
export const ruleDraftingContextSchema = z.object({ tags: z.array(draftingTagSchema), actions: z.array(draftingActionSchema) });
export type RuleDraftingContext = z.infer<typeof ruleDraftingContextSchema>;

export const draftRuleInputSchema = ruleDraftingContextSchema.extend({ behaviorInstructions: z.string() });
export type DraftRuleInput = z.infer<typeof draftRuleInputSchema>;

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const conditionGroupOutput = z.object({
  scope: z.enum(CONDITION_SCOPES),
  predicate: z.array(
    z.object({
      left: z.object({ path: z.string(), dataType: z.enum(CONDITION_DATA_TYPES) }),
      operator: z.enum(CONDITION_OPERATORS),
      right: z.object({ value: z.union([scalar, z.array(scalar)]) }),
    }),
  ),
});

export const flatNodeSchema = z.object({
  id: z.string().describe('unique id, e.g. ask_order_number'),
  type: z.enum(FLOW_NODE_TYPES),
  message: z.string().nullable().describe('message: the reply; escalate/end: an optional last message; ${rule.<field>} interpolates a collected field'),
  field: z.string().nullable().describe('collect: camelCase field name the answer is stored under (rule.<field>)'),
  question: z.string().nullable().describe('collect: the question asked'),
  dataType: z.enum(COLLECT_DATA_TYPES).nullable().describe('collect: how the answer is read'),
  required: z.boolean().nullable(),
  conditions: z.array(conditionGroupOutput).nullable().describe('condition: groups (OR) of predicates (AND) on paths like rule.<field>, message.content, userAttributes.<name>'),
  toolId: z.string().nullable().describe('tool: the id of one of the listed actions'),
  inputs: z.array(z.object({ name: z.string(), value: z.string() })).nullable().describe('tool: input name and value (literal or ${rule.<field>})'),
  tagIds: z.array(z.string()).nullable().describe('tag: ids of the listed tags'),
  reason: z.enum(FLOW_ESCALATION_REASONS).nullable().describe('escalate: why'),
  next: z.string().nullable().describe('id of the node that follows (after any branch)'),
  then: z.string().nullable(),
  else: z.string().nullable(),
  onSuccess: z.string().nullable(),
  onFailure: z.string().nullable(),
});
export type FlatNode = z.infer<typeof flatNodeSchema>;

export const draftRuleOutputSchema = z.object({
  name: z.string().describe('short rule name'),
  description: z.string().describe('one sentence: when the rule applies (what customer messages trigger it)'),
  rootId: z.string().nullable().describe('id of the first node; null (and no nodes) when the instructions are guidance with no step to walk'),
  nodes: z.array(flatNodeSchema).max(200),
  warnings: z
    .array(z.object({ fragment: z.string().describe('the exact words of the instructions'), message: z.string().describe('why they are not in the flow, and the forms that are understood') }))
    .max(50)
    .describe('every part of the instructions NOT turned into the flow (a condition, an action, a tag that does not exist); empty when all of it is'),
});
export type DraftWarning = z.infer<typeof draftRuleOutputSchema>['warnings'][number];
export type DraftRuleOutput = z.infer<typeof draftRuleOutputSchema>;
