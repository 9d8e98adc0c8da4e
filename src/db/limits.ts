// The SQL of the limits a PostgreSQL deployment keeps for all its processes at once: the rate
// limit's windows and the per-host politeness of the fetcher (tables in schema/limits.ts). Each
// call is one statement on the database's clock, so processes on machines whose clocks differ
// still agree. The callers (http/rate-limit.ts, ingest/crawl/shared-host-limiter.ts) own the logic.
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from './database.js';
import { rateLimitWindows } from './schema/index.js';
import { queryRows } from './sql.js';

/** A bucket's window after one more request: the count includes it. */
export interface CountedWindow {
  count: number;
  remainingMs: number;
}

/**
 * Counts `n` requests of a bucket at once, as a statement prepared once per database (node-postgres
 * sends it by name, so PostgreSQL parses and plans it once per connection: about 190 µs a statement
 * instead of 450 on a loopback database). A window starts with the first request of a bucket and
 * lasts `windowMs`; the request that finds it ended starts the next one (as the in-process counter
 * does). The row lock of the upsert serialises concurrent statements of one bucket, so counts are
 * exact: the answer is the count with these `n` included.
 */
export type RateWindowCounter = (bucket: string, windowMs: number, n?: number) => Promise<CountedWindow>;

/** The prepared count of `db` (see RateWindowCounter). */
export function rateWindowCounter(db: Db): RateWindowCounter {
  const windowMs = sql`${sql.placeholder('windowMs')}::float8 * interval '1 millisecond'`;
  const ended = sql`${rateLimitWindows.startedAt} + ${windowMs} <= statement_timestamp()`;
  const statement = db
    .insert(rateLimitWindows)
    .values({ bucket: sql.placeholder('bucket'), startedAt: sql`statement_timestamp()`, count: sql`${sql.placeholder('n')}::int` })
    .onConflictDoUpdate({
      target: rateLimitWindows.bucket,
      set: {
        startedAt: sql`CASE WHEN ${ended} THEN statement_timestamp() ELSE ${rateLimitWindows.startedAt} END`,
        count: sql`CASE WHEN ${ended} THEN excluded.count ELSE ${rateLimitWindows.count} + excluded.count END`,
      },
    })
    .returning({
      count: rateLimitWindows.count,
      remainingMs: sql<number>`(extract(epoch FROM ${rateLimitWindows.startedAt} + ${windowMs} - statement_timestamp()) * 1000)::float8`,
    })
    .prepare('parley_rate_limit_hit');
  return async (bucket, ms, n = 1) => {
    const [row] = await statement.execute({ bucket, windowMs: ms, n });
    if (!row) throw new Error('the rate-limit upsert returned no row');
    // A statement that started a few µs before the one that began the window may end after it.
    return { count: Number(row.count), remainingMs: Math.min(ms, Number(row.remainingMs)) };
  };
}

/** A request's turn at a host: the slot it holds and how long to wait for its reserved start. */
export interface HostTurn {
  slot: number;
  waitMs: number;
}

export interface HostTurnRequest {
  host: string;
  /** Requests in flight at once to the host, over every process. */
  perHost: number;
  /** Pause between two starts on the host (this request's: a Crawl-delay may raise it). */
  delayMs: number;
  /** How long the slot is held unless renewed (a dead process's slot frees itself after it). */
  leaseMs: number;
  /** Unique to this request, so a late release never frees a slot someone else took over. */
  holder: string;
}

/**
 * Takes a free slot of the host (or one whose lease ran out) and, in the same statement, reserves
 * this request's start: the host's next start, at least now, moved on by `delayMs` for the next
 * request. Undefined when every slot is held: nothing was reserved, the caller tries again.
 */
