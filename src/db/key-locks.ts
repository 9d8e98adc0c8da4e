import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { clientOf, type Db } from './database.js';
import * as schema from './schema/index.js';

/** Per database: the tail of each key's queue of holders in this process. */
const queues = new WeakMap<object, Map<string, Promise<void>>>();

/**
 * Runs `fn` holding an exclusive lock on each of `keys`, outside any transaction, so that work
 * which must not overlap (a read, a model call, then a write based on that read) can wait for the
 * previous holder without a transaction open across the model call. In this process the holders
 * of a key queue in order; on PostgreSQL a session advisory lock (`pg_advisory_lock`) also shuts
 * out other processes, on a connection of its own that `fn` gets as its database (so a holder
 * never waits for a second connection of the pool), and that a dead process's connection
 * releases. PGlite is one process (db/lock.ts), so the queue is the whole lock there. Keys are
 * taken in sorted order: two holders of overlapping sets cannot deadlock.
 */
export async function withLocks<T>(db: Db, keys: readonly string[], fn: (db: Db) => Promise<T>): Promise<T> {
  const sorted = [...new Set(keys)].sort();
  if (sorted.length === 0) return fn(db);
  const client = clientOf(db);
  const releases: (() => void)[] = [];
  try {
    for (const key of sorted) releases.push(await queueFor(client, key));
    return client instanceof pg.Pool ? await withAdvisoryLocks(client, sorted, fn) : await fn(db);
  } finally {
    for (const release of releases.reverse()) release();
  }
}

/** Waits for the key's previous holder in this process; resolves with the release of this hold. */
async function queueFor(client: object, key: string): Promise<() => void> {
  let tails = queues.get(client);
  if (!tails) queues.set(client, (tails = new Map()));
  const previous = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = previous.then(() => held);
  tails.set(key, tail);
  await previous;
  return () => {
    release();
    if (tails.get(key) === tail) tails.delete(key);
  };
}

async function withAdvisoryLocks<T>(pool: pg.Pool, keys: string[], fn: (db: Db) => Promise<T>): Promise<T> {
  const connection = await pool.connect();
  const db = drizzlePg({ client: connection, schema }) as unknown as Db;
  let broken: Error | undefined;
  try {
    for (const key of keys) await db.execute(sql`SELECT pg_advisory_lock(hashtextextended(${key}, 0))`);
    return await fn(db);
  } finally {
    // A connection that cannot say unlock is closed instead, which ends its locks.
    await db.execute(sql`SELECT pg_advisory_unlock_all()`).catch((error: unknown) => {
      broken = error instanceof Error ? error : new Error(String(error));
    });
    connection.release(broken);
  }
}
