import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { apiKeys } from '../../src/db/schema/index.js';
import { queryRows } from '../../src/db/sql.js';
import { deadLetterName, registered } from '../../src/jobs/job.js';
import { jobRegistry } from '../../src/jobs/registry.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { withOverrides } from '../../src/config/config.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeKey, makeWorkspace } from '../support/factories.js';
import { poll } from '../support/poll.js';
import { alwaysFailsJob } from '../fixtures/test-jobs.js';

describe('background jobs', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ work: true, jobs: [...jobRegistry, registered(alwaysFailsJob)] });
  });
  after(() => t.close());

  it('enqueues inside the transaction: a rollback leaves no job, a commit does', async () => {
    let rolledBackId: string | undefined;
    await assert.rejects(
      t.database.db.transaction(async (tx) => {
        rolledBackId = await t.queue.enqueue(tx, 'test.always-fails', { note: 'rolled back' }, { startAfterSeconds: 3600 });
        throw new Error('abort the state change');
      }),
      /abort the state change/,
    );
    assert.ok(rolledBackId);
    assert.equal(await t.queue.engine.getJobById(alwaysFailsJob.name, rolledBackId), null);

    const committedId = await t.database.db.transaction((tx) =>
      t.queue.enqueue(tx, 'test.always-fails', { note: 'committed' }, { startAfterSeconds: 3600 }),
    );
    const job = await t.queue.engine.getJobById(alwaysFailsJob.name, committedId);
    assert.deepEqual(job?.data, { note: 'committed' });
    await t.queue.engine.cancel(alwaysFailsJob.name, committedId);
  });

  it('keeps a queue\'s lease as the working processes set it: a process that does not work (an API alone) leaves it', async () => {
    const lease = async () => (await t.queue.engine.getQueue('sources.ingest'))?.expireInSeconds;
    const working = await lease();
    assert.equal(working, t.config.ingest.leaseSeconds);
    const other = (leaseSeconds: number) =>
      new JobQueue({ database: t.database, config: withOverrides(t.config, { ingest: { ...t.config.ingest, leaseSeconds } }), log: t.ports.log, jobs: jobRegistry });
    const apiOnly = other(working! + 111);
    await apiOnly.start({ configureQueues: false });
    await apiOnly.stop({ graceful: false, timeoutMs: 1000 });
    assert.equal(await lease(), working, 'an API alone does not change the lease the workers set');
    const worker = other(working! + 222);
    await worker.start();
    await worker.stop({ graceful: false, timeoutMs: 1000 });
    assert.equal(await lease(), working! + 222, 'a process that works the queue sets it');
    const back = other(working!);
    await back.start();
    await back.stop({ graceful: false, timeoutMs: 1000 });
    assert.equal(await lease(), working);
  });

  it('refuses a payload that does not match the job schema', async () => {
    await assert.rejects(
      t.queue.enqueue(t.database.db, 'test.always-fails', { note: 5 } as unknown as { note: string }),
      /expected string/,
    );
  });

  it('purges keys expired or revoked before the retention period, and keeps the rest', async () => {
    const ws = await makeWorkspace(t);
    const live = await makeKey(t, ws.id);
    const recentlyRevoked = await makeKey(t, ws.id, { revoked: true });
    const oldExpired = await makeKey(t, ws.id);
    const oldRevoked = await makeKey(t, ws.id, { revoked: true });
    const longAgo = new Date(Date.now() - 31 * 24 * 3600 * 1000);
    await t.database.db.update(apiKeys).set({ expiresAt: longAgo }).where(eq(apiKeys.id, oldExpired.id));
    await t.database.db.update(apiKeys).set({ revokedAt: longAgo }).where(eq(apiKeys.id, oldRevoked.id));

    const id = await t.queue.enqueue(t.database.db, 'api-keys.purge', {});
    await poll(() => t.queue.engine.getJobById('api-keys.purge', id), (job) => job?.state === 'completed', { what: 'the purge job to complete' });
    const left = await t.database.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.workspaceId, ws.id));
    assert.deepEqual(left.map((k) => k.id).sort(), [live.id, recentlyRevoked.id].sort());
  });

  it('schedules the purge hourly', async () => {
    const schedules = await t.queue.engine.getSchedules();
    assert.ok(schedules.some((s) => s.name === 'api-keys.purge' && s.cron === '17 * * * *'));
  });

  it('sweeps the deployment-wide limits every ten minutes: ended windows go, live ones stay', async () => {
    const schedules = await t.queue.engine.getSchedules();
    assert.ok(schedules.some((s) => s.name === 'system.limits-sweep' && s.cron === '*/10 * * * *'));
    await t.database.db.execute(
      sql`INSERT INTO rate_limit_windows (bucket, started_at, count) VALUES ('key:ended', now() - interval '1 hour', 5), ('key:live', now(), 1)`,
    );
    const id = await t.queue.enqueue(t.database.db, 'system.limits-sweep', {});
    await poll(() => t.queue.engine.getJobById('system.limits-sweep', id), (job) => job?.state === 'completed', { what: 'the limits sweep to complete' });
    const left = await queryRows<{ bucket: string }>(t.database.db, sql`SELECT bucket FROM rate_limit_windows WHERE bucket LIKE 'key:%'`);
    assert.deepEqual(left.map((r) => r.bucket), ['key:live']);
  });

  it('retries a failing job with backoff, then dead-letters it', async () => {
    const id = await t.queue.enqueue(t.database.db, 'test.always-fails', { note: 'doomed' });
    const failed = await poll(() => t.queue.engine.getJobById(alwaysFailsJob.name, id), (job) => job?.state === 'failed', {
      what: 'the job to fail for good',
      timeoutMs: 30_000,
    });
    assert.ok(failed);
    assert.equal(failed.retryCount, 2);
    assert.equal(failed.retryLimit, 2);
    assert.equal(failed.retryBackoff, true);
    assert.match(JSON.stringify(failed.output), /refusing doomed/);
    const dead = await t.queue.engine.findJobs(deadLetterName(alwaysFailsJob.name), { data: { note: 'doomed' } });
    assert.equal(dead.length, 1);
  });

  it('reports queue depth and age by job name', async () => {
    await t.queue.enqueue(t.database.db, 'test.always-fails', { note: 'later' }, { startAfterSeconds: 3600 });
    const depth = await t.queue.depth();
    const waiting = depth.find((d) => d.name === alwaysFailsJob.name && d.state === 'created');
    assert.ok(waiting && waiting.count >= 1);
    const metrics = await t.request('GET', '/metrics');
    assert.match(metrics.text, /parley_job_queue_depth\{name="test\.always-fails",state="created"\} [1-9]/);
    assert.match(metrics.text, /parley_job_queue_oldest_age_seconds\{name="test\.always-fails",state="created"\} \d/);
  });
});
