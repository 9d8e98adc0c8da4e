import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../src/db/database.js';
import { databaseUnavailable } from '../../src/db/database-unavailable.js';
import { workspaces } from '../../src/db/schema/index.js';
import { queryRows } from '../../src/db/sql.js';
import { registered } from '../../src/jobs/job.js';
import { jobRegistry } from '../../src/jobs/registry.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { backend } from '../support/database.js';
import { makeTenant } from '../support/factories.js';
import { poll } from '../support/poll.js';
import { keyedJob, keyedRuns } from '../fixtures/test-jobs.js';

// The embedded database runs in a worker thread of its own (src/db/pglite-thread.ts). These tests
// are PGlite's only: on PostgreSQL the database is a server.
const pgliteOnly = { skip: backend !== 'pglite' ? 'PGlite only' : false };

function pglite(t: TestApp) {
  if (t.database.kind !== 'pglite') throw new Error('PGlite only');
  return t.database.pglite;
}

const article = (t: TestApp, key: string, folderId: string, title: string) =>
  t.request<{ id: string; title: string }>('POST', '/v2/hc-articles/public', {
    key,
    body: { title, mainKnowledge: `About ${title}.`, agentInstruction: '', questions: [], keywords: [], escalation: false, parentFolderId: folderId },
  });

const folder = async (t: TestApp, key: string) => {
  const created = await t.request<{ id: string }>('POST', '/v2/hc-folders/public', { key, body: { title: 'Orders', description: 'Orders and delivery' } });
  assert.equal(created.status, 201, created.text);
  return created.body.id;
};

