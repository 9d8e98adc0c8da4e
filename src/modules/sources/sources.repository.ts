import { domainToASCII } from 'node:url';
import { and, asc, desc, eq, ilike, inArray, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { containsPattern } from '../../db/sql.js';
import { type NewSource, type SourceRow, sourceFiles, sourceJobs, sources } from '../../db/schema/index.js';
import type { JobStatus, SourceListQuery } from './sources.schemas.js';

export type { NewSource, SourceRow };

/** The most records one sweep looks at (the next minute's sweep takes the rest). */
const ORPHAN_BATCH = 500;

export async function findSource(db: Db, workspaceId: string, id: string): Promise<SourceRow | undefined> {
  const [row] = await db.select().from(sources).where(and(eq(sources.workspaceId, workspaceId), eq(sources.id, id)));
  return row;
}

/** The sources with these ids in the workspace, optionally locked until the transaction ends. */
export async function findSourcesByIds(db: Db, workspaceId: string, ids: string[], options: { lock?: boolean } = {}): Promise<SourceRow[]> {
  if (ids.length === 0) return [];
  const query = db
    .select()
    .from(sources)
    .where(and(eq(sources.workspaceId, workspaceId), inArray(sources.id, ids)))
    .orderBy(asc(sources.id));
  return options.lock ? query.for('update') : query;
}

/** Which of `ids` are sources of the workspace (ids only: no content is read). */
export async function existingSourceIds(db: Db, workspaceId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: sources.id })
    .from(sources)
    .where(and(eq(sources.workspaceId, workspaceId), inArray(sources.id, ids)));
  return new Set(rows.map((r) => r.id));
}

/** Sources of one kind by external id (a web source's normalised URL), locked. */
export async function findByExternalIds(db: Db, workspaceId: string, source: string, externalIds: string[]): Promise<SourceRow[]> {
  if (externalIds.length === 0) return [];
  return db
    .select()
    .from(sources)
    .where(and(eq(sources.workspaceId, workspaceId), eq(sources.source, source), inArray(sources.externalId, externalIds)))
    .orderBy(asc(sources.id))
    .for('update');
}

/**
 * Inserts new sources; one that a concurrent request inserted first (same kind and external id) is
 * skipped rather than duplicated, and the caller reads it back.
 */
export async function insertSources(db: Db, workspaceId: string, values: Omit<NewSource, 'workspaceId'>[]): Promise<SourceRow[]> {
  const rows: SourceRow[] = [];
  for (let i = 0; i < values.length; i += 500) {
    rows.push(
      ...(await db
        .insert(sources)
        .values(values.slice(i, i + 500).map((v) => ({ ...v, workspaceId })))
        .onConflictDoNothing({ target: [sources.workspaceId, sources.source, sources.externalId] })
        .returning()),
    );
  }
  return rows;
}

export interface QueuedJob {
  jobId: string;
  sourceId: string;
  /** `sync`: a refresh the source's schedule queued. */
  kind: 'add' | 'refresh' | 'sync';
}

/** Points each source at its new job (PENDING) and records the job in the history. */
export async function markQueued(
  db: Db,
  workspaceId: string,
  jobs: QueuedJob[],
  now: Date,
  options: { english?: boolean; baser?: boolean } = {},
): Promise<void> {
  for (let i = 0; i < jobs.length; i += 500) {
    const batch = jobs.slice(i, i + 500);
    await db.insert(sourceJobs).values(
      batch.map((job) => ({ id: job.jobId, workspaceId, sourceId: job.sourceId, kind: job.kind, status: 'PENDING', createdAt: now })),
    );
    const pairs = sql.join(
      batch.map((job) => sql`(${job.sourceId}::uuid, ${job.jobId}::uuid)`),
      sql`, `,
    );
    const flags = sql.join(
      [
        ...(options.english === undefined ? [] : [sql`english = ${options.english}`]),
        ...(options.baser === undefined ? [] : [sql`baser = ${options.baser}`]),
        sql`linked_job_id = q.job_id`,
        sql`linked_job_status = 'PENDING'`,
        sql`updated_at = ${now.toISOString()}`,
      ],
      sql`, `,
    );
    await db.execute(
      sql`UPDATE sources AS s SET ${flags} FROM (VALUES ${pairs}) AS q(source_id, job_id)
          WHERE s.workspace_id = ${workspaceId} AND s.id = q.source_id`,
    );
  }
}

