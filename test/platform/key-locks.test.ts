// withLocks (src/db/key-locks.ts) on a real database: holders of overlapping keys take turns,
// holders of other keys do not wait, a failing holder releases its keys, and on PostgreSQL the
// lock shuts out another process (a second pool) and is held by the connection the holder gets.
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { type Database, openDatabase } from '../../src/db/database.js';
import { withLocks } from '../../src/db/key-locks.js';
import { queryRows } from '../../src/db/sql.js';
import { backend, createTestDatabase, type TestDatabase } from '../support/database.js';
import { poll } from '../support/poll.js';

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** Holds `keys` until the returned `release` is called; `inside` settles once the holder runs. */
function hold(database: Database, keys: string[]) {
  const entered = gate();
  const leave = gate();
  const done = withLocks(database.db, keys, async (db) => {
    entered.open();
    await leave.opened;
    return db;
  });
  return { inside: entered.opened, release: leave.open, done };
}

/** Advisory locks other sessions wait for (PostgreSQL). */
async function waitingAdvisoryLocks(database: Database): Promise<number> {
  const [row] = await queryRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`);
  return row!.n;
}

describe('key locks', () => {
  let testDb: TestDatabase;
  before(async () => {
    testDb = await createTestDatabase();
  });
  after(async () => {
    await testDb.drop();
  });

  it('a holder of an overlapping set waits for the one before it; a holder of other keys does not', async () => {
    const first = hold(testDb.database, ['article:b', 'article:a']);
    await first.inside;
    let secondEntered = false;
    const second = withLocks(testDb.database.db, ['article:c', 'article:a'], async () => {
      secondEntered = true;
    });
    // Another key is free at once, while the first holder still holds its keys.
    await withLocks(testDb.database.db, ['article:z'], async () => undefined);
    for (let i = 0; i < 20; i++) await nextTurn();
    assert.equal(secondEntered, false, 'the second holder waits');
    first.release();
    await first.done;
    await second;
    assert.equal(secondEntered, true);
  });

  it('a holder that throws releases its keys', async () => {
    await assert.rejects(
      withLocks(testDb.database.db, ['article:d'], async () => {
        throw new Error('the holder failed');
      }),
      /the holder failed/,
    );
    assert.equal(await withLocks(testDb.database.db, ['article:d'], async () => 'taken'), 'taken');
  });

  const postgresOnly = backend === 'postgres' ? false : 'PostgreSQL only: PGlite is one process';
  it('on PostgreSQL the holder runs on the connection that holds the locks, and another process waits', { skip: postgresOnly }, async () => {
    const other = await openDatabase({ kind: 'postgres', url: testDb.url!, poolMax: 2 });
    try {
      const first = hold(testDb.database, ['article:e', 'article:f']);
      await first.inside;
      const held = await withLocks(testDb.database.db, ['article:g'], async (db) => {
        const [row] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted`);
        return row!.n;
      });
      assert.equal(held, 1, "the holder's connection holds its lock");

      let secondEntered = false;
      const second = withLocks(other.db, ['article:f'], async () => {
        secondEntered = true;
      });
      await poll(() => waitingAdvisoryLocks(testDb.database), (n) => n === 1, { what: 'the other process to wait for the lock', intervalMs: 20 });
      assert.equal(secondEntered, false);
      first.release();
      await first.done;
      await second;
      assert.equal(secondEntered, true);
      assert.equal(await waitingAdvisoryLocks(testDb.database), 0);
    } finally {
      await other.close();
    }
  });
});
