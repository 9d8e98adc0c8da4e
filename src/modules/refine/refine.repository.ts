import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { fixChanges, fixIterations, fixReviewSessions } from '../../db/schema/index.js';

export type SessionRow = typeof fixReviewSessions.$inferSelect;
export type IterationRow = typeof fixIterations.$inferSelect;
export type ChangeRow = typeof fixChanges.$inferSelect;
type NewIteration = Omit<typeof fixIterations.$inferInsert, 'workspaceId'>;
type NewChange = Omit<typeof fixChanges.$inferInsert, 'workspaceId'>;

/**
 * The reply's active session, created when there is none. Two requests at once find or make the
 * same one (the partial unique index on active sessions), and the row comes back locked.
 */
export async function lockActiveSession(
  db: Db,
  workspaceId: string,
  values: Omit<typeof fixReviewSessions.$inferInsert, 'workspaceId' | 'status'>,
): Promise<SessionRow> {
  await db
    .insert(fixReviewSessions)
    .values({ ...values, workspaceId, status: 'active' })
    .onConflictDoNothing({ target: [fixReviewSessions.workspaceId, fixReviewSessions.targetEventId], where: sql`status = 'active'` });
  const [row] = await db
    .select()
    .from(fixReviewSessions)
    .where(and(eq(fixReviewSessions.workspaceId, workspaceId), eq(fixReviewSessions.targetEventId, values.targetEventId), eq(fixReviewSessions.status, 'active')))
    .for('update');
  return row!;
}

export async function findActiveSession(db: Db, workspaceId: string, targetEventId: string): Promise<SessionRow | undefined> {
  const [row] = await db
    .select()
    .from(fixReviewSessions)
    .where(and(eq(fixReviewSessions.workspaceId, workspaceId), eq(fixReviewSessions.targetEventId, targetEventId), eq(fixReviewSessions.status, 'active')));
  return row;
}

export async function findSession(db: Db, workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<SessionRow | undefined> {
  const query = db.select().from(fixReviewSessions).where(and(eq(fixReviewSessions.workspaceId, workspaceId), eq(fixReviewSessions.id, id)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function updateSession(db: Db, workspaceId: string, id: string, changes: Partial<typeof fixReviewSessions.$inferInsert>): Promise<void> {
  await db.update(fixReviewSessions).set(changes).where(and(eq(fixReviewSessions.workspaceId, workspaceId), eq(fixReviewSessions.id, id)));
}

/** A session's iterations, newest first. */
export async function listIterations(db: Db, workspaceId: string, sessionId: string): Promise<IterationRow[]> {
  return db
    .select()
    .from(fixIterations)
    .where(and(eq(fixIterations.workspaceId, workspaceId), eq(fixIterations.sessionId, sessionId)))
    .orderBy(desc(fixIterations.iterationNumber));
}

export async function insertIteration(db: Db, workspaceId: string, values: NewIteration): Promise<IterationRow> {
  const [row] = await db.insert(fixIterations).values({ ...values, workspaceId }).returning();
  return row!;
}

export async function findIteration(db: Db, workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<IterationRow | undefined> {
  const query = db.select().from(fixIterations).where(and(eq(fixIterations.workspaceId, workspaceId), eq(fixIterations.id, id)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** Moves an iteration on, only from the statuses given (a finished one stays finished); whether it did. */
export async function moveIteration(
  db: Db,
  workspaceId: string,
  id: string,
  from: readonly string[],
  changes: Partial<typeof fixIterations.$inferInsert>,
): Promise<boolean> {
  const rows = await db
    .update(fixIterations)
    .set(changes)
    .where(and(eq(fixIterations.workspaceId, workspaceId), eq(fixIterations.id, id), inArray(fixIterations.status, [...from])))
    .returning({ id: fixIterations.id });
  return rows.length > 0;
}

export async function listChanges(db: Db, workspaceId: string, iterationIds: readonly string[]): Promise<ChangeRow[]> {
  if (iterationIds.length === 0) return [];
  return db
    .select()
    .from(fixChanges)
    .where(and(eq(fixChanges.workspaceId, workspaceId), inArray(fixChanges.iterationId, [...iterationIds])))
    .orderBy(fixChanges.createdAt, fixChanges.id);
}

export async function insertChange(db: Db, workspaceId: string, values: NewChange): Promise<ChangeRow> {
  const [row] = await db.insert(fixChanges).values({ ...values, workspaceId }).returning();
  return row!;
}

export async function deleteChanges(db: Db, workspaceId: string, iterationId: string): Promise<void> {
  await db.delete(fixChanges).where(and(eq(fixChanges.workspaceId, workspaceId), eq(fixChanges.iterationId, iterationId)));
}

/** Iterations of every workspace still running since before `olderThan` (the orphan sweep's candidates). */
export async function unscopedStaleIterations(db: Db, olderThan: Date): Promise<{ workspaceId: string; id: string; backgroundJobId: string }[]> {
  return db
    .select({ workspaceId: fixIterations.workspaceId, id: fixIterations.id, backgroundJobId: fixIterations.backgroundJobId })
    .from(fixIterations)
    .where(and(inArray(fixIterations.status, ['queued', 'generating_changes', 'replaying']), lt(fixIterations.updatedAt, olderThan)))
    .limit(100);
}

/** Fails an iteration still running and untouched since `olderThan` (the orphan sweep); whether it did. */
export async function moveIterationIfStale(db: Db, workspaceId: string, id: string, olderThan: Date, changes: Partial<typeof fixIterations.$inferInsert>): Promise<boolean> {
  const rows = await db
    .update(fixIterations)
    .set(changes)
    .where(
      and(
        eq(fixIterations.workspaceId, workspaceId),
        eq(fixIterations.id, id),
        inArray(fixIterations.status, ['queued', 'generating_changes', 'replaying']),
        lt(fixIterations.updatedAt, olderThan),
      ),
    )
    .returning({ id: fixIterations.id });
  return rows.length > 0;
}

/** The published sessions of a conversation's replies, oldest first. */
export async function listPublishedSessions(db: Db, workspaceId: string, conversationId: string): Promise<SessionRow[]> {
  return db
    .select()
    .from(fixReviewSessions)
    .where(and(eq(fixReviewSessions.workspaceId, workspaceId), eq(fixReviewSessions.conversationId, conversationId), eq(fixReviewSessions.status, 'published')))
    .orderBy(asc(fixReviewSessions.createdAt));
}