/** One page of the listing; `limit + 1` rows are read to know whether more follow. */
export async function listSources(db: Db, workspaceId: string, query: SourceListQuery): Promise<{ rows: SourceRow[]; hasMore: boolean }> {
  const where: SQL[] = [eq(sources.workspaceId, workspaceId)];
  if (query.source) where.push(eq(sources.source, query.source));
  if (query.english !== undefined) where.push(eq(sources.english, query.english));
  const success = new Set(query.success ?? []);
  if (success.size === 1) where.push(eq(sources.success, success.has(true)));
  if (query.id) where.push(eq(sources.id, query.id));
  if (query.title) where.push(ilike(sources.title, containsPattern(query.title)));
  if (query.url) where.push(ilike(sources.originalUrl, containsPattern(query.url)));
  // Host names are stored as the URL parser spells them (an IDN in punycode).
  if (query.domain) where.push(eq(sources.domain, domainToASCII(query.domain) || query.domain.toLowerCase()));
  if (query.articleId) where.push(eq(sources.linkedKnowledgeId, query.articleId));
  const linked = new Set(query.linkedKnowledge ?? []);
  if (linked.size === 1) where.push(linked.has(true) ? isNotNull(sources.linkedKnowledgeId) : isNull(sources.linkedKnowledgeId));
  if (query.linkedOperation) where.push(eq(sources.linkedOperation, query.linkedOperation));
  if (query.changed === true) where.push(eq(sources.changed, true), isNotNull(sources.linkedKnowledgeId));
  if (query.changed === false) where.push(eq(sources.changed, false));

  // The scan runs downwards for (desc, next) and (asc, previous), upwards otherwise; a previous
  // page is read backwards from the cursor and turned around.
  const downwards = (query.order === 'desc') === (query.direction === 'next');
  if (query.cursor) {
    // The cursor record's position: where it is now, or where the client saw it (its externalId
    // never changes, so its updatedAt then pins the old position).
    const updatedAt = query.cursorUpdatedAt ? sql`${query.cursorUpdatedAt}::timestamptz` : sql`c.updated_at`;
    const position = sql`(SELECT ${updatedAt}, c.external_id, c.id FROM sources c WHERE c.workspace_id = ${workspaceId} AND c.id = ${query.cursor})`;
    const tuple = sql`(${sources.updatedAt}, ${sources.externalId}, ${sources.id})`;
    where.push(downwards ? sql`${tuple} < ${position}` : sql`${tuple} > ${position}`);
  }
  const direction = downwards ? desc : asc;
  const rows = await db
    .select()
    .from(sources)
    .where(and(...where))
    .orderBy(direction(sources.updatedAt), direction(sources.externalId), direction(sources.id))
    .limit(query.limit + 1);
  const hasMore = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  if (query.direction === 'previous') page.reverse();
  return { rows: page, hasMore };
}

export async function deleteSources(db: Db, workspaceId: string, ids: string[]): Promise<SourceRow[]> {
  if (ids.length === 0) return [];
  return db.delete(sources).where(and(eq(sources.workspaceId, workspaceId), inArray(sources.id, ids))).returning();
}

export async function insertFile(
  db: Db,
  workspaceId: string,
  file: { sourceId: string; filename: string; mimeType: string; sha256: string; data: Uint8Array; createdAt: Date },
): Promise<void> {
  await db.insert(sourceFiles).values({ ...file, workspaceId, size: file.data.byteLength });
}

export async function findFile(db: Db, workspaceId: string, sourceId: string) {
  const [row] = await db
    .select()
    .from(sourceFiles)
    .where(and(eq(sourceFiles.workspaceId, workspaceId), eq(sourceFiles.sourceId, sourceId)));
  return row;
}

/** The source, while `jobId` is its latest job and unfinished. */
function whileJobRuns(workspaceId: string, sourceId: string, jobId: string): SQL | undefined {
  return and(
    eq(sources.workspaceId, workspaceId),
    eq(sources.id, sourceId),
    eq(sources.linkedJobId, jobId),
    inArray(sources.linkedJobStatus, ['PENDING', 'IN_PROGRESS']),
  );
}

/**
 * Moves a source to IN_PROGRESS for this job, when the job is still the source's latest and not
 * finished (a retry after a lost worker finds it IN_PROGRESS). Undefined: superseded, deleted or done.
 */
export async function claimJob(db: Db, workspaceId: string, sourceId: string, jobId: string, now: Date): Promise<SourceRow | undefined> {
  const [row] = await db
    .update(sources)
    .set({ linkedJobStatus: 'IN_PROGRESS', updatedAt: now })
    .where(whileJobRuns(workspaceId, sourceId, jobId))
    .returning();
  if (row) {
    await db
      .update(sourceJobs)
      .set({ status: 'IN_PROGRESS', startedAt: sql`COALESCE(${sourceJobs.startedAt}, ${now.toISOString()}::timestamptz)`, attempts: sql`${sourceJobs.attempts} + 1` })
      .where(and(eq(sourceJobs.workspaceId, workspaceId), eq(sourceJobs.id, jobId)));
  }
  return row;
}

