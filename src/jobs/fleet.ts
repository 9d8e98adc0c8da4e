import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Db } from '../db/database.js';
import { jobWorkers, type RunningJob, type WorkerQueues } from '../db/schema/index.js';
import { version } from '../version.js';

export type { RunningJob, WorkerQueues };

/** A worker as an operator sees it (GET /v2/admin/workers). */
export interface WorkerView {
  id: string;
  host: string;
  pid: number;
  version: string;
  /** `live`: seen within the worker timeout; `silent`: not, and its jobs are about to be taken over. */
  status: 'live' | 'silent';
  queues: WorkerQueues;
  running: RunningJob[];
  startedAt: Date;
  lastSeenAt: Date;
}

/** Who lost a job: what the takeover writes into the job's output and the warn lines repeat. */
export interface LostBy {
  id: string;
  host: string;
  pid: number;
  lastSeenAt: string;
}

/** The message a taken-over attempt is failed with; `job taken over` lines read it back. */
export const TAKEN_OVER = 'worker stopped: its job was taken over';

interface FleetDeps {
  db: Db;
  config: Config;
  log: Logger;
  boss: PgBoss;
}

/**
 * This process's place in the deployment's worker fleet. It writes its row in `job_workers` when
 * it starts working, refreshes it every `PARLEY_WORKER_HEARTBEAT_SECONDS` with the jobs it runs,
 * and deletes it when it stops. On each beat it also claims the rows of workers silent for
 * `PARLEY_WORKER_TIMEOUT_SECONDS` (one claimant per row: the claim is a DELETE) and puts their
 * jobs back at once, fenced to the attempt the dead worker ran, so a killed worker's jobs start
 * again within the timeout plus one heartbeat, not after their lease and the retry delay.
 */
export class WorkerFleet {
  readonly id = randomUUID();
  private readonly running = new Map<string, RunningJob>();
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  private saving: Promise<void> = Promise.resolve();
  private queues: WorkerQueues = {};
  /** The workers this one found dead, by the id of each job they were running (the latest few hundred). */
  private readonly taken = new Map<string, LostBy>();

  constructor(private readonly deps: FleetDeps) {}

  /** Writes this worker's row, takes over what dead workers left, and starts the heartbeat. */
  async join(queues: WorkerQueues): Promise<void> {
    this.queues = queues;
    await this.insertRow();
    await this.takeOverDeadWorkers();
    this.timer = setInterval(() => void this.beat(), this.deps.config.jobs.heartbeatSeconds * 1000);
    this.timer.unref();
  }

  /**
   * A job this worker starts: listed in its row before its handler runs (the caller waits), so a
   * takeover finds every job the worker was running when it died.
   */
  began(job: RunningJob): Promise<void> {
    this.running.set(job.jobId, job);
    return this.saveRunning();
  }

  /** A job this worker finished (or failed): off its row. */
  ended(jobId: string): void {
    if (this.running.delete(jobId)) void this.saveRunning();
  }

  /** Stops beating and deletes the row: a worker that stops is gone, not dead. */
  async leave(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.beating;
    await this.saving;
    await this.deps.db.delete(jobWorkers).where(eq(jobWorkers.id, this.id)).catch((error: unknown) => {
      this.deps.log.warn({ err: error }, 'could not remove this worker from job_workers');
    });
  }

  private beat(): void {
    if (this.beating) return;
    this.beating = (async () => {
      try {
        const [seen] = await this.deps.db
          .update(jobWorkers)
          .set({ lastSeenAt: sql`now()`, running: this.runningList() })
          .where(eq(jobWorkers.id, this.id))
          .returning({ id: jobWorkers.id });
        if (!seen) {
          // Another worker found this one silent past the timeout (a stalled event loop, a lost
          // database connection) and took its jobs: say so, and join again.
          this.deps.log.warn({ workerId: this.id }, 'this worker was taken for dead (silent past PARLEY_WORKER_TIMEOUT_SECONDS) and its jobs were taken over; joining again');
          await this.insertRow();
        }
        await this.takeOverDeadWorkers();
      } catch (error) {
        this.deps.log.warn({ err: error }, 'worker heartbeat failed');
      } finally {
        this.beating = undefined;
      }
    })();
  }

  private runningList(): RunningJob[] {
    return [...this.running.values()];
  }

  private async insertRow(): Promise<void> {
    await this.deps.db
      .insert(jobWorkers)
      .values({ id: this.id, host: hostname(), pid: process.pid, version, queues: this.queues, running: this.runningList() })
      .onConflictDoNothing();
  }

