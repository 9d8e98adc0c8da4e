import { z } from 'zod';
import { contextForJob } from '../../context.js';
import { defineJob, defineOrphanSweep, registered, type RegisteredJob } from '../../jobs/job.js';
import { failStaleIteration, runIteration, staleIterations } from './iterations.service.js';

/** Runs one Refine with AI iteration (refine.service.ts); the queue job's id is the iteration's. */
export const refineIterationJob = defineJob({
  name: 'refine.iterate',
  payload: z.object({ workspaceId: z.uuid(), iterationId: z.uuid() }).strict(),
  options: (config) => ({
    // A stopped worker's iteration starts over after the lease; every error is the iteration's result.
    retryLimit: 2,
    expireInSeconds: config.refineLeaseSeconds,
  }),
  handler: (run, { workspaceId, iterationId }) => runIteration(contextForJob(run, workspaceId), iterationId),
});

/** Every minute: no iteration stays queued or running after its queue job is gone. */
export const sweepRefineIterationsJob = defineOrphanSweep('refine.sweep', 'fix iterations', {
  job: 'refine.iterate',
  stale: staleIterations,
  fail: failStaleIteration,
});

/** The jobs of this module, for the registry. */
export const refineJobs: readonly RegisteredJob[] = [registered(refineIterationJob), registered(sweepRefineIterationsJob)];
