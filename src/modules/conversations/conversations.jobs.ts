import { contextForJob } from '../../context.js';
import { defineJob, emptyPayload, registered, type RegisteredJob } from '../../jobs/job.js';
import { purgeDeletedConversations } from './conversations.service.js';

/** Hourly housekeeping: purges conversations deleted longer ago than PARLEY_DELETED_RETENTION_DAYS. */
export const purgeConversationsJob = defineJob({
  name: 'conversations.purge',
  payload: emptyPayload,
  schedule: '41 * * * *',
  options: { retryLimit: 3, expireInSeconds: 600 },
  async handler(run) {
    const ctx = contextForJob(run);
    ctx.log.info({ purged: await purgeDeletedConversations(ctx) }, 'purged deleted conversations');
  },
});

/** The jobs of this module, for the registry. */
export const conversationJobs: readonly RegisteredJob[] = [registered(purgeConversationsJob)];
