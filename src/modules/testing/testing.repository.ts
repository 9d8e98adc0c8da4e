import { and, asc, count, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { pastCursor } from '../../db/sql.js';
import { testCases, testRunResults, testRuns, testSchedules } from '../../db/schema/index.js';

export type CaseRow = typeof testCases.$inferSelect;
export type RunRow = typeof testRuns.$inferSelect;
export type ResultRow = typeof testRunResults.$inferSelect;
export type ScheduleRow = typeof testSchedules.$inferSelect;
export type NewCase = Omit<typeof testCases.$inferInsert, 'workspaceId'>;
export type NewRun = Omit<typeof testRuns.$inferInsert, 'workspaceId'>;

const caseOf = (workspaceId: string, id: string) => and(eq(testCases.workspaceId, workspaceId), eq(testCases.id, id));
const runOf = (workspaceId: string, id: string) => and(eq(testRuns.workspaceId, workspaceId), eq(testRuns.id, id));
const agentCases = (workspaceId: string, agentId: string) => and(eq(testCases.workspaceId, workspaceId), eq(testCases.agentId, agentId));

interface Page {
  limit: number;
  cursor?: { id: string; createdAt: Date } | undefined;
  direction: 'next' | 'previous';
}

/** Newest first; `previous` walks back towards newer rows (src/http/keyset.ts). */
function keyset<T extends typeof testCases | typeof testRuns>(table: T, page: Page) {
  const at = page.cursor;
  if (!at) return undefined;
  return pastCursor(table.createdAt, table.id, at, page.direction === 'previous' ? 'after' : 'before');
}

function order<T extends typeof testCases | typeof testRuns>(table: T, page: Page) {
  return page.direction === 'previous' ? [asc(table.createdAt), asc(table.id)] : [desc(table.createdAt), desc(table.id)];
}

function paged<R>(rows: R[], page: Page): { rows: R[]; hasMore: boolean } {
  const hasMore = rows.length > page.limit;
  const kept = rows.slice(0, page.limit);
  return { rows: page.direction === 'previous' ? kept.reverse() : kept, hasMore };
}

export async function insertCase(db: Db, workspaceId: string, values: NewCase): Promise<CaseRow> {
  const [row] = await db.insert(testCases).values({ ...values, workspaceId }).returning();
  return row!;
}

export async function findCase(db: Db, workspaceId: string, id: string): Promise<CaseRow | undefined> {
  const [row] = await db.select().from(testCases).where(caseOf(workspaceId, id));
  return row;
}

export async function updateCase(db: Db, workspaceId: string, id: string, changes: Partial<NewCase>): Promise<CaseRow | undefined> {
  const [row] = await db.update(testCases).set(changes).where(caseOf(workspaceId, id)).returning();
  return row;
}

export async function deleteCase(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db.delete(testCases).where(caseOf(workspaceId, id)).returning({ id: testCases.id });
  return rows.length > 0;
}

export async function countCases(db: Db, workspaceId: string, agentId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(testCases).where(agentCases(workspaceId, agentId));
  return row?.n ?? 0;
}

export async function listCasesPage(db: Db, workspaceId: string, agentId: string, page: Page & { tag?: string | undefined }): Promise<{ rows: CaseRow[]; hasMore: boolean }> {
  const rows = await db
    .select()
    .from(testCases)
    .where(
      and(agentCases(workspaceId, agentId), page.tag ? sql`${page.tag} = any(${testCases.tags})` : undefined, keyset(testCases, page)),
    )
    .orderBy(...order(testCases, page))
    .limit(page.limit + 1);
  return paged(rows, page);
}

/** The agent's cases picked by ids or tags (any of them), oldest first; all of them when neither is given. */
export async function selectCases(db: Db, workspaceId: string, agentId: string, pick: { caseIds?: readonly string[] | undefined; tags?: readonly string[] | undefined }): Promise<CaseRow[]> {
  return db
    .select()
    .from(testCases)
    .where(
      and(
        agentCases(workspaceId, agentId),
        pick.caseIds ? inArray(testCases.id, [...pick.caseIds]) : undefined,
        pick.tags?.length ? sql`${testCases.tags} && ${sql.param([...pick.tags])}::text[]` : undefined,
      ),
    )
    .orderBy(asc(testCases.createdAt), asc(testCases.id));
}

export async function casesByIds(db: Db, workspaceId: string, ids: readonly string[]): Promise<CaseRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(testCases)
    .where(and(eq(testCases.workspaceId, workspaceId), inArray(testCases.id, [...ids])));
}

export async function insertRun(db: Db, workspaceId: string, values: NewRun): Promise<RunRow> {
  const [row] = await db.insert(testRuns).values({ ...values, workspaceId }).returning();
  return row!;
}

