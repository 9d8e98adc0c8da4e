import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { widgetConversations } from '../../db/schema/index.js';

export type WidgetConversationRow = typeof widgetConversations.$inferSelect;

export async function insertWidgetConversation(
  db: Db,
  workspaceId: string,
  values: Omit<typeof widgetConversations.$inferInsert, 'workspaceId' | 'startedAt'>,
): Promise<WidgetConversationRow> {
  const [row] = await db
    .insert(widgetConversations)
    .values({ ...values, workspaceId })
    .returning();
  return row!;
}

/** A widget conversation of the workspace's agent. */
export async function findWidgetConversation(db: Db, workspaceId: string, agentId: string, id: string): Promise<WidgetConversationRow | undefined> {
  const [row] = await db
    .select()
    .from(widgetConversations)
    .where(and(eq(widgetConversations.workspaceId, workspaceId), eq(widgetConversations.agentId, agentId), eq(widgetConversations.id, id)));
  return row;
}

/**
 * Records that the first message wrote the conversation row; the start's user attributes now live
 * on the conversation (deleted and purged with it), so no copy of them stays here.
 */
export async function markStarted(db: Db, workspaceId: string, id: string, at: Date): Promise<void> {
  await db
    .update(widgetConversations)
    .set({ startedAt: at, userAttributes: {} })
    .where(and(eq(widgetConversations.workspaceId, workspaceId), eq(widgetConversations.id, id), isNull(widgetConversations.startedAt)));
}

/**
 * Deletes widget conversations of every workspace that were started before `before` and never
 * written in (their user attributes with them): the housekeeping job's one query, at most `limit`.
 */
export async function unscopedPurgeUnstartedWidgetConversations(db: Db, before: Date, limit: number): Promise<number> {
  const rows = await db.execute(
    sql`DELETE FROM widget_conversations WHERE id IN (
      SELECT id FROM widget_conversations WHERE started_at IS NULL AND created_at < ${before.toISOString()} ORDER BY created_at LIMIT ${limit}
    ) RETURNING id`,
  );
  return (rows as unknown as { rows?: unknown[] }).rows?.length ?? (Array.isArray(rows) ? rows.length : 0);
}
