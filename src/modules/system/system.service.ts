import type { ProcessContext } from '../../context.js';
import { checkReadiness, type Readiness } from '../../db/migrate.js';
import type { Database } from '../../db/database.js';
import { type LimitsSwept, sweepLimits } from '../../db/limits.js';

/** Whether this process can serve: the database answers and every migration is applied. */
export function readiness(database: Database): Promise<Readiness> {
  return checkReadiness(database);
}

/** Deletes ended rate-limit windows and expired politeness leases (empty tables in embedded mode). */
export function sweepSharedLimits(ctx: Pick<ProcessContext, 'db' | 'config'>): Promise<LimitsSwept> {
  return sweepLimits(ctx.db, ctx.config.rateLimit.windowMs);
}
