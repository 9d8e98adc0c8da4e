import { parseArgs } from 'node:util';
import { z } from 'zod';
import { connectOperator, type OperatorClient, OperatorError } from './cli/operator.js';
import { type Config, ConfigError, loadConfig, withOverrides } from './config/config.js';
import { openDatabase, pgliteFolder, transaction } from './db/database.js';
import { DataDirLockedError, acquireDataDirLock, readLock } from './db/lock.js';
import { migrateDatabase } from './db/migrate.js';
import { AppError } from './http/errors.js';
import { JobQueue } from './jobs/queue.js';
import { jobRegistry } from './jobs/registry.js';
import { createApiKeyBodySchema } from './modules/admin/index.js';
import { workspaceNameSchema } from './modules/workspaces/index.js';
import { relayMcpOverStdio, serveMcpOverStdio, type StdioSession } from './modules/mcp/index.js';
import { rotateConnectionSecrets } from './modules/providers/index.js';
import { rotateStoredSecrets } from './modules/tools/index.js';
import { createLogger, currentSecretKey, startRuntime, stopOnSignals, writeEmbeddedSecretKey } from './runtime.js';
import { createSecretBox, parseSecretKey } from './secrets.js';

const USAGE = `Usage: parley <command> [options]

Commands:
  serve [--port N] [--no-worker]     start the HTTP API (and, unless --no-worker, the job worker)
  worker                             start a job worker only
  migrate                            apply database migrations and exit
  workspace create --name N [--json]
  workspace list [--json]
  key create --workspace ID --scopes read,write [--name N] [--expires-at ISO] [--json]
  key list --workspace ID [--json]
  key revoke --id KEY_ID
  secrets rotate --new-key KEY       re-seal every stored secret with a new key (32 bytes, base64)
  audit export [--workspace ID|none] [--since ISO] [--until ISO]
                                     the audit log as JSON lines, newest first (docs/audit.md)
  mcp [--no-worker]                  the MCP server on stdin/stdout, acting with PARLEY_API_KEY (docs/mcp.md)

Configuration comes from the environment (see .env.example). With no DATABASE_URL, Parley uses
the embedded database in PARLEY_DATA_DIR (default ./data).`;

class UsageError extends Error {}

