import { authorOf, inTransaction, type WorkspaceContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { ConditionGroup } from '../../evaluators/conditions.js';
import type { EvaluationContext } from '../../evaluators/context.js';
import { chooseReplyType, REPLY_TYPES, type ReplyDecision, type ReplySlot, type ReplyType } from '../../evaluators/reply.js';
import { deleteReplyRule as deleteRow, findReplyRule, listReplyRules, type ReplyRuleRow, upsertReplyRule } from './reply-rules.repository.js';

type Ctx = WorkspaceContext;

const precedence = (row: ReplyRuleRow) => REPLY_TYPES.indexOf(row.replyType as ReplyType);

/** The workspace's slots in precedence order (NO_REPLY, INTERNAL_COMMENT, DIRECT_REPLY). */
export async function listReplySlots(ctx: Pick<Ctx, 'db' | 'workspaceId'>): Promise<ReplyRuleRow[]> {
  return (await listReplyRules(ctx.db, ctx.workspaceId)).sort((a, b) => precedence(a) - precedence(b));
}

export async function getReplySlot(ctx: Ctx, replyType: ReplyType): Promise<ReplyRuleRow> {
  const row = await findReplyRule(ctx.db, ctx.workspaceId, replyType);
  if (!row) throw new AppError('not_found', `no ${replyType} reply rule is set in this workspace`);
  return row;
}

export async function putReplySlot(ctx: Ctx, replyType: ReplyType, body: { conditions: ConditionGroup[]; isEnabled?: boolean }): Promise<ReplyRuleRow> {
  return inTransaction(ctx, (tx) => upsertReplyRule(tx.db, ctx.workspaceId, { replyType, conditions: body.conditions, isEnabled: body.isEnabled }, authorOf(ctx), ctx.clock.now()));
}

export async function deleteReplySlot(ctx: Ctx, replyType: ReplyType): Promise<ReplyRuleRow> {
  const row = await inTransaction(ctx, (tx) => deleteRow(tx.db, ctx.workspaceId, replyType));
  if (!row) throw new AppError('not_found', `no ${replyType} reply rule is set in this workspace`);
  return row;
}

/** The slots as the evaluator takes them (the answer pipeline reads these once per message). */
export async function replySlotsFor(ctx: Pick<Ctx, 'db' | 'workspaceId'>): Promise<ReplySlot[]> {
  return (await listReplySlots(ctx)).map((row) => ({
    replyType: row.replyType as ReplyType,
    conditions: row.conditions as ConditionGroup[],
    isEnabled: row.isEnabled,
  }));
}

/** Which slot applies to a context, with the trace of every enabled slot. Changes nothing. */
export async function testReplySlots(ctx: Ctx, context: EvaluationContext): Promise<ReplyDecision> {
  return chooseReplyType(await replySlotsFor(ctx), context);
}
