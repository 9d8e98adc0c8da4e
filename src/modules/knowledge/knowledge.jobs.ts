import { contextForJob } from '../../context.js';
import { defineJob, emptyPayload, registered, type RegisteredJob } from '../../jobs/job.js';
import { runEmbedJob } from './embeddings.js';

/**
 * Every minute: keeps article embeddings current (embeddings.ts). Failures wait for the next run
 * rather than a retry; the job does nothing without an embedding model or `vector`.
 */
export const embedArticlesJob = defineJob({
  name: 'knowledge.embed',
  payload: emptyPayload,
  schedule: '* * * * *',
  options: { retryLimit: 0, expireInSeconds: 900 },
  handler: (run) => runEmbedJob(contextForJob(run)),
});

/** The jobs of this module, for the registry. */
export const knowledgeJobs: readonly RegisteredJob[] = [registered(embedArticlesJob)];
