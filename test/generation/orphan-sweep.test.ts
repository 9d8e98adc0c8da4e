// A knowledge job whose queue entry vanished is failed by the sweep.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { queryRows } from '../../src/db/sql.js';
import { QUEUE_SCHEMA } from '../../src/jobs/queue.js';
import { jobNamed } from '../../src/jobs/registry.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant } from '../support/factories.js';
import { expectStatus } from '../support/security.js';
import type { KnowledgeJob } from './support.js';

describe('knowledge job orphan sweep', () => {
  let t: TestApp;
  before(async () => {
    // No worker: queued jobs stay in the queue until the test takes them out.
    t = await startTestApp({ work: false });
  });
  after(async () => {
    await t?.close();
  });

  const queued = async (id: string) =>
    (await queryRows<{ n: number }>(t.database.db, sql`SELECT count(*)::int AS n FROM ${sql.raw(QUEUE_SCHEMA)}.job WHERE id = ${id}`))[0]!.n;

  it('fails a job left IN_PROGRESS whose queue job is gone, and only that one', async () => {
    const w = await makeTenant(t);
    const start = async () =>
      (await expectStatus<{ backgroundJobId: string }>(t, 200, 'POST', '/v2/knowledge/public', w.key, { candidateKnowledge: 'Refunds take 5 days.', origin: 'generated' }))
        .backgroundJobId;
    const orphanId = await start();
    const waitingId = await start();
    assert.equal(await queued(orphanId), 1);
    assert.equal(await queued(waitingId), 1);

    // The worker died past its retries: the queue job is gone, the record says IN_PROGRESS.
    await t.database.db.execute(sql`DELETE FROM ${sql.raw(QUEUE_SCHEMA)}.job WHERE id = ${orphanId}`);
    await t.database.db.execute(sql`UPDATE knowledge_jobs SET status = 'IN_PROGRESS', started_at = now() WHERE id = ${orphanId}`);
    assert.equal(await queued(orphanId), 0);

    const now = new Date(Date.now() + 2 * 60_000);
    await jobNamed('knowledge.sweep').handler(
      {
        ports: { ...t.ports, clock: { now: () => now } },
        id: randomUUID(),
        retryCount: 0,
        signal: new AbortController().signal,
        log: pino({ level: 'silent' }),
      },
      {},
    );

    const { jobs } = await expectStatus<{ jobs: KnowledgeJob[] }>(t, 200, 'POST', '/v2/knowledge/public/jobs/status', w.key, { jobIds: [orphanId, waitingId] });
    const [orphan, waiting] = jobs as [KnowledgeJob, KnowledgeJob];
    assert.equal(orphan.id, orphanId);
    assert.equal(orphan.jobStatus, 'FAILED');
    assert.equal(orphan.error, 'processing stopped: the generation job ended without a result; queue it again');
    assert.equal(orphan.completedAt, now.toISOString());
    assert.equal(orphan.hcArticleId, null);
    assert.equal(waiting.id, waitingId);
    assert.equal(waiting.jobStatus, 'PENDING', 'a job still in the queue is left alone');
    assert.equal(waiting.error, '');
    assert.equal(waiting.completedAt, null);
  });
});
