import { sql } from 'drizzle-orm';
import { type DrizzleTransactionLike, fromDrizzle, fromPglite, PgBoss, type TestClock } from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Ports } from '../context.js';
import type { Database, Db } from '../db/database.js';
import { queryRows } from '../db/sql.js';
import { storableText } from '../http/text-guard.js';
import { type LostBy, TAKEN_OVER, WorkerFleet, workerThatRan } from './fleet.js';
import { deadLetterName, jobOptions, type RegisteredJob } from './job.js';
import type { JobName, JobPayloads } from './payloads.js';
import { version } from '../version.js';

/** An id no job has: a lookup that only warms pg-boss's queue cache. */
const NO_JOB = '00000000-0000-0000-0000-000000000000';

/** Why a job's last attempt ended without its own failure, by the message pg-boss or the fleet stored. */
const TAKEOVER_REASONS: Record<string, string> = {
  [TAKEN_OVER]: 'its worker stopped (silent past PARLEY_WORKER_TIMEOUT_SECONDS)',
  'job heartbeat timeout': 'its worker stopped renewing its heartbeat (killed, stopped or hung)',
  'job timed out': 'its previous attempt ran out of its lease (the worker running it stopped or hung)',
};

/** States of a job that will still run (or is running). */
const LIVE_STATES = new Set(['created', 'retry', 'active']);

/** pg-boss keeps its tables in this schema, beside Parley's own. */
export const QUEUE_SCHEMA = 'pgboss';

const DEFAULTS = {
  retryLimit: 4,
  retryDelaySeconds: 5,
  retryDelayMaxSeconds: 300,
  expireInSeconds: 15 * 60,
};

export interface EnqueueOptions {
  /** Delay before the job may start. */
  startAfterSeconds?: number;
  /** At most one queued job per key (pg-boss singleton). */
  singletonKey?: string;
  /** The key whose request queued the job: its handler's context acts on its behalf (the audit log names it). */
  onBehalfOf?: string | null;
}

/**
 * Where a job's data carries the key it acts on behalf of, beside its payload: set by enqueue,
 * taken out before the payload is parsed (src/context.ts `enqueue` passes the acting key).
 */
const ON_BEHALF_OF = '$onBehalfOf';

function withKey(data: object, keyId: string | null | undefined): object {
  return keyId ? { ...data, [ON_BEHALF_OF]: keyId } : data;
}

/** A job's stored data split into its payload and the key it acts on behalf of. */
function splitKey(data: unknown): { payload: unknown; onBehalfOf: string | null } {
  if (!(data instanceof Object) || !(ON_BEHALF_OF in data)) return { payload: data, onBehalfOf: null };
  const { [ON_BEHALF_OF]: keyId, ...payload } = data as Record<string, unknown>;
  return { payload, onBehalfOf: typeof keyId === 'string' ? keyId : null };
}

export interface QueueDepth {
  name: string;
  state: 'created' | 'retry' | 'active';
  count: number;
  oldestAgeSeconds: number;
}

export interface JobQueueDeps {
  database: Database;
  config: Config;
  log: Logger;
  jobs: readonly RegisteredJob[];
  /** pg-boss's own clock, for tests that drive the queue's timers and its schedules by hand. */
  clock?: TestClock;
}

