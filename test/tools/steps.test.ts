// External API call steps (/v2/api-function-configs) through HTTP: the wire shape, sealed secrets
// (masked everywhere, kept on echo, replaced by a new value), validation, chains, and security.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { dataSteps } from '../../src/db/schema/index.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { assertError, expectStatus, type SecuredRouteRow, securitySuites } from '../support/security.js';

interface Step { id: string; name: string; toolId: string | null; stepNumber: number; method: string; url: string; headers: Record<string, unknown>; body: unknown; saveFromResponse: Record<string, string>; createdAt: string; updatedAt: string }

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const SECRET = 'Bearer sk_live_9f8e7d6c5b4a';
const BODY_SECRET = 'pw-Zx81!';
const steps = '/v2/api-function-configs/public';
const step = (id: string) => `/v2/api-function-configs/${id}/public`;

describe('external API call steps', () => {
  let t: TestApp;
  let w: Tenant;
  let toolId: string;
  before(async () => {
    t = await startTestApp();
    w = await makeTenant(t);
    toolId = (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/hc-tools/public', w.key, { name: 'Order lookup' })).id;
  });
  after(() => t.close());

  const ok = <T>(status: number, method: string, path: string, body?: unknown, key = w.key) => expectStatus<T>(t, status, method, path, key, body);
  const fail = async (method: string, path: string, status: number, message?: string | RegExp, body?: unknown, key = w.key) =>
    assertError(await t.request(method, path, { key, body }), status, message);
  const stored = async (id: string) => (await t.database.db.select().from(dataSteps).where(eq(dataSteps.id, id)))[0]!;
  const base = (over: Record<string, unknown> = {}) => ({
    name: 'Find the order',
    requestUrl: 'https://api.example.com/orders/${orderNumber}?expand=items',
    requestMethod: 'get',
    toolId,
    requestHeaders: { Authorization: { hide: true, value: SECRET }, 'X-Region': 'eu' },
    requestBody: { auth: { user: 'bot', password: { hide: true, value: BODY_SECRET } }, tags: ['a'] },
    responseMapping: { status: 'data.status', firstSku: 'data.items[0].sku', names: 'results[*].name' },
    ...over,
  });

  it('creates a step with sealed secrets, answered masked in the specification\'s shape', async () => {
    const created = await ok<Step>(201, 'POST', steps, base());
    assert.deepEqual(
      { ...created, id: undefined, createdAt: undefined, updatedAt: undefined },
      {
        id: undefined,
        name: 'Find the order',
        toolId,
        stepNumber: 1,
        method: 'GET',
        url: 'https://api.example.com/orders/${orderNumber}?expand=items',
        headers: { Authorization: '********', 'X-Region': 'eu' },
        body: { auth: { user: 'bot', password: '********' }, tags: ['a'] },
        saveFromResponse: { status: 'data.status', firstSku: 'data.items[0].sku', names: 'results[*].name' },
        createdAt: undefined,
        updatedAt: undefined,
      },
    );
    const row = await stored(created.id);
    const header = row.requestHeaders.Authorization as { hide: boolean; sealed: string };
    assert.equal(header.hide, true);
    assert.match(header.sealed, /^v1\./);
    assert.equal(t.ports.secrets.open(header.sealed), SECRET);
    assert.ok(!JSON.stringify(row).includes('sk_live') && !JSON.stringify(row).includes(BODY_SECRET), 'nothing stored in clear');
    const tool = await ok<{ steps: Step[] }>(200, 'GET', `/v2/hc-tools/${toolId}/public`);
    assert.deepEqual(tool.steps, [created]);
    assert.deepEqual(await ok<Step>(200, 'GET', step(created.id), undefined, w.readKey), created);
    assert.ok(!JSON.stringify(t.logs).includes('sk_live') && !JSON.stringify(t.logs).includes(BODY_SECRET), 'never in the logs');
  });

  it('keeps a secret echoed as ********, replaces it with a new string (still hidden), and changes only what is sent', async () => {
    const created = await ok<Step>(201, 'POST', steps, base());
    const before = await stored(created.id);
    const echoed = await ok<Step>(200, 'PATCH', step(created.id), { requestHeaders: { ...created.headers, 'X-Region': 'us' }, requestBody: created.body });
    assert.deepEqual(echoed.headers, { Authorization: '********', 'X-Region': 'us' });
    const afterEcho = await stored(created.id);
    assert.deepEqual(afterEcho.requestHeaders.Authorization, before.requestHeaders.Authorization, 'the sealed value is kept as it was');
    assert.deepEqual(afterEcho.requestBody, before.requestBody);
    await ok(200, 'PATCH', step(created.id), { requestHeaders: { Authorization: 'Bearer new-token', 'X-Region': 'us' } });
    const replaced = (await stored(created.id)).requestHeaders.Authorization as { sealed: string };
    assert.equal(t.ports.secrets.open(replaced.sealed), 'Bearer new-token');
    const renamed = await ok<Step>(200, 'PATCH', step(created.id), { name: 'Renamed', requestMethod: 'POST' });
    assert.deepEqual([renamed.name, renamed.method, renamed.url, renamed.headers.Authorization], ['Renamed', 'POST', created.url, '********']);
    await fail('PATCH', step(UNKNOWN), 404, 'external API call step not found', { name: 'x' });
  });

  it('refuses {{placeholders}}, bad URLs, methods, mappings and hide objects, naming the field', async () => {
    await fail('POST', steps, 400, /^body\.requestUrl: the \{\{placeholder\}\} syntax is not supported: write \$\{fieldName\}/, base({ requestUrl: 'https://api.example.com/orders/{{orderNumber}}' }));
    await fail('POST', steps, 400, /^body\.requestHeaders\.X-Id: the \{\{placeholder\}\} syntax/, base({ requestHeaders: { 'X-Id': '{{id}}' } }));
    await fail('POST', steps, 400, /^body\.requestBody\.a\.0: the \{\{placeholder\}\} syntax/, base({ requestBody: { a: ['{{x}}'] } }));
    await fail('POST', steps, 400, /^body\.requestUrl: must be an http or https URL/, base({ requestUrl: 'ftp://files.example.com/x' }));
    await fail('POST', steps, 400, /^body\.requestMethod: /, base({ requestMethod: 'FETCH' }));
    await fail('POST', steps, 400, /^body\.responseMapping\.status: a path into the JSON response/, base({ responseMapping: { status: 'data..status' } }));
    await fail('POST', steps, 400, /^body\.requestBody\.password: a sensitive value is \{ "hide": true, "value": "<secret>" \}/, base({ requestBody: { password: { hide: true, sealed: 'v1.forged' } } }));
    await fail('POST', steps, 400, /^body\.name: /, base({ name: '' }));
  });

  it('orders a chain, limits it to 10 steps, and refuses another workspace\'s tool', async () => {
    const w2 = await makeTenant(t);
    const tool = (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/hc-tools/public', w2.key, { name: 'Chain' })).id;
    const made: Step[] = [];
    for (let i = 0; i < 10; i += 1) made.push(await ok<Step>(201, 'POST', steps, { name: `s${i}`, requestUrl: 'https://api.example.com/x', requestMethod: 'GET', toolId: tool }, w2.key));
    assert.deepEqual(made.map((s) => s.stepNumber), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    await fail('POST', steps, 400, 'body.toolId: an action or attribute has at most 10 steps', { name: 'too many', requestUrl: 'https://api.example.com/x', requestMethod: 'GET', toolId: tool }, w2.key);
    await ok(200, 'PATCH', step(made[0]!.id), { stepNumber: 20 }, w2.key);
    assert.deepEqual((await ok<Step[]>(200, 'GET', `${steps}?toolId=${tool}`, undefined, w2.key)).map((s) => s.name), ['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8', 's9', 's0']);
    await fail('POST', steps, 404, 'action or attribute not found', { name: 'x', requestUrl: 'https://api.example.com/x', requestMethod: 'GET', toolId }, w2.key);
    await fail('PATCH', step(made[1]!.id), 404, 'action or attribute not found', { toolId }, w2.key);
    await fail('GET', `${steps}?toolId=${toolId}`, 404, 'action or attribute not found', undefined, w2.key);
    await ok(200, 'DELETE', `/v2/hc-tools/${tool}/public`, undefined, w2.key);
    assert.deepEqual(await ok<Step[]>(200, 'GET', steps, undefined, w2.key), [], 'the steps went with their tool');
  });

  it('takes an explicit id once, and deletes a step', async () => {
    const id = '5b0c1f3e-8a2d-4c6b-9e1f-2a3b4c5d6e7f';
    const created = await ok<Step>(201, 'POST', steps, base({ id, toolId: null }));
    assert.deepEqual([created.id, created.toolId], [id, null]);
    await fail('POST', steps, 409, `body.id: a step ${id} already exists`, base({ id, toolId: null }));
    assert.deepEqual(await ok<Step>(200, 'DELETE', step(id)), created);
    await fail('GET', step(id), 404);
  });

  it("never shows or changes another workspace's steps", async () => {
    const [owner, caller] = [await makeTenant(t), await makeTenant(t)];
    const theirs = await ok<Step>(201, 'POST', steps, { name: 'x', requestUrl: 'https://api.example.com/x', requestMethod: 'GET' }, owner.key);
    assert.deepEqual(await ok<Step[]>(200, 'GET', steps, undefined, caller.key), []);
    await fail('PATCH', step(theirs.id), 404, undefined, { name: 'y' }, caller.key);
    await fail('DELETE', step(theirs.id), 404, undefined, undefined, caller.key);
    assert.equal((await ok<Step>(200, 'GET', step(theirs.id), undefined, owner.key)).name, 'x');
  });

  const own = async (app: TestApp, o: Tenant) => (await expectStatus<Step>(app, 201, 'POST', steps, o.key, { name: 'x', requestUrl: 'https://api.example.com/x', requestMethod: 'GET' })).id;
  const routes: SecuredRouteRow[] = [
    ['create', 'POST', 'write', async () => ({ path: steps, body: { name: 'x', requestUrl: 'https://api.example.com/x', requestMethod: 'GET' } }), undefined],
    ['list', 'GET', 'read', async () => ({ path: steps }), undefined],
    ['get', 'GET', 'read', async (app, o) => ({ path: step(await own(app, o)) }), 404],
    ['update', 'PATCH', 'write', async (app, o) => ({ path: step(await own(app, o)), body: { name: 'y' } }), 404],
    ['delete', 'DELETE', 'write', async (app, o) => ({ path: step(await own(app, o)) }), 404],
  ];
  securitySuites(() => t, routes);
});
