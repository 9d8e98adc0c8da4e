import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { workspaces } from '../../db/schema/index.js';

export type WorkspaceRow = typeof workspaces.$inferSelect;

/** Creates a workspace (a new tenant: there is no workspace to scope by yet). */
export async function unscopedInsertWorkspace(db: Db, name: string): Promise<WorkspaceRow> {
  const [row] = await db.insert(workspaces).values({ name }).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** All workspaces, oldest first. Operator use only. */
export async function unscopedListWorkspaces(db: Db): Promise<WorkspaceRow[]> {
  return db.select().from(workspaces).orderBy(asc(workspaces.createdAt), asc(workspaces.id));
}

export async function findWorkspace(db: Db, workspaceId: string): Promise<WorkspaceRow | undefined> {
  const [row] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  return row;
}

/** Sets the given fields of the workspace (its name, its sources' default re-sync). */
export async function updateWorkspace(
  db: Db,
  workspaceId: string,
  values: { name?: string; sourceSyncInterval?: string },
  now: Date,
): Promise<WorkspaceRow | undefined> {
  const [row] = await db
    .update(workspaces)
    .set({ ...values, updatedAt: now })
    .where(eq(workspaces.id, workspaceId))
    .returning();
  return row;
}

/** How many workspaces exist (the first start creates one when none does). */
export async function unscopedCountWorkspaces(db: Db): Promise<number> {
  return db.$count(workspaces);
}