describe('the embedded database thread', pgliteOnly, () => {
  describe('on the API process', () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp();
    });
    after(() => t.close());

    it('keeps a transaction to itself: a statement outside it waits for its COMMIT', async () => {
      const order: string[] = [];
      let inside!: () => void;
      const began = new Promise<void>((resolve) => (inside = resolve));
      const tx = t.database.db.transaction(async (db) => {
        await db.insert(workspaces).values({ name: 'tx-visible-after-commit' });
        inside();
        await sleep(200);
        order.push('commit');
      });
      await began;
      const outside = queryRows<{ count: number }>(t.database.db, sql`SELECT count(*)::int AS count FROM workspaces WHERE name = 'tx-visible-after-commit'`).then((rows) => {
        order.push('outside');
        return rows[0]!.count;
      });
      await tx;
      assert.equal(await outside, 1, 'the statement outside ran after the commit and saw its row');
      assert.deepEqual(order, ['commit', 'outside']);
    });
  });

  describe('while a query runs on its thread', () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp();
    });
    after(() => t.close());

    it('leaves the event loop free: timers fire and requests are answered while the query runs', async () => {
      // A query that does not end by itself within the test: the test ends it by stopping the thread.
      let ended = false;
      const long = queryRows(t.database.db, sql`SELECT pg_sleep(600)`).then(
        () => (ended = true),
        () => (ended = true),
      );
      await sleep(100);
      const health = await t.request('GET', '/healthz');
      assert.equal(health.status, 200);
      assert.equal(ended, false, 'the timer and the request were served while the query ran on its thread');
      await pglite(t).crashForTests();
      await long;
      assert.equal(ended, true);
    });
  });

  describe('on a folder, after a crash of its thread', () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ work: true, jobs: [...jobRegistry, registered(keyedJob)], pglite: { folder: true } });
    });
    after(() => t.close());

    it('restarts on the same folder: committed data kept, the open transaction rolled back whole, requests wait, jobs run', async () => {
      const tenant = await makeTenant(t);
      const folderId = await folder(t, tenant.key);
      const kept = await article(t, tenant.key, folderId, 'Delivery times');
      assert.equal(kept.status, 201, kept.text);

      // A transaction open when the thread dies: its first insert must not survive, its second must fail.
      let crashed!: () => void;
      const crash = new Promise<void>((resolve) => (crashed = resolve));
      const halfDone = t.database.db.transaction(async (db) => {
        await db.insert(workspaces).values({ name: 'half-written-1' });
        await crash;
        await db.insert(workspaces).values({ name: 'half-written-2' });
      });
      await sleep(50);
      await pglite(t).crashForTests();
      crashed();
      const failure = await halfDone.then(
        () => undefined,
        (error: unknown) => error,
      );
      assert.ok(databaseUnavailable(failure), `the transaction failed as unavailable: ${String(failure)}`);
      assert.equal(databaseUnavailable(failure)?.restarting, true);

      // Sent while the thread restarts: waits for it, then answers from the folder.
      const read = await t.request<{ id: string; title: string }[]>('POST', '/v2/hc-articles/ids/public', { key: tenant.key, body: { articleIds: [kept.body.id] } });
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(read.body.map((a) => a.title), ['Delivery times']);
      assert.equal(pglite(t).restarts, 1);
      assert.equal(pglite(t).running, true);

      const half = await queryRows<{ count: number }>(t.database.db, sql`SELECT count(*)::int AS count FROM workspaces WHERE name LIKE 'half-written-%'`);
      assert.equal(half[0]!.count, 0, 'nothing of the transaction open at the crash was committed');

      const written = await article(t, tenant.key, folderId, 'Returns after the restart');
      assert.equal(written.status, 201, written.text);
      assert.equal((await t.request('GET', '/readyz')).status, 200);

      // The job queue polls the new session: a job queued now runs.
      await t.queue.enqueue(t.database.db, 'test.keyed', { record: 'after-restart' });
      await poll(() => keyedRuns.some((run) => run.record === 'after-restart'), Boolean, { what: 'the job queued after the restart to run' });

    });
  });

  describe('while its thread restarts', () => {
    let t: TestApp;
    before(async () => {
      // No wait for the restart, which starts 2 s after the crash, so a request sent then meets it.
      t = await startTestApp({ pglite: { folder: true, restartWaitMs: 0, restartBackoffMs: [2000] } });
    });
    after(() => t.close());

    it('answers 503 with Retry-After, readiness says not ready, then it answers again', async () => {
      const tenant = await makeTenant(t);
      assert.equal((await t.request('GET', '/v2/hc-folders/public', { key: tenant.key })).status, 200);
      await pglite(t).crashForTests();
      const during = await t.request<Record<string, unknown>>('GET', '/v2/hc-folders/public', { key: tenant.key });
      assert.equal(during.status, 503, during.text);
      assert.deepEqual(during.body, { statusCode: 503, message: 'the embedded database is restarting; retry', error: 'Service Unavailable' });
      assert.equal(during.headers.get('retry-after'), '1');
      const ready = await t.request<{ message: string }>('GET', '/readyz');
      assert.equal(ready.status, 503);
      assert.match(ready.body.message, /embedded database is not running/);
      const back = await poll(() => t.request('GET', '/v2/hc-folders/public', { key: tenant.key }), (r) => r.status === 200, { what: 'the folders to answer after the restart' });
      assert.equal(back.status, 200);
    });
  });

  describe('in memory, after a crash of its thread', () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp();
    });
    after(() => t.close());

    it('answers 503 without Retry-After: an in-memory database cannot come back', async () => {
      const tenant = await makeTenant(t);
      await pglite(t).crashForTests();
      const answer = await t.request<Record<string, unknown>>('GET', '/v2/hc-folders/public', { key: tenant.key });
      assert.equal(answer.status, 503, answer.text);
      assert.deepEqual(answer.body, { statusCode: 503, message: 'the embedded database stopped; Parley needs a restart', error: 'Service Unavailable' });
      assert.equal(answer.headers.get('retry-after'), null);
      assert.equal(pglite(t).restarts, 0);
    });
  });

  it('fails to open with the reason when its folder cannot hold a database, without a thread left running', pgliteOnly, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-bad-folder-'));
    try {
      const file = path.join(dir, 'not-a-folder');
      writeFileSync(file, 'a file where the data folder should be');
      await assert.rejects(openDatabase({ kind: 'pglite', dataDir: file }), (error: unknown) => error instanceof Error && error.message.length > 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
