import { z } from 'zod';
import { contextForJob } from '../../context.js';
import { defineJob, defineOrphanSweep, registered, type RegisteredJob } from '../../jobs/job.js';
import { executeRun, failStaleRun, staleRuns } from './runs.service.js';
import { runScheduled } from './schedules.service.js';

/** Runs (or resumes) one test run; the queue job's id is the run's. */
export const testRunJob = defineJob({
  name: 'testing.run',
  payload: z.object({ workspaceId: z.uuid(), runId: z.uuid() }).strict(),
  // A stopped worker's run resumes after the lease from the results it had written.
  options: { retryLimit: 3, expireInSeconds: 60 * 60 },
  handler: (run, { workspaceId, runId }) => executeRun(contextForJob(run, workspaceId), runId),
});

/** An agent's test schedule fired (a keyed pg-boss schedule per agent): queues a run of its cases. */
export const scheduledTestRunJob = defineJob({
  name: 'testing.scheduled',
  payload: z.object({ workspaceId: z.uuid(), agentId: z.uuid() }).strict(),
  options: { retryLimit: 2, expireInSeconds: 300 },
  handler: (run, { workspaceId, agentId }) => runScheduled(contextForJob(run, workspaceId), agentId),
});

/** Every minute: no test run stays queued or running after its queue job is gone. */
export const sweepTestRunsJob = defineOrphanSweep('testing.sweep', 'test runs', {
  job: 'testing.run',
  stale: staleRuns,
  fail: failStaleRun,
});

/** The jobs of this module, for the registry. */
export const testingJobs: readonly RegisteredJob[] = [registered(testRunJob), registered(scheduledTestRunJob), registered(sweepTestRunsJob)];
