import { z } from 'zod';
import { contextForJob } from '../../context.js';
import { defineJob } from '../../jobs/job.js';
import { purgeDeletedConversations } from './conversations.service.js';

/** Hourly housekeeping: purges conversations deleted longer ago than PARLEY_DELETED_RETENTION_DAYS. */
export const purgeConversationsJob = defineJob({
  name: 'conversations.purge',
  payload: z.object({}).strict(),
  schedule: '41 * * * *',
  options: { retryLimit: 3, expireInSeconds: 600 },
  async handler(run) {
    const ctx = contextForJob(run);
    ctx.log.info({ purged: await purgeDeletedConversations(ctx) }, 'purged deleted conversations');
  },
});
