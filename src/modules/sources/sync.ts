import { backoffSeconds, backoffUntil, humanDuration, nextRun, type RecurrenceSchedule, scheduleOf } from '../../jobs/recurrence.js';

/**
 * Scheduled re-sync of sources, the pure part (docs/sources.md, "Scheduled re-sync"): which
 * recurrence applies to a source, the schedule it runs on, and what its record says about it.
 */

/** The defaults a source without an interval of its own follows, read once per request or job. */
export interface SyncDefaults {
  /** The workspace's `sourceSyncInterval`. */
  readonly workspace: string;
  /** Each connected provider's `syncInterval` (null: the workspace's). */
  readonly connections: ReadonlyMap<string, string | null>;
  /** The time the record is read at (`nextSyncAt` is after it). */
  readonly now: Date;
}

/** What of a source the schedule reads. */
export interface SyncFields {
  readonly id: string;
  readonly source: string;
  readonly syncInterval: string | null;
}

/** The recurrence that applies to a source: its own, else its connection's, else the workspace's; `off` for uploaded files. */
export function effectiveSyncInterval(source: SyncFields, defaults: SyncDefaults): string {
  if (source.source === 'files') return 'off';
  return source.syncInterval ?? defaults.connections.get(source.source) ?? defaults.workspace;
}

/** The schedule a source runs on (its key is its id), or null when it does not re-sync. */
export function syncScheduleOf(source: SyncFields, defaults: SyncDefaults): RecurrenceSchedule | null {
  return scheduleOf(effectiveSyncInterval(source, defaults), source.id);
}

/** What the record says about its re-sync, besides its stored fields. */
export interface SyncView {
  effectiveSyncInterval: string;
  nextSyncAt: Date | null;
  syncError: string | null;
}

/**
 * The computed re-sync fields of a record: the interval in effect, the next run the schedule will
 * take (after the back-off of a failing source), and why it backs off.
 */
export function syncView(
  source: SyncFields & { lastSyncAt: Date | null; syncFailures: number; error: string },
  defaults: SyncDefaults,
): SyncView {
  const interval = effectiveSyncInterval(source, defaults);
  const schedule = scheduleOf(interval, source.id);
  const until = schedule ? backoffUntil(schedule, source.syncFailures, source.lastSyncAt) : null;
  const from = until && until > defaults.now ? until : defaults.now;
  return {
    effectiveSyncInterval: interval,
    nextSyncAt: schedule ? nextRun(schedule, from) : null,
    syncError: syncErrorOf(schedule, source.syncFailures, source.error),
  };
}

function syncErrorOf(schedule: RecurrenceSchedule | null, failures: number, error: string): string | null {
  if (failures === 0) return null;
  if (failures === 1) return `the last refresh failed: ${error}`;
  const backoff = schedule ? `; the schedule backs off: it waits ${humanDuration(backoffSeconds(schedule, failures))} after its last run before the next, until a refresh succeeds` : '';
  return `${failures} refreshes in a row failed${backoff}. Last error: ${error}`;
}
