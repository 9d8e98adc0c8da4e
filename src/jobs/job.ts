import { z } from 'zod';
import type { Config } from '../config/config.js';
import { contextForJob, type JobRun, type ProcessContext } from '../context.js';
import type { EmptyPayload, JobName, JobPayloads } from './payloads.js';

export type { JobRun };

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

/**
 * A named job: payload schema, queue options, optional cron schedule and an idempotent handler.
 * The name is a key of `JobPayloads` (payloads.ts) and the schema parses to its payload.
 */
export interface JobDefinition<Name extends JobName = JobName> {
  readonly name: Name;
  readonly payload: z.ZodType<JobPayloads[Name]>;
  /** Queue options, or a function of the configuration when an operator may tune them. */
  readonly options?: JobOptions | ((config: Config) => JobOptions);
  /** Jobs of this queue run at once per worker process; default `PARLEY_WORKER_CONCURRENCY`. */
  readonly concurrency?: (config: Config) => number;
  /** Cron expression (UTC) when the job also runs on a schedule with an empty-object payload. */
  readonly schedule?: string;
  /**
   * Adapts the job to a context (`contextForJob(run, payload.workspaceId)`) and calls one service
   * function: a few lines. Must be idempotent: a job whose worker died runs again.
   */
  readonly handler: (run: JobRun, payload: JobPayloads[Name]) => Promise<void>;
}

/** The queue options of a job under a configuration. */
export function jobOptions(job: Pick<RegisteredJob, 'options'>, config: Config): JobOptions {
  return typeof job.options === 'function' ? job.options(config) : (job.options ?? {});
}

/** Identity helper that checks the definition against its name's payload in `JobPayloads`. */
export function defineJob<Name extends JobName>(definition: JobDefinition<Name>): JobDefinition<Name> {
  return definition;
}

/** The payload schema of a scheduled job: an empty object. */
export const emptyPayload = z.object({}).strict() as z.ZodType<EmptyPayload>;

/** The name of the queue that receives a job's payload after its last failed attempt. */
export function deadLetterName(jobName: string): string {
  return `${jobName}.dead`;
}

/** A job with its payload type erased, for the registry (the queue validates payloads itself). */
export interface RegisteredJob extends Omit<JobDefinition, 'payload' | 'handler'> {
  readonly payload: z.ZodType;
  readonly handler: (run: JobRun, payload: never) => Promise<void>;
}

/** Erases a job's payload type so jobs of different names fit in one list. */
export function registered<Name extends JobName>(job: JobDefinition<Name>): RegisteredJob {
  return job as unknown as RegisteredJob;
}

/** The jobs whose payload is empty: the scheduled ones, sweeps among them. */
type SweepName = { [Name in JobName]: JobPayloads[Name] extends EmptyPayload ? Name : never }[JobName];

/** A record whose queue job is gone waits this long before the sweep fails it. */
export const ORPHAN_AGE_MS = 60_000;

/** A record whose job may be gone: its workspace, its id, and the id of its queue job. */
export interface JobRecord {
  readonly workspaceId: string;
  readonly id: string;
  readonly jobId: string;
}

/** How an orphan sweep finds and fails a module's records (both across workspaces by design). */
export interface OrphanSweep {
  /** The job whose queue entries the records wait for. */
  readonly job: JobName;
  /** Records PENDING or IN_PROGRESS since before `olderThan`, of every workspace. */
  stale(ctx: ProcessContext, olderThan: Date): Promise<JobRecord[]>;
  /** Fails one record if it is still unfinished and untouched since `olderThan`; whether it did. */
  fail(ctx: ProcessContext, record: JobRecord, olderThan: Date): Promise<boolean>;
}

/**
 * A job run every minute that fails the records (PENDING or IN_PROGRESS) whose queue job left the
 * queue without a result (its worker died past its retries), so no record waits forever. Whether a
 * job still lives is asked of the queue (pg-boss's API), never read from its tables.
 */
export function defineOrphanSweep<Name extends SweepName>(name: Name, what: string, sweep: OrphanSweep): JobDefinition<Name> {
  return defineJob<Name>({
    name,
    payload: emptyPayload as z.ZodType<JobPayloads[Name]>,
    schedule: '* * * * *',
    options: { retryLimit: 1, expireInSeconds: 120 },
    async handler(run) {
      const ctx = contextForJob(run);
      const olderThan = new Date(ctx.clock.now().getTime() - ORPHAN_AGE_MS);
      const stale = await sweep.stale(ctx, olderThan);
      if (stale.length === 0) return;
      const live = await ctx.queue.liveJobIds(sweep.job, stale.map((r) => r.jobId));
      let failed = 0;
      for (const record of stale) {
        if (!live.has(record.jobId) && (await sweep.fail(ctx, record, olderThan))) failed += 1;
      }
      if (failed) ctx.log.warn({ failed }, `marked orphaned ${what} FAILED`);
    },
  });
}

/**
 * An hourly housekeeping job: `purge` deletes what outlived its retention, across workspaces, and
 * answers how many rows went; the job logs `purged <what>` with the count.
 */
export function definePurgeJob<Name extends SweepName>(
  name: Name,
  options: { schedule: string; expireInSeconds: number; what: string; purge: (ctx: ProcessContext) => Promise<number> },
): JobDefinition<Name> {
  return defineJob<Name>({
    name,
    payload: emptyPayload as z.ZodType<JobPayloads[Name]>,
    schedule: options.schedule,
    options: { retryLimit: 3, expireInSeconds: options.expireInSeconds },
    async handler(run) {
      const ctx = contextForJob(run);
      ctx.log.info({ purged: await options.purge(ctx) }, `purged ${options.what}`);
    },
  });
}
