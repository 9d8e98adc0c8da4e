import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { widgetKeys, workspaces } from '../../db/schema/index.js';

export type WidgetKeyRow = typeof widgetKeys.$inferSelect;
export type NewWidgetKey = Omit<typeof widgetKeys.$inferInsert, 'workspaceId' | 'id'>;

export async function insertWidgetKey(db: Db, workspaceId: string, values: NewWidgetKey): Promise<WidgetKeyRow> {
  const [row] = await db
    .insert(widgetKeys)
    .values({ ...values, workspaceId })
    .returning();
  return row!;
}

/** The widget keys of an agent, oldest first. */
export async function listWidgetKeys(db: Db, workspaceId: string, agentId: string): Promise<WidgetKeyRow[]> {
  return db
    .select()
    .from(widgetKeys)
    .where(and(eq(widgetKeys.workspaceId, workspaceId), eq(widgetKeys.agentId, agentId)))
    .orderBy(asc(widgetKeys.createdAt), asc(widgetKeys.id));
}

/** Deletes a key of the workspace; answers the deleted row. */
export async function deleteWidgetKey(db: Db, workspaceId: string, id: string): Promise<WidgetKeyRow | undefined> {
  const [row] = await db
    .delete(widgetKeys)
    .where(and(eq(widgetKeys.workspaceId, workspaceId), eq(widgetKeys.id, id)))
    .returning();
  return row;
}

/**
 * Authentication's lookup of a presented widget key: the workspace is not known before it, so the
 * query is not scoped by one.
 */
export async function unscopedFindWidgetKey(db: Db, key: string): Promise<{ key: WidgetKeyRow; workspace: typeof workspaces.$inferSelect } | undefined> {
  const [row] = await db
    .select({ key: widgetKeys, workspace: workspaces })
    .from(widgetKeys)
    .innerJoin(workspaces, eq(workspaces.id, widgetKeys.workspaceId))
    .where(eq(widgetKeys.key, key));
  return row;
}

/**
 * Whether any widget key allows `origin`: a CORS preflight carries no key, so the only question it
 * can be answered by is whether some key of some workspace admits the page it comes from.
 */
export async function unscopedOriginAllowed(db: Db, origin: string): Promise<boolean> {
  const rows = await db
    .select({ id: widgetKeys.id })
    .from(widgetKeys)
    .where(sql`${widgetKeys.allowedOrigins} @> ARRAY[${origin}]::text[]`)
    .limit(1);
  return rows.length > 0;
}