  /** Writes the running list, in order: each write carries the whole list as it is then. */
  private saveRunning(): Promise<void> {
    this.saving = this.saving.then(async () => {
      try {
        await this.deps.db.update(jobWorkers).set({ running: this.runningList() }).where(eq(jobWorkers.id, this.id));
      } catch (error) {
        this.deps.log.warn({ err: error }, 'could not record the running jobs in job_workers');
      }
    });
    return this.saving;
  }

  /**
   * Claims every worker row silent past the timeout and puts its jobs back for a retry that may
   * start now. The fence (job id and attempt) leaves alone a job that already finished, or that
   * pg-boss's own supervision already put back.
   */
  private async takeOverDeadWorkers(): Promise<void> {
    const timeout = this.deps.config.jobs.workerTimeoutSeconds;
    const dead = await this.deps.db
      .delete(jobWorkers)
      .where(and(lt(jobWorkers.lastSeenAt, sql`now() - make_interval(secs => ${timeout})`), sql`${jobWorkers.id} <> ${this.id}`))
      .returning();
    for (const worker of dead) {
      const lostBy: LostBy = { id: worker.id, host: worker.host, pid: worker.pid, lastSeenAt: worker.lastSeenAt.toISOString() };
      const jobs = worker.running.map((j) => ({ job: j.job, jobId: j.jobId }));
      this.deps.log.warn({ worker: lostBy, jobs, timeoutSeconds: timeout }, 'worker stopped: silent past PARLEY_WORKER_TIMEOUT_SECONDS; taking over its jobs');
      for (const job of worker.running) {
        this.remember(job.jobId, lostBy);
        await this.putBack(job, lostBy);
      }
    }
  }

  /**
   * The worker that was running `jobId` when this one took it over. Its row is gone (claimed), so
   * when pg-boss's own supervision had already put the job back (the fence then lets the fleet's
   * put-back through to nothing, and the job's output names no worker), this is where the
   * takeover line of the job's next attempt in this process finds it.
   */
  tookFrom(jobId: string): LostBy | undefined {
    return this.taken.get(jobId);
  }

  private remember(jobId: string, lostBy: LostBy): void {
    this.taken.set(jobId, lostBy);
    if (this.taken.size > 500) this.taken.delete(this.taken.keys().next().value!);
  }

  private async putBack(job: RunningJob, lostBy: LostBy): Promise<void> {
    const { boss, log } = this.deps;
    try {
      // pg-boss types the answer as an empty interface; it carries how many jobs the fence let through.
      const failed = (await boss.fail(job.job, [{ id: job.jobId, retryCount: job.retryCount }], { message: TAKEN_OVER, lostBy })) as { affected?: number };
      if (!failed.affected) return;
      // The failed attempt waits out the queue's retry delay; a dead worker's job need not.
      await boss.update(job.job, undefined, { id: job.jobId, startAfter: new Date() });
      log.warn({ job: job.job, jobId: job.jobId, retryCount: job.retryCount, record: job.record, lostBy }, 'job lease lost: its worker stopped; the job is queued again for a live worker');
    } catch (error) {
      log.warn({ err: error, job: job.job, jobId: job.jobId }, 'could not take over a job of a stopped worker (pg-boss supervision will, after its heartbeat or lease)');
    }
  }
}

/** Every worker row, live or silent, for operators. */
export async function listWorkers(db: Db, timeoutSeconds: number): Promise<WorkerView[]> {
  const rows = await db
    .select({
      row: jobWorkers,
      live: sql<boolean>`${jobWorkers.lastSeenAt} >= now() - make_interval(secs => ${timeoutSeconds})`,
    })
    .from(jobWorkers)
    .orderBy(jobWorkers.startedAt, jobWorkers.id);
  return rows.map(({ row, live }) => ({ ...row, status: live ? 'live' : 'silent' }));
}

/** Seconds since any worker was last seen, or null when no worker has a row. */
export async function secondsSinceAWorkerWasSeen(db: Db): Promise<number | null> {
  const [row] = await db
    .select({ seconds: sql<number | null>`EXTRACT(EPOCH FROM now() - max(${jobWorkers.lastSeenAt}))::float8` })
    .from(jobWorkers);
  return row?.seconds == null ? null : Number(row.seconds);
}

/** The worker whose row lists a job as running (a silent worker's row stays until it is claimed). */
export async function workerThatRan(db: Db, jobId: string): Promise<LostBy | undefined> {
  const [row] = await db
    .select({ id: jobWorkers.id, host: jobWorkers.host, pid: jobWorkers.pid, lastSeenAt: jobWorkers.lastSeenAt })
    .from(jobWorkers)
    .where(sql`${jobWorkers.running} @> ${JSON.stringify([{ jobId }])}::jsonb`)
    .limit(1);
  return row && { ...row, lastSeenAt: row.lastSeenAt.toISOString() };
}
