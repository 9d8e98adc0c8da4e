import { and, eq, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { type KnowledgeJobRow, knowledgeJobs } from '../../db/schema/index.js';

export type { KnowledgeJobRow };
export type NewKnowledgeJob = typeof knowledgeJobs.$inferInsert;

export async function insertJobs(db: Db, workspaceId: string, rows: Omit<NewKnowledgeJob, 'workspaceId'>[]): Promise<void> {
  if (rows.length) await db.insert(knowledgeJobs).values(rows.map((r) => ({ ...r, workspaceId })));
}

export async function findJobs(db: Db, workspaceId: string, ids: string[]): Promise<KnowledgeJobRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(knowledgeJobs)
    .where(and(eq(knowledgeJobs.workspaceId, workspaceId), inArray(knowledgeJobs.id, ids)));
}

/**
 * Takes a job for processing: PENDING (or IN_PROGRESS, when a stopped worker's job comes back)
 * becomes IN_PROGRESS. Undefined when the job is finished or gone.
 */
export async function claimJob(db: Db, workspaceId: string, id: string, now: Date): Promise<KnowledgeJobRow | undefined> {
  const [row] = await db
    .update(knowledgeJobs)
    .set({ status: 'IN_PROGRESS', startedAt: now, updatedAt: now })
    .where(and(eq(knowledgeJobs.workspaceId, workspaceId), eq(knowledgeJobs.id, id), inArray(knowledgeJobs.status, ['PENDING', 'IN_PROGRESS'])))
    .returning();
  return row;
}

/** Ends a job that is still running: its result, or its error. */
export async function finishJob(
  db: Db,
  workspaceId: string,
  id: string,
  result: Pick<NewKnowledgeJob, 'status' | 'error' | 'hcArticleId' | 'operation' | 'reason' | 'inputTokens' | 'outputTokens'>,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(knowledgeJobs)
    .set({ ...result, completedAt: now, updatedAt: now })
    .where(and(eq(knowledgeJobs.workspaceId, workspaceId), eq(knowledgeJobs.id, id), eq(knowledgeJobs.status, 'IN_PROGRESS')))
    .returning({ id: knowledgeJobs.id });
  return rows.length > 0;
}

/** The most records one sweep looks at (the next minute's sweep takes the rest). */
const ORPHAN_BATCH = 500;

/**
 * Jobs of every workspace PENDING or IN_PROGRESS since before `olderThan`: candidates for the orphan
 * sweep, which asks the queue whether they still live. Across workspaces by design (a process-wide sweep).
 */
export async function unscopedStaleJobs(db: Db, olderThan: Date): Promise<{ id: string; workspaceId: string }[]> {
  return db
    .select({ id: knowledgeJobs.id, workspaceId: knowledgeJobs.workspaceId })
    .from(knowledgeJobs)
    .where(and(inArray(knowledgeJobs.status, ['PENDING', 'IN_PROGRESS']), lt(knowledgeJobs.updatedAt, olderThan)))
    .limit(ORPHAN_BATCH);
}

/** Marks a job FAILED with `error` when it is still unfinished and untouched since before `olderThan`. */
export async function failStaleJob(db: Db, workspaceId: string, id: string, olderThan: Date, now: Date, error: string): Promise<boolean> {
  const rows = await db
    .update(knowledgeJobs)
    .set({ status: 'FAILED', error, completedAt: now, updatedAt: now })
    .where(
      and(
        eq(knowledgeJobs.workspaceId, workspaceId),
        eq(knowledgeJobs.id, id),
        inArray(knowledgeJobs.status, ['PENDING', 'IN_PROGRESS']),
        lt(knowledgeJobs.updatedAt, olderThan),
      ),
    )
    .returning({ id: knowledgeJobs.id });
  return rows.length > 0;
}
