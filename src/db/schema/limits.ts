import { integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';

// The limits a PostgreSQL deployment keeps for all its processes at once (src/db/limits.ts,
// docs/operations.md "Limits across processes"). Embedded mode keeps them in memory and leaves
// these tables empty. No workspace column: a bucket is a key id or a client address, a host a site.

/** The rate limit's window per bucket (`key:<id>`, `key:<id>:answer`, `ip:<address>`): one row each, reset in place. */
export const rateLimitWindows = pgTable('rate_limit_windows', {
  bucket: text('bucket').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
  count: integer('count').notNull(),
});

/** The earliest start of the next request to a host (politeness: the pause between two starts). */
export const politenessHosts = pgTable('politeness_hosts', {
  host: text('host').primaryKey(),
  nextStart: timestamp('next_start', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * Requests in flight to a host: slot 0 .. PARLEY_INGEST_PER_HOST-1, each leased by one request
 * (`holder`) until `expires_at`, renewed while it runs; a dead process's slot frees itself.
 */
export const politenessSlots = pgTable(
  'politeness_slots',
  {
    host: text('host').notNull(),
    slot: smallint('slot').notNull(),
    holder: text('holder').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.host, t.slot] })],
);
