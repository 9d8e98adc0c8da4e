import { definePurgeJob, registered, type RegisteredJob } from '../../jobs/job.js';
import { purgeUnstartedConversations } from './visitors.service.js';

/** Hourly housekeeping: deletes widget conversations never written in, after PARLEY_DELETED_RETENTION_DAYS. */
export const purgeWidgetConversationsJob = definePurgeJob('widget.purge', {
  schedule: '47 * * * *',
  expireInSeconds: 600,
  what: 'widget conversations never written in',
  purge: purgeUnstartedConversations,
});

/** The jobs of this module, for the registry. */
export const widgetJobs: readonly RegisteredJob[] = [registered(purgeWidgetConversationsJob)];
