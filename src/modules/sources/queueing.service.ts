import { randomUUID } from 'node:crypto';
import { enqueue, enqueueMany, type WorkspaceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import { connectionSyncIntervals } from '../providers/index.js';
import { workspaceSourceSyncInterval } from '../workspaces/index.js';
import { markQueued, type QueuedJob, setSyncInterval, type SourceRow } from './sources.repository.js';
import { effectiveSyncInterval, type SyncDefaults } from './sync.js';

/**
 * What the sources module does inside a caller's transaction to queue work: ingestion jobs, and
 * the reconciliation of re-sync schedules (`sources.sync-schedule`, sync.service.ts) that a change
 * of the records calls for, so both commit with the change.
 */

/**
 * Points the sources at new ingestion jobs (PENDING) and enqueues those jobs, in the caller's
 * transaction: `added` first ingestions, `updated` refreshes, `synced` refreshes the schedule
 * queued. Sources added while a default re-syncs get their schedules.
 */
export async function enqueueIngestion(
  ctx: WorkspaceContext,
  tx: Db,
  added: string[],
  updated: string[],
  flags: { english?: boolean; baser?: boolean } = {},
  synced: string[] = [],
): Promise<QueuedJob[]> {
  const jobs: QueuedJob[] = [
    ...added.map((sourceId) => ({ sourceId, jobId: randomUUID(), kind: 'add' as const })),
    ...updated.map((sourceId) => ({ sourceId, jobId: randomUUID(), kind: 'refresh' as const })),
    ...synced.map((sourceId) => ({ sourceId, jobId: randomUUID(), kind: 'sync' as const })),
  ];
  if (jobs.length === 0) return jobs;
  await scheduleNewSources(ctx, tx, added);
  await markQueued(tx, ctx.workspaceId, jobs, ctx.clock.now(), flags);
  await enqueueMany(
    { ...ctx, db: tx },
    'sources.ingest',
    jobs.map((job) => ({ id: job.jobId, payload: { workspaceId: ctx.workspaceId, sourceId: job.sourceId, kind: job.kind } })),
  );
  return jobs;
}

/** The workspace's defaults and the time, for the records a request or a job reads. */
export async function loadSyncDefaults(ctx: Pick<WorkspaceContext, 'db' | 'workspaceId' | 'clock'>): Promise<SyncDefaults> {
  return { workspace: await workspaceSourceSyncInterval(ctx), connections: await connectionSyncIntervals(ctx), now: ctx.clock.now() };
}

/** Whether a default (the workspace's or a connection's) makes new sources re-sync. */
function defaultsSync(defaults: SyncDefaults): boolean {
  return defaults.workspace !== 'off' || [...defaults.connections.values()].some((interval) => interval !== null && interval !== 'off');
}

/** Queues the reconciliation of these sources' schedules in the caller's transaction. */
async function queueScheduling(ctx: WorkspaceContext, tx: Db, sourceIds: string[]): Promise<void> {
  if (sourceIds.length === 0) return;
  await enqueue({ ...ctx, db: tx }, 'sources.sync-schedule', { workspaceId: ctx.workspaceId, sourceIds, provider: null });
}

/**
 * Sources were created (or are ingested for the first time), in the caller's transaction: when a
 * default makes them re-sync, their schedules are set up once it commits.
 */
export async function scheduleNewSources(ctx: WorkspaceContext, tx: Db, sourceIds: string[]): Promise<void> {
  if (sourceIds.length > 0 && defaultsSync(await loadSyncDefaults({ ...ctx, db: tx }))) await queueScheduling(ctx, tx, sourceIds);
}

/** Sources of the workspace get their own interval (null: the defaults), in the caller's transaction. */
export async function setSourcesSyncInterval(ctx: WorkspaceContext, tx: Db, rows: SourceRow[], syncInterval: string | null): Promise<void> {
  const files = rows.find((row) => row.source === 'files');
  if (files && syncInterval !== null && syncInterval !== 'off') {
    throw new AppError('bad_request', `body.syncInterval: ${files.id} is an uploaded file, which cannot be refreshed; give off or null`);
  }
  const ids = rows.map((row) => row.id);
  await setSyncInterval(tx, ctx.workspaceId, ids, syncInterval, ctx.clock.now());
  await queueScheduling(ctx, tx, ids);
}

/** Sources being deleted, in the caller's transaction: those that re-sync lose their schedules after the commit. */
export async function unscheduleSources(ctx: WorkspaceContext, tx: Db, rows: SourceRow[]): Promise<void> {
  const defaults = await loadSyncDefaults({ ...ctx, db: tx });
  await queueScheduling(ctx, tx, rows.filter((row) => effectiveSyncInterval(row, defaults) !== 'off').map((row) => row.id));
}

