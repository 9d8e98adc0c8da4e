import type { Logger } from 'pino';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import type { Db } from '../db/database.js';

/** What a job handler receives besides its payload. */
export interface JobContext {
  readonly db: Db;
  readonly clock: Clock;
  readonly config: Config;
  readonly log: Logger;
  readonly jobId: string;
  /** 0 on the first attempt, then 1, 2, ... on retries. */
  readonly retryCount: number;
  /** Aborted when the job's lease expires or the worker stops. */
  readonly signal: AbortSignal;
}

/** Queue-level behaviour of a job; defaults in queue.ts. */
export interface JobOptions {
  /** Attempts after the first before the job is dead-lettered. */
  readonly retryLimit?: number;
  /** First retry delay; later ones back off exponentially up to `retryDelayMaxSeconds`. */
  readonly retryDelaySeconds?: number;
  readonly retryDelayMaxSeconds?: number;
  /** The lease: an active job not finished (or heartbeated) within this is retried elsewhere. */
  readonly expireInSeconds?: number;
  /** When set, the worker heartbeats every half of it and a silent worker loses the job after it. */
  readonly heartbeatSeconds?: number;
}

/** A named job: payload schema, queue options, optional cron schedule and an idempotent handler. */
export interface JobDefinition<Payload = unknown> {
  readonly name: string;
  readonly payload: z.ZodType<Payload>;
  /** Queue options, or a function of the configuration when an operator may tune them. */
  readonly options?: JobOptions | ((config: Config) => JobOptions);
  /** Jobs of this queue run at once per worker process; default `PARLEY_WORKER_CONCURRENCY`. */
  readonly concurrency?: (config: Config) => number;
  /** Cron expression (UTC) when the job also runs on a schedule with an empty-object payload. */
  readonly schedule?: string;
  readonly handler: (ctx: JobContext, payload: Payload) => Promise<void>;
}

/** The queue options of a job under a configuration. */
export function jobOptions(job: Pick<JobDefinition<never>, 'options'>, config: Config): JobOptions {
  return typeof job.options === 'function' ? job.options(config) : (job.options ?? {});
}

/** Identity helper that keeps the payload type attached to the definition. */
export function defineJob<Payload>(definition: JobDefinition<Payload>): JobDefinition<Payload> {
  return definition;
}

/** The name of the queue that receives a job's payload after its last failed attempt. */
export function deadLetterName(jobName: string): string {
  return `${jobName}.dead`;
}

/** A job with its payload type erased, for the registry (the queue validates payloads itself). */
export type RegisteredJob = JobDefinition<never>;

export function registered<Payload>(job: JobDefinition<Payload>): RegisteredJob {
  return job as unknown as RegisteredJob;
}

/** A record whose queue job is gone waits this long before the sweep fails it. */
export const ORPHAN_AGE_MS = 60_000;

/**
 * A job run every minute that fails the records (PENDING or IN_PROGRESS) whose queue job left the
 * queue without a result (its worker died past its retries), so no record waits forever.
 * `failOrphans` marks the records older than `olderThan` FAILED with `error` and counts them.
 */
export function defineOrphanSweep(
  name: string,
  what: string,
  error: string,
  failOrphans: (db: Db, olderThan: Date, now: Date, error: string) => Promise<number>,
): JobDefinition<Record<string, never>> {
  return defineJob({
    name,
    payload: z.object({}).strict() as z.ZodType<Record<string, never>>,
    schedule: '* * * * *',
    options: { retryLimit: 1, expireInSeconds: 120 },
    async handler(ctx) {
      const now = ctx.clock.now();
      const failed = await failOrphans(ctx.db, new Date(now.getTime() - ORPHAN_AGE_MS), now, error);
      if (failed) ctx.log.warn({ failed }, `marked orphaned ${what} FAILED`);
    },
  });
}
