import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { agents, dataSteps, toolAgents, tools } from '../../db/schema/index.js';

export type ToolRow = typeof tools.$inferSelect;
export type ToolWithAgents = ToolRow & { botIds: string[] };
export type DataStepRow = typeof dataSteps.$inferSelect;
type ToolValues = Pick<ToolRow, 'name' | 'description' | 'alwaysGet' | 'source'>;

async function withAgents(db: Db, workspaceId: string, rows: ToolRow[]): Promise<ToolWithAgents[]> {
  if (rows.length === 0) return [];
  const links = await db
    .select({ toolId: toolAgents.toolId, agentId: toolAgents.agentId })
    .from(toolAgents)
    .innerJoin(agents, and(eq(agents.workspaceId, toolAgents.workspaceId), eq(agents.id, toolAgents.agentId), isNull(agents.deletedAt)))
    .where(and(eq(toolAgents.workspaceId, workspaceId), inArray(toolAgents.toolId, rows.map((r) => r.id))))
    .orderBy(asc(toolAgents.agentId));
  return rows.map((row) => ({ ...row, botIds: links.filter((l) => l.toolId === row.id).map((l) => l.agentId) }));
}

/** Actions and attributes in creation order, optionally of one kind and one agent. */
export async function listTools(db: Db, workspaceId: string, filter: { alwaysGet?: boolean; agentId?: string; ids?: readonly string[] } = {}): Promise<ToolWithAgents[]> {
  const base = db.select({ tool: tools }).from(tools);
  const joined = filter.agentId
    ? base.innerJoin(toolAgents, and(eq(toolAgents.workspaceId, tools.workspaceId), eq(toolAgents.toolId, tools.id), eq(toolAgents.agentId, filter.agentId)))
    : base;
  const rows = await joined
    .where(
      and(
        eq(tools.workspaceId, workspaceId),
        filter.alwaysGet === undefined ? undefined : eq(tools.alwaysGet, filter.alwaysGet),
        filter.ids ? inArray(tools.id, [...filter.ids]) : undefined,
      ),
    )
    .orderBy(asc(tools.createdAt), asc(tools.id));
  return withAgents(db, workspaceId, rows.map((r) => r.tool));
}

export async function findTool(db: Db, workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<ToolWithAgents | undefined> {
  const query = db.select().from(tools).where(and(eq(tools.workspaceId, workspaceId), eq(tools.id, id)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row ? (await withAgents(db, workspaceId, [row]))[0] : undefined;
}

export async function insertTool(db: Db, workspaceId: string, values: ToolValues, by: string | null, now: Date): Promise<ToolRow> {
  const [row] = await db
    .insert(tools)
    .values({ ...values, workspaceId, createdBy: by, updatedBy: by, createdAt: now, updatedAt: now })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function updateTool(
  db: Db,
  workspaceId: string,
  id: string,
  changes: Partial<Pick<ToolRow, 'name' | 'description' | 'inputFields' | 'outputFields'>>,
  by: string | null,
  now: Date,
): Promise<void> {
  await db
    .update(tools)
    .set({ ...changes, updatedBy: by, updatedAt: now })
    .where(and(eq(tools.workspaceId, workspaceId), eq(tools.id, id)));
}

/** Deletes a tool; its steps and assignments go with it (foreign keys cascade). */
export async function deleteTool(db: Db, workspaceId: string, id: string): Promise<void> {
  await db.delete(tools).where(and(eq(tools.workspaceId, workspaceId), eq(tools.id, id)));
}

export async function addToolAgents(db: Db, workspaceId: string, toolId: string, agentIds: readonly string[]): Promise<void> {
  if (agentIds.length === 0) return;
  await db
    .insert(toolAgents)
    .values(agentIds.map((agentId) => ({ workspaceId, toolId, agentId })))
    .onConflictDoNothing();
}

export async function removeToolAgents(db: Db, workspaceId: string, toolId: string, agentIds: readonly string[]): Promise<void> {
  if (agentIds.length === 0) return;
  await db
    .delete(toolAgents)
    .where(and(eq(toolAgents.workspaceId, workspaceId), eq(toolAgents.toolId, toolId), inArray(toolAgents.agentId, [...agentIds])));
}

/** A tool's steps in the order they run. */
export async function listToolSteps(db: Db, workspaceId: string, toolId: string): Promise<DataStepRow[]> {
  return db
    .select()
    .from(dataSteps)
    .where(and(eq(dataSteps.workspaceId, workspaceId), eq(dataSteps.toolId, toolId)))
    .orderBy(asc(dataSteps.stepNumber), asc(dataSteps.createdAt), asc(dataSteps.id));
}
