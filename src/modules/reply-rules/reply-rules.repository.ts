import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { replyRules } from '../../db/schema/index.js';

export type ReplyRuleRow = typeof replyRules.$inferSelect;

export async function listReplyRules(db: Db, workspaceId: string): Promise<ReplyRuleRow[]> {
  return db.select().from(replyRules).where(eq(replyRules.workspaceId, workspaceId));
}

export async function findReplyRule(db: Db, workspaceId: string, replyType: string): Promise<ReplyRuleRow | undefined> {
  const [row] = await db
    .select()
    .from(replyRules)
    .where(and(eq(replyRules.workspaceId, workspaceId), eq(replyRules.replyType, replyType)));
  return row;
}

/**
 * Creates or updates the one slot of a reply type in one statement (concurrent first writes cannot
 * collide): `isEnabled` true on create unless given, unchanged on update unless given.
 */
export async function upsertReplyRule(
  db: Db,
  workspaceId: string,
  values: { replyType: string; conditions: unknown[]; isEnabled?: boolean },
  by: string | null,
  now: Date,
): Promise<ReplyRuleRow> {
  const [row] = await db
    .insert(replyRules)
    .values({
      workspaceId,
      replyType: values.replyType,
      conditions: values.conditions,
      isEnabled: values.isEnabled ?? true,
      createdBy: by,
      updatedBy: by,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [replyRules.workspaceId, replyRules.replyType],
      set: {
        conditions: sql`excluded.conditions`,
        updatedAt: now,
        updatedBy: by,
        ...(values.isEnabled === undefined ? {} : { isEnabled: values.isEnabled }),
      },
    })
    .returning();
  if (!row) throw new Error('upsert returned no row');
  return row;
}

export async function deleteReplyRule(db: Db, workspaceId: string, replyType: string): Promise<ReplyRuleRow | undefined> {
  const [row] = await db
    .delete(replyRules)
    .where(and(eq(replyRules.workspaceId, workspaceId), eq(replyRules.replyType, replyType)))
    .returning();
  return row;
}