/**
 * Writes a job's result onto its source in one statement, only while the job is still the source's
 * latest: a source deleted or re-queued meanwhile is left alone (nothing half-written).
 */
export async function finishJob(
  db: Db,
  workspaceId: string,
  sourceId: string,
  jobId: string,
  status: Extract<JobStatus, 'COMPLETED' | 'FAILED'>,
  changes: Partial<NewSource>,
  now: Date,
): Promise<SourceRow | undefined> {
  const [row] = await db
    .update(sources)
    .set({ ...changes, linkedJobStatus: status, syncFailures: status === 'FAILED' ? sql`${sources.syncFailures} + 1` : 0, updatedAt: now })
    .where(
      and(
        eq(sources.workspaceId, workspaceId),
        eq(sources.id, sourceId),
        eq(sources.linkedJobId, jobId),
        eq(sources.linkedJobStatus, 'IN_PROGRESS'),
      ),
    )
    .returning();
  await db
    .update(sourceJobs)
    .set({ status, error: changes.error ?? '', completedAt: now })
    .where(and(eq(sourceJobs.workspaceId, workspaceId), eq(sourceJobs.id, jobId)));
  return row;
}

/**
 * Sources of every workspace whose job has been PENDING or IN_PROGRESS since before `olderThan`:
 * candidates for the orphan sweep, which asks the queue whether their jobs still live.
 * Across workspaces by design (a process-wide sweep).
 */
export async function unscopedStaleJobs(db: Db, olderThan: Date): Promise<{ id: string; workspaceId: string; jobId: string }[]> {
  const rows = await db
    .select({ id: sources.id, workspaceId: sources.workspaceId, jobId: sources.linkedJobId })
    .from(sources)
    .where(and(inArray(sources.linkedJobStatus, ['PENDING', 'IN_PROGRESS']), lt(sources.updatedAt, olderThan)))
    .limit(ORPHAN_BATCH);
  return rows.filter((r): r is { id: string; workspaceId: string; jobId: string } => r.jobId !== null);
}

/**
 * Marks a source's job FAILED with `error`, when that job is still its latest, unfinished, and
 * untouched since before `olderThan` (a job that made progress meanwhile is left alone).
 */
export async function failStaleJob(
  db: Db,
  workspaceId: string,
  sourceId: string,
  jobId: string,
  olderThan: Date,
  now: Date,
  error: string,
): Promise<boolean> {
  const rows = await db
    .update(sources)
    .set({ linkedJobStatus: 'FAILED', success: false, error, syncFailures: sql`${sources.syncFailures} + 1`, updatedAt: now })
    .where(and(whileJobRuns(workspaceId, sourceId, jobId), lt(sources.updatedAt, olderThan)))
    .returning({ id: sources.id });
  if (rows.length === 0) return false;
  await db
    .update(sourceJobs)
    .set({ status: 'FAILED', error, completedAt: now })
    .where(and(eq(sourceJobs.workspaceId, workspaceId), eq(sourceJobs.id, jobId)));
  return true;
}

/** Sources linked to any of these (deleted) articles lose the link and the changed flag. */
export async function unlinkKnowledge(db: Db, workspaceId: string, articleIds: string[], now: Date): Promise<void> {
  if (articleIds.length === 0) return;
  await db
    .update(sources)
    .set({ linkedKnowledgeId: null, linkedOperation: null, linkedReason: null, changed: false, updatedAt: now })
    .where(and(eq(sources.workspaceId, workspaceId), inArray(sources.linkedKnowledgeId, articleIds)));
}

/** Sources linked to one article are linked to another instead (a published draft's live article). */
export async function relinkKnowledge(db: Db, workspaceId: string, fromId: string, toId: string, now: Date): Promise<void> {
  await db
    .update(sources)
    .set({ linkedKnowledgeId: toId, updatedAt: now })
    .where(and(eq(sources.workspaceId, workspaceId), eq(sources.linkedKnowledgeId, fromId)));
}

/**
 * Records what a knowledge job made of a source: the article, the operation and why. The source's
 * knowledge is now in step with its content, so it is no longer flagged changed.
 */
export async function linkKnowledge(
  db: Db,
  workspaceId: string,
  sourceId: string,
  link: { linkedKnowledgeId: string | null; linkedOperation: string; linkedReason: string },
  now: Date,
): Promise<void> {
  await db
    .update(sources)
    .set({ ...link, changed: false, updatedAt: now })
    .where(and(eq(sources.workspaceId, workspaceId), eq(sources.id, sourceId)));
}

