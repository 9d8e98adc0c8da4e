import { and, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { agents, type PromptSet, promptVersions } from '../../db/schema/index.js';

export type AgentRow = typeof agents.$inferSelect;
/** An agent with the prompts of its current saved version (null while it uses the defaults). */
export type AgentWithPrompts = AgentRow & { prompts: PromptSet | null };

const withPrompts = {
  agent: agents,
  prompts: promptVersions.prompts,
};

function joined(db: Db) {
  return db
    .select(withPrompts)
    .from(agents)
    .leftJoin(
      promptVersions,
      and(
        eq(promptVersions.workspaceId, agents.workspaceId),
        eq(promptVersions.agentId, agents.id),
        eq(promptVersions.version, agents.promptVersion),
      ),
    );
}

export async function insertAgent(db: Db, workspaceId: string, name: string, by: string | null, now: Date): Promise<AgentRow> {
  const [row] = await db
    .insert(agents)
    .values({ workspaceId, name, createdBy: by, updatedBy: by, createdAt: now, updatedAt: now })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Non-deleted agents, most recently updated first, with their current prompts (one query). */
export async function listAgents(db: Db, workspaceId: string): Promise<AgentWithPrompts[]> {
  const rows = await joined(db)
    .where(and(eq(agents.workspaceId, workspaceId), isNull(agents.deletedAt)))
    .orderBy(desc(agents.updatedAt), desc(agents.id));
  return rows.map((r) => ({ ...r.agent, prompts: r.prompts }));
}

export async function findAgent(db: Db, workspaceId: string, id: string): Promise<AgentWithPrompts | undefined> {
  const [row] = await joined(db).where(
    and(eq(agents.workspaceId, workspaceId), eq(agents.id, id), isNull(agents.deletedAt)),
  );
  return row ? { ...row.agent, prompts: row.prompts } : undefined;
}

/**
 * Whether an agent with this id exists in any other workspace (across workspaces by design): prompt
 * and analytics routes answer 406 for those (the specification's rule) instead of 404. Returns a
 * boolean, never the row.
 */
export async function unscopedAgentExists(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(agents)
    .where(and(eq(agents.id, id), sql`${agents.workspaceId} <> ${workspaceId}`, isNull(agents.deletedAt)));
  return row !== undefined;
}

export async function renameAgent(
  db: Db,
  workspaceId: string,
  id: string,
  name: string,
  by: string | null,
  now: Date,
): Promise<AgentRow | undefined> {
  const [row] = await db
    .update(agents)
    .set({ name, updatedAt: now, updatedBy: by })
    .where(and(eq(agents.workspaceId, workspaceId), eq(agents.id, id), isNull(agents.deletedAt)))
    .returning();
  return row;
}

export async function softDeleteAgent(db: Db, workspaceId: string, id: string, by: string | null, now: Date): Promise<boolean> {
  const rows = await db
    .update(agents)
    .set({ deletedAt: now, updatedBy: by })
    .where(and(eq(agents.workspaceId, workspaceId), eq(agents.id, id), isNull(agents.deletedAt)))
    .returning({ id: agents.id });
  return rows.length > 0;
}

/**
 * Takes the next prompt version number and marks the agent updated. The row lock it takes
 * serialises concurrent saves of one agent, so version numbers never collide.
 */
export async function advancePromptVersion(
  db: Db,
  workspaceId: string,
  id: string,
  by: string | null,
  now: Date,
): Promise<number | undefined> {
  const [row] = await db
    .update(agents)
    .set({ promptVersion: sql`coalesce(${agents.promptVersion}, 0) + 1`, updatedAt: now, updatedBy: by })
    .where(and(eq(agents.workspaceId, workspaceId), eq(agents.id, id), isNull(agents.deletedAt)))
    .returning({ version: agents.promptVersion });
  return row?.version ?? undefined;
}

/** Locks the agent row for the rest of the transaction and returns its current prompt version. */
export async function lockAgent(db: Db, workspaceId: string, id: string): Promise<{ promptVersion: number | null } | undefined> {
  const [row] = await db
    .select({ promptVersion: agents.promptVersion })
    .from(agents)
    .where(and(eq(agents.workspaceId, workspaceId), eq(agents.id, id), isNull(agents.deletedAt)))
    .for('update');
  return row;
}

/** The agents among `ids` that exist (not deleted) in the workspace. */
export async function existingAgentIds(db: Db, workspaceId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.workspaceId, workspaceId), inArray(agents.id, [...ids]), isNull(agents.deletedAt)));
  return new Set(rows.map((r) => r.id));
}

/** Whether the workspace has a deleted agent with this id. */
export async function isDeletedAgent(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(agents)
    .where(and(eq(agents.workspaceId, workspaceId), eq(agents.id, id), isNotNull(agents.deletedAt)));
  return row !== undefined;
}
