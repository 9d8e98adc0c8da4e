// Shared helpers for benchmarks: free ports, a Parley server in a child process, scratch databases.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { generateSecretKey } from '../src/secrets.js';

/** The repository root (the folder holding bin/ and bench/). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The only host benchmarks talk to. */
export const LOOPBACK = '127.0.0.1';

/** The PostgreSQL tried when DATABASE_URL is not set. */
export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

const API_KEY_PATTERN = /parley_[A-Za-z0-9_-]{43}/;
/** bin/parley.js announces a rebuild of a stale dist/ on stderr; that is not a server problem. */
/** What bin/parley.js says while it builds, and the first start's notice: not problems. */
const BUILD_NOTICE = /^parley: (?:building|built|another process)/;
const FIRST_START_NOTICE = /^(?:Parley created the workspace|The key is shown only|Try it:|API documentation:|create the first one| {2}(?:parley_|curl -H|npx parley key create))/;
const WORKSPACE_CREATED = /Parley created the workspace "default" \(([0-9a-f-]{36})\)/;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Rejects with `message` if `promise` has not settled within `ms` milliseconds. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Asks the OS for a TCP port that is free on the loopback interface right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('could not read the free port'))));
    });
  });
}

/** Writes a run's raw results to bench/results/<name>-<timestamp>.json (with the machine) and prints where. */
export async function writeResults(name: string, startedAt: Date, results: object): Promise<void> {
  const folder = path.join(ROOT, 'bench', 'results');
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, `${name}-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  const machine = { node: process.version, cpus: os.availableParallelism(), cpuModel: os.cpus()[0]?.model };
  await writeFile(file, `${JSON.stringify({ startedAt, machine, ...results }, null, 2)}\n`);
  process.stdout.write(`\nResults written to ${path.relative(ROOT, file)}\n`);
}

/** A route that answered a benchmark's call with a non-2xx status. */
export class HttpError extends Error {
  constructor(readonly status: number, what: string, text: string) {
    super(`${what}: HTTP ${status} ${text.slice(0, 300)}`);
  }
}

/** Calls a JSON route (`headers` besides the JSON content type of a body): its parsed answer; a non-2xx is an HttpError. */
export async function callJson<T>(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new HttpError(response.status, `${method} ${new URL(url).pathname}`, text);
  return JSON.parse(text) as T;
}

/** Calls a workspace route of `server` with the key it printed. */
export function workspaceCall<T>(server: { url: string; apiKey: string }, method: string, path: string, body?: unknown): Promise<T> {
  return callJson<T>(`${server.url}${path}`, method, { authorization: `Bearer ${server.apiKey}` }, body);
}

/** Reads a positive integer from an environment variable, or returns the default. */
export function positiveIntEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

// ---------------------------------------------------------------------------------------------
// Child processes: every server started here is killed if the benchmark process exits early.

const children = new Set<ChildProcess>();

/** Sends SIGKILL to every server child still running (used on exit and on fatal errors). */
export function killAllChildren(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
}

process.once('exit', killAllChildren);

// Cleanups (temp folders, scratch databases) still pending, run by abortRun on an early exit.
const pendingCleanups = new Set<() => Promise<void>>();

/** Registers `cleanup` to run on abort; the returned function runs it once and unregisters it. */
function registerCleanup(cleanup: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  const once = () => {
    pendingCleanups.delete(once);
    done ??= cleanup();
    return done;
  };
  pendingCleanups.add(once);
  return once;
}

/** Kills the servers, runs pending cleanups (at most 10 s) and exits with `code`. */
export async function abortRun(reason: string, code: number): Promise<never> {
  process.stderr.write(`bench: ${reason}, killing the servers and cleaning up\n`);
  killAllChildren();
  const cleanups = [...pendingCleanups].map((cleanup) => cleanup().catch(() => undefined));
  await withTimeout(Promise.all(cleanups), 10_000, 'cleanup timed out').catch(() => undefined);
  process.exit(code);
}

/** On SIGINT or SIGTERM, aborts the run (call once from a benchmark's entry point). */
export function exitOnSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void abortRun(signal, 130));
  }
}

/** Log lines of the server at warn level or above, plus anything it wrote to stderr. */
export interface ServerProblems {
  logs: string[];
  stderr: string[];
}

export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when SIGTERM did not stop the server in time and it had to be killed. */
  killed: boolean;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  /** The API key the server printed when it bootstrapped the empty database. */
  readonly apiKey: string;
  readonly pid: number;
  readonly problems: ServerProblems;
  /** False once the process has exited (a crash during a run shows up here). */
  running(): boolean;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  stop(graceMs?: number): Promise<ServerExit>;
}

export interface StartServerOptions {
  /** Variables added to a clean environment (PARLEY_*, DATABASE_URL, HOST and PORT are not inherited). */
  env: Record<string, string>;
  /** Time allowed for the build (bin/parley.js rebuilds a stale dist/), migrations and readiness. */
  readyTimeoutMs?: number;
  /** Options for node itself, before bin/parley.js (e.g. --cpu-prof, which NODE_OPTIONS refuses). */
  nodeArgs?: string[];
  /** A key of the database's workspace, when the server starts on a database it bootstrapped before (it prints none then). */
  apiKey?: string;
  /** Arguments after `serve --port N`, e.g. `--no-worker` for an API process beside `parley worker`s. */
  args?: string[];
  /** Another Parley checkout (built) to run instead of this one: a reference build in the same run. */
  root?: string;
}

/** The benchmark's environment without the variables that would change how the server runs. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(
    ([name]) => !name.startsWith('PARLEY_') && !['DATABASE_URL', 'HOST', 'PORT'].includes(name),
  );
  return { ...Object.fromEntries(inherited), ...extra };
}

/** Splits a stream into lines and hands each complete line to `onLine`. */
function readLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let buffer = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffer += chunk;
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
  stream.on('end', () => {
    if (buffer) onLine(buffer);
  });
}

/** True for a pino JSON line at level warn (40) or above. */
function isProblemLog(line: string): boolean {
  if (!line.startsWith('{')) return false;
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' && parsed !== null && 'level' in parsed &&
      typeof parsed.level === 'number' && parsed.level >= 40;
  } catch {
    return false;
  }
}

/** Resolves with the exit status of a child process (immediately if it already exited). */
function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** Polls GET `url` until it answers 200; throws when `deadline` (epoch ms) passes or `failed()` reports an error. */
async function waitForOk(url: string, deadline: number, failed: () => Error | undefined): Promise<void> {
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    const failure = failed();
    if (failure) throw failure;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.status === 200) return;
      last = `HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer 200 in time (last: ${last})`);
}

/** Sends SIGTERM and waits; falls back to SIGKILL after `graceMs`. */
async function stopChild(child: ChildProcess, graceMs: number): Promise<ServerExit> {
  const done = exited(child);
  if (child.exitCode !== null || child.signalCode !== null) return { ...(await done), killed: false };
  child.kill('SIGTERM');
  try {
    return { ...(await withTimeout(done, graceMs, 'server did not stop')), killed: false };
  } catch {
    child.kill('SIGKILL');
    return { ...(await done), killed: true };
  } finally {
    children.delete(child);
  }
}

/** `parley key create` for the workspace, in the server's environment: the new key. */
async function createKeyWithCli(workspaceId: string, env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, ['bin/parley.js', 'key', 'create', '--workspace', workspaceId, '--scopes', 'read,write', '--name', 'bench', '--json'], {
    cwd: ROOT,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`parley key create exited with ${code}: ${out}`);
  return (JSON.parse(out.slice(out.indexOf('{'))) as { key: string }).key;
}

/**
 * Starts `node bin/parley.js serve` on a free loopback port, reads the API key it shows on an
 * empty database (on PostgreSQL: makes one with the CLI), and waits for GET /readyz to answer 200. Kills the child if anything fails.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://${LOOPBACK}:${port}`;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), 'bin/parley.js', 'serve', '--port', String(port), ...(options.args ?? [])], {
    cwd: options.root ?? ROOT,
    env: cleanEnv({ HOST: LOOPBACK, ...options.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const problems: ServerProblems = { logs: [], stderr: [] };
  let apiKey: string | undefined = options.apiKey;
  let workspaceId: string | undefined;
  readLines(child.stdout!, (line) => {
    if (isProblemLog(line)) problems.logs.push(line);
  });
  // The first start shows its key (embedded) or its workspace (PostgreSQL) on stderr.
  readLines(child.stderr!, (line) => {
    apiKey ??= API_KEY_PATTERN.exec(line)?.[0];
    workspaceId ??= WORKSPACE_CREATED.exec(line)?.[1];
    if (line.trim() && !BUILD_NOTICE.test(line) && !FIRST_START_NOTICE.test(line)) problems.stderr.push(line);
  });
  const failed = (): Error | undefined =>
    child.exitCode !== null || child.signalCode !== null
      ? new Error(`server exited early (code ${child.exitCode}, signal ${child.signalCode}):\n` +
          problems.stderr.slice(-20).join('\n'))
      : undefined;
  try {
    await waitForOk(`${url}/readyz`, Date.now() + (options.readyTimeoutMs ?? 180_000), failed);
    // The first start's notice is printed before the HTTP listener starts, so it is there once
    // /readyz answers. On PostgreSQL it names the workspace and the CLI makes its first key.
    if (!apiKey && workspaceId) apiKey = await createKeyWithCli(workspaceId, options.env);
    if (!apiKey) throw new Error('the server did not print an API key (was the database not empty?)');
  } catch (error) {
    await stopChild(child, 5000);
    throw error;
  }
  const key = apiKey;
  return {
    url,
    port,
    apiKey: key,
    pid: child.pid ?? -1,
    problems,
    running: () => child.exitCode === null && child.signalCode === null,
    stop: (graceMs = 30_000) => stopChild(child, graceMs),
  };
}

export interface RunningWorker {
  readonly pid: number;
  readonly problems: ServerProblems;
  running(): boolean;
  /** Sends `signal` (SIGKILL: a worker dying mid-job) and resolves once the process has exited. */
  kill(signal: NodeJS.Signals): Promise<ServerExit>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  stop(graceMs?: number): Promise<ServerExit>;
}

export interface StartWorkerOptions {
  /** Variables added to a clean environment, as for startServer (a worker needs DATABASE_URL: it has no data folder of its own to share). */
  env: Record<string, string>;
  readyTimeoutMs?: number;
  /** Called with every line the worker logs on stdout (its JSON log), for benchmarks that read its job lines. */
  onLog?: (line: string) => void;
  /** Another Parley checkout (built) to run instead of this one, as for startServer. */
  root?: string;
}

const WORKER_STARTED = /"msg":"job worker started"/;

/**
 * Starts `node bin/parley.js worker` (jobs only, no HTTP) and waits for its `job worker started`
 * line, the sign that it polls (docs/operations.md). Kills the child if it does not come.
 */
export async function startWorker(options: StartWorkerOptions): Promise<RunningWorker> {
  const child = spawn(process.execPath, ['bin/parley.js', 'worker'], {
    cwd: options.root ?? ROOT,
    env: cleanEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const problems: ServerProblems = { logs: [], stderr: [] };
  let started = false;
  readLines(child.stdout!, (line) => {
    if (WORKER_STARTED.test(line)) started = true;
    if (isProblemLog(line)) problems.logs.push(line);
    options.onLog?.(line);
  });
  readLines(child.stderr!, (line) => {
    if (line.trim() && !BUILD_NOTICE.test(line)) problems.stderr.push(line);
  });
  const deadline = Date.now() + (options.readyTimeoutMs ?? 180_000);
  while (!started) {
    const failure =
      child.exitCode !== null || child.signalCode !== null
        ? `worker exited early (code ${child.exitCode}, signal ${child.signalCode}):\n${problems.stderr.slice(-20).join('\n')}`
        : Date.now() > deadline
          ? 'worker did not log "job worker started" in time'
          : undefined;
    if (failure) {
      await stopChild(child, 5000);
      throw new Error(failure);
    }
    await sleep(100);
  }
  return {
    pid: child.pid ?? -1,
    problems,
    running: () => child.exitCode === null && child.signalCode === null,
    kill: async (signal) => {
      const done = exited(child);
      child.kill(signal);
      const exit = await done;
      children.delete(child);
      return { ...exit, killed: signal === 'SIGKILL' };
    },
    stop: (graceMs = 30_000) => stopChild(child, graceMs),
  };
}

/**
 * Imports a knowledge tree file (`POST /v2/knowledge/public/tree/persist`, one request): answers
 * the route's body and how long it took.
 */
export async function importTree<T>(server: RunningServer, csv: string): Promise<{ body: T; ms: number }> {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'tree.csv');
  const started = performance.now();
  const response = await fetch(`${server.url}/v2/knowledge/public/tree/persist`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.apiKey}` },
    body: form,
    signal: AbortSignal.timeout(600_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`tree import answered ${response.status}: ${text.slice(0, 300)}`);
  return { body: JSON.parse(text) as T, ms: performance.now() - started };
}

// ---------------------------------------------------------------------------------------------
// Data stores.

/** Creates an empty temporary folder under os.tmpdir(); `remove()` deletes it. */
export async function tempDataDir(prefix = 'parley-bench-'): Promise<{ path: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { path: dir, remove: registerCleanup(() => rm(dir, { recursive: true, force: true })) };
}

/** Throws unless `url` points at the loopback interface (benchmarks never leave the machine). */
function assertLoopback(url: URL): void {
  if (!LOOPBACK_HOSTS.has(url.hostname)) {
    throw new Error(`refusing to use PostgreSQL at ${url.hostname}: benchmarks only talk to 127.0.0.1`);
  }
}

/** Runs `work` with a connected client to `url`, always closing it. */
async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000, query_timeout: 30_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The admin URL of the PostgreSQL to benchmark: DATABASE_URL, else the default one if it answers. */
export async function findPostgres(): Promise<string | undefined> {
  const candidate = process.env.DATABASE_URL || DEFAULT_POSTGRES_URL;
  assertLoopback(new URL(candidate));
  try {
    await withClient(candidate, (client) => client.query('SELECT 1'));
    return candidate;
  } catch (error) {
    if (process.env.DATABASE_URL) throw error;
    return undefined;
  }
}

export interface ScratchDatabase {
  readonly name: string;
  readonly url: string;
  drop(): Promise<void>;
}

/** Creates an empty database `<prefix><random>` (`parley_bench_` unless given) next to `adminUrl`; `drop()` removes it. */
export async function createScratchDatabase(adminUrl: string, prefix = 'parley_bench_'): Promise<ScratchDatabase> {
  const name = `${prefix}${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: registerCleanup(async () => {
      await withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Backends: PGlite always, PostgreSQL when one is reachable.

export type BackendName = 'pglite' | 'postgres';

/** A backend to benchmark: `prepare` returns the server environment and a cleanup for afterwards. */
export interface Backend {
  readonly name: BackendName;
  prepare(): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }>;
}

/** The embedded backend: a fresh PGlite data folder under the OS temp folder. */
export function pgliteBackend(serverEnv: Record<string, string>): Backend {
  return {
    name: 'pglite',
    prepare: async () => {
      const dir = await tempDataDir();
      return { env: { ...serverEnv, PARLEY_DATA_DIR: dir.path }, cleanup: dir.remove };
    },
  };
}

/** The PostgreSQL backend: a scratch database created next to `adminUrl` and dropped afterwards. */
export function postgresBackend(adminUrl: string, serverEnv: Record<string, string>): Backend {
  return {
    name: 'postgres',
    prepare: async () => {
      const scratch = await createScratchDatabase(adminUrl);
      const dir = await tempDataDir(); // keeps the server away from ./data even though it is unused
      return {
        // PostgreSQL needs the shared secret key (a fresh one per run: nothing is kept).
        env: { PARLEY_SECRET_KEY: generateSecretKey(), ...serverEnv, DATABASE_URL: scratch.url, PARLEY_DATA_DIR: dir.path },
        cleanup: async () => {
          await scratch.drop();
          await dir.remove();
        },
      };
    },
  };
}

/**
 * The backends available on this machine: always PGlite, PostgreSQL when reachable. BENCH_BACKENDS
 * (a comma-separated list of pglite and postgres) keeps only those; postgres in it must be reachable.
 */
export async function availableBackends(serverEnv: Record<string, string>): Promise<Backend[]> {
  const chosen = (process.env.BENCH_BACKENDS ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = chosen.filter((name) => name !== 'pglite' && name !== 'postgres');
  if (unknown.length) throw new Error(`BENCH_BACKENDS lists pglite and postgres, got "${unknown.join(', ')}"`);
  if (chosen.length && !chosen.includes('postgres')) return [pgliteBackend(serverEnv)];
  const postgresUrl = await findPostgres();
  if (chosen.length) {
    if (!postgresUrl) throw new Error('BENCH_BACKENDS lists postgres, but no PostgreSQL is reachable');
    if (!chosen.includes('pglite')) return [postgresBackend(postgresUrl, serverEnv)];
  }
  if (!postgresUrl) process.stderr.write('bench: no PostgreSQL reachable, benchmarking PGlite only\n');
  return postgresUrl ? [pgliteBackend(serverEnv), postgresBackend(postgresUrl, serverEnv)] : [pgliteBackend(serverEnv)];
}

/**
 * Runs `work` against a fresh `parley serve` on a prepared backend, then stops the server and
 * cleans the backend up. A failure is recorded in `report.error` (and printed) instead of thrown,
 * so the other backends still run.
 */
export async function onServer<R extends { error?: string }>(
  backend: Backend,
  report: R,
  work: (server: RunningServer) => Promise<void>,
  extraEnv: Record<string, string> = {},
  nodeArgs: string[] = [],
  root?: string,
): Promise<R> {
  const { env, cleanup } = await backend.prepare();
  try {
    const server = await startServer({ env: { ...env, ...extraEnv }, nodeArgs, root });
    try {
      await work(server);
    } finally {
      await server.stop();
    }
  } catch (error) {
    report.error = error instanceof Error ? error.message : String(error);
    process.stderr.write(`bench: ${backend.name} failed: ${report.error}\n`);
  } finally {
    await cleanup().catch(() => undefined);
  }
  return report;
}

// ---------------------------------------------------------------------------------------------
// Ingestion benchmarks (bench/ingest, bench/providers).

/** A `parley serve` that ingests from loopback fakes at full speed. */
export function ingestServerEnv(): Record<string, string> {
  return {
    PARLEY_LOG_LEVEL: 'warn',
    PARLEY_RATE_LIMIT_MAX: '100000000',
    PARLEY_FETCH_ALLOW_PRIVATE: 'true',
    PARLEY_INGEST_CONCURRENCY: String(positiveIntEnv('BENCH_CONCURRENCY', 8)),
    PARLEY_INGEST_PER_HOST: String(positiveIntEnv('BENCH_PER_HOST', 8)),
    PARLEY_INGEST_HOST_DELAY_MS: process.env.BENCH_HOST_DELAY_MS ?? '0',
    PARLEY_JOB_POLL_SECONDS: '0.5',
  };
}

/**
 * Polls the source list until no record (of `source`, when given) is PENDING or IN_PROGRESS, as a
 * client does; answers how many failed (success=false lists both the waiting and the failed).
 */
export async function waitForIngestion(server: RunningServer, started: number, label: string, source?: string): Promise<number> {
  const headers = { authorization: `Bearer ${server.apiKey}` };
  for (let lastLog = 0; ; ) {
    const res = await fetch(`${server.url}/v2/documents/public?success=false&limit=200${source ? `&source=${source}` : ''}`, { headers });
    if (res.status !== 200) throw new Error(`listing sources answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    const list = (await res.json()) as { documents: { linkedJobStatus: string }[]; hasMore: boolean };
    const waiting = list.documents.filter((d) => d.linkedJobStatus === 'PENDING' || d.linkedJobStatus === 'IN_PROGRESS').length;
    if (waiting === 0 && !list.hasMore) return list.documents.length;
    if (performance.now() - lastLog > 5000) {
      lastLog = performance.now();
      process.stderr.write(`bench: ${label}: ${((lastLog - started) / 1000) | 0} s, at least ${waiting} waiting\n`);
    }
    if (performance.now() - started > 30 * 60_000) throw new Error(`${label}: ingestion did not finish within 30 minutes`);
    await sleep(100);
  }
}
