import { contextForJob } from '../../context.js';
import { defineJob, emptyPayload, registered, type RegisteredJob } from '../../jobs/job.js';
import { purgeUnstartedConversations } from './visitors.service.js';

/** Hourly housekeeping: deletes widget conversations never written in, after PARLEY_DELETED_RETENTION_DAYS. */
export const purgeWidgetConversationsJob = defineJob({
  name: 'widget.purge',
  payload: emptyPayload,
  schedule: '47 * * * *',
  options: { retryLimit: 3, expireInSeconds: 600 },
  async handler(run) {
    const ctx = contextForJob(run);
    ctx.log.info({ purged: await purgeUnstartedConversations(ctx) }, 'purged widget conversations never written in');
  },
});

/** The jobs of this module, for the registry. */
export const widgetJobs: readonly RegisteredJob[] = [registered(purgeWidgetConversationsJob)];
