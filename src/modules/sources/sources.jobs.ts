import { z } from 'zod';
import { contextForJob } from '../../context.js';
import { defineJob, defineOrphanSweep, registered, type RegisteredJob } from '../../jobs/job.js';
import { ingestSource, orphanedIngestions } from './ingestion.service.js';
import { applySyncSchedules, syncSource } from './sync.service.js';

const RETRY_LIMIT = 3;

const ingestPayload = z
  .object({ workspaceId: z.uuid(), sourceId: z.uuid(), kind: z.enum(['add', 'refresh', 'sync']) })
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

/** One run of a source's re-sync schedule (sync.service.ts): queues its refresh, or says why not. */
export const syncSourceJob = defineJob({
  name: 'sources.sync',
  payload: z.object({ workspaceId: z.uuid(), sourceId: z.uuid(), cron: z.string().min(1).max(200) }).strict(),
  options: { retryLimit: 2, expireInSeconds: 120 },
  handler: async (run, { workspaceId, sourceId, cron }) => {
    await syncSource(contextForJob(run, workspaceId), sourceId, cron);
  },
});

/** Brings the re-sync schedules of some sources in line with their records (sync.service.ts). */
export const scheduleSyncJob = defineJob({
  name: 'sources.sync-schedule',
  payload: z
    .object({ workspaceId: z.uuid(), sourceIds: z.array(z.uuid()).max(10_000).nullable(), provider: z.string().min(1).max(50).nullable() })
    .strict(),
  options: { retryLimit: 4, expireInSeconds: 15 * 60 },
  handler: async (run, { workspaceId, sourceIds, provider }) => {
    const ctx = contextForJob(run, workspaceId);
    const selection = sourceIds ? { sourceIds } : { following: provider ? { provider } : ('workspace' as const) };
    ctx.log.info({ ...(await applySyncSchedules(ctx, selection)) }, 'source re-sync schedules updated');
  },
});

/** Every minute: no record stays PENDING or IN_PROGRESS after its job is gone from the queue. */
export const sweepSourceJobsJob = defineOrphanSweep('sources.sweep', 'source jobs', orphanedIngestions);

/** The jobs of this module, for the registry. */
export const sourceJobs: readonly RegisteredJob[] = [
  registered(ingestSourceJob),
  registered(sweepSourceJobsJob),
  registered(syncSourceJob),
  registered(scheduleSyncJob),
];