/** The original URL of one source linked to each article (the oldest), by article id. */
export async function sourceUrlsByArticle(db: Db, workspaceId: string, articleIds: readonly string[]): Promise<Map<string, string>> {
  if (articleIds.length === 0) return new Map();
  const rows = await db
    .select({ articleId: sources.linkedKnowledgeId, url: sources.originalUrl })
    .from(sources)
    .where(and(eq(sources.workspaceId, workspaceId), inArray(sources.linkedKnowledgeId, [...articleIds])))
    .orderBy(asc(sources.createdAt), asc(sources.id));
  const out = new Map<string, string>();
  for (const r of rows) if (r.articleId && !out.has(r.articleId)) out.set(r.articleId, r.url);
  return out;
}

/** Which of these external ids of a provider were imported successfully (discovery leaves them out). */
export async function importedExternalIds(db: Db, workspaceId: string, source: string, externalIds: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < externalIds.length; i += 1000) {
    const rows = await db
      .select({ externalId: sources.externalId })
      .from(sources)
      .where(
        and(eq(sources.workspaceId, workspaceId), eq(sources.source, source), eq(sources.success, true), inArray(sources.externalId, externalIds.slice(i, i + 1000))),
      );
    for (const row of rows) out.add(row.externalId);
  }
  return out;
}

/** Sets the registered fields of sources (POST resources/{provider}), 500 rows per statement. */
export async function updateRegistered(
  db: Db,
  workspaceId: string,
  rows: { id: string; values: Pick<NewSource, 'title' | 'originalUrl' | 'mimeType' | 'type' | 'storageUrl'> }[],
  now: Date,
): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    const values = sql.join(
      rows.slice(i, i + 500).map(({ id, values: v }) => sql`(${id}::uuid, ${v.title}, ${v.originalUrl}, ${v.mimeType}, ${v.type ?? null}::text, ${v.storageUrl ?? null}::text)`),
      sql`, `,
    );
    await db.execute(
      sql`UPDATE sources AS s SET title = q.title, original_url = q.original_url, mime_type = q.mime_type, type = q.type,
            storage_url = q.storage_url, updated_at = ${now.toISOString()}
          FROM (VALUES ${values}) AS q(id, title, original_url, mime_type, type, storage_url)
          WHERE s.workspace_id = ${workspaceId} AND s.id = q.id`,
    );
  }
}

/** Sets the sources' own re-sync interval (null: they follow the defaults); answers the rows. */
export async function setSyncInterval(db: Db, workspaceId: string, ids: string[], syncInterval: string | null, now: Date): Promise<SourceRow[]> {
  const rows: SourceRow[] = [];
  for (let i = 0; i < ids.length; i += 1000) {
    rows.push(
      ...(await db
        .update(sources)
        .set({ syncInterval, updatedAt: now })
        .where(and(eq(sources.workspaceId, workspaceId), inArray(sources.id, ids.slice(i, i + 1000))))
        .returning()),
    );
  }
  return rows;
}

/** Records that the schedule queued a refresh of the source now. */
export async function markSynced(db: Db, workspaceId: string, sourceId: string, now: Date): Promise<void> {
  await db
    .update(sources)
    .set({ lastSyncAt: now })
    .where(and(eq(sources.workspaceId, workspaceId), eq(sources.id, sourceId)));
}

/** Which sources a reconciliation of schedules covers: these ids, or those following a default. */
export type SyncSelection = { sourceIds: string[] } | { following: 'workspace' | { provider: string } };

/**
 * One page (by id, after `afterId`) of the sources a reconciliation covers, with the fields the
 * schedule reads: no content. Following a default: the sources with no interval of their own (of
 * one provider, for a connection's).
 */
export async function syncCandidates(
  db: Db,
  workspaceId: string,
  selection: SyncSelection,
  afterId: string | null,
  limit: number,
): Promise<{ id: string; source: string; syncInterval: string | null }[]> {
  const where: (SQL | undefined)[] = [eq(sources.workspaceId, workspaceId)];
  if ('sourceIds' in selection) where.push(inArray(sources.id, selection.sourceIds));
  else {
    where.push(isNull(sources.syncInterval));
    if (selection.following !== 'workspace') where.push(eq(sources.source, selection.following.provider));
  }
  if (afterId) where.push(sql`${sources.id} > ${afterId}`);
  return db
    .select({ id: sources.id, source: sources.source, syncInterval: sources.syncInterval })
    .from(sources)
    .where(and(...where))
    .orderBy(asc(sources.id))
    .limit(limit);
}
