import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { buildApp } from './app.js';
import { createLlm, type LlmProvider } from './ai/index.js';
import { systemClock, type Clock } from './clock.js';
import { type Config, ConfigError, withOverrides } from './config/config.js';
import { contextForOperator, inTransaction, type Ports } from './context.js';
import { EventBus, type RegisteredListener } from './events/bus.js';
import { eventListeners } from './events/registry.js';
import { createOutbound, type Outbound } from './ingest/runtime.js';
import { type Database, openDatabase, pgliteFolder } from './db/database.js';
import { hostTurnStore } from './db/limits.js';
import { acquireDataDirLock, type DataDirLock } from './db/lock.js';
import { migrateDatabase } from './db/migrate.js';
import { enableVectorSupport } from './db/vector.js';
import type { RegisteredJob } from './jobs/job.js';
import { JobQueue } from './jobs/queue.js';
import { createSecretBox, generateSecretKey, parseSecretKey } from './secrets.js';
import { jobRegistry } from './jobs/registry.js';
import { createApiKey } from './modules/api-keys/index.js';
import { auditLog } from './modules/audit/index.js';
import { type CpuPool, createCpuPool } from './workers/pool.js';
import { countWorkspaces, createWorkspace } from './modules/workspaces/index.js';

export const ADMIN_TOKEN_FILE = 'admin-token';
export const SECRET_KEY_FILE = 'secret-key';

/** The process's JSON log: on stdout, or on stderr where stdout is a protocol's (`parley mcp`). */
export function createLogger(config: Config, to: 'stdout' | 'stderr' = 'stdout'): Logger {
  const options = { level: config.logLevel, base: { pid: process.pid } };
  return to === 'stderr' ? pino(options, pino.destination(2)) : pino(options);
}

