import { contextForJob } from '../../context.js';
import { defineJob, emptyPayload, registered, type RegisteredJob } from '../../jobs/job.js';
import { purgeDeadApiKeys } from './api-keys.service.js';

/** Hourly housekeeping: deletes keys expired or revoked longer ago than PARLEY_KEY_RETENTION_DAYS. */
export const purgeApiKeysJob = defineJob({
  name: 'api-keys.purge',
  payload: emptyPayload,
  schedule: '17 * * * *',
  options: { retryLimit: 3, expireInSeconds: 300 },
  async handler(run) {
    const ctx = contextForJob(run);
    ctx.log.info({ purged: await purgeDeadApiKeys(ctx) }, 'purged dead API keys');
  },
});

/** The jobs of this module, for the registry. */
export const apiKeyJobs: readonly RegisteredJob[] = [registered(purgeApiKeysJob)];