/**
 * The background job queue: pg-boss on the same database, one queue per job name plus a
 * dead-letter queue, jobs enqueued inside the caller's transaction, workers with a lease.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly jobs = new Map<string, RegisteredJob>();
  private started = false;
  private working = false;
  private fleet: WorkerFleet | undefined;

  constructor(private readonly deps: JobQueueDeps) {
    for (const job of deps.jobs) {
      if (this.jobs.has(job.name)) throw new Error(`job ${job.name} is registered twice`);
      this.jobs.set(job.name, job);
    }
    const { database, config } = deps;
    const common = {
      schema: QUEUE_SCHEMA,
      superviseIntervalSeconds: config.jobs.superviseSeconds,
      monitorIntervalSeconds: config.jobs.superviseSeconds,
      warningSlowQuerySeconds: 30,
      ...(deps.clock ? { clock: deps.clock } : {}),
    };
    this.boss =
      database.kind === 'pglite'
        ? new PgBoss({ ...common, db: fromPglite(database.pglite), backend: 'pglite' })
        : new PgBoss({ ...common, connectionString: database.url, max: Math.max(2, Math.ceil(config.dbPoolMax / 2)) });
    this.boss.on('error', (error: unknown) => deps.log.error({ err: error }, 'job queue error'));
  }

  /**
   * Installs or migrates the queue schema and creates every queue; needed before enqueue. A queue's
   * policy (retries, the lease) is what the processes that work it say: `configureQueues: false`
   * (an API started with --no-worker) creates a missing queue but leaves an existing one's policy,
   * so the lease is set where the workers run (PARLEY_INGEST_LEASE_SECONDS and the like on them).
   */
  async start(options: { configureQueues?: boolean } = {}): Promise<void> {
    if (this.started) return;
    const configure = options.configureQueues ?? true;
    await this.boss.start();
    for (const job of this.jobs.values()) {
      const o = { ...DEFAULTS, ...jobOptions(job, this.deps.config) };
      const dead = deadLetterName(job.name);
      const deadOptions = { retryLimit: 0, retentionSeconds: 30 * 24 * 3600, deleteAfterSeconds: 30 * 24 * 3600 };
      await this.ensureQueue(dead, deadOptions, configure);
      await this.ensureQueue(job.name, {
        retryLimit: o.retryLimit,
        retryDelay: o.retryDelaySeconds,
        retryBackoff: true,
        retryDelayMax: o.retryDelayMaxSeconds,
        expireInSeconds: o.expireInSeconds,
        // A worker renews its jobs' heartbeats every PARLEY_WORKER_HEARTBEAT_SECONDS; pg-boss's
        // supervision puts back a job not renewed within twice the worker timeout, however long its
        // lease: the backstop of the fleet's own takeover (src/jobs/fleet.ts), which comes first.
        heartbeatSeconds: o.heartbeatSeconds ?? 2 * this.deps.config.jobs.workerTimeoutSeconds,
        deadLetter: dead,
      }, configure);
      if (job.schedule) await this.boss.schedule(job.name, job.schedule, {}, { tz: 'UTC' });
    }
    // Creating or updating a queue evicts it from pg-boss's queue cache, and the next enqueue
    // would fill the cache with a query on pg-boss's own connection while the caller's
    // transaction holds the database: on PGlite (one connection) that waits forever. A lookup now,
    // outside any transaction, fills the cache again.
    for (const job of this.jobs.values()) await this.boss.getJobById(job.name, NO_JOB);
    this.started = true;
  }

  private async ensureQueue(name: string, options: Parameters<PgBoss['createQueue']>[1], configure: boolean): Promise<void> {
    const existing = await this.boss.getQueue(name);
    if (!existing) await this.boss.createQueue(name, options);
    else if (configure) await this.boss.updateQueue(name, options);
  }

  /** Starts polling every registered queue in this process; handlers run on these ports. */
  async work(ports: Ports): Promise<void> {
    if (!this.started) throw new Error('start the job queue before working');
    if (this.working) return;
    this.working = true;
    const { config } = this.deps;
    const queues: Record<string, { concurrency: number; leaseSeconds: number }> = {};
    for (const job of this.jobs.values()) {
      const concurrency = job.concurrency?.(config) ?? config.jobs.concurrency;
      queues[job.name] = { concurrency, leaseSeconds: { ...DEFAULTS, ...jobOptions(job, config) }.expireInSeconds };
      await this.boss.work(
        job.name,
        {
          batchSize: 1,
          localConcurrency: concurrency,
          pollingIntervalSeconds: config.jobs.pollSeconds,
          heartbeatRefreshSeconds: config.jobs.heartbeatSeconds,
        },
        async ([item]) => {
          if (!item) return;
          try {
            await this.run(ports, job, item);
          } finally {
            // A queue that just yielded a job may hold more: its workers fetch again at once
            // instead of waiting out the poll interval (an empty fetch returns them to polling).
            this.wakeWorkers(job.name);
          }
        },
      );
    }
    this.fleet = new WorkerFleet({ db: this.deps.database.db, config, log: ports.log, boss: this.boss });
    await this.fleet.join(queues);
    // What an operator reads to know a worker is up, and what it takes (docs/operations.md).
    ports.log.info(
      {
        workerId: this.fleet.id,
        version,
        pollSeconds: config.jobs.pollSeconds,
        superviseSeconds: config.jobs.superviseSeconds,
        heartbeatSeconds: config.jobs.heartbeatSeconds,
        workerTimeoutSeconds: config.jobs.workerTimeoutSeconds,
        queues,
      },
      'job worker started',
    );
  }

  /**
   * Has this process's workers of a queue fetch at once instead of at their next poll: for work
   * whose lag counts (webhook deliveries) queued by a process that also works the queue. Does
   * nothing where this process runs no worker of it.
   */
  wake(name: JobName): void {
    this.wakeWorkers(name);
  }

  private wakeWorkers(name: string): void {
    for (const worker of this.boss.getWipData()) if (worker.name === name) this.boss.notifyWorker(worker.id);
  }

  private async run(
    ports: Ports,
    job: RegisteredJob,
    item: { id: string; data: unknown; retryCount: number; signal: AbortSignal },
  ): Promise<void> {
    const log = ports.log.child({ job: job.name, jobId: item.id, retryCount: item.retryCount });
    const { payload: data, onBehalfOf } = splitKey(item.data);
    const payload = job.payload.parse(data) as never;
    if (item.retryCount > 0) await this.sayIfTakenOver(job, item, log);
    const started = Date.now();
    await this.fleet?.began({ job: job.name, jobId: item.id, retryCount: item.retryCount, record: data, startedAt: new Date(started).toISOString() });
    try {
      await job.handler({ ports, id: item.id, name: job.name, payload, onBehalfOf, retryCount: item.retryCount, signal: item.signal, log }, payload);
      log.info({ ms: Date.now() - started }, 'job completed');
    } catch (error) {
      log.warn({ err: error, ms: Date.now() - started }, 'job attempt failed');
      // pg-boss stores the error as jsonb: text it cannot hold (a NUL quoted from a document)
      // would make recording the failure fail too, and the job would sit active until its lease ends.
      if (error instanceof Error && storableText(error.message) !== error.message) {
        throw new Error(storableText(error.message), { cause: error });
      }
      throw error;
    } finally {
      this.fleet?.ended(item.id);
    }
  }

  /**
   * A retried job whose last attempt did not end in its own failure (its worker was found dead by
   * the fleet, or pg-boss's supervision found its heartbeat or lease run out: the worker was
   * killed, stopped or hung) is being taken over by this worker: one warn line saying so, with the
   * record it works on and the worker that lost it, so an operator sees takeovers in the logs.
   */
  private async sayIfTakenOver(job: RegisteredJob, item: { id: string; data: unknown }, log: Logger): Promise<void> {
    const previous = await this.boss.getJobById(job.name, item.id).catch(() => null);
    const output = (previous?.output ?? {}) as { message?: unknown; lostBy?: LostBy; value?: { message?: unknown } };
    const message = output.message ?? output.value?.message;
    const why = TAKEOVER_REASONS[String(message)];
    if (!why) return;
    const lostBy = output.lostBy ?? this.fleet?.tookFrom(item.id) ?? (await workerThatRan(this.deps.database.db, item.id).catch(() => undefined));
    const leaseSeconds = { ...DEFAULTS, ...jobOptions(job, this.deps.config) }.expireInSeconds;
    log.warn({ record: item.data, lostBy: lostBy ?? 'unknown (its worker left no row)', leaseSeconds }, `job taken over: ${why}`);
  }

  /**
   * Adds a job by name inside the caller's transaction (or on its own when given the database),
   * after validating the payload: the job exists exactly when the state change that caused it commits.
   */
  async enqueue<Name extends JobName>(
    tx: Db,
    name: Name,
    payload: JobPayloads[Name],
    options: EnqueueOptions = {},
  ): Promise<string> {
    const job = this.registeredJob(name);
    const data = withKey(job.payload.parse(payload) as object, options.onBehalfOf);
    const id = await this.boss.send(name, data, {
      db: fromDrizzle(tx as unknown as DrizzleTransactionLike, sql),
      ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
    });
    if (!id) throw new Error(`job ${name} was not queued (singleton already queued)`);
    return id;
  }

  /**
   * Adds many jobs of one name in one statement inside the caller's transaction, each under the id
   * the caller chose (so a record can name its job before the job exists).
   */
  async enqueueMany<Name extends JobName>(tx: Db, name: Name, items: { id: string; payload: JobPayloads[Name] }[], onBehalfOf?: string | null): Promise<void> {
    const job = this.registeredJob(name);
    if (items.length === 0) return;
    const db = fromDrizzle(tx as unknown as DrizzleTransactionLike, sql);
    for (let i = 0; i < items.length; i += 500) {
      const batch = items.slice(i, i + 500).map((item) => ({ id: item.id, data: withKey(job.payload.parse(item.payload) as object, onBehalfOf) }));
      await this.boss.insert(name, batch, { db });
    }
  }

  /**
   * Runs a job on a schedule of its own per record: `key` names the record (a source id, an agent
   * id), `cron` is five fields in UTC, `payload` what each run gets, and `startAfterSeconds` delays
   * each run past its cron time (spreading records that share an expression). Scheduling a key
   * again replaces its schedule; the job's other keyed schedules and its own `schedule` stay.
   * pg-boss writes on its own connection, so call it outside a transaction (on PGlite, one
   * connection, a call inside one would wait for ever): after the commit, or from a job that
   * reconciles records with their schedules. A run's handler should check its record still wants
   * it, since a schedule outlives a record deleted meanwhile until the next reconciliation.
   */
  async scheduleFor<Name extends JobName>(
    name: Name,
    key: string,
    cron: string,
    payload: JobPayloads[Name],
    options: { startAfterSeconds?: number; tz?: string } = {},
  ): Promise<void> {
    const job = this.registeredJob(name);
    if (!key) throw new Error(`a keyed schedule of ${name} needs a key`);
    const data = job.payload.parse(payload) as object;
    const start = options.startAfterSeconds ? { startAfter: Math.round(options.startAfterSeconds) } : {};
    await this.boss.schedule(name, cron, data, { key, tz: options.tz ?? 'UTC', ...start });
  }

  /** Removes one record's schedule of a job (nothing when it has none). Outside a transaction, as scheduleFor. */
  async unscheduleFor(name: JobName, key: string): Promise<void> {
    if (!key) throw new Error(`a keyed schedule of ${name} needs a key`);
    await this.boss.unschedule(name, key);
  }

  private registeredJob(name: JobName): RegisteredJob {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`job ${name} is not registered`);
    return job;
  }

  /** Jobs waiting or running, by job name and state, with the age of the oldest. */
  async depth(): Promise<QueueDepth[]> {
    const rows = await queryRows<{ name: string; state: QueueDepth['state']; count: number; oldest: number }>(
      this.deps.database.db,
      sql.raw(`SELECT name, state::text AS state, count(*)::int AS count,
                 COALESCE(EXTRACT(EPOCH FROM now() - min(created_on)), 0)::float8 AS oldest
               FROM ${QUEUE_SCHEMA}.job WHERE state IN ('created', 'retry', 'active')
               GROUP BY name, state`),
    );
    return rows.map((r) => ({
      name: r.name,
      state: r.state,
      count: Number(r.count),
      oldestAgeSeconds: Number(r.oldest),
    }));
  }

  /** Jobs waiting whose start time has come: what a worker would take now if one ran. */
  async dueCount(): Promise<number> {
    const [row] = await queryRows<{ count: number }>(
      this.deps.database.db,
      sql.raw(`SELECT count(*)::int AS count FROM ${QUEUE_SCHEMA}.job WHERE state IN ('created', 'retry') AND start_after <= now()`),
    );
    return Number(row?.count ?? 0);
  }

  /**
   * Which of these jobs of one queue are still waiting, retrying or running: a record whose job is
   * not (its worker died past its retries) is an orphan. Through pg-boss's API, not its tables.
   */
  async liveJobIds(name: JobName, ids: readonly string[]): Promise<Set<string>> {
    const live = new Set<string>();
    for (const id of ids) {
      const [found] = await this.boss.findJobs(name, { id });
      if (found && LIVE_STATES.has(found.state)) live.add(id);
    }
    return live;
  }

  /** The pg-boss instance, for tests and operators' scripts that inspect jobs. */
  get engine(): PgBoss {
    return this.boss;
  }

  /** Stops fetching; with `graceful`, waits (up to the timeout) for running jobs to finish. */
  async stop(options: { graceful: boolean; timeoutMs: number }): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.working = false;
    // The row goes after the running jobs end (or are put back by pg-boss at the timeout), while
    // the database is still open: a worker that stops is gone, not dead.
    const fleet = this.fleet;
    this.fleet = undefined;
    try {
      await this.boss.stop({ graceful: options.graceful, timeout: options.timeoutMs, close: true });
    } finally {
      await fleet?.leave();
    }
  }
}
