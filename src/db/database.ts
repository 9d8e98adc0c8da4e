import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { PgliteThread, type PgliteThreadOptions } from './pglite-thread.js';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/** The query interface shared by both drivers; repositories take this (or a transaction). */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export type DatabaseTarget =
  | ({ kind: 'pglite' } & PgliteThreadOptions)
  | { kind: 'postgres'; url: string; poolMax?: number };

/**
 * An open database of either kind, with the raw client kept for the job queue and for closing. PGlite
 * runs in a worker thread of its own (db/pglite-thread.ts), off the event loop of the API.
 */
export type Database =
  | { kind: 'pglite'; db: Db; pglite: PgliteThread; close(): Promise<void> }
  | { kind: 'postgres'; db: Db; pool: pg.Pool; url: string; close(): Promise<void> };

/** The embedded database lives in a subfolder, beside Parley's lock file and admin token. */
export function pgliteFolder(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

/** Opens PGlite (in a folder, or in memory from a dump) or a PostgreSQL pool. */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'pglite') {
    const pglite = await PgliteThread.open(target);
    // drizzle's PGlite driver calls query and transaction, which the thread's client answers alike.
    const db = drizzlePglite({ client: pglite as unknown as PGlite, schema }) as unknown as Db;
    return { kind: 'pglite', db, pglite, close: () => pglite.close() };
  }
  const pool = new pg.Pool({ connectionString: target.url, max: target.poolMax ?? 10 });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const client = await pool.connect();
  client.release();
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return { kind: 'postgres', db, pool, url: target.url, close: () => pool.end() };
}

/**
 * Runs `fn` in one transaction on a bare database; repositories take the transaction as their
 * `Db`. Services use `inTransaction(ctx, fn)` (context.ts), which also scopes the context's events.
 * `snapshot` reads in one consistent view (REPEATABLE READ, read only).
 */
export function transaction<T>(db: Db, fn: (tx: Db) => Promise<T>, options: { snapshot?: boolean } = {}): Promise<T> {
  const config = options.snapshot ? ({ isolationLevel: 'repeatable read', accessMode: 'read only' } as const) : undefined;
  return db.transaction((tx) => fn(tx as unknown as Db), config);
}

/** What a `Db` runs its queries on: the PostgreSQL pool, a single pg client, or PGlite. */
export function clientOf(db: Db): object {
  return (db as unknown as { $client: object }).$client;
}

/** Whether `db` is the PostgreSQL pool, where each query takes a connection of its own. */
export function isPool(db: Db): boolean {
  return clientOf(db) instanceof pg.Pool;
}

/**
 * Runs independent queries (or work that makes them) at once where each takes a connection of its
 * own, the PostgreSQL pool, and one after another on a single connection: a transaction, the
 * connection withLocks (db/key-locks.ts) hands its holder, or PGlite. node-postgres deprecates a
 * second query on a client that is running one (an error from pg@9). Answers in the tasks' order.
 */
export async function concurrentQueries<const T extends readonly (() => Promise<unknown>)[]>(
  db: Db,
  tasks: T,
): Promise<{ -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  type Results = { -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> };
  if (isPool(db)) return (await Promise.all(tasks.map((task) => task()))) as Results;
  const results: unknown[] = [];
  for (const task of tasks) results.push(await task());
  return results as Results;
}