/** The admin token of an embedded data folder: PARLEY_ADMIN_TOKEN, else the one in the folder. */
export function readEmbeddedAdminToken(config: Config): string | undefined {
  if (config.adminToken) return config.adminToken;
  const file = path.join(config.dataDir, ADMIN_TOKEN_FILE);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

/** Embedded mode enables the admin API by generating a token into the data folder once. */
function ensureEmbeddedAdminToken(config: Config, log: Logger, notices: NodeJS.WritableStream): Config {
  const existing = readEmbeddedAdminToken(config);
  if (existing) return config.adminToken ? config : withOverrides(config, { adminToken: existing });
  mkdirSync(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, ADMIN_TOKEN_FILE);
  const token = `padm_${randomBytes(32).toString('base64url')}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  log.info({ file }, 'generated the admin token');
  notices.write(`Admin API token written to ${file} (mode 0600).\n`);
  return withOverrides(config, { adminToken: token });
}

/**
 * The key secrets are sealed with. PostgreSQL: PARLEY_SECRET_KEY is required, since every process
 * of a deployment must share it. Embedded: it is generated into the data folder once (mode 0600).
 */
/** The secret key in use: PARLEY_SECRET_KEY, else (embedded) the one in the data folder, else none yet. */
export function currentSecretKey(config: Config): string | undefined {
  if (config.secretKey) return config.secretKey;
  if (config.databaseUrl) return undefined;
  const file = path.join(config.dataDir, SECRET_KEY_FILE);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

/** Writes the embedded data folder's secret key (mode 0600). */
export function writeEmbeddedSecretKey(config: Config, key: string): string {
  mkdirSync(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, SECRET_KEY_FILE);
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return file;
}

function ensureSecretKey(config: Config, log: Logger): Config {
  if (config.secretKey) return config;
  if (config.databaseUrl) {
    throw new ConfigError([
      'PARLEY_SECRET_KEY: required with DATABASE_URL (every process must seal and open secrets with the same key); generate one with: openssl rand -base64 32',
    ]);
  }
  const file = path.join(config.dataDir, SECRET_KEY_FILE);
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (typeof parseSecretKey(stored) === 'string') throw new ConfigError([`${file}: not a secret key (32 bytes, base64)`]);
    return withOverrides(config, { secretKey: stored });
  }
  const key = generateSecretKey();
  writeEmbeddedSecretKey(config, key);
  log.info({ file }, 'generated the secret key');
  return withOverrides(config, { secretKey: key });
}

function secretKeyOf(config: Config): Buffer {
  const key = config.secretKey ? parseSecretKey(config.secretKey) : 'is not set';
  if (typeof key === 'string') throw new ConfigError([`PARLEY_SECRET_KEY: ${key}`]);
  return key;
}

export interface PortsOptions {
  config: Config;
  database: Database;
  queue: JobQueue;
  log: Logger;
  clock?: Clock;
  /** Threads for extraction and the built-in engine (PARLEY_CPU_THREADS), behind `llm` and `outbound`. */
  cpuPool: CpuPool;
  /** Replaces the configured model (tests pass a fake). */
  llm?: LlmProvider;
  /** Replaces the outbound side (tests pass a fake). */
  outbound?: Outbound;
  /** Listeners added to every module's (tests observe events with them). */
  listeners?: readonly RegisteredListener[];
}

/**
 * The ports of a process, built once: the database, the queue, the language model, the outbound
 * side, the event bus with every module's listeners, the clock, the log and the configuration.
 */
export function createPorts(options: PortsOptions): Ports {
  const { config, database, queue, log } = options;
  return {
    db: database.db,
    queue,
    llm: options.llm ?? createLlm(config, options.cpuPool),
    outbound: options.outbound ?? createOutbound(config, options.cpuPool, database.kind === 'postgres' ? hostTurnStore(database.db) : undefined),
    events: new EventBus([...eventListeners, ...(options.listeners ?? [])], log),
    clock: options.clock ?? systemClock,
    log,
    config,
    secrets: createSecretBox(secretKeyOf(config)),
    audit: auditLog,
  };
}

export interface Runtime {
  config: Config;
  database: Database;
  ports: Ports;
  /** The CPU pool behind the ports, closed at shutdown. */
  cpuPool: CpuPool;
  app?: FastifyInstance;
  lock?: DataDirLock;
  stop(): Promise<void>;
}

export interface RuntimeOptions {
  http: boolean;
  worker: boolean;
  jobs?: readonly RegisteredJob[];
  /** Announce the first workspace and key on an empty database (serve only). */
  bootstrap?: boolean;
  log?: Logger;
  /** Where notices for the operator go (a generated admin token); stdout unless stdout carries a protocol. */
  notices?: NodeJS.WritableStream;
}

/**
 * Opens the database (taking the data-folder lock when embedded), migrates, starts the job queue,
 * and then the HTTP API and/or the worker. `stop()` shuts down in order: stop accepting and finish
 * in-flight requests, finish running jobs, close the database, release the lock.
 */
export async function startRuntime(baseConfig: Config, options: RuntimeOptions): Promise<Runtime> {
  let config = baseConfig;
  const log = options.log ?? createLogger(config);
  let lock: DataDirLock | undefined;
  if (!config.databaseUrl) {
    lock = acquireDataDirLock(config.dataDir);
    config = ensureEmbeddedAdminToken(config, log, options.notices ?? process.stdout);
  }
  try {
    config = ensureSecretKey(config, log);
  } catch (error) {
    lock?.release();
    throw error;
  }
  let database: Database | undefined;
  try {
    database = config.databaseUrl
      ? await openDatabase({ kind: 'postgres', url: config.databaseUrl, poolMax: config.dbPoolMax })
      : await openDatabase({ kind: 'pglite', dataDir: pgliteFolder(config.dataDir), vector: Boolean(config.llm.embeddingModel), log });
    await migrateDatabase(database);
    if (config.llm.embeddingModel) await enableVectorSupport(database, log);
    const queue = new JobQueue({ database, config, log, jobs: options.jobs ?? jobRegistry });
    await queue.start({ configureQueues: options.worker });
    const cpuPool = createCpuPool(config, log);
    const ports = createPorts({ config, database, queue, log, cpuPool });
    if (options.bootstrap) await bootstrapFirstWorkspace(ports);

    const runtime: Runtime = { config, database, ports, cpuPool, lock, stop: async () => undefined };
    if (options.http) {
      const app = await buildApp({ ports, database });
      await app.listen({ host: config.host, port: config.port });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
      lock?.update({ url: `http://${host.includes(':') ? `[${host}]` : host}:${port}` });
      runtime.app = app;
    }
    if (options.worker) await queue.work(ports);

    let stopping: Promise<void> | undefined;
    runtime.stop = () => {
      stopping ??= (async () => {
        log.info('shutting down');
        if (runtime.app) await runtime.app.close();
        await queue.stop({ graceful: true, timeoutMs: config.shutdownTimeoutMs });
        await ports.outbound.close();
        await cpuPool.close();
        await database?.close();
        lock?.release();
        log.info('stopped');
      })();
      return stopping;
    };
    return runtime;
  } catch (error) {
    await database?.close().catch(() => undefined);
    lock?.release();
    throw error;
  }
}

