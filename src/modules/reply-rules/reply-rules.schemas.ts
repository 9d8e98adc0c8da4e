import { z } from 'zod';
import { documentedAs } from '../../http/schemas.js';
import { conditionGroupSchema, conditionGroupsSchema } from '../../evaluators/conditions.js';
import { evaluationContextSchema } from '../../evaluators/context.js';
import { REPLY_TYPES } from '../../evaluators/reply.js';

export const replyTypeParamsSchema = z.object({ replyType: z.enum(REPLY_TYPES) });

const example = [
  {
    scope: 'SCALAR',
    predicate: [{ left: { path: 'userAttributes.isVip', dataType: 'boolean' }, operator: '==', right: { value: true } }],
  },
];

export const putReplyRuleBodySchema = z
  .strictObject({
    conditions: conditionGroupsSchema.describe('condition groups (docs/rules.md): the slot applies when any group holds; a group when all its predicates hold'),
    isEnabled: z.boolean().optional().describe('default true when the slot is created; unchanged on update when left out'),
  })
  .meta({ examples: [{ conditions: example, isEnabled: true }] });

export const testReplyRulesBodySchema = z
  .strictObject({ context: evaluationContextSchema.describe('the evaluation context of one customer message (docs/rules.md)') })
  .meta({ examples: [{ context: { message: { content: 'Thanks, that solved it!' }, userAttributes: { isVip: true }, conversation: { channel: 'email', turn: 3 } } }] });

export const replyRuleSchema = z
  .object({
    id: z.uuid(),
    companyId: z.uuid(),
    replyType: z.enum(REPLY_TYPES),
    conditions: z.array(documentedAs(z.record(z.string(), z.unknown()), conditionGroupSchema)),
    isEnabled: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'ReplyRule' });

const predicateResultSchema = z.object({
  path: z.string(),
  dataType: z.string(),
  operator: z.string(),
  right: z.unknown(),
  left: z.unknown().describe('the resolved left value; null when the path does not resolve'),
  found: z.boolean(),
  holds: z.boolean(),
  reason: z.enum(['missing', 'type_mismatch']).optional().describe('why the predicate is false without a comparison'),
});

export const replyTestResultSchema = z
  .object({
    replyType: z.enum(REPLY_TYPES).describe('the slot that applies: NO_REPLY, then INTERNAL_COMMENT, then DIRECT_REPLY (also the default)'),
    matched: z.boolean().describe('a slot\'s conditions held; false: DIRECT_REPLY by default'),
    slots: z.array(
      z.object({
        replyType: z.enum(REPLY_TYPES),
        configured: z.boolean(),
        isEnabled: z.boolean(),
        evaluated: z.boolean().describe('configured and enabled; disabled or unset slots are not evaluated'),
        holds: z.boolean(),
        groups: z.array(z.object({ scope: z.string(), holds: z.boolean(), predicates: z.array(predicateResultSchema) })),
      }),
    ),
  })
  .meta({ id: 'ReplyRuleTestResult' });
