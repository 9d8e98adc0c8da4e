import { sql, type SQL } from 'drizzle-orm';
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
