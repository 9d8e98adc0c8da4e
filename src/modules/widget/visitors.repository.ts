import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { widgetConversations } from '../../db/schema/index.js';

export type WidgetConversationRow = typeof widgetConversations.$inferSelect;

export async function insertWidgetConversation(
  db: Db,
  workspaceId: string,
  values: Omit<typeof widgetConversations.$inferInsert, 'workspaceId' | 'createdAt' | 'startedAt'>,
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

/** Records that the first message wrote the conversation row. */
export async function markStarted(db: Db, workspaceId: string, id: string, at: Date): Promise<void> {
  await db
    .update(widgetConversations)
    .set({ startedAt: at })
    .where(and(eq(widgetConversations.workspaceId, workspaceId), eq(widgetConversations.id, id), isNull(widgetConversations.startedAt)));
}
