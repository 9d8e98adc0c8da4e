import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeSite, hangsOnce, html, startFakeSite } from '../support/fake-site.js';
import { poll } from '../support/poll.js';
import { firstKey, freePort, type Proc, processTestEnv, spawnScript, stop } from '../support/processes.js';


interface Doc { id: string; linkedJobStatus: string; linkedJobId: string; success: boolean; error: string; paragraphs: string[] }

describe('source ingestion survives a killed worker', { timeout: 120_000 }, () => {
  let env: Record<string, string | undefined>;
  let cleanup: () => Promise<void>;
  let site: FakeSite;
  before(async () => {
    ({ env, cleanup } = await processTestEnv('parley-ingest-kill-', {
      PARLEY_FETCH_ALLOW_PRIVATE: 'true',
      PARLEY_INGEST_HOST_DELAY_MS: '0',
      // The lease stays long (the first process never retries its own job, however loaded the
      // machine): the second process takes the job over because the first stopped beating.
      PARLEY_WORKER_HEARTBEAT_SECONDS: '2',
      PARLEY_WORKER_TIMEOUT_SECONDS: '10',
    }));
    site = await startFakeSite();
  });
  after(async () => {
    await site.close();
    await cleanup();
  });

  it('retries the job of a worker killed mid-fetch on another process, and the record ends COMPLETED', async () => {
    const article = hangsOnce(html('Survivor', 'This page was fetched by the second worker after the first one died.'));
    site.set('/article', article.page);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let first: Proc | undefined = spawnScript('src/main.ts', ['serve', '--port', String(port)], env);
    let second: Proc | undefined;
    try {
      await first.waitForOutput(/Server listening/);
      const key = await firstKey(first, env);
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const res = await fetch(`${base}/v2/documents/public`, { method: 'POST', headers, body: JSON.stringify({ documentIdsToAdd: [site.url('/article')] }) });
      assert.equal(res.status, 202);
      const id = ((await res.json()) as { addedDocumentIds: string[] }).addedDocumentIds[0]!;
      await article.started;
      const during = (await (await fetch(`${base}/v2/documents/public/${id}`, { headers })).json()) as Doc;
      assert.equal(during.linkedJobStatus, 'IN_PROGRESS');
      const firstPid = first.child.pid;
      await stop(first, 'SIGKILL');
      first = undefined;

      second = spawnScript('src/main.ts', ['serve', '--port', String(port)], env);
      await second.waitForOutput(/Server listening/);
      const doc = await poll(
        async () => (await (await fetch(`${base}/v2/documents/public/${id}`, { headers })).json()) as Doc,
        (d) => d.linkedJobStatus === 'COMPLETED' || d.linkedJobStatus === 'FAILED',
        { what: `source ${id} on the second process`, timeoutMs: 60_000, intervalMs: 250 },
      );
      assert.equal(doc.linkedJobStatus, 'COMPLETED', doc.error);
      assert.equal(doc.linkedJobId, during.linkedJobId);
      assert.equal(doc.success, true);
      assert.ok(doc.paragraphs.some((p) => p.includes('second worker')));
      assert.equal(article.attempts(), 2);
      const takeover = second.output().split('\n').find((line) => line.includes('job taken over'));
      assert.ok(takeover, `the second process says it took the job over:\n${second.output().slice(-3000)}`);
      const line = JSON.parse(takeover) as { level: number; jobId: string; retryCount: number; record: { sourceId: string }; lostBy: { pid: number }; msg: string };
      assert.deepEqual(
        [line.level, line.jobId, line.retryCount, line.record.sourceId, line.lostBy.pid],
        [40, during.linkedJobId, 1, id, firstPid],
        'a warn line naming the job, its attempt, its record and the worker that lost it',
      );
      assert.match(line.msg, /its worker stopped/);
      assert.match(second.output(), /"msg":"job worker started"/, 'the worker says it started');
    } finally {
      if (first) await stop(first, 'SIGKILL');
      if (second) await stop(second, 'SIGKILL');
    }
  });
});
