import { z } from 'zod';
import { contextForJob } from '../../context.js';
import { defineJob, defineOrphanSweep, registered, type RegisteredJob } from '../../jobs/job.js';
import { ingestSource, orphanedIngestions } from './ingestion.service.js';

const RETRY_LIMIT = 3;

const ingestPayload = z
  .object({ workspaceId: z.uuid(), sourceId: z.uuid(), kind: z.enum(['add', 'refresh']) })
  .strict();

/** Ingests one source (ingestion.service.ts); the job's id is the source's `linkedJobId`. */
export const ingestSourceJob = defineJob({
  name: 'sources.ingest',
  payload: ingestPayload,
  options: (config) => ({
    retryLimit: RETRY_LIMIT,
    retryDelaySeconds: config.ingest.retryDelaySeconds,
    retryDelayMaxSeconds: config.ingest.retryDelaySeconds * 12,
    expireInSeconds: config.ingest.leaseSeconds,
  }),
  concurrency: (config) => config.ingest.concurrency,
  handler: (run, { workspaceId, sourceId, kind }) =>
    ingestSource(contextForJob(run, workspaceId), { sourceId, kind, jobId: run.id, finalAttempt: run.retryCount >= RETRY_LIMIT }),
});

/** Every minute: no record stays PENDING or IN_PROGRESS after its job is gone from the queue. */
export const sweepSourceJobsJob = defineOrphanSweep('sources.sweep', 'source jobs', orphanedIngestions);

/** The jobs of this module, for the registry. */
export const sourceJobs: readonly RegisteredJob[] = [registered(ingestSourceJob), registered(sweepSourceJobsJob)];