export async function claimHostTurn(db: Db, turn: HostTurnRequest): Promise<HostTurn | undefined> {
  const delay = sql`${turn.delayMs}::float8 * interval '1 millisecond'`;
  const [row] = await queryRows<{ slot: number; wait_ms: number }>(
    db,
    sql`WITH free AS (
          SELECT s.slot FROM generate_series(0, ${turn.perHost - 1}::int) AS s(slot)
          WHERE NOT EXISTS (
            SELECT 1 FROM politeness_slots p WHERE p.host = ${turn.host} AND p.slot = s.slot AND p.expires_at > clock_timestamp())
          ORDER BY s.slot LIMIT 1
        ), claimed AS (
          INSERT INTO politeness_slots AS p (host, slot, holder, expires_at)
          SELECT ${turn.host}, slot::smallint, ${turn.holder}, clock_timestamp() + ${turn.leaseMs}::float8 * interval '1 millisecond' FROM free
          ON CONFLICT (host, slot) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
            WHERE p.expires_at <= clock_timestamp()
          RETURNING p.slot
        ), reserved AS (
          INSERT INTO politeness_hosts AS h (host, next_start)
          SELECT ${turn.host}, clock_timestamp() + ${delay} FROM claimed
          ON CONFLICT (host) DO UPDATE SET next_start = greatest(h.next_start, clock_timestamp()) + ${delay}
          RETURNING h.next_start
        )
        SELECT claimed.slot, (extract(epoch FROM reserved.next_start - ${delay} - clock_timestamp()) * 1000)::float8 AS wait_ms
        FROM claimed, reserved`,
  );
  return row ? { slot: Number(row.slot), waitMs: Math.max(0, Number(row.wait_ms)) } : undefined;
}

/** Extends a held slot's lease while its request runs; false when it was lost (taken over). */
export async function renewHostSlot(db: Db, host: string, slot: number, holder: string, leaseMs: number): Promise<boolean> {
  const rows = await queryRows<{ slot: number }>(
    db,
    sql`UPDATE politeness_slots SET expires_at = clock_timestamp() + ${leaseMs}::float8 * interval '1 millisecond'
        WHERE host = ${host} AND slot = ${slot} AND holder = ${holder} RETURNING slot`,
  );
  return rows.length > 0;
}

/** Frees a slot this holder still holds. */
export async function releaseHostSlot(db: Db, host: string, slot: number, holder: string): Promise<void> {
  await db.execute(sql`DELETE FROM politeness_slots WHERE host = ${host} AND slot = ${slot} AND holder = ${holder}`);
}

/** The politeness slots and starts of a database, as the shared host limiter takes them (ingest/ runs no SQL). */
export interface HostTurnStore {
  claim(turn: HostTurnRequest): Promise<HostTurn | undefined>;
  renew(host: string, slot: number, holder: string, leaseMs: number): Promise<boolean>;
  release(host: string, slot: number, holder: string): Promise<void>;
}

/** The store of `db` for SharedHostLimiter. */
export function hostTurnStore(db: Db): HostTurnStore {
  return {
    claim: (turn) => claimHostTurn(db, turn),
    renew: (host, slot, holder, leaseMs) => renewHostSlot(db, host, slot, holder, leaseMs),
    release: (host, slot, holder) => releaseHostSlot(db, host, slot, holder),
  };
}

/** Rows of the limit tables deleted by a sweep. */
export interface LimitsSwept {
  windows: number;
  hosts: number;
  slots: number;
}

/**
 * Deletes what no request will read again: windows ended (a bucket's next request starts a new
 * one), slots whose lease ran out (their process died) and hosts whose next start has passed.
 */
export async function sweepLimits(db: Db, windowMs: number): Promise<LimitsSwept> {
  const count = async (query: SQL) => (await queryRows<{ n: number }>(db, query))[0]?.n ?? 0;
  const windows = await count(
    sql`WITH gone AS (DELETE FROM rate_limit_windows WHERE started_at + ${windowMs}::float8 * interval '1 millisecond' < now() RETURNING 1)
        SELECT count(*)::int AS n FROM gone`,
  );
  const slots = await count(sql`WITH gone AS (DELETE FROM politeness_slots WHERE expires_at < now() RETURNING 1) SELECT count(*)::int AS n FROM gone`);
  const hosts = await count(
    sql`WITH gone AS (
          DELETE FROM politeness_hosts h WHERE h.next_start < now()
            AND NOT EXISTS (SELECT 1 FROM politeness_slots p WHERE p.host = h.host)
          RETURNING 1)
        SELECT count(*)::int AS n FROM gone`,
  );
  return { windows, hosts, slots };
}
