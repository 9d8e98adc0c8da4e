import type { ProcessContext } from '../../context.js';
import { checkReadiness } from '../../db/migrate.js';
import type { Database } from '../../db/database.js';
import { type LimitsSwept, sweepLimits } from '../../db/limits.js';
import { secondsSinceAWorkerWasSeen } from '../../jobs/fleet.js';
import type { JobQueue } from '../../jobs/queue.js';

export type ReadyView =
  | { ready: false; reason: string }
  | { ready: true; degraded?: string };

/**
 * Whether this process can serve: the database answers and every migration is applied. It can
 * serve, but the deployment is `degraded`, when jobs are due and no worker has been seen for
 * `PARLEY_WORKER_TIMEOUT_SECONDS`: they will wait until a worker comes back (docs/operations.md).
 */
export async function readiness(database: Database, queue: JobQueue, workerTimeoutSeconds: number): Promise<ReadyView> {
  const base = await checkReadiness(database);
  if (!base.ready) return base;
  const due = await queue.dueCount();
  if (due === 0) return { ready: true };
  const silence = await secondsSinceAWorkerWasSeen(database.db);
  if (silence !== null && silence < workerTimeoutSeconds) return { ready: true };
  const seen = silence === null ? 'no job worker has been seen' : `no job worker has been seen for ${Math.round(silence)} s`;
  return { ready: true, degraded: `${seen} while ${due} job(s) are due: they wait until a worker runs (parley worker, or parley serve without --no-worker)` };
}

/** Deletes ended rate-limit windows and expired politeness leases (empty tables in embedded mode). */
export function sweepSharedLimits(ctx: Pick<ProcessContext, 'db' | 'config'>): Promise<LimitsSwept> {
  return sweepLimits(ctx.db, ctx.config.rateLimit.windowMs);
}
