import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { backend, createScratchPostgres } from './database.js';
import { TEST_SECRET_KEY } from './keys.js';
import { poll } from './poll.js';
import { allowedPortsEnv, allowPort, recordViolation, VIOLATION_MARKER } from './network-guard.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Proc {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
}

const guardModule = pathToFileURL(path.join(repoRoot, 'test', 'support', 'network-guard.ts')).href;

/** A free TCP port on 127.0.0.1, allowed by the network guard (a spawned process will listen on it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  server.close();
  await once(server, 'close');
  allowPort(port);
  return port;
}

/**
 * How to start a script of this repository with tsx under the network guard, allowed what this
 * process is allowed now (for a spawner of its own, such as an MCP client's stdio transport).
 */
export function scriptCommand(script: string, args: string[], env: Record<string, string | undefined>) {
  const merged: Record<string, string> = {};
  const all = { ...process.env, DATABASE_URL: undefined, PARLEY_ADMIN_TOKEN: undefined, PARLEY_TEST_GUARD_CHILD: '1', PARLEY_TEST_ALLOWED_PORTS: allowedPortsEnv(), ...env };
  for (const [name, value] of Object.entries(all)) if (value !== undefined) merged[name] = value;
  return { command: process.execPath, args: ['--import', 'tsx', '--import', guardModule, path.join(repoRoot, script), ...args], cwd: repoRoot, env: merged };
}

/** Fails the current test with the network-guard violations a spawned process printed in `text`. */
export function reportViolations(script: string, text: string): void {
  for (const line of text.split('\n')) if (line.includes(VIOLATION_MARKER)) recordViolation(`in ${script}: ${line}`);
}

/**
 * Runs a script of this repository with tsx (no build step), capturing stdout and stderr. The
 * process runs under the network guard, allowed what this one is allowed now; a violation it
 * reports fails the current test here.
 */
export function spawnScript(script: string, args: string[], env: Record<string, string | undefined>): Proc {
  const command = scriptCommand(script, args, env);
  const child = spawn(command.command, command.args, { cwd: command.cwd, env: command.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const collect = (chunk: Buffer) => {
    const part = chunk.toString('utf8');
    text += part;
    reportViolations(script, part);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => text,
    exited,
    // 60 s: a process's first start creates and migrates its database, slow on a busy machine.
    waitForOutput: async (pattern, timeoutMs = 60_000) => {
      const match = await poll(() => text.match(pattern), (m) => m !== null || child.exitCode !== null, {
        what: () => `${pattern} in the output of ${script}:\n${text}`,
        timeoutMs,
      });
      if (!match) throw new Error(`did not see ${pattern} (exit ${child.exitCode}); output:\n${text}`);
      return match;
    },
  };
}

/** Runs the CLI to completion. */
export async function runCli(args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; output: string }> {
  const proc = spawnScript('src/main.ts', args, env);
  const code = await proc.exited;
  return { code, output: proc.output() };
}

/**
 * The first API key of a server started on an empty database: shown once at the first start when
 * embedded; on PostgreSQL none is made or shown (the first start names the workspace), so the CLI
 * makes one, as the notice tells an operator to.
 */
export async function firstKey(server: Proc, env: Record<string, string | undefined>): Promise<string> {
  if (backend === 'pglite') return (await server.waitForOutput(/parley_[A-Za-z0-9_-]{43}/))[0];
  const workspaceId = (await server.waitForOutput(/created the workspace "default" \(([0-9a-f-]{36})\)/))[1]!;
  const created = await runCli(['key', 'create', '--workspace', workspaceId, '--scopes', 'read,write', '--name', 'first', '--json'], env);
  if (created.code !== 0) throw new Error(`parley key create answered ${created.code}: ${created.output}`);
  return (JSON.parse(created.output) as { key: string }).key;
}

/** Sends a signal and waits for the exit code. */
export async function stop(proc: Proc, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (proc.child.exitCode !== null) return proc.child.exitCode;
  proc.child.kill(signal);
  return proc.exited;
}

/**
 * The environment of a test that spawns Parley processes: a fresh data folder, quick job polling,
 * and on the PostgreSQL run a scratch database. `cleanup` removes both.
 */
export async function processTestEnv(
  prefix: string,
  extra: Record<string, string> = {},
): Promise<{ env: Record<string, string | undefined>; dataDir: string; cleanup: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const env: Record<string, string | undefined> = {
    HOST: '127.0.0.1',
    PARLEY_DATA_DIR: dataDir,
    PARLEY_LOG_LEVEL: 'info',
    PARLEY_JOB_POLL_SECONDS: '0.5',
    PARLEY_JOB_SUPERVISE_SECONDS: '1',
    ...extra,
  };
  let drop: (() => Promise<void>) | undefined;
  if (backend === 'postgres') {
    const scratch = await createScratchPostgres();
    env.DATABASE_URL = scratch.url;
    env.PARLEY_SECRET_KEY ??= TEST_SECRET_KEY;
    drop = scratch.drop;
  }
  return {
    env,
    dataDir,
    cleanup: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      await drop?.();
    },
  };
}

/** The crawler fixtures (robots.txt, sitemaps, URL data, the Nutch test site), vendored in test/fixtures/crawl. */
export const crawlFixtures = path.join(repoRoot, 'test', 'fixtures', 'crawl');

/** JSON calls to a spawned server with a key: each answers its body and fails the test on a status of 300 or more. */
export function apiCaller(base: string, key: string) {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json()) as T;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}
