import { enqueue, inTransaction, type WorkspaceContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { backoffUntil, type RecurrenceSchedule } from '../../jobs/recurrence.js';
import { enqueueIngestion, loadSyncDefaults, setSourcesSyncInterval } from './queueing.service.js';
import { findSourcesByIds, markSynced, type SourceRow, type SyncSelection, syncCandidates } from './sources.repository.js';
import { syncScheduleOf } from './sync.js';

/**
 * Scheduled re-sync of sources (docs/sources.md, "Scheduled re-sync"). Each source whose interval
 * in effect is not `off` has a keyed schedule of the `sources.sync` job (its key is the source id,
 * `JobQueue.scheduleFor`); each run queues the same refresh as POST /v2/documents/public/refresh,
 * unless one is already queued or running or the source is backing off. The `sources.sync-schedule`
 * job brings the schedules in line with the records after a change (an interval set, a default
 * changed, sources added): pg-boss writes its schedules on its own connection, outside the
 * transaction that changed the records, so the change queues that job inside it instead.
 */

/** The job each source's schedule runs. */
const SYNC_JOB = 'sources.sync';

/** PATCH /v2/documents/public/{id}: the source's own re-sync interval; 404 when not in the workspace. */
export async function patchSource(ctx: WorkspaceContext, id: string, body: { syncInterval: string | null }): Promise<SourceRow> {
  return inTransaction(ctx, async ({ db: tx }) => {
    const [row] = await findSourcesByIds(tx, ctx.workspaceId, [id], { lock: true });
    if (!row) throw new AppError('not_found', `source ${id} not found`);
    await setSourcesSyncInterval(ctx, tx, [row], body.syncInterval);
    const [updated] = await findSourcesByIds(tx, ctx.workspaceId, [id]);
    return updated!;
  });
}

/** A default changed (the workspace's, or a connection's): the sources following it are rescheduled once it commits. */
export async function rescheduleFollowers(ctx: WorkspaceContext, provider: string | null): Promise<void> {
  await enqueue(ctx, 'sources.sync-schedule', { workspaceId: ctx.workspaceId, sourceIds: null, provider });
}

const PAGE = 500;

/**
 * The `sources.sync-schedule` job: every selected source gets the schedule its interval in effect
 * asks for, or none (a source deleted meanwhile: none). Idempotent; reads the records as they are
 * now, so the last of several reconciliations wins whatever order they ran in.
 */
export async function applySyncSchedules(ctx: WorkspaceContext, selection: SyncSelection): Promise<{ scheduled: number; unscheduled: number }> {
  const defaults = await loadSyncDefaults(ctx);
  const counts = { scheduled: 0, unscheduled: 0 };
  const seen = new Set<string>();
  for (let afterId: string | null = null; ; ) {
    const page = await syncCandidates(ctx.db, ctx.workspaceId, selection, afterId, PAGE);
    for (const source of page) {
      seen.add(source.id);
      const schedule = syncScheduleOf(source, defaults);
      await applySchedule(ctx, source.id, schedule);
      counts[schedule ? 'scheduled' : 'unscheduled'] += 1;
    }
    if (page.length < PAGE) break;
    afterId = page[page.length - 1]!.id;
  }
  // Named sources that are gone (deleted) keep no schedule.
  if ('sourceIds' in selection) {
    for (const id of selection.sourceIds.filter((id) => !seen.has(id))) {
      await ctx.queue.unscheduleFor(SYNC_JOB, id);
      counts.unscheduled += 1;
    }
  }
  return counts;
}

async function applySchedule(ctx: WorkspaceContext, sourceId: string, schedule: RecurrenceSchedule | null): Promise<void> {
  if (!schedule) return ctx.queue.unscheduleFor(SYNC_JOB, sourceId);
  await ctx.queue.scheduleFor(
    SYNC_JOB,
    sourceId,
    schedule.cron,
    { workspaceId: ctx.workspaceId, sourceId, cron: schedule.cron },
    { startAfterSeconds: schedule.offsetSeconds },
  );
}

/** What one run of a source's schedule did. */
export type SyncOutcome = 'queued' | 'running' | 'backing_off' | 'rescheduled' | 'unscheduled';

/**
 * One run of a source's schedule (`cron`: the expression it fired on). The source's row is locked
 * while the run decides, so two runs (or a run and a request) take turns:
 * - the source is gone, or no longer re-syncs: its schedule is removed;
 * - its interval in effect changed since the schedule was written: the schedule is corrected, and
 *   this run does nothing (the corrected one runs at its own time);
 * - a refresh is already queued or running (by a request or an earlier run): nothing, never two at once;
 * - it failed twice or more in a row and its back-off has not passed: nothing;
 * - otherwise the refresh of POST /v2/documents/public/refresh is queued (job kind `sync`), and
 *   `lastSyncAt` is now.
 */
export async function syncSource(ctx: WorkspaceContext, sourceId: string, cron: string): Promise<SyncOutcome> {
  const decided = await inTransaction(ctx, async ({ db: tx }) => {
    const [row] = await findSourcesByIds(tx, ctx.workspaceId, [sourceId], { lock: true });
    if (!row) return { outcome: 'unscheduled' as const, schedule: null };
    const schedule = syncScheduleOf(row, await loadSyncDefaults({ ...ctx, db: tx }));
    if (!schedule) return { outcome: 'unscheduled' as const, schedule };
    if (schedule.cron !== cron) return { outcome: 'rescheduled' as const, schedule };
    if (row.linkedJobStatus === 'PENDING' || row.linkedJobStatus === 'IN_PROGRESS') return { outcome: 'running' as const, schedule };
    const now = ctx.clock.now();
    const until = backoffUntil(schedule, row.syncFailures, row.lastSyncAt);
    if (until && now < until) return { outcome: 'backing_off' as const, schedule };
    await enqueueIngestion(ctx, tx, [], [], {}, [row.id]);
    await markSynced(tx, ctx.workspaceId, row.id, now);
    return { outcome: 'queued' as const, schedule };
  });
  if (decided.outcome === 'unscheduled' || decided.outcome === 'rescheduled') await applySchedule(ctx, sourceId, decided.schedule);
  ctx.log.info({ sourceId, outcome: decided.outcome }, 'scheduled re-sync of a source');
  return decided.outcome;
}
