import { z } from 'zod';
import { contextForJob } from '../../context.js';
import { defineJob, defineOrphanSweep, registered, type RegisteredJob } from '../../jobs/job.js';
import { orphanedGenerations, runGeneration } from './generation.service.js';

const generatePayload = z.object({ workspaceId: z.uuid(), jobId: z.uuid() }).strict();

/** Runs one knowledge-generation job (generation.service.ts); its id is the `knowledge_jobs` row's. */
export const generateKnowledgeJob = defineJob({
  name: 'knowledge.generate',
  payload: generatePayload,
  options: (config) => ({
    // Only a stopped worker's job is tried again: every error is the job's result.
    retryLimit: 2,
    expireInSeconds: Math.ceil(((config.llm.timeoutMs + 60_000) * (config.llm.maxRetries + 1)) / 1000) + 60,
  }),
  concurrency: (config) => config.knowledgeConcurrency,
  handler: (run, { workspaceId, jobId }) => runGeneration(contextForJob(run, workspaceId), jobId),
});

/** Every minute: no knowledge job stays PENDING or IN_PROGRESS after its queue job is gone. */
export const sweepKnowledgeJobsJob = defineOrphanSweep('knowledge.sweep', 'knowledge jobs', orphanedGenerations);

/** The jobs of this module, for the registry. */
export const generationJobs: readonly RegisteredJob[] = [registered(generateKnowledgeJob), registered(sweepKnowledgeJobsJob)];
