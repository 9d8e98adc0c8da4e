import { contextForJob } from '../../context.js';
import { defineJob, emptyPayload, registered, type RegisteredJob } from '../../jobs/job.js';
import { sweepSharedLimits } from './system.service.js';

/**
 * Every ten minutes: deletes the rate-limit windows that ended and the politeness leases that ran
 * out (their process died), so the tables of the deployment-wide limits hold only what is live.
 */
export const sweepLimitsJob = defineJob({
  name: 'system.limits-sweep',
  payload: emptyPayload,
  schedule: '*/10 * * * *',
  options: { retryLimit: 1, expireInSeconds: 120 },
  async handler(run) {
    const ctx = contextForJob(run);
    ctx.log.debug({ swept: await sweepSharedLimits(ctx) }, 'swept the deployment-wide limits');
  },
});

/** The jobs of this module, for the registry. */
export const systemJobs: readonly RegisteredJob[] = [registered(sweepLimitsJob)];
