import { z } from 'zod';
import { documentedAs, queryBooleanSchema, uuidSchema } from '../../http/schemas.js';
import { evaluationContextSchema } from '../../evaluators/context.js';
import { flowConfigSchema, flowNodeSchema } from '../../evaluators/flow.js';

export const RULE_TYPES = ['intent', 'business'] as const;
export type RuleType = (typeof RULE_TYPES)[number];
export const RULE_STATUSES = ['DRAFT', 'PUBLISHED'] as const;
export type RuleStatus = (typeof RULE_STATUSES)[number];
/** Where a rule was made: by a person in a UI, through the API, in a widget, or by Refine with AI. */
export const RULE_SOURCES = ['api', 'ui', 'widget', 'fix_review'] as const;
export type RuleSource = (typeof RULE_SOURCES)[number];
/** `on_message`: the planner matches customer messages to the description; `on_escalation`: runs at hand-over. */
export const TRIGGER_TYPES = ['on_message', 'on_escalation'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

export const RULE_LIMITS = { name: 200, description: 4_000, instructions: 8_000, botIds: 100, inputSchemaChars: 20_000 } as const;

const name = z.string().trim().min(1).max(RULE_LIMITS.name);
const description = z.string().trim().max(RULE_LIMITS.description);
const botIds = z.array(uuidSchema).max(RULE_LIMITS.botIds);
const inputSchema = z
  .record(z.string(), z.unknown())
  .refine((v) => JSON.stringify(v).length <= RULE_LIMITS.inputSchemaChars, `at most ${RULE_LIMITS.inputSchemaChars} characters of JSON`)
  .describe('JSON Schema of the inputs the rule collects (documentation for the planner; the flow collects them)');
const flowConfig = documentedAs(flowConfigSchema, flowNodeSchema).describe(
  'The rule flow: a tree of nodes (message, collect, condition, tool, tag, escalate, end); see docs/rules.md. ' +
    'At most 200 nodes, 30 deep; ids unique (assigned when left out).',
);

const flowExample = {
  id: 'ask_order',
  type: 'collect',
  field: 'orderNumber',
  question: 'What is your order number?',
  dataType: 'string',
  required: true,
  next: { id: 'confirm', type: 'message', message: 'Thanks, I am looking up order ${rule.orderNumber}.' },
};

export const createRuleBodySchema = z
  .strictObject({
    name,
    description: description.describe('When the rule applies (intent rules: what the planner matches messages against); the policy text of a business rule'),
    type: z.enum(RULE_TYPES).default('intent'),
    flowConfig: flowConfig.nullable().optional(),
    botIds: botIds.default([]).describe('agents the rule applies to; each an agent of the workspace'),
    source: z.enum(RULE_SOURCES).default('api'),
    triggerType: z.enum(TRIGGER_TYPES).default('on_message'),
    inputSchema: inputSchema.default({}),
  })
  .meta({
    examples: [{ name: 'Order status', description: 'The customer asks where their order is', flowConfig: flowExample, botIds: ['7c1e4f8a-2b3d-4e5f-8a9b-0c1d2e3f4a5b'] }],
  });
export type CreateRuleBody = z.infer<typeof createRuleBodySchema>;

export const updateRuleBodySchema = z
  .strictObject({
    name: name.optional(),
    description: description.optional(),
    flowConfig: flowConfig.nullable().optional(),
    botIds: botIds.optional(),
    source: z.enum(RULE_SOURCES).optional(),
    triggerType: z.enum(TRIGGER_TYPES).optional(),
    inputSchema: inputSchema.optional(),
    baseVersion: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('the version this change was based on: 409 when the rule has been changed since'),
  })
  .meta({ examples: [{ description: 'The customer asks where their order is or when it will arrive' }] });
export type UpdateRuleBody = z.infer<typeof updateRuleBodySchema>;

export const draftRuleBodySchema = z
  .strictObject({
    behaviorInstructions: z.string().trim().min(1).max(RULE_LIMITS.instructions),
    name: name.optional().describe('the draft name; generated from the instructions when left out'),
    source: z.enum(RULE_SOURCES).default('api'),
    triggerType: z.enum(TRIGGER_TYPES).default('on_message'),
  })
  .meta({
    examples: [
      {
        behaviorInstructions:
          'When a customer asks about a refund:\n1. Ask for the order number.\n2. If the amount is over 100, hand over to a human.\n3. Otherwise say "Your refund is on its way."',
      },
    ],
  });

export const refineRuleBodySchema = z
  .strictObject({ refinementInstructions: z.string().trim().min(1).max(RULE_LIMITS.instructions) })
  .meta({ examples: [{ refinementInstructions: 'Also ask for the email address before the order number.' }] });

export const publishRuleBodySchema = z
  .strictObject({
    botIds: botIds.min(1).describe('agents the published rule applies to (at least one)'),
    acceptWarnings: z
      .boolean()
      .default(false)
      .describe('publish a draft whose instructions were not all understood (its `warnings`); without it such a draft answers 409 naming them'),
    force: z
      .boolean()
      .default(false)
      .describe('publish even when the test gate finds test cases this draft breaks (409 otherwise; docs/testing.md)'),
  })
  .meta({ examples: [{ botIds: ['7c1e4f8a-2b3d-4e5f-8a9b-0c1d2e3f4a5b'] }] });

export const listRulesQuerySchema = z.object({
  isDraft: queryBooleanSchema.optional().describe('true: drafts only; false or omitted: published rules'),
  type: z.enum(RULE_TYPES).default('intent'),
  source: z.enum(RULE_SOURCES).optional(),
});

export const ruleVersionParamsSchema = z.object({ id: uuidSchema, versionId: uuidSchema });

export const testRuleBodySchema = z
  .strictObject({
    message: z.string().max(20_000).describe('the customer message the rule is tested with'),
    context: evaluationContextSchema.describe('the evaluation context (docs/rules.md); message.content defaults to `message`'),
    state: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .describe('the `state` of an earlier test answer: resumes the walk there, as the next message of a conversation would'),
  })
  .meta({ examples: [{ message: 'Where is my order?' }] });

// ---------------------------------------------------------------------------------------------
// Answers

const ruleFields = {
  id: z.uuid(),
  companyId: z.uuid(),
  type: z.enum(RULE_TYPES),
  name: z.string(),
  description: z.string(),
  status: z.enum(RULE_STATUSES),
  isDraft: z.boolean(),
  source: z.string(),
  triggerType: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  botIds: z.array(z.uuid()),
  version: z.number().int().nullable(),
  versionId: z.uuid().nullable(),
  behaviorInstructions: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  createdBy: z.uuid().nullable(),
};

/** A stored flow, answered as stored. */
const storedFlow = documentedAs(z.record(z.string(), z.unknown()), flowNodeSchema);

export const ruleSummarySchema = z.object(ruleFields).meta({ id: 'RuleSummary' });
export const ruleSchema = z
  .object({ ...ruleFields, flowConfig: storedFlow.nullable() })
  .meta({ id: 'Rule', description: 'An intent or business rule; drafts have `botIds: []`, no version and no versionId.' });
export const ruleListSchema = z.array(ruleSummarySchema);
export const draftWarningSchema = z
  .object({ fragment: z.string(), message: z.string() })
  .meta({ id: 'RuleDraftWarning', description: 'A part of the instructions not turned into the flow: the exact words, and the forms that are understood.' });
export const draftedRuleSchema = z
  .object({ ...ruleFields, flowConfig: storedFlow.nullable(), warnings: z.array(draftWarningSchema) })
  .meta({ id: 'DraftedRule', description: 'A drafted or refined rule with `warnings`: every part of the instructions it did not understand (empty when all of it is).' });

const versionItemFields = {
  id: z.uuid(),
  name: z.string(),
  description: z.string(),
  status: z.string(),
  source: z.string(),
  triggerType: z.string(),
  botIds: z.array(z.uuid()),
  version: z.number().int(),
  versionId: z.uuid(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
};
const versionFields = {
  versionId: z.uuid(),
  version: z.number().int(),
  createdAt: z.iso.datetime(),
  createdBy: z.uuid().nullable(),
  restoredFromVersionId: z.uuid().nullable(),
};
export const ruleVersionListItemSchema = z.object({ ...versionFields, item: z.object(versionItemFields) }).meta({ id: 'RuleVersionItem' });
export const ruleVersionSchema = z
  .object({
    ...versionFields,
    item: z.object({ ...versionItemFields, inputSchema: z.record(z.string(), z.unknown()), flowConfig: storedFlow.nullable() }),
  })
  .meta({ id: 'RuleVersion' });
export const ruleVersionsSchema = z
  .object({ ruleId: z.uuid(), currentPublishedVersionId: z.uuid().nullable(), versions: z.array(ruleVersionListItemSchema) })
  .meta({ id: 'RuleVersions' });

const jsonObject = z.record(z.string(), z.unknown());
const conditionsTraceSchema = z
  .object({
    holds: z.boolean(),
    groups: z.array(
      z.object({
        scope: z.string(),
        holds: z.boolean(),
        predicates: z.array(
          z.object({
            path: z.string(),
            dataType: z.string(),
            operator: z.string(),
            right: z.unknown(),
            left: z.unknown().describe('the resolved left value (null when the path does not resolve)'),
            found: z.boolean(),
            holds: z.boolean(),
            reason: z.enum(['missing', 'type_mismatch']).optional(),
          }),
        ),
      }),
    ),
  })
  .meta({ id: 'ConditionsTrace' });
const step = { nodeId: z.string() };
const flowStepSchema = z.discriminatedUnion('type', [
  z.object({ ...step, type: z.literal('message'), reply: z.string() }),
  z.object({
    ...step,
    type: z.literal('collect'),
    field: z.string(),
    action: z.enum(['asked', 'accepted', 'reasked', 'gave_up', 'known']),
    value: z.unknown().optional(),
    reply: z.string().optional(),
    attempts: z.number().int(),
  }),
  z.object({ ...step, type: z.literal('condition'), holds: z.boolean(), branch: z.enum(['then', 'else']), conditions: conditionsTraceSchema }),
  z.object({
    ...step,
    type: z.literal('tool'),
    toolId: z.string(),
    inputs: jsonObject,
    success: z.boolean(),
    output: jsonObject,
    error: z.string().optional(),
    dryRun: z.boolean().optional(),
  }),
  z.object({ ...step, type: z.literal('tag'), tagIds: z.array(z.string()) }),
  z.object({ ...step, type: z.literal('escalate'), reason: z.string(), reply: z.string().optional() }),
  z.object({ ...step, type: z.literal('end'), reply: z.string().optional() }),
]);
const flowStateWireSchema = z
  .object({
    status: z.enum(['waiting_for_input', 'escalated', 'ended', 'completed']),
    waitingFor: z.object({ nodeId: z.string(), field: z.string(), attempts: z.number().int() }).nullable(),
    continuation: z.array(z.string()),
    collected: jsonObject,
    tagIds: z.array(z.string()),
  })
  .meta({ id: 'FlowState' });

export const ruleTestResultSchema = z
  .object({
    ruleId: z.uuid(),
    version: z.number().int().nullable(),
    versionId: z.uuid().nullable(),
    threshold: z.number().describe('score at or above which the trigger matches'),
    trigger: z.object({ matched: z.boolean(), score: z.number(), reason: z.string() }),
    walk: z
      .object({
        status: z.enum(['waiting_for_input', 'escalated', 'ended', 'completed']),
        steps: z.array(flowStepSchema),
        replies: z.array(z.string()),
        toolCalls: z.array(
          z.object({
            nodeId: z.string(),
            toolId: z.string(),
            inputs: jsonObject,
            success: z.boolean(),
            output: jsonObject,
            toolName: z.string().optional(),
            error: z.string().optional(),
            dryRun: z.boolean().optional(),
          }),
        ),
        tagIds: z.array(z.string()),
        escalation: z.object({ reason: z.string(), message: z.string().nullable() }).nullable(),
        state: flowStateWireSchema,
      })
      .nullable()
      .describe('null for a rule without a flow'),
  })
  .meta({ id: 'RuleTestResult' });
