import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { backend } from '../support/database.js';
import { firstKey, freePort, type Proc, processTestEnv, runCli, spawnScript, stop } from '../support/processes.js';

const KEY = /parley_[A-Za-z0-9_-]{43}/;
const AUTH_CACHE_MS = 100;

async function get(url: string, key?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function waitReady(base: string, proc: Proc): Promise<void> {
  await proc.waitForOutput(/Server listening/);
  assert.equal((await get(`${base}/readyz`)).status, 200);
}

describe('parley processes', { timeout: 240_000 }, () => {
  let dataDir: string;
  let env: Record<string, string | undefined>;
  let cleanup: () => Promise<void>;
  before(async () => {
    ({ env, dataDir, cleanup } = await processTestEnv('parley-proc-'));
  });
  after(() => cleanup());

  it('bootstraps, serves, administers keys through the CLI, stops on SIGTERM and keeps data', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = spawnScript('src/main.ts', ['serve', '--port', String(port)], env);
    let stdout = '';
    server.child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    try {
      await waitReady(base, server);
      const key = await firstKey(server, env);
      assert.match(server.output(), /created the workspace "default"/);
      if (backend === 'pglite') {
        assert.match(server.output(), new RegExp(`curl -H "Authorization: Bearer ${key}" http://127\\.0\\.0\\.1:${port}/v2/workspace/public`));
      } else {
        assert.ok(!KEY.test(server.output()), 'on PostgreSQL the first start makes and shows no key');
        assert.match(server.output(), /npx parley key create --workspace [0-9a-f-]{36} --scopes read,write/, 'it says how to make the first one');
      }
      assert.ok(!stdout.includes(key) && !KEY.test(stdout), 'no key in the JSON log stream (stdout)');
      assert.match(stdout, /"msg":"created the workspace \\"default\\""/, 'the log says the workspace was made');
      const me = await get(`${base}/v2/workspace/public`, key);
      assert.equal(me.status, 200);
      assert.equal(me.body.name, 'default');
      assert.deepEqual((me.body.apiKey as { scopes: string[] }).scopes, ['read', 'write']);
      if (backend === 'pglite') {
        assert.ok(existsSync(path.join(dataDir, 'admin-token')));
        const secretKey = path.join(dataDir, 'secret-key');
        assert.equal(statSync(secretKey).mode & 0o777, 0o600, 'the generated secret key is readable by its owner only');
        assert.equal(Buffer.from(readFileSync(secretKey, 'utf8').trim(), 'base64').length, 32);
        assert.match(server.output(), /Admin API token written to/);
        const second = await runCli(['serve', '--port', String(await freePort())], env);
        assert.equal(second.code, 1);
        assert.match(second.output, /is in use by another Parley process \(pid \d+, serving http:\/\/127\.0\.0\.1:\d+\)/);
      }

      const ws = await runCli(['workspace', 'create', '--name', 'ops', '--json'], env);
      assert.equal(ws.code, 0, ws.output);
      const workspace = JSON.parse(ws.output) as { id: string; name: string };
      assert.equal(workspace.name, 'ops');
      const created = await runCli(['key', 'create', '--workspace', workspace.id, '--scopes', 'read', '--name', 'bot', '--json'], env);
      assert.equal(created.code, 0, created.output);
      const newKey = JSON.parse(created.output) as { id: string; key: string; scopes: string[] };
      assert.deepEqual(newKey.scopes, ['read']);
      const asOps = await get(`${base}/v2/workspace/public`, newKey.key);
      assert.equal(asOps.body.id, workspace.id);

      const listed = await runCli(['key', 'list', '--workspace', workspace.id], env);
      assert.equal(listed.code, 0);
      assert.match(listed.output, new RegExp(`${newKey.id}  parley_\\S+…  read\\s+bot`));
      assert.ok(!listed.output.includes(newKey.key));
      const revoked = await runCli(['key', 'revoke', '--id', newKey.id], env);
      assert.equal(revoked.code, 0, revoked.output);
      assert.match(revoked.output, /revoked API key/);
      assert.equal((await get(`${base}/v2/workspace/public`, newKey.key)).status, 401);

      // The operator's writes are in the audit log, exported as JSON lines: over the running
      // server's admin API when embedded, directly on PostgreSQL.
      const exported = await runCli(['audit', 'export', '--workspace', workspace.id], env);
      assert.equal(exported.code, 0, exported.output);
      const entries = exported.output.trim().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { action: string; actor: { kind: string }; workspaceId: string; changes: { fields: string[] } });
      assert.deepEqual(
        entries.map((e) => e.action),
        backend === 'pglite'
          ? ['DELETE /v2/admin/api-keys/{id}', 'POST /v2/admin/workspaces/{id}/api-keys', 'POST /v2/admin/workspaces']
          : ['cli key revoke', 'cli key create', 'cli workspace create'],
      );
      assert.ok(entries.every((e) => e.actor.kind === 'operator' && e.workspaceId === workspace.id));
      assert.deepEqual(entries[1]!.changes.fields, ['name', 'scopes']);
      const badExport = await runCli(['audit', 'export', '--since', 'yesterday'], env);
      assert.equal(badExport.code, 2);
      assert.match(badExport.output, /--since must be an ISO 8601 date-time/);

      const list = await runCli(['workspace', 'list'], env);
      assert.match(list.output, / default\n/);
      assert.match(list.output, / ops\n/);

      const bad = await runCli(['key', 'create', '--workspace', 'nope', '--scopes', 'read'], env);
      assert.equal(bad.code, 2);
      assert.match(bad.output, /--workspace must be a UUID/);
      const badScope = await runCli(['key', 'create', '--workspace', workspace.id, '--scopes', 'admin'], env);
      assert.equal(badScope.code, 2);

      assert.equal(await stop(server), 0);
      assert.match(server.output(), /"msg":"stopped"/);
      assert.ok(!existsSync(path.join(dataDir, 'parley.lock')));

      const again = spawnScript('src/main.ts', ['serve', '--port', String(port)], env);
      try {
        await waitReady(base, again);
        assert.equal((await get(`${base}/v2/workspace/public`, key)).status, 200);
        assert.ok(!KEY.test(again.output()), 'no second bootstrap');
      } finally {
        assert.equal(await stop(again), 0);
      }
      const direct = await runCli(['workspace', 'list', '--json'], env);
      assert.equal(direct.code, 0, direct.output);
      assert.deepEqual((JSON.parse(direct.output) as { name: string }[]).map((w) => w.name), ['default', 'ops']);
    } finally {
      await stop(server, 'SIGKILL');
    }
  });

  it('picks up the job of a worker killed mid-job (lease expiry and retry)', async () => {
    const marks = path.join(dataDir, 'marks.txt');
    const first = spawnScript('test/fixtures/run-worker.ts', ['enqueue', marks], env);
    let second: Proc | undefined;
    try {
      await first.waitForOutput(/worker ready/);
      const deadline = Date.now() + 20_000;
      while (!(existsSync(marks) && readFileSync(marks, 'utf8').includes('start 0'))) {
        assert.ok(Date.now() < deadline, `the job never started:\n${first.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await stop(first, 'SIGKILL');
      second = spawnScript('test/fixtures/run-worker.ts', [], env);
      await second.waitForOutput(/worker ready/);
      const until = Date.now() + 30_000;
      while (!readFileSync(marks, 'utf8').includes('done 1')) {
        assert.ok(Date.now() < until, `the job was not retried:\n${readFileSync(marks, 'utf8')}\n${second.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const lines = readFileSync(marks, 'utf8').trim().split('\n');
      assert.equal(lines[0], `start 0 ${first.child.pid}`);
      assert.deepEqual(lines.slice(1), [`start 1 ${second.child.pid}`, `done 1 ${second.child.pid}`]);
      // Its 2 s lease ran out long before the worker timeout: pg-boss's supervision put it back,
      // and the taker names the reason and the worker whose row still lists the job.
      const taken = second.output().split('\n').find((line) => line.includes('"msg":"job taken over'));
      assert.ok(taken, `the second worker says it took the job over:\n${second.output()}`);
      const line = JSON.parse(taken) as { msg: string; lostBy: { pid: number }; leaseSeconds: number };
      assert.deepEqual(
        [line.msg, line.lostBy.pid, line.leaseSeconds],
        ['job taken over: its previous attempt ran out of its lease (the worker running it stopped or hung)', first.child.pid, 2],
      );
      assert.equal(await stop(second), 0);
    } finally {
      await stop(first, 'SIGKILL');
      if (second) await stop(second, 'SIGKILL');
    }
  });

  it('lets a running job finish on SIGTERM before exiting', async () => {
    const marks = path.join(dataDir, 'slow.txt');
    const worker = spawnScript('test/fixtures/run-worker.ts', ['enqueue-slow', marks], env);
    try {
      const deadline = Date.now() + 20_000;
      while (!(existsSync(marks) && readFileSync(marks, 'utf8').includes('slow start'))) {
        assert.ok(Date.now() < deadline, `the job never started:\n${worker.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.equal(await stop(worker), 0);
      assert.equal(readFileSync(marks, 'utf8'), 'slow start\nslow done\n');
      assert.match(worker.output(), /"msg":"stopped"/);
    } finally {
      await stop(worker, 'SIGKILL');
    }
  });

  if (backend === 'postgres') {
    it('runs API and worker as separate processes on one PostgreSQL', async () => {
      const ports = [await freePort(), await freePort()];
      // A short key cache, so the revocation below reaches both APIs after a short real wait.
      const apiEnv = { ...env, PARLEY_AUTH_CACHE_MS: String(AUTH_CACHE_MS) };
      const apis = ports.map((port) => spawnScript('src/main.ts', ['serve', '--no-worker', '--port', String(port)], apiEnv));
      const worker = spawnScript('src/main.ts', ['worker'], env);
      try {
        for (const [i, api] of apis.entries()) await waitReady(`http://127.0.0.1:${ports[i]}`, api);
        const created = await runCli(['workspace', 'create', '--name', 'scaled', '--json'], env);
        const workspace = JSON.parse(created.output) as { id: string };
        const key = JSON.parse((await runCli(['key', 'create', '--workspace', workspace.id, '--scopes', 'read', '--json'], env)).output) as { id: string; key: string };
        for (const port of ports) assert.equal((await get(`http://127.0.0.1:${port}/v2/workspace/public`, key.key)).body.id, workspace.id);
        await runCli(['key', 'revoke', '--id', key.id], env);
        await new Promise((resolve) => setTimeout(resolve, AUTH_CACHE_MS + 50));
        for (const port of ports) assert.equal((await get(`http://127.0.0.1:${port}/v2/workspace/public`, key.key)).status, 401);
      } finally {
        for (const p of [...apis, worker]) assert.equal(await stop(p), 0);
      }
    });
  }
});

describe('the parley command', () => {
  it('prints usage and refuses unknown commands', async () => {
    const help = await runCli(['--help'], {});
    assert.equal(help.code, 0);
    assert.match(help.output, /Usage: parley <command>/);
    const unknown = await runCli(['frobnicate'], {});
    assert.equal(unknown.code, 2);
    assert.match(unknown.output, /unknown command "frobnicate"/);
  });

  it('refuses to start on PostgreSQL without PARLEY_SECRET_KEY, naming it, and refuses a malformed key', async () => {
    const noKey = await runCli(['serve', '--port', String(await freePort())], { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres', PARLEY_SECRET_KEY: undefined });
    assert.equal(noKey.code, 1);
    assert.match(noKey.output, /PARLEY_SECRET_KEY: required with DATABASE_URL/);
    const short = await runCli(['workspace', 'list'], { PARLEY_SECRET_KEY: 'c2hvcnQ=' });
    assert.equal(short.code, 1);
    assert.match(short.output, /PARLEY_SECRET_KEY: must decode to 32 bytes, not 5/);
  });

  it('lists every configuration problem at once', async () => {
    const result = await runCli(['workspace', 'list'], { PORT: 'abc', PARLEY_LOG_LEVEL: 'loud' });
    assert.equal(result.code, 1);
    assert.match(result.output, /invalid configuration/);
    assert.match(result.output, /PORT: /);
    assert.match(result.output, /PARLEY_LOG_LEVEL: /);
  });
});
