import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { type KnowledgeJobRow, knowledgeJobs } from '../../db/schema/index.js';
import { queryRows } from '../../db/sql.js';
import { QUEUE_SCHEMA } from '../../jobs/queue.js';

export type { KnowledgeJobRow };
export type NewKnowledgeJob = typeof knowledgeJobs.$inferInsert;

export async function insertJobs(db: Db, rows: NewKnowledgeJob[]): Promise<void> {
  if (rows.length) await db.insert(knowledgeJobs).values(rows);
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

/** Jobs left PENDING or IN_PROGRESS whose queue job is gone (its worker died past its retries). */
export async function failOrphanedJobs(db: Db, olderThan: Date, now: Date, error: string): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`UPDATE knowledge_jobs k
        SET status = 'FAILED', error = ${error}, completed_at = ${now.toISOString()}, updated_at = ${now.toISOString()}
        WHERE k.status IN ('PENDING', 'IN_PROGRESS') AND k.updated_at < ${olderThan.toISOString()}
          AND NOT EXISTS (
            SELECT 1 FROM ${sql.raw(QUEUE_SCHEMA)}.job j
            WHERE j.id = k.id AND j.state IN ('created', 'retry', 'active'))
        RETURNING k.id`,
  );
  return rows.length;
}
