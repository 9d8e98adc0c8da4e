import { definePurgeJob, registered, type RegisteredJob } from '../../jobs/job.js';
import { purgeAuditLog } from './audit.service.js';

/** Hourly housekeeping: deletes audit log entries older than PARLEY_AUDIT_RETENTION_DAYS. */
export const purgeAuditLogJob = definePurgeJob('audit.purge', {
  schedule: '53 * * * *',
  expireInSeconds: 600,
  what: 'old audit log entries',
  purge: purgeAuditLog,
});

/** The jobs of this module, for the registry. */
export const auditJobs: readonly RegisteredJob[] = [registered(purgeAuditLogJob)];
