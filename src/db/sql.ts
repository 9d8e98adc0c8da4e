import { type AnyColumn, sql, type SQL } from 'drizzle-orm';
import type { Db } from './database.js';

/** Runs raw SQL and returns its rows; both drivers answer `{ rows }`. */
export async function queryRows<Row>(db: Db, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}

/** An ILIKE pattern matching `value` anywhere; `%`, `_` and backslashes in it are taken literally. */
export function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Runs a batched delete until a batch comes back short: `batch(limit)` deletes at most `limit`
 * rows and answers how many; the total is answered. Keeps each statement (and its locks) small.
 */
export async function deleteInBatches(batch: (limit: number) => Promise<number>, limit = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await batch(limit);
    total += deleted;
    if (deleted < limit) return total;
  }
}

/** Whether the open transaction on `db` has written anything yet (PostgreSQL assigns a transaction id at its first write). */
export async function transactionWrote(db: Db): Promise<boolean> {
  const [row] = await queryRows<{ wrote: boolean }>(db, sql`SELECT pg_current_xact_id_if_assigned() IS NOT NULL AS wrote`);
  return row?.wrote === true;
}

/**
 * Rows past a keyset cursor in (createdAt, id) order: `after` it (ascending) or `before` it
 * (descending). Written as one row comparison, which PostgreSQL turns into a bound of an index on
 * (..., created_at, id); the same test written `created_at < x OR (created_at = x AND id < y)` is
 * only a filter, and a page deep in a long list read every row before it first.
 */
export function pastCursor(createdAt: AnyColumn, id: AnyColumn, at: { createdAt: Date; id: string }, side: 'after' | 'before'): SQL {
  return sql`(${createdAt}, ${id}) ${sql.raw(side === 'after' ? '>' : '<')} (${at.createdAt.toISOString()}::timestamptz, ${at.id}::uuid)`;
}
