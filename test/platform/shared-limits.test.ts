import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { type Database, openDatabase } from '../../src/db/database.js';
import { hostTurnStore, rateWindowCounter, sweepLimits } from '../../src/db/limits.js';
import { queryRows } from '../../src/db/sql.js';
import { SharedWindowCounter } from '../../src/http/rate-limit.js';
import { SharedHostLimiter } from '../../src/ingest/crawl/shared-host-limiter.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

// The deployment-wide limits' SQL and the shared host limiter, two "processes" on one database:
// on PostgreSQL each with a connection pool of its own, on PGlite the one database (the statements
// are the same; the embedded runtime keeps its limits in memory and never uses them).

describe('deployment-wide limits in the database', () => {
  let testDb: TestDatabase;
  let other: Database;
  before(async () => {
    testDb = await createTestDatabase();
    other = testDb.url ? await openDatabase({ kind: 'postgres', url: testDb.url, poolMax: 5 }) : testDb.database;
  });
  after(async () => {
    if (other !== testDb.database) await other.close();
    await testDb.drop();
  });

  it('counts the requests of a bucket from every process in one window, exactly, and starts the next one after it', async () => {
    const counters = [rateWindowCounter(testDb.database.db), rateWindowCounter(other.db)];
    const bucket = `key:${crypto.randomUUID()}`;
    const hits = await Promise.all(Array.from({ length: 20 }, (_, i) => counters[i % 2]!(bucket, 60_000)));
    assert.deepEqual(hits.map((h) => h.count).sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i + 1));
    for (const hit of hits) assert.ok(hit.remainingMs > 0 && hit.remainingMs <= 60_000, `remaining ${hit.remainingMs}`);
    const short = `key:${crypto.randomUUID()}`;
    assert.equal((await counters[0]!(short, 200)).count, 1);
    assert.equal((await counters[1]!(short, 200)).count, 2);
    await sleep(250);
    const next = await counters[1]!(short, 200);
    assert.equal(next.count, 1, 'the window ended: the request starts the next one');
    assert.ok(next.remainingMs > 150, `a fresh window has its whole length left: ${next.remainingMs}`);
  });

  it('counts a burst of one key from two processes in fewer statements than requests, each request its own number, and refuses past the limit', async () => {
    let statements = 0;
    const counters = [testDb.database, other].map((d) => {
      const count = rateWindowCounter(d.db);
      return new SharedWindowCounter((bucket, ms, n) => ((statements += 1), count(bucket, ms, n)), 60_000, pino({ level: 'silent' }));
    });
    const burst = (bucket: string, max: number) => Promise.all(Array.from({ length: 40 }, (_, i) => counters[i % 2]!.hit(bucket, Date.now(), max)));
    const stored = async (bucket: string) => (await queryRows<{ count: number }>(testDb.database.db, sql`SELECT count FROM rate_limit_windows WHERE bucket = ${bucket}`))[0]?.count;

    const open = `key:${crypto.randomUUID()}`;
    const counts = (await burst(open, 1000)).map((w) => w.count).sort((a, b) => a - b);
    assert.deepEqual(counts, Array.from({ length: 40 }, (_, i) => i + 1), 'every request has its own number, none lost or counted twice');
    assert.equal(await stored(open), 40);
    assert.ok(statements < 40 && statements >= 2, `the requests that waited were counted together: ${statements} statements for 40 requests`);

    const limited = `key:${crypto.randomUUID()}`;
    const windows = await burst(limited, 25);
    const allowed = windows.filter((w) => w.count <= 25).map((w) => w.count).sort((a, b) => a - b);
    assert.deepEqual(allowed, Array.from({ length: 25 }, (_, i) => i + 1), 'exactly the limit is let through');
    assert.equal(windows.length - allowed.length, 15);
    // Each process, once it has seen the bucket refused, refuses it from memory: no statement.
    for (const counter of counters) assert.ok((await counter.hit(limited, Date.now(), 25)).count > 25);
    const before = statements;
    for (const counter of counters) assert.ok((await counter.hit(limited, Date.now(), 25)).count > 25);
    assert.equal(statements, before);
  });

  it('never runs more than perHost requests to a host at once over two limiters, their starts delayMs apart', async () => {
    const limiters = [testDb.database, other].map((d) => new SharedHostLimiter(hostTurnStore(d.db), { perHost: 2, delayMs: 60, pollMs: 10 }));
    const host = `site-${crypto.randomUUID()}.test`;
    let active = 0;
    let peak = 0;
    const starts: number[] = [];
    const task = async () => {
      starts.push(Date.now());
      active += 1;
      peak = Math.max(peak, active);
      await sleep(150);
      active -= 1;
    };
    // A second host is not held back by the first one's slots.
    let otherHostRan = false;
    await Promise.all([
      ...Array.from({ length: 8 }, (_, i) => limiters[i % 2]!.run(`https://${host}/page-${i}`, task)),
      limiters[0]!.run(`https://elsewhere-${crypto.randomUUID()}.test/`, async () => {
        otherHostRan = true;
      }),
    ]);
    assert.equal(peak, 2, 'two limiters sharing the database keep the host at perHost');
    assert.ok(otherHostRan);
    starts.sort((a, b) => a - b);
    const gaps = starts.slice(1).map((s, i) => s - starts[i]!);
    // The starts reserved are 60 ms apart on the database's clock; each one begins after its answer
    // reached its process, so a gap seen here is 60 ms give or take the difference of two round
    // trips. The span of the eight is what the limiters guarantee, and no two start together.
    assert.ok(starts.at(-1)! - starts[0]! >= 7 * 60 - 20, `gaps between starts: ${gaps.join(', ')}`);
    assert.ok(gaps.every((gap) => gap >= 20), `gaps between starts: ${gaps.join(', ')}`);
    const slots = await queryRows<{ n: number }>(testDb.database.db, sql`SELECT count(*)::int AS n FROM politeness_slots WHERE host = ${host}`);
    assert.equal(slots[0]?.n, 0, 'every slot is freed after its request');
  });

  it('passes results and errors through, and a longer delay for one call (a Crawl-delay) spaces it', async () => {
    const limiter = new SharedHostLimiter(hostTurnStore(testDb.database.db), { perHost: 2, delayMs: 0 });
    const host = `https://site-${crypto.randomUUID()}.test`;
    let firstStart = 0;
    let secondStart = 0;
    const first = async () => {
      firstStart = Date.now();
      return 'value';
    };
    assert.equal(await limiter.run(`${host}/a`, first, 200), 'value');
    const failing = () => {
      secondStart = Date.now();
      return Promise.reject(new Error('boom'));
    };
    await assert.rejects(limiter.run(`${host}/b`, failing), /boom/);
    // The second start is reserved 200 ms after the first on the database's clock; each begins once
    // its answer reached this process, so the gap seen here is 200 ms give or take two round trips.
    assert.ok(secondStart - firstStart >= 200 - 20, `the call after waited the first one's delay (${secondStart - firstStart} ms)`);
    assert.equal(await limiter.run(`${host}/c`, async () => 'still works'), 'still works');
  });

  it('takes over the slot of a process that died once its lease runs out, and renews the lease of a long request', async () => {
    const host = `site-${crypto.randomUUID()}.test`;
    // What a killed worker leaves behind: both slots held, leases running out in 300 ms.
    await testDb.database.db.execute(
      sql`INSERT INTO politeness_slots (host, slot, holder, expires_at) VALUES
          (${host}, 0, 'dead-0', clock_timestamp() + interval '300 milliseconds'),
          (${host}, 1, 'dead-1', clock_timestamp() + interval '300 milliseconds')`,
    );
    const limiter = new SharedHostLimiter(hostTurnStore(other.db), { perHost: 2, delayMs: 0, leaseMs: 300, pollMs: 20 });
    const started = Date.now();
    let held: readonly { holder: string }[] = [];
    await limiter.run(`https://${host}/`, async () => {
      await sleep(700); // over two leases: renewed every 100 ms, the slot stays this request's
      held = await queryRows<{ holder: string }>(other.db, sql`SELECT holder FROM politeness_slots WHERE host = ${host} AND expires_at > clock_timestamp()`);
    });
    assert.ok(Date.now() - started >= 300 - 5, 'it waited for a lease to run out');
    assert.equal(held.length, 1);
    assert.ok(!held[0]!.holder.startsWith('dead-'), 'the live request holds its slot past its first lease');
  });

  it('sweeps ended windows, expired leases and idle hosts, and keeps what is live', async () => {
    const host = `site-${crypto.randomUUID()}.test`;
    const db = testDb.database.db;
    const count = rateWindowCounter(db);
    await count('key:ended', 60_000);
    await count('key:live', 60_000);
    await db.execute(sql`UPDATE rate_limit_windows SET started_at = now() - interval '2 minutes' WHERE bucket = 'key:ended'`);
    await db.execute(
      sql`INSERT INTO politeness_slots (host, slot, holder, expires_at) VALUES (${host}, 0, 'gone', now() - interval '1 second'), (${host}, 1, 'live', now() + interval '1 minute')`,
    );
    await db.execute(
      sql`INSERT INTO politeness_hosts (host, next_start) VALUES (${host}, now() - interval '1 second'), (${`idle-${host}`}, now() - interval '1 second')`,
    );
    await sweepLimits(db, 60_000);
    const buckets = await queryRows<{ bucket: string }>(db, sql`SELECT bucket FROM rate_limit_windows WHERE bucket IN ('key:ended', 'key:live')`);
    assert.deepEqual(buckets.map((b) => b.bucket), ['key:live']);
    const slots = await queryRows<{ holder: string }>(db, sql`SELECT holder FROM politeness_slots WHERE host = ${host}`);
    assert.deepEqual(slots.map((s) => s.holder), ['live']);
    const hosts = await queryRows<{ host: string }>(db, sql`SELECT host FROM politeness_hosts WHERE host IN (${host}, ${`idle-${host}`})`);
    assert.deepEqual(hosts.map((h) => h.host), [host], 'a host with a request in flight keeps its next start');
  });
});
