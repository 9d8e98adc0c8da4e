// Widget keys through their routes: create, list, delete; validation naming the field; another
// workspace's agent or key is a 404; the shared security suite on each route.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.js';
import { makeTenant } from '../support/factories.js';
import { assertError, expectStatus, securitySuites } from '../support/security.js';
import { UNKNOWN } from '../conversations/support.js';
import { createKey, keyPath, keysOf, ORIGIN, START, visit, type WidgetKey } from './support.js';

describe('widget keys', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  const newAgent = async (key: string) => (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/bots/public', key, { name: 'Support' })).id;

  it('creates a pk_ key shown in full, lists it, and deletes it (the key stops working)', async () => {
    const w = await makeTenant(t);
    const agentId = await newAgent(w.key);
    const created = await expectStatus<WidgetKey>(t, 201, 'POST', keysOf(agentId), w.writeKey, {
      name: 'Shop', allowedOrigins: [ORIGIN, 'http://localhost:3000', ORIGIN], visitorRateLimit: 30,
    });
    assert.match(created.key, /^pk_[A-Za-z0-9_-]{32}$/);
    assert.deepEqual([created.botId, created.companyId, created.name, created.allowedOrigins, created.visitorRateLimit], [agentId, w.workspaceId, 'Shop', [ORIGIN, 'http://localhost:3000'], 30]);
    const second = await createKey(t, w.key, agentId);
    assert.equal(second.visitorRateLimit, null);
    const listed = await expectStatus<WidgetKey[]>(t, 200, 'GET', keysOf(agentId), w.readKey);
    assert.deepEqual(listed.map((k) => [k.id, k.key]), [[created.id, created.key], [second.id, second.key]]);
    assert.equal((await visit(t, 'POST', START, { key: created.key, body: {} })).status, 201);

    const deleted = await expectStatus<WidgetKey>(t, 200, 'DELETE', keyPath(created.id), w.writeKey);
    assert.equal(deleted.id, created.id);
    assertError(await visit(t, 'POST', START, { key: created.key, body: {} }), 401, 'invalid or revoked API key');
    assert.deepEqual((await expectStatus<WidgetKey[]>(t, 200, 'GET', keysOf(agentId), w.readKey)).map((k) => k.id), [second.id]);
    assertError(await t.request('DELETE', keyPath(created.id), { key: w.key }), 404, 'widget key not found');
  });

  it('answers 400 naming the field for bad input, and writes nothing', async () => {
    const w = await makeTenant(t);
    const agentId = await newAgent(w.key);
    const cases: [unknown, RegExp][] = [
      [{ allowedOrigins: [ORIGIN] }, /body\.name/],
      [{ name: 'x', allowedOrigins: [] }, /body\.allowedOrigins/],
      [{ name: 'x', allowedOrigins: ['https://shop.example/'] }, /body\.allowedOrigins\.0.*origin/],
      [{ name: 'x', allowedOrigins: [ORIGIN, 'shop.example'] }, /body\.allowedOrigins\.1/],
      [{ name: 'x', allowedOrigins: ['ftp://shop.example'] }, /body\.allowedOrigins\.0/],
      [{ name: 'x', allowedOrigins: ['https://Shop.example'] }, /body\.allowedOrigins\.0/],
      [{ name: 'x', allowedOrigins: [ORIGIN], visitorRateLimit: 0 }, /body\.visitorRateLimit/],
      [{ name: 'x', allowedOrigins: [ORIGIN], scopes: ['read'] }, /scopes/],
    ];
    for (const [body, message] of cases) assertError(await t.request('POST', keysOf(agentId), { key: w.key, body }), 400, message);
    assert.deepEqual(await expectStatus(t, 200, 'GET', keysOf(agentId), w.key), []);
    assertError(await t.request('GET', keysOf('not-a-uuid'), { key: w.key }), 400, /path\.id/);
  });

  it("answers 404 for an agent or a key of another workspace, and leaves them alone", async () => {
    const owner = await makeTenant(t);
    const other = await makeTenant(t);
    const agentId = await newAgent(owner.key);
    const key = await createKey(t, owner.key, agentId);
    assertError(await t.request('POST', keysOf(agentId), { key: other.key, body: { name: 'x', allowedOrigins: [ORIGIN] } }), 404, 'agent not found');
    assertError(await t.request('GET', keysOf(agentId), { key: other.key }), 404, 'agent not found');
    assertError(await t.request('DELETE', keyPath(key.id), { key: other.key }), 404, 'widget key not found');
    assertError(await t.request('GET', keysOf(UNKNOWN), { key: owner.key }), 404, 'agent not found');
    assert.equal((await expectStatus<WidgetKey[]>(t, 200, 'GET', keysOf(agentId), owner.key)).length, 1);
  });

  it('a widget key cannot manage widget keys (nor call any workspace route)', async () => {
    const w = await makeTenant(t);
    const agentId = await newAgent(w.key);
    const key = await createKey(t, w.key, agentId);
    for (const [method, path] of [['GET', keysOf(agentId)], ['POST', keysOf(agentId)], ['DELETE', keyPath(key.id)]] as const) {
      const res = await t.request(method, path, { key: key.key, body: method === 'POST' ? { name: 'x', allowedOrigins: [ORIGIN] } : undefined, headers: { origin: ORIGIN } });
      assertError(res, 403, /widget key can only call the visitor routes/);
    }
  });

  securitySuites(() => t, [
    ['POST /v2/bots/{id}/widget-keys/public', 'POST', 'write', async (app, tenant) => ({ path: keysOf(await agentOf(app, tenant.key)), body: { name: 'x', allowedOrigins: [ORIGIN] } }), 404],
    ['GET /v2/bots/{id}/widget-keys/public', 'GET', 'read', async (app, tenant) => ({ path: keysOf(await agentOf(app, tenant.key)) }), 404],
    ['DELETE /v2/widget-keys/{id}/public', 'DELETE', 'write', async (app, tenant) => ({ path: keyPath((await createKey(app, tenant.key, await agentOf(app, tenant.key))).id) }), 404],
  ]);
});

async function agentOf(t: TestApp, key: string): Promise<string> {
  return (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/bots/public', key, { name: 'Support' })).id;
}
