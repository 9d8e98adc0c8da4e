import { z } from 'zod';
import { defineRoute } from '../../http/route.js';
import { presentReplyRule } from './reply-rules.presenter.js';
import { putReplyRuleBodySchema, replyRuleSchema, replyTestResultSchema, replyTypeParamsSchema, testReplyRulesBodySchema } from './reply-rules.schemas.js';
import { deleteReplySlot, getReplySlot, listReplySlots, putReplySlot, testReplySlots } from './reply-rules.service.js';

const tags = ['Rules'];

export function replyRuleRoutes() {
  return [
    defineRoute({
      method: 'GET',
      url: '/v2/reply-behavior/public',
      auth: 'read',
      tags,
      summary: 'List reply rules',
      description: 'The slots set in the workspace, in precedence order: NO_REPLY, INTERNAL_COMMENT, DIRECT_REPLY.',
      response: z.array(replyRuleSchema),
      handler: async ({ ctx }) => (await listReplySlots(ctx)).map(presentReplyRule),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/reply-behavior/test/public',
      auth: 'read',
      tags,
      summary: 'Test the reply rules on a context',
      description:
        'Which slot applies to one customer message\'s evaluation context, and why: for every enabled ' +
        'slot each group\'s and each predicate\'s result with the resolved left value. Precedence: ' +
        'NO_REPLY, then INTERNAL_COMMENT, then DIRECT_REPLY, which is also the default when no slot ' +
        'holds (`matched: false`). Disabled and unset slots are listed with `evaluated: false`. Changes nothing.',
      body: testReplyRulesBodySchema,
      response: replyTestResultSchema,
      handler: async ({ ctx, body }) => testReplySlots(ctx, body.context),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/reply-behavior/:replyType/public',
      auth: 'read',
      tags,
      summary: 'Get the reply rule of a slot',
      description: '404 when the slot was never set.',
      params: replyTypeParamsSchema,
      errors: [404],
      response: replyRuleSchema,
      handler: async ({ ctx, params }) => presentReplyRule(await getReplySlot(ctx, params.replyType)),
    }),
    defineRoute({
      method: 'PUT',
      url: '/v2/reply-behavior/:replyType/public',
      auth: 'write',
      tags,
      summary: 'Create or update the reply rule of a slot',
      description:
        'Upsert of the one rule per `replyType`: `conditions` replace the stored ones; `isEnabled` is ' +
        'true when the slot is created without it and unchanged when an update leaves it out. Answers ' +
        '200 with the reply rule in both cases. Reply rules affect live channel behavior. A condition ' +
        'with an unknown scope, operator or data type, a path outside the evaluation context or an ' +
        'unsafe regular expression is a 400 naming its position (`body.conditions.1.predicate.0.operator`).',
      params: replyTypeParamsSchema,
      body: putReplyRuleBodySchema,
      response: replyRuleSchema,
      handler: async ({ ctx, params, body }) => presentReplyRule(await putReplySlot(ctx, params.replyType, body)),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v2/reply-behavior/:replyType/public',
      auth: 'write',
      tags,
      summary: 'Delete the reply rule of a slot',
      description: 'The slot no longer applies; answers the deleted rule. 404 when the slot was never set.',
      params: replyTypeParamsSchema,
      errors: [404],
      response: replyRuleSchema,
      handler: async ({ ctx, params }) => presentReplyRule(await deleteReplySlot(ctx, params.replyType)),
    }),
  ];
}
