import './network-guard.js';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../../src/config/config.js';
import { type Database, openDatabase } from '../../src/db/database.js';
import { migrateDatabase, migrationsFolder } from '../../src/db/migrate.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { jobRegistry } from '../../src/jobs/registry.js';

/** `postgres` when the suite runs on PostgreSQL (npm run test:pg), else PGlite. */
export const backend: 'pglite' | 'postgres' = process.env.PARLEY_TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';

export const adminDatabaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Changes with the migrations, so a stale template is never reused. */
function templateHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else hash.update(name).update(readFileSync(file));
    }
  };
  walk(migrationsFolder);
  hash.update(readFileSync(path.resolve(migrationsFolder, '../node_modules/pg-boss/package.json')));
  return hash.digest('hex').slice(0, 16);
}

/** Migrates a database and installs the job queue schema with every registered queue. */
async function prepare(database: Database): Promise<void> {
  await migrateDatabase(database);
  const config = loadConfig({ PARLEY_LOG_LEVEL: 'silent', PARLEY_DATA_DIR: os.tmpdir() });
  const queue = new JobQueue({ database, config, log: pino({ level: 'silent' }), jobs: jobRegistry });
  await queue.start();
  await queue.stop({ graceful: false, timeoutMs: 1000 });
}

/**
 * A migrated PGlite dumped once per migration set and restored per test app (~0.6 s, not ~2 s). The
 * dump is an uncompressed tar (about 40 MB in the OS temp folder): restoring it skips a gunzip of
 * ~0.3 s per app. It is read once per process.
 */
async function pgliteTemplate(): Promise<Blob> {
  const file = path.join(os.tmpdir(), `parley-test-template-${templateHash()}.tar`);
  if (!existsSync(file)) {
    const database = await openDatabase({ kind: 'pglite' });
    if (database.kind !== 'pglite') throw new Error('unreachable');
    await prepare(database);
    const dump = await database.pglite.dumpDataDir('none');
    await database.close();
    // Concurrent test processes may both build it; the rename makes whichever wins complete.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  }
  return new Blob([readFileSync(file)]);
}

/** The template of this process (a Blob is immutable, so every restore can read the same one). */
let pgliteTemplateOnce: Promise<Blob> | undefined;

function urlFor(database: string): string {
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A migrated template database on PostgreSQL, created once (under an advisory lock). */
async function postgresTemplate(admin: pg.Client): Promise<string> {
  const name = `parley_tpl_${templateHash()}`;
  await admin.query('SELECT pg_advisory_lock(7415926537)');
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) {
      const building = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS ${building}`);
      await admin.query(`CREATE DATABASE ${building}`);
      const database = await openDatabase({ kind: 'postgres', url: urlFor(building), poolMax: 2 });
      await prepare(database);
      await database.close();
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    }
  } finally {
    await admin.query('SELECT pg_advisory_unlock(7415926537)');
  }
  return name;
}

export interface TestDatabase {
  database: Database;
  /** Connection string of this test's own PostgreSQL database (postgres backend only). */
  url?: string;
  drop(): Promise<void>;
}

/**
 * A fresh migrated database for one test file: a restored PGlite, or a copy of the template.
 * `vector` loads pgvector into PGlite (as the runtime does when an embedding model is configured);
 * `pglite.folder` restores it into a folder instead of memory (a folder's database thread restarts
 * after a crash), `pglite.restartWaitMs` bounds how long a statement waits for that restart.
 */
export async function createTestDatabase(options: { vector?: boolean; pglite?: { folder?: string; restartWaitMs?: number; restartBackoffMs?: number[] } } = {}): Promise<TestDatabase> {
  if (backend === 'pglite') {
    const database = await openDatabase({
      kind: 'pglite',
      loadDataDir: await (pgliteTemplateOnce ??= pgliteTemplate()),
      vector: options.vector,
      dataDir: options.pglite?.folder,
      restartWaitMs: options.pglite?.restartWaitMs,
      restartBackoffMs: options.pglite?.restartBackoffMs,
    });
    return { database, drop: () => database.close() };
  }
  const admin = new pg.Client({ connectionString: adminDatabaseUrl });
  await admin.connect();
  try {
    const template = await postgresTemplate(admin);
    const name = `parley_t_${randomBytes(6).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    const url = urlFor(name);
    const database = await openDatabase({ kind: 'postgres', url, poolMax: 5 });
    return {
      database,
      url,
      drop: async () => {
        await database.close();
        const client = new pg.Client({ connectionString: adminDatabaseUrl });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.end();
      },
    };
  } finally {
    await admin.end();
  }
}

/** Creates an empty scratch PostgreSQL database (for process tests); returns its URL and a dropper. */
export async function createScratchPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `parley_s_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminDatabaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    url: urlFor(name),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminDatabaseUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
