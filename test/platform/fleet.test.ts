// The fleet's takeover of a dead worker's jobs when pg-boss's own supervision got there first: the
// fence lets the fleet's put-back through to nothing (the job is already queued again, with an
// output that names no worker), and the dead worker's row is claimed (deleted). The worker that
// lost the job is still known to this process, for the takeover line of the job's next attempt.
// (The whole path, processes killed for real, is test/platform/workers.test.ts and
// test/sources/worker-killed.test.ts.)
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import type { PgBoss } from 'pg-boss';
import { loadConfig } from '../../src/config/config.js';
import { jobWorkers } from '../../src/db/schema/workers.js';
import { WorkerFleet } from '../../src/jobs/fleet.js';
import type { Logger } from 'pino';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

describe('the worker fleet, when supervision put a dead worker\'s job back first', () => {
  let testDb: TestDatabase;
  before(async () => {
    testDb = await createTestDatabase();
  });
  after(() => testDb.drop());

  it('claims the row, puts nothing back twice, and still names the worker that lost the job', async () => {
    const db = testDb.database.db;
    const dead = randomUUID();
    const jobId = randomUUID();
    const running = [{ job: 'source.ingest', jobId, retryCount: 0, record: { sourceId: 'src-1' }, startedAt: new Date().toISOString() }];
    await db.insert(jobWorkers).values({ id: dead, host: 'worker-a', pid: 4242, version: '0.1.0', queues: {}, running, lastSeenAt: sql`now() - interval '1 hour'` });

    const calls: string[] = [];
    const boss = {
      // The attempt was already failed by pg-boss's supervision: the fence matches no row.
      fail: async (name: string, jobs: { id: string; retryCount: number }[]) => {
        calls.push(`fail ${name} ${jobs.map((j) => `${j.id}#${j.retryCount}`).join(',')}`);
        return { affected: 0 };
      },
      update: async () => {
        calls.push('update');
      },
    } as unknown as PgBoss;
    const warnings: string[] = [];
    const log = { warn: (_fields: unknown, msg: string) => warnings.push(msg), info: () => undefined, error: () => undefined, debug: () => undefined } as unknown as Logger;
    const fleet = new WorkerFleet({ db, config: loadConfig({ PARLEY_WORKER_TIMEOUT_SECONDS: '10', PARLEY_WORKER_HEARTBEAT_SECONDS: '2' }), log, boss });
    await fleet.join({});
    try {
      assert.deepEqual(calls, [`fail source.ingest ${jobId}#0`], 'put back once, fenced to the attempt; no start-now update when the fence let nothing through');
      assert.deepEqual(await db.select().from(jobWorkers).where(eq(jobWorkers.id, dead)), [], 'the dead row is claimed');
      assert.deepEqual(warnings, ['worker stopped: silent past PARLEY_WORKER_TIMEOUT_SECONDS; taking over its jobs']);
      const lostBy = fleet.tookFrom(jobId);
      assert.deepEqual([lostBy?.id, lostBy?.host, lostBy?.pid], [dead, 'worker-a', 4242]);
      assert.equal(fleet.tookFrom(randomUUID()), undefined);
    } finally {
      await fleet.leave();
    }
  });
});