export async function findRun(db: Db, workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<RunRow | undefined> {
  const query = db.select().from(testRuns).where(runOf(workspaceId, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** Moves a run on when it is in one of `from`; false when it was not (another attempt moved it). */
export async function moveRun(db: Db, workspaceId: string, id: string, from: readonly string[], changes: Partial<NewRun>): Promise<boolean> {
  const rows = await db
    .update(testRuns)
    .set(changes)
    .where(and(runOf(workspaceId, id), inArray(testRuns.state, [...from])))
    .returning({ id: testRuns.id });
  return rows.length > 0;
}

export async function listRunsPage(db: Db, workspaceId: string, agentId: string, page: Page & { trigger?: string | undefined }): Promise<{ rows: RunRow[]; hasMore: boolean }> {
  const rows = await db
    .select()
    .from(testRuns)
    .where(and(eq(testRuns.workspaceId, workspaceId), eq(testRuns.agentId, agentId), page.trigger ? eq(testRuns.trigger, page.trigger) : undefined, keyset(testRuns, page)))
    .orderBy(...order(testRuns, page))
    .limit(page.limit + 1);
  return paged(rows, page);
}

/** The agent's latest completed run on what is live (no drafts) other than `exceptId`, made before `before`. */
export async function findPreviousLiveRun(db: Db, workspaceId: string, agentId: string, exceptId: string, before: Date): Promise<RunRow | undefined> {
  const [row] = await db
    .select()
    .from(testRuns)
    .where(
      and(
        eq(testRuns.workspaceId, workspaceId),
        eq(testRuns.agentId, agentId),
        eq(testRuns.state, 'completed'),
        isNull(testRuns.overlay),
        sql`${testRuns.id} <> ${exceptId}`,
        lt(testRuns.createdAt, before),
      ),
    )
    .orderBy(desc(testRuns.createdAt), desc(testRuns.id))
    .limit(1);
  return row;
}

export async function insertResult(db: Db, workspaceId: string, values: Omit<typeof testRunResults.$inferInsert, 'workspaceId'>): Promise<void> {
  await db
    .insert(testRunResults)
    .values({ ...values, workspaceId })
    .onConflictDoNothing();
}

export async function listResults(db: Db, workspaceId: string, runIds: readonly string[]): Promise<ResultRow[]> {
  if (runIds.length === 0) return [];
  return db
    .select()
    .from(testRunResults)
    .where(and(eq(testRunResults.workspaceId, workspaceId), inArray(testRunResults.runId, [...runIds])))
    .orderBy(asc(testRunResults.caseId), asc(testRunResults.attempt));
}

/** Results so far per run: `[runId, done]`. */
export async function countResults(db: Db, workspaceId: string, runIds: readonly string[]): Promise<Map<string, number>> {
  if (runIds.length === 0) return new Map();
  const rows = await db
    .select({ runId: testRunResults.runId, n: count() })
    .from(testRunResults)
    .where(and(eq(testRunResults.workspaceId, workspaceId), inArray(testRunResults.runId, [...runIds])))
    .groupBy(testRunResults.runId);
  return new Map(rows.map((r) => [r.runId, r.n]));
}

/** Runs of every workspace still queued or running since before `olderThan` (the orphan sweep; across workspaces by design). */
export async function unscopedStaleRuns(db: Db, olderThan: Date): Promise<RunRow[]> {
  return db
    .select()
    .from(testRuns)
    .where(and(inArray(testRuns.state, ['queued', 'running']), lt(testRuns.updatedAt, olderThan)))
    .limit(500);
}

export async function findSchedule(db: Db, workspaceId: string, agentId: string): Promise<ScheduleRow | undefined> {
  const [row] = await db
    .select()
    .from(testSchedules)
    .where(and(eq(testSchedules.workspaceId, workspaceId), eq(testSchedules.agentId, agentId)));
  return row;
}

export async function upsertSchedule(db: Db, workspaceId: string, values: Omit<typeof testSchedules.$inferInsert, 'workspaceId'>): Promise<ScheduleRow> {
  const [row] = await db
    .insert(testSchedules)
    .values({ ...values, workspaceId })
    .onConflictDoUpdate({ target: [testSchedules.workspaceId, testSchedules.agentId], set: { cron: values.cron, timezone: values.timezone, k: values.k, tags: values.tags, updatedAt: values.updatedAt } })
    .returning();
  return row!;
}

export async function deleteSchedule(db: Db, workspaceId: string, agentId: string): Promise<boolean> {
  const rows = await db
    .delete(testSchedules)
    .where(and(eq(testSchedules.workspaceId, workspaceId), eq(testSchedules.agentId, agentId)))
    .returning({ agentId: testSchedules.agentId });
  return rows.length > 0;
}
