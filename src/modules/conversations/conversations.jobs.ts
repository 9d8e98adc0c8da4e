import { definePurge, registered, type RegisteredJob } from '../../jobs/job.js';
import { purgeDeletedConversations } from './conversations.service.js';

/** Hourly housekeeping: purges conversations deleted longer ago than PARLEY_DELETED_RETENTION_DAYS. */
export const purgeConversationsJob = definePurge('conversations.purge', {
  minute: 41,
  expireInSeconds: 600,
  what: 'deleted conversations',
  purge: purgeDeletedConversations,
});

/** The jobs of this module, for the registry. */
export const conversationJobs: readonly RegisteredJob[] = [registered(purgeConversationsJob)];