const options = {
  port: { type: 'string' },
  'no-worker': { type: 'boolean' },
  name: { type: 'string' },
  workspace: { type: 'string' },
  scopes: { type: 'string' },
  'expires-at': { type: 'string' },
  id: { type: 'string' },
  json: { type: 'boolean' },
  'new-key': { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Flags = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

function required(flags: Flags, name: 'name' | 'workspace' | 'scopes' | 'id'): string {
  const value = flags[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

function uuidFlag(flags: Flags, name: 'workspace' | 'id'): string {
  const value = required(flags, name);
  if (!z.uuid().safeParse(value).success) throw new UsageError(`--${name} must be a UUID, got "${value}"`);
  return value;
}

function print(json: boolean | undefined, value: unknown, lines: () => string[]): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${lines().join('\n')}\n`);
}

async function withOperator<T>(config: Config, run: (client: OperatorClient) => Promise<T>): Promise<T> {
  const client = await connectOperator(config);
  try {
    return await run(client);
  } finally {
    await client.close();
  }
}

async function runWorkspace(config: Config, sub: string | undefined, flags: Flags): Promise<void> {
  if (sub === 'create') {
    const name = workspaceNameSchema.safeParse(required(flags, 'name'));
    if (!name.success) throw new UsageError('--name must be 1 to 200 characters');
    const workspace = await withOperator(config, (c) => c.createWorkspace(name.data));
    print(flags.json, workspace, () => [`created workspace ${workspace.id} "${workspace.name}"`]);
    return;
  }
  if (sub === 'list') {
    const list = await withOperator(config, (c) => c.listWorkspaces());
    print(flags.json, list, () =>
      list.length ? list.map((w) => `${w.id}  ${w.createdAt}  ${w.name}`) : ['no workspaces'],
    );
    return;
  }
  throw new UsageError('expected: workspace create | workspace list');
}

async function runKey(config: Config, sub: string | undefined, flags: Flags): Promise<void> {
  if (sub === 'create') {
    const workspaceId = uuidFlag(flags, 'workspace');
    const parsed = createApiKeyBodySchema.safeParse({
      name: flags.name,
      scopes: required(flags, 'scopes').split(',').map((s) => s.trim()).filter(Boolean),
      expiresAt: flags['expires-at'],
    });
    if (!parsed.success) {
      throw new UsageError(parsed.error.issues.map((i) => `--${String(i.path[0] ?? 'scopes')}: ${i.message}`).join('; '));
    }
    const key = await withOperator(config, (c) => c.createKey(workspaceId, parsed.data));
    print(flags.json, key, () => [
      `created API key ${key.id} "${key.name}" (scopes ${key.scopes.join(',')}` +
        `${key.expiresAt ? `, expires ${key.expiresAt}` : ''})`,
      'The key is shown only this once:',
      '',
      `  ${key.key}`,
    ]);
    return;
  }
  if (sub === 'list') {
    const workspaceId = uuidFlag(flags, 'workspace');
    const keys = await withOperator(config, (c) => c.listKeys(workspaceId));
    print(flags.json, keys, () =>
      keys.length
        ? keys.map(
            (k) =>
              `${k.id}  ${k.prefix}…  ${k.scopes.join(',').padEnd(10)}  ${k.name}` +
              `${k.revokedAt ? `  revoked ${k.revokedAt}` : ''}${k.expiresAt ? `  expires ${k.expiresAt}` : ''}`,
          )
        : ['no keys'],
    );
    return;
  }
  if (sub === 'revoke') {
    const id = uuidFlag(flags, 'id');
    const key = await withOperator(config, (c) => c.revokeKey(id));
    print(flags.json, key, () => [`revoked API key ${key.id} at ${key.revokedAt}`]);
    return;
  }
  throw new UsageError('expected: key create | key list | key revoke');
}

/** `audit export`: every entry the filters select, one JSON object a line, newest first, page by page. */
async function runAudit(config: Config, sub: string | undefined, flags: Flags): Promise<void> {
  if (sub !== 'export') throw new UsageError('expected: audit export');
  const workspace = flags.workspace;
  if (workspace !== undefined && workspace !== 'none' && !z.uuid().safeParse(workspace).success) {
    throw new UsageError(`--workspace must be a UUID or "none", got "${workspace}"`);
  }
  for (const flag of ['since', 'until'] as const) {
    const value = flags[flag];
    if (value !== undefined && Number.isNaN(new Date(value).getTime())) throw new UsageError(`--${flag} must be an ISO 8601 date-time, got "${value}"`);
  }
  await withOperator(config, async (c) => {
    let cursor: string | undefined;
    do {
      const page = await c.auditPage({ limit: '100', workspaceId: workspace, since: flags.since, until: flags.until, cursor });
      if (page.entries.length) process.stdout.write(`${page.entries.map((e) => JSON.stringify(e)).join('\n')}\n`);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  });
}

async function runMigrate(config: Config): Promise<void> {
  const log = createLogger(config);
  let release = () => undefined as void;
  if (!config.databaseUrl) {
    const running = readLock(config.dataDir);
    if (running) {
      process.stdout.write(`the running server (pid ${running.pid}) already applied the migrations at start\n`);
      return;
    }
    const lock = acquireDataDirLock(config.dataDir);
    release = () => lock.release();
  }
  try {
    const database = config.databaseUrl
      ? await openDatabase({ kind: 'postgres', url: config.databaseUrl, poolMax: 2 })
      : await openDatabase({ kind: 'pglite', dataDir: pgliteFolder(config.dataDir) });
    try {
      await migrateDatabase(database);
      const queue = new JobQueue({ database, config, log, jobs: jobRegistry });
      await queue.start();
      await queue.stop({ graceful: false, timeoutMs: 1000 });
    } finally {
      await database.close();
    }
    process.stdout.write('migrations applied\n');
  } finally {
    release();
  }
}

/**
 * Re-seals every stored secret under a new key in one transaction. Processes keep the key they
 * started with, so the embedded server must be stopped first; on PostgreSQL every process is then
 * restarted with the new PARLEY_SECRET_KEY.
 */
async function runSecrets(config: Config, sub: string | undefined, flags: Flags): Promise<void> {
  if (sub !== 'rotate') throw new UsageError('expected: secrets rotate --new-key KEY');
  const text = flags['new-key'];
  if (!text) throw new UsageError('--new-key is required (generate one with: openssl rand -base64 32)');
  const newKey = parseSecretKey(text);
  if (typeof newKey === 'string') throw new UsageError(`--new-key ${newKey}`);
  const current = currentSecretKey(config);
  const currentKey = current ? parseSecretKey(current) : undefined;
  if (typeof currentKey === 'string') throw new ConfigError([`the current secret key: ${currentKey}`]);
  let release = () => undefined as void;
  if (!config.databaseUrl) {
    const running = readLock(config.dataDir);
    if (running) throw new OperatorError(`stop the running server (pid ${running.pid}) first: it holds the current key until it stops`);
    const lock = acquireDataDirLock(config.dataDir);
    release = () => lock.release();
  }
  try {
    let steps = 0;
    let connections = 0;
    if (currentKey) {
      const database = config.databaseUrl
        ? await openDatabase({ kind: 'postgres', url: config.databaseUrl, poolMax: 2 })
        : await openDatabase({ kind: 'pglite', dataDir: pgliteFolder(config.dataDir) });
      try {
        await migrateDatabase(database);
        const [from, to] = [createSecretBox(currentKey), createSecretBox(newKey)];
        // One transaction: a value that does not open with the current key changes nothing.
        ({ steps, connections } = await transaction(database.db, async (tx) => ({
          steps: (await rotateStoredSecrets(tx, from, to, new Date())).steps,
          connections: await rotateConnectionSecrets(tx, from, to),
        })));
      } finally {
        await database.close();
      }
    }
    const next = newKey.toString('base64');
    if (!config.databaseUrl && !config.secretKey) {
      const file = writeEmbeddedSecretKey(config, next);
      process.stdout.write(`re-sealed the secrets of ${steps} step(s) and ${connections} provider connection(s); the new key is in ${file}\n`);
    } else {
      process.stdout.write(`re-sealed the secrets of ${steps} step(s) and ${connections} provider connection(s); start every process with PARLEY_SECRET_KEY=${next}\n`);
    }
  } finally {
    release();
  }
}

async function runServe(config: Config, flags: Flags, worker: boolean): Promise<void> {
  let effective = config;
  if (flags.port !== undefined) {
    const port = z.coerce.number().int().min(0).max(65535).safeParse(flags.port);
    if (!port.success) throw new UsageError('--port must be an integer from 0 to 65535');
    effective = withOverrides(config, { port: port.data });
  }
  const runtime = await startRuntime(effective, { http: true, worker, bootstrap: true });
  stopOnSignals(runtime);
}

/**
 * The MCP server on stdio, for an assistant that starts it as a child process. Nothing but the
 * protocol goes to stdout: logs and notices go to stderr. Embedded with a running server, it
 * relays to that server's POST /mcp (the server holds the data folder); otherwise it opens the
 * database itself and, unless --no-worker, works the job queue (propose_fix's iterations) as serve does.
 */
async function runMcp(config: Config, flags: Flags): Promise<void> {
  const apiKey = config.mcp.apiKey;
  if (!apiKey) throw new UsageError('PARLEY_API_KEY is required: the workspace API key the MCP server acts with');
  const log = createLogger(config, 'stderr');
  const refused = (error: unknown) => (error instanceof AppError ? new AppError(error.code, `PARLEY_API_KEY: ${error.message}`) : error);
  const running = config.databaseUrl ? undefined : readLock(config.dataDir);
  if (running?.url) {
    const session = await relayMcpOverStdio(running.url, apiKey, log).catch((error: unknown) => Promise.reject(refused(error)));
    log.info({ server: running.url }, 'MCP over stdio, relayed to the running server');
    await session.closed;
    process.exit(0);
  }
  const runtime = await startRuntime(config, { http: false, worker: !flags['no-worker'], log, notices: process.stderr });
  let session: StdioSession;
  try {
    session = await serveMcpOverStdio(runtime.ports, runtime.database, apiKey);
  } catch (error) {
    await runtime.stop();
    throw refused(error);
  }
  log.info('MCP over stdio');
  stopOnSignals(runtime);
  await session.closed;
  await runtime.stop();
  process.exit(0);
}

async function main(argv: string[]): Promise<void> {
  const { values: flags, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  const [command, sub] = positionals;
  if (flags.help || !command || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadConfig();
  switch (command) {
    case 'serve':
      return runServe(config, flags, !flags['no-worker']);
    case 'worker': {
      const runtime = await startRuntime(config, { http: false, worker: true });
      stopOnSignals(runtime);
      return;
    }
    case 'migrate':
      return runMigrate(config);
    case 'workspace':
      return runWorkspace(config, sub, flags);
    case 'key':
      return runKey(config, sub, flags);
    case 'secrets':
      return runSecrets(config, sub, flags);
    case 'mcp':
      return runMcp(config, flags);
    case 'audit':
      return runAudit(config, sub, flags);
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || (error instanceof TypeError && 'code' in error)) {
    process.stderr.write(`parley: ${error.message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof OperatorError) {
    process.stderr.write(`parley: ${error.message}\n`);
    process.exit(1);
  }
  if (error instanceof AppError) {
    process.stderr.write(`parley: ${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`parley: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
