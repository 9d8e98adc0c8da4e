import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backend } from '../support/database.js';
import { TEST_ADMIN_TOKEN } from '../support/app.js';
import { type FakeSite, hangsOnce, html, startFakeSite } from '../support/fake-site.js';
import { poll } from '../support/poll.js';
import { firstKey, freePort, type Proc, processTestEnv, runCli, spawnScript, stop } from '../support/processes.js';

interface Worker {
  id: string;
  pid: number;
  status: string;
  version: string;
  queues: Record<string, { concurrency: number; leaseSeconds: number }>;
  running: { job: string; jobId: string; retryCount: number; record: { sourceId?: string } }[];
}
interface Doc { linkedJobStatus: string; linkedJobId: string; error: string | null; paragraphs: string[] }

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

async function getJson<T>(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(url, { headers });
  return { status: response.status, body: (await response.json()) as T };
}

/** Every JSON log line of a process with this message. */
function logLines(proc: Proc, msg: string): Record<string, unknown>[] {
  return proc
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes(`"msg":"${msg}`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the worker fleet', { timeout: 180_000 }, () => {
  let env: Record<string, string | undefined>;
  let cleanup: () => Promise<void>;
  let site: FakeSite;
  before(async () => {
    ({ env, cleanup } = await processTestEnv('parley-fleet-', {
      PARLEY_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      PARLEY_FETCH_ALLOW_PRIVATE: 'true',
      PARLEY_INGEST_HOST_DELAY_MS: '0',
      PARLEY_WORKER_HEARTBEAT_SECONDS: '2',
      PARLEY_WORKER_TIMEOUT_SECONDS: '10',
    }));
    site = await startFakeSite({ '/returns': html('Returns', 'Items can be returned within 45 days of delivery.') });
  });
  after(async () => {
    await site.close();
    await cleanup();
  });

  it('an API without workers says degraded while a job is due; a worker lists itself, takes the job, and leaves when stopped', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let api: Proc | undefined = spawnScript('src/main.ts', ['serve', '--no-worker', '--port', String(port)], env);
    let server: Proc | undefined;
    try {
      await api.waitForOutput(/Server listening/);
      const key = await firstKey(api, env);
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      assert.deepEqual((await getJson(`${base}/readyz`)).body, { status: 'ready', database: backend }, 'nothing is due: ready');
      assert.deepEqual((await getJson(`${base}/v2/admin/workers`, admin)).body, [], 'no worker has run');
      assert.doesNotMatch(api.output(), /"msg":"job worker started"/, 'an API with --no-worker works no jobs');

      const added = await fetch(`${base}/v2/documents/public`, { method: 'POST', headers, body: JSON.stringify({ documentIdsToAdd: [site.url('/returns')] }) });
      assert.equal(added.status, 202);
      const id = ((await added.json()) as { addedDocumentIds: string[] }).addedDocumentIds[0]!;
      const degraded = await getJson<{ status: string; database: string; reason: string }>(`${base}/readyz`);
      assert.equal(degraded.status, 200, 'the API still serves');
      assert.equal(degraded.body.status, 'degraded');
      assert.match(degraded.body.reason, /^no job worker has been seen while 1 job\(s\) are due: they wait until a worker runs/);
      assert.equal(await stop(api), 0);
      api = undefined;

      // The same data with a worker: it lists itself with its queues, and takes the job.
      server = spawnScript('src/main.ts', ['serve', '--port', String(port)], env);
      await server.waitForOutput(/"msg":"job worker started"/);
      const [started] = logLines(server, 'job worker started');
      const doc = await poll(
        async () => (await getJson<Doc>(`${base}/v2/documents/public/${id}`, headers)).body,
        (d) => d.linkedJobStatus === 'COMPLETED' || d.linkedJobStatus === 'FAILED',
        { what: `source ${id}`, timeoutMs: 60_000, intervalMs: 250 },
      );
      assert.equal(doc.linkedJobStatus, 'COMPLETED', doc.error ?? '');
      const workers = (await getJson<Worker[]>(`${base}/v2/admin/workers`, admin)).body;
      assert.equal(workers.length, 1);
      const [me] = workers;
      assert.deepEqual(
        [me!.id, me!.pid, me!.status, me!.queues, me!.queues['sources.ingest']?.leaseSeconds],
        [started!.workerId, server.child.pid, 'live', started!.queues, 300],
        'the entry is the process that logged its start, with what it works',
      );
      assert.deepEqual(me!.running, [], 'the job ended, and left the entry');
      assert.deepEqual((await getJson(`${base}/readyz`)).body, { status: 'ready', database: backend });
      assert.equal((await getJson(`${base}/v2/admin/workers`)).status, 401, 'the admin token is required');
      assert.equal(await stop(server), 0);
      server = undefined;

      api = spawnScript('src/main.ts', ['serve', '--no-worker', '--port', String(port)], env);
      await api.waitForOutput(/Server listening/);
      assert.deepEqual((await getJson(`${base}/v2/admin/workers`, admin)).body, [], 'a worker that stopped removed its entry');
    } finally {
      if (api) await stop(api, 'SIGKILL');
      if (server) await stop(server, 'SIGKILL');
    }
  });

  if (backend === 'postgres') {
    it('the job of a worker killed mid-fetch is taken over by the live worker, which names the job, its record and the worker that lost it', async () => {
      const shipping = hangsOnce(html('Shipping', 'Orders ship within 2 business days.'));
      site.set('/shipping', shipping.page);
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const api = spawnScript('src/main.ts', ['serve', '--no-worker', '--port', String(port)], env);
      const workers = [spawnScript('src/main.ts', ['worker'], env), spawnScript('src/main.ts', ['worker'], env)];
      try {
        await api.waitForOutput(/Server listening/);
        for (const w of workers) await w.waitForOutput(/"msg":"job worker started"/);
        // The database is the first test's: a workspace of this test's own, with its key.
        const workspace = JSON.parse((await runCli(['workspace', 'create', '--name', 'fleet', '--json'], env)).output) as { id: string };
        const { key } = JSON.parse((await runCli(['key', 'create', '--workspace', workspace.id, '--scopes', 'read,write', '--json'], env)).output) as { key: string };
        const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
        const listed = (await getJson<Worker[]>(`${base}/v2/admin/workers`, admin)).body;
        assert.deepEqual(listed.map((w) => w.pid).sort(), workers.map((w) => w.child.pid).sort(), 'both workers are listed');

        const added = await fetch(`${base}/v2/documents/public`, { method: 'POST', headers, body: JSON.stringify({ documentIdsToAdd: [site.url('/shipping')] }) });
        const id = ((await added.json()) as { addedDocumentIds: string[] }).addedDocumentIds[0]!;
        await shipping.started;
        const holder = await poll(
          async () => (await getJson<Worker[]>(`${base}/v2/admin/workers`, admin)).body.find((w) => w.running.some((j) => j.record.sourceId === id)),
          (w) => w !== undefined,
          { what: `the worker running source ${id}`, timeoutMs: 20_000, intervalMs: 200 },
        );
        const [job] = holder!.running;
        const victim = workers.find((w) => w.child.pid === holder!.pid)!;
        const survivor = workers.find((w) => w !== victim)!;
        await stop(victim, 'SIGKILL');

        const doc = await poll(
          async () => (await getJson<Doc>(`${base}/v2/documents/public/${id}`, headers)).body,
          (d) => d.linkedJobStatus === 'COMPLETED' || d.linkedJobStatus === 'FAILED',
          { what: `source ${id} after the takeover`, timeoutMs: 90_000, intervalMs: 250 },
        );
        assert.equal(doc.linkedJobStatus, 'COMPLETED', doc.error ?? '');
        assert.ok(doc.paragraphs.some((p) => p.includes('2 business days')));
        assert.equal(shipping.attempts(), 2, 'fetched once by each worker');

        const [lost] = logLines(survivor, 'job lease lost');
        assert.ok(lost, `the survivor says it put the job back:\n${survivor.output().slice(-3000)}`);
        assert.deepEqual(
          [lost.level, lost.jobId, (lost.record as { sourceId: string }).sourceId, (lost.lostBy as { id: string; pid: number }).id, (lost.lostBy as { pid: number }).pid],
          [40, job!.jobId, id, holder!.id, holder!.pid],
          'a warn line naming the job, its record and the worker that lost it',
        );
        const [taken] = logLines(survivor, 'job taken over');
        assert.ok(taken, 'the survivor says it took the job over');
        assert.equal(taken.jobId, job!.jobId);
        assert.match(String(taken.msg), /its worker stopped/);
        assert.equal((taken.lostBy as { id: string }).id, holder!.id);

        const after = (await getJson<Worker[]>(`${base}/v2/admin/workers`, admin)).body;
        assert.deepEqual(after.map((w) => w.pid), [survivor.child.pid], 'the dead worker is gone from the list');
      } finally {
        for (const p of [api, ...workers]) await stop(p, 'SIGKILL');
      }
    });
  }
});
