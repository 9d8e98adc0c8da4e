import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { dataSteps } from '../../db/schema/index.js';
import type { DataStepRow } from './tools.repository.js';

export type StepValues = Pick<DataStepRow, 'toolId' | 'name' | 'stepNumber' | 'requestMethod' | 'requestUrl' | 'requestHeaders' | 'requestBody' | 'responseMapping'>;

export async function listSteps(db: Db, workspaceId: string, toolId?: string): Promise<DataStepRow[]> {
  return db
    .select()
    .from(dataSteps)
    .where(and(eq(dataSteps.workspaceId, workspaceId), toolId ? eq(dataSteps.toolId, toolId) : undefined))
    .orderBy(asc(dataSteps.toolId), asc(dataSteps.stepNumber), asc(dataSteps.createdAt), asc(dataSteps.id));
}

export async function findStep(db: Db, workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<DataStepRow | undefined> {
  const query = db.select().from(dataSteps).where(and(eq(dataSteps.workspaceId, workspaceId), eq(dataSteps.id, id)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** How many steps a tool has, and the highest step number (0 without steps). */
export async function stepCount(db: Db, workspaceId: string, toolId: string, exceptId?: string): Promise<{ count: number; last: number }> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int`, last: sql<number>`coalesce(max(${dataSteps.stepNumber}), 0)::int` })
    .from(dataSteps)
    .where(and(eq(dataSteps.workspaceId, workspaceId), eq(dataSteps.toolId, toolId), exceptId ? sql`${dataSteps.id} <> ${exceptId}` : undefined));
  return { count: Number(row?.count ?? 0), last: Number(row?.last ?? 0) };
}

/** Inserts a step; undefined when its explicit id is taken already (by any workspace's step). */
export async function insertStep(db: Db, workspaceId: string, values: StepValues & { id?: string }, by: string | null, now: Date): Promise<DataStepRow | undefined> {
  const [row] = await db
    .insert(dataSteps)
    .values({ ...values, workspaceId, createdBy: by, updatedBy: by, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: dataSteps.id })
    .returning();
  return row;
}

export async function updateStep(db: Db, workspaceId: string, id: string, changes: Partial<StepValues>, by: string | null, now: Date): Promise<DataStepRow> {
  const [row] = await db
    .update(dataSteps)
    .set({ ...changes, updatedBy: by, updatedAt: now })
    .where(and(eq(dataSteps.workspaceId, workspaceId), eq(dataSteps.id, id)))
    .returning();
  if (!row) throw new Error('update returned no row');
  return row;
}

export async function deleteStep(db: Db, workspaceId: string, id: string): Promise<void> {
  await db.delete(dataSteps).where(and(eq(dataSteps.workspaceId, workspaceId), eq(dataSteps.id, id)));
}

/** Every step of every workspace that holds a sealed value (key rotation re-seals them all). */
export async function unscopedStepsWithSecrets(db: Db): Promise<DataStepRow[]> {
  return db
    .select()
    .from(dataSteps)
    .where(sql`${dataSteps.requestHeaders}::text like '%"sealed"%' or coalesce(${dataSteps.requestBody}::text, '') like '%"sealed"%'`)
    .orderBy(asc(dataSteps.id))
    .for('update');
}
