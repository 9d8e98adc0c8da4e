import { definePurge, registered, type RegisteredJob } from '../../jobs/job.js';
import { purgeDeadApiKeys } from './api-keys.service.js';

/** Hourly housekeeping: deletes keys expired or revoked longer ago than PARLEY_KEY_RETENTION_DAYS. */
export const purgeApiKeysJob = definePurge('api-keys.purge', { minute: 17, expireInSeconds: 300, what: 'dead API keys', purge: purgeDeadApiKeys });

/** The jobs of this module, for the registry. */
export const apiKeyJobs: readonly RegisteredJob[] = [registered(purgeApiKeysJob)];