/**
 * On an empty database, creates workspace `default`. Embedded, it also creates a read+write key
 * and shows both once on stderr, apart from the JSON log lines on stdout. On PostgreSQL no key is
 * made or shown (logs of a deployment end up in log aggregation): the CLI or the admin API makes
 * the first one, as the notice says.
 */
async function bootstrapFirstWorkspace(ports: Ports): Promise<void> {
  const { config } = ports;
  const embedded = config.databaseUrl === undefined;
  const created = await inTransaction(contextForOperator(ports), async (tx) => {
    // Serialises concurrent first starts on one PostgreSQL; a no-op cost on PGlite.
    await tx.db.execute(sql`SELECT pg_advisory_xact_lock(7415926536)`);
    if ((await countWorkspaces(tx)) > 0) return undefined;
    const workspace = await createWorkspace(tx, 'default');
    const key = embedded ? (await createApiKey(tx, workspace.id, { name: 'default', scopes: ['read', 'write'] })).key : undefined;
    return { workspace, key };
  });
  if (!created) return;
  ports.log.info({ workspaceId: created.workspace.id, apiKeyCreated: created.key !== undefined }, 'created the workspace "default"');
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const lines =
    created.key === undefined
      ? [
          '',
          `Parley created the workspace "default" (${created.workspace.id}). On PostgreSQL no API key is made at the first start;`,
          'create the first one with the CLI (or the admin API, POST /v2/admin/workspaces/{id}/api-keys):',
          '',
          `  npx parley key create --workspace ${created.workspace.id} --scopes read,write`,
          '',
        ]
      : [
          '',
          `Parley created the workspace "default" (${created.workspace.id}) and an API key with scopes read, write.`,
          'The key is shown only this once; store it now:',
          '',
          `  ${created.key}`,
          '',
          'Try it:',
          `  curl -H "Authorization: Bearer ${created.key}" http://${shownHost}:${config.port}/v2/workspace/public`,
          '',
          `API documentation: http://${shownHost}:${config.port}/docs`,
          '',
        ];
  process.stderr.write(lines.join('\n') + '\n');
}

/**
 * Runs until SIGTERM or SIGINT, then stops gracefully (a second signal exits at once). Started by
 * npm (`npx parley ...`, an npm script), it also stops when the process that started it ends: npm
 * forwards a signal only to the `sh -c` it runs Parley in, which ends without passing it on, and
 * Parley would otherwise keep serving, re-parented to PID 1 (the "stop does not stop" of an
 * operator signalling the pid npm returned).
 */
export function stopOnSignals(runtime: Runtime): void {
  let received = false;
  const stopFor = (reason: Record<string, unknown>) => {
    if (received) process.exit(1);
    received = true;
    runtime.ports.log.info(reason, 'signal received');
    runtime.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        runtime.ports.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  const onSignal = (signal: NodeJS.Signals) => stopFor({ signal });
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  const parent = process.ppid;
  const npm = runtime.config.startedByNpm;
  if (npm) {
    // Not a second signal: Ctrl-C reaches Parley and the shell npm started it in at once, and the
    // shell's end must not cut short the graceful stop the SIGINT began.
    watchParent(parent, () => {
      if (!received) stopFor({ signal: 'SIGTERM', reason: `the process that started Parley (pid ${parent}, npm ${npm}) ended` });
    });
  }
}

/** Calls `onGone` once when process `pid` no longer exists (looked at twice a second). */
function watchParent(pid: number, onGone: () => void): void {
  const timer = setInterval(() => {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') return;
      clearInterval(timer);
      onGone();
    }
  }, 500);
  timer.unref();
}
