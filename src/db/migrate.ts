import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Database } from './database.js';
import { queryRows } from './sql.js';

/** `migrations/` sits two levels above both `src/db` and `dist/db`. */
export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

/** Any constant works; it only has to be the same in every Parley process. */
const MIGRATION_LOCK_KEY = 7_415_926_535;

/** Applies pending SQL migrations. On PostgreSQL an advisory lock serialises concurrent starters. */
export async function migrateDatabase(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(drizzlePglite({ client: database.pglite as unknown as PGlite }), { migrationsFolder });
    return;
  }
  const client = await database.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migratePg(drizzlePg({ client }), { migrationsFolder });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

let journalCount: number | undefined;

function expectedMigrationCount(): number {
  if (journalCount === undefined) {
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
      entries: unknown[];
    };
    journalCount = journal.entries.length;
  }
  return journalCount;
}

export type Readiness = { ready: true } | { ready: false; reason: string };

/** Reachable database with every migration of this build applied. */
export async function checkReadiness(database: Database): Promise<Readiness> {
  if (database.kind === 'pglite' && !database.pglite.running) return { ready: false, reason: 'the embedded database is not running (its thread restarts)' };
  try {
    const [row] = await queryRows<{ count: number }>(
      database.db,
      sql`SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations`,
    );
    const applied = Number(row?.count ?? 0);
    const expected = expectedMigrationCount();
    if (applied < expected) return { ready: false, reason: `${expected - applied} migration(s) not applied` };
    return { ready: true };
  } catch {
    return { ready: false, reason: 'database unreachable or not migrated' };
  }
}
