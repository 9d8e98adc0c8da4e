// `parley secrets rotate --new-key`: every stored secret re-sealed under the new key in one
// transaction; the server started with the new key still sends the secret to the customer API.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateSecretKey } from '../../src/secrets.js';
import { backend } from '../support/database.js';
import { type FakeApi, startFakeApi } from '../support/fake-api.js';
import { credentialsFor, type FakeProviders, startFakeProviders } from '../support/fake-providers.js';
import { firstKey, freePort, processTestEnv, type Proc, runCli, spawnScript, stop } from '../support/processes.js';

const SECRET = 'Bearer sk_rotate_me_123';

async function call(base: string, key: string, method: string, route: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('secret key rotation', { timeout: 240_000 }, () => {
  let env: Record<string, string | undefined>;
  let dataDir: string;
  let cleanup: () => Promise<void>;
  let api: FakeApi;
  let providers: FakeProviders;
  before(async () => {
    api = await startFakeApi();
    providers = await startFakeProviders();
    ({ env, dataDir, cleanup } = await processTestEnv('parley-rotate-', { PARLEY_FETCH_ALLOW_PRIVATE: 'true' }));
  });
  after(async () => {
    await cleanup();
    await api.close();
    await providers.close();
  });

  const serve = async (extra: Record<string, string> = {}): Promise<{ proc: Proc; base: string }> => {
    const port = await freePort();
    const proc = spawnScript('src/main.ts', ['serve', '--port', String(port)], { ...env, ...extra });
    await proc.waitForOutput(/Server listening/);
    return { proc, base: `http://127.0.0.1:${port}` };
  };

  it('re-seals stored secrets under the new key, which the next start uses', async () => {
    const first = await serve();
    let key: string;
    let toolId: string;
    try {
      key = await firstKey(first.proc, env);
      toolId = (await call(first.base, key, 'POST', '/v2/hc-tools/public', { name: 'Cancel' })).body.id as string;
      const step = await call(first.base, key, 'POST', '/v2/api-function-configs/public', {
        toolId,
        name: 'cancel',
        requestMethod: 'POST',
        requestUrl: `${api.url}/subscriptions/s1/cancel`,
        requestHeaders: { Authorization: { hide: true, value: SECRET } },
        responseMapping: { cancelled: 'cancelled' },
      });
      assert.equal(step.status, 201);
      assert.equal((await call(first.base, key, 'PUT', '/v2/providers/notion/connection/public', credentialsFor(providers).notion)).status, 200);
    } finally {
      assert.equal(await stop(first.proc), 0);
    }

    const newKey = generateSecretKey();
    const rotated = await runCli(['secrets', 'rotate', '--new-key', newKey], env);
    assert.equal(rotated.code, 0, rotated.output);
    assert.match(rotated.output, /re-sealed the secrets of 1 step\(s\) and 1 provider connection\(s\)/);
    if (backend === 'pglite') {
      assert.equal(readFileSync(path.join(dataDir, 'secret-key'), 'utf8').trim(), newKey);
    } else {
      assert.match(rotated.output, new RegExp(`PARLEY_SECRET_KEY=${newKey.replace(/[+/]/g, '\\$&')}`));
    }
    assert.ok(!rotated.output.includes('sk_rotate_me'));

    const again = await serve(backend === 'pglite' ? {} : { PARLEY_SECRET_KEY: newKey });
    try {
      api.requests.length = 0;
      const result = await call(again.base, key, 'POST', `/v2/hc-tools/${toolId}/test/public`, { inputs: {} });
      assert.equal(result.body.success, true, JSON.stringify(result.body));
      assert.equal(api.requests[0]!.headers.authorization, SECRET);
      // The provider connection opens with the new key too.
      const tested = await call(again.base, key, 'POST', '/v2/providers/notion/connection/test/public');
      assert.deepEqual(tested.body, { provider: 'notion', ok: true, account: 'Acme Support', error: null });
    } finally {
      assert.equal(await stop(again.proc), 0);
    }

    const bad = await runCli(['secrets', 'rotate', '--new-key', 'c2hvcnQ='], env);
    assert.equal(bad.code, 2);
    assert.match(bad.output, /--new-key must decode to 32 bytes/);
  });
});
