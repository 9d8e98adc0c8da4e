import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database, Db } from './database.js';

/**
 * Whether the `vector` extension (pgvector) works in a database. Knowledge search adds vector
 * similarity only where it does; without it (PostgreSQL built without pgvector, or PGlite opened
 * without the extension) search is full-text only. Decided once per open database at start, when
 * an embedding model is configured, and remembered for its `Db` (a transaction of it reads as
 * unavailable, so a vector query never runs inside a caller's transaction).
 */
const support = new WeakMap<Db, boolean>();

/** pgvector's limit for the `vector` type. */
export const VECTOR_MAX_DIMENSIONS = 16_000;

/**
 * Creates the extension when missing and checks that it works; logs one warning, saying why,
 * when it does not. Runs once per database; later calls answer the first result.
 */
export async function enableVectorSupport(database: Database, log: Pick<Logger, 'warn' | 'info'>): Promise<boolean> {
  const known = support.get(database.db);
  if (known !== undefined) return known;
  let reason: string | undefined;
  try {
    await database.db.execute(sql`CREATE EXTENSION IF NOT EXISTS vector`);
  } catch (error) {
    // Another process may have created it at the same moment; the check below decides.
    reason = rootMessage(error);
  }
  let available = false;
  try {
    await database.db.execute(sql`SELECT '[1,0]'::vector <=> '[0,1]'::vector`);
    available = true;
  } catch (error) {
    reason ??= rootMessage(error);
  }
  support.set(database.db, available);
  if (available) log.info('vector similarity is on: knowledge search combines full-text search and embeddings');
  else log.warn({ reason }, `vector similarity is off: the "vector" extension is unavailable (${reason}); knowledge search uses full-text search only`);
  return available;
}

/** The database's own words: drizzle wraps them in "Failed query: ..." with the driver error as cause. */
function rootMessage(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(error);
}

/** True when enableVectorSupport found the extension working for this database handle. */
export function hasVectorSupport(db: Db): boolean {
  return support.get(db) === true;
}

/** A vector as pgvector's text form, `[x,y,...]`. */
export function vectorLiteral(values: readonly number[]): string {
  return `[${values.join(',')}]`;
}

/** Numbers a `real[]` column and a `vector` both accept: finite in single precision, at most 16,000. */
export function isStorableVector(values: readonly number[]): boolean {
  return values.length > 0 && values.length <= VECTOR_MAX_DIMENSIONS && values.every((v) => Number.isFinite(Math.fround(v)));
}
