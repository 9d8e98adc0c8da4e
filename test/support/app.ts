import { TEST_SECRET_KEY } from './keys.js';
import './network-guard.js';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { TestClock as QueueClock } from 'pg-boss';
import { buildApp } from '../../src/app.js';
import type { LlmProvider } from '../../src/ai/index.js';
import type { Clock } from '../../src/clock.js';
import { type Config, loadConfig } from '../../src/config/config.js';
import type { Database } from '../../src/db/database.js';
import { enableVectorSupport } from '../../src/db/vector.js';
import type { RegisteredJob } from '../../src/jobs/job.js';
import type { Ports } from '../../src/context.js';
import type { RegisteredListener } from '../../src/events/bus.js';
import type { Outbound } from '../../src/ingest/runtime.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { jobRegistry } from '../../src/jobs/registry.js';
import { createPorts } from '../../src/runtime.js';
import { createCpuPool } from '../../src/workers/pool.js';
import { createTestDatabase } from './database.js';
import { validateResponses, validatingResponses } from './response-validation.js';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';
export { TEST_SECRET_KEY } from './keys.js';

export interface HttpResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  /** Sent as `Authorization: Bearer <key>`. */
  key?: string;
  /** JSON-encoded with `Content-Type: application/json` unless `raw` is given. */
  body?: unknown;
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

export interface TestApp {
  url: string;
  app: FastifyInstance;
  database: Database;
  queue: JobQueue;
  config: Config;
  /** The app's ports (one set per app, as in a process). */
  ports: Ports;
  /** JSON log lines the app wrote (level debug and up). */
  logs: Record<string, unknown>[];
  request<T = unknown>(method: string, route: string, options?: RequestOptions): Promise<HttpResult<T>>;
  /**
   * Has the workers of one queue fetch at once instead of at their next poll (at least 0.5 s
   * apart): a test waiting for a job of that queue calls it each time it looks, as a faster poll would.
   */
  wakeWorkers(queue: string): void;
  /** Builds a second app (another "process") on the same database. */
  sibling(): Promise<TestApp>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment variables on top of the test defaults. */
  env?: Record<string, string>;
  jobs?: readonly RegisteredJob[];
  /** Start workers polling the queues. */
  work?: boolean;
  clock?: Clock;
  /**
   * pg-boss's own test clock for the queue (test/support/frozen-clock.ts): its timers (polls, the
   * schedules' cron pass) fire only when the test moves it, and its SQL reads the same time.
   */
  queueClock?: QueueClock;
  /** A language model in place of the configured one (a fake object, where simpler than a fake server). */
  llm?: LlmProvider;
  /** An outbound side in place of the real one. */
  outbound?: Outbound;
  /** Event listeners besides every module's (to observe domain events). */
  listeners?: readonly RegisteredListener[];
  /**
   * PGlite only: the database in a folder of the app's data folder (its thread restarts after a
   * crash) rather than in memory, and how long a statement waits for that restart.
   */
  pglite?: { folder?: boolean; restartWaitMs?: number; restartBackoffMs?: number[] };
  /**
   * Check this app's answers as PARLEY_TEST_VALIDATE_RESPONSES=1 does (test/support/response-validation.ts),
   * whatever the mode: the test then takes the mismatches itself (takeMismatches()).
   */
  validateResponses?: boolean;
}

/** Real HTTP against a real app on 127.0.0.1:0, on a fresh migrated database. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-test-'));
  const pglite = options.pglite && {
    folder: options.pglite.folder ? path.join(dataDir, 'pglite') : undefined,
    restartWaitMs: options.pglite.restartWaitMs,
    restartBackoffMs: options.pglite.restartBackoffMs,
  };
  const testDb = await createTestDatabase({ vector: Boolean(options.env?.PARLEY_LLM_EMBEDDING_MODEL), pglite });
  const built = await buildOn(testDb.database, dataDir, options);
  const close = built.close;
  built.close = async () => {
    await close();
    await testDb.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return built;
}

async function buildOn(database: Database, dataDir: string, options: TestAppOptions): Promise<TestApp> {
  const config = loadConfig({
    PARLEY_LOG_LEVEL: 'debug',
    PARLEY_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    PARLEY_DATA_DIR: dataDir,
    PARLEY_JOB_POLL_SECONDS: '0.5',
    PARLEY_JOB_SUPERVISE_SECONDS: '1',
    // Each worker polls its queue twice a second: 2 ingestion workers and 1 of every other queue
    // (instead of 8, 8 for webhooks and 4) keep an idle test app from spending its CPU on empty fetches.
    PARLEY_WORKER_CONCURRENCY: '1',
    PARLEY_INGEST_CONCURRENCY: '2',
    PARLEY_WEBHOOK_CONCURRENCY: '1',
    PARLEY_SECRET_KEY: TEST_SECRET_KEY,
    ...options.env,
  });
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: config.logLevel }, sink);
  if (config.llm.embeddingModel) await enableVectorSupport(database, logger);
  const queue = new JobQueue({ database, config, log: logger, jobs: options.jobs ?? jobRegistry, ...(options.queueClock ? { clock: options.queueClock } : {}) });
  const cpuPool = createCpuPool(config, logger);
  await queue.start();
  const ports = createPorts({ config, database, queue, log: logger, cpuPool, clock: options.clock, llm: options.llm, outbound: options.outbound, listeners: options.listeners });
  if (options.work) await queue.work(ports);
  const app = await buildApp({ ports, database });
  if (validatingResponses || options.validateResponses) validateResponses(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const request = async <T>(method: string, route: string, opts: RequestOptions = {}): Promise<HttpResult<T>> => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key !== undefined) headers.authorization = `Bearer ${opts.key}`;
    let body: string | Buffer | undefined = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${url}${route}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  };

  const self: TestApp = {
    url,
    app,
    database,
    queue,
    config,
    ports,
    logs,
    request,
    wakeWorkers: (name) => {
      for (const worker of queue.engine.getWipData()) if (worker.name === name) queue.engine.notifyWorker(worker.id);
    },
    sibling: () => buildOn(database, dataDir, options),
    close: async () => {
      await app.close();
      await queue.stop({ graceful: false, timeoutMs: 1000 });
      await ports.outbound.close();
      await cpuPool.close();
    },
  };
  return self;
}
