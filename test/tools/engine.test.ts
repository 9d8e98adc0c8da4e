// The actions engine against a fake customer API on 127.0.0.1: interpolation, chains, mapping,
// secrets (sent in clear to the API, masked everywhere else), retries, timeouts, caps, refusals.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readPath } from '../../src/modules/tools/engine.service.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { type FakeApi, startFakeApi } from '../support/fake-api.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { expectStatus } from '../support/security.js';

interface Record_ { stepId: string; name: string; request: { method: string; url: string; headers: Record<string, string>; body: unknown }; status: number | null; attempts: number; responseBody: unknown; output: Record<string, unknown>; error: { kind: string; message: string } | null }
interface Run { toolName: string; success: boolean; output: Record<string, unknown>; steps: Record_[]; error: { kind: string; message: string } | null }

const SECRET = 'sk_live_Q7w8e9r0t1y2';

describe('actions engine', () => {
  let t: TestApp;
  let api: FakeApi;
  let w: Tenant;
  before(async () => {
    api = await startFakeApi();
    t = await startTestApp({ env: { PARLEY_FETCH_ALLOW_PRIVATE: 'true', PARLEY_ACTION_TIMEOUT_MS: '500' } });
    w = await makeTenant(t);
  });
  after(async () => {
    await t.close();
    await api.close();
  });

  const ok = <T>(status: number, method: string, path: string, body?: unknown) => expectStatus<T>(t, status, method, path, w.key, body);
  const tool = async (name: string, fields: Record<string, unknown> = {}) => {
    const made = await ok<{ id: string }>(201, 'POST', '/v2/hc-tools/public', { name });
    if (Object.keys(fields).length) await ok(200, 'PATCH', `/v2/hc-tools/${made.id}/public`, fields);
    return made.id;
  };
  const addStep = (toolId: string, body: Record<string, unknown>) => ok<{ id: string }>(201, 'POST', '/v2/api-function-configs/public', { toolId, ...body });
  const run = (toolId: string, inputs: Record<string, unknown>) => ok<Run>(200, 'POST', `/v2/hc-tools/${toolId}/test/public`, { inputs });

  it('runs a three-step chain: path, query and earlier outputs interpolated, nested and array paths mapped', async () => {
    const id = await tool('Order with customer', {
      inputFields: [{ name: 'orderNumber', type: 'string', required: true }, { name: 'reason', type: 'string' }],
      outputFields: [{ name: 'status', type: 'string' }, { name: 'customerName', type: 'string' }, { name: 'cancelled', type: 'boolean' }],
    });
    await addStep(id, { name: 'order', requestMethod: 'GET', requestUrl: `${api.url}/orders/\${orderNumber}?note=\${reason}`, responseMapping: { status: 'data.status', customerId: 'data.customerId', skus: 'data.items[*].sku', first: 'data.items[0].sku' } });
    await addStep(id, { name: 'customer', requestMethod: 'GET', requestUrl: `${api.url}/customers/\${order.customerId}`, responseMapping: { customerName: 'name' } });
    await addStep(id, {
      name: 'cancel',
      requestMethod: 'POST',
      requestUrl: `${api.url}/subscriptions/\${order.customerId}/cancel`,
      requestHeaders: { Authorization: { hide: true, value: `Bearer ${SECRET}` }, 'X-Order': '${orderNumber}' },
      requestBody: { order: '${orderNumber}', skus: '${order.skus}', note: 'because ${reason}' },
      responseMapping: { cancelled: 'cancelled', echoed: 'authorization' },
    });
    api.requests.length = 0;
    const result = await run(id, { orderNumber: 'A 1/2', reason: 'too late & wrong' });
    assert.equal(result.success, true, JSON.stringify(result.error));
    assert.deepEqual(result.output, { status: 'shipped', customerId: 'c_42', skus: ['A-1', 'B-2'], first: 'A-1', customerName: 'Ada Lovelace', cancelled: true, echoed: '********' });
    assert.deepEqual(api.requests.map((r) => `${r.method} ${r.path}`), ['GET /orders/A%201%2F2?note=too%20late%20%26%20wrong', 'GET /customers/c_42', 'POST /subscriptions/c_42/cancel']);
    const cancel = api.requests[2]!;
    assert.equal(cancel.headers.authorization, `Bearer ${SECRET}`, 'the API gets the secret in clear');
    assert.equal(cancel.headers['x-order'], 'A 1/2');
    assert.match(String(cancel.headers['idempotency-key']), /^[0-9a-f-]{36}:[0-9a-f-]{36}$/);
    assert.deepEqual(JSON.parse(cancel.body), { order: 'A 1/2', skus: ['A-1', 'B-2'], note: 'because too late & wrong' });
    const record = result.steps[2]!;
    assert.deepEqual(record.request.headers, { Authorization: '********', 'X-Order': 'A 1/2' });
    assert.deepEqual((record.responseBody as { authorization: string }).authorization, '********');
    const everything = JSON.stringify(result) + JSON.stringify(t.logs);
    assert.ok(!everything.includes(SECRET), 'the secret is in no answer and no log line');
  });

  it('retries idempotent methods once on 5xx, never POST', async () => {
    const get = await tool('Flaky read');
    await addStep(get, { name: 'flaky', requestMethod: 'GET', requestUrl: `${api.url}/flaky`, responseMapping: { ok: 'ok' } });
    const retried = await run(get, {});
    assert.deepEqual([retried.success, retried.steps[0]!.attempts, retried.output], [true, 2, { ok: true }]);
    const post = await tool('Failing write');
    await addStep(post, { name: 'write', requestMethod: 'POST', requestUrl: `${api.url}/always-500`, requestBody: { a: 1 } });
    api.requests.length = 0;
    const failed = await run(post, {});
    assert.deepEqual([failed.success, failed.steps[0]!.attempts, failed.error!.kind, api.requests.length], [false, 1, 'http_error', 1]);
  });

  it('names each failure kind', async () => {
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      ['timeout', { requestMethod: 'GET', requestUrl: `${api.url}/slow` }, 'timeout', /took longer than/],
      ['not found', { requestMethod: 'GET', requestUrl: `${api.url}/orders/missing` }, 'http_error', /answered HTTP 404/],
      ['text', { requestMethod: 'GET', requestUrl: `${api.url}/text`, responseMapping: { x: 'x' } }, 'non_json', /is not JSON \(text\/plain\)/],
      ['mapping', { requestMethod: 'GET', requestUrl: `${api.url}/orders/1`, responseMapping: { x: 'data.nope[0]' } }, 'mapping_not_found', /"data\.nope\[0\]" \(for x\) is not in the response/],
      ['big', { requestMethod: 'GET', requestUrl: `${api.url}/big` }, 'too_large', /larger than 1 MiB/],
      ['unknown placeholder', { requestMethod: 'GET', requestUrl: `${api.url}/orders/\${nothing}` }, 'invalid_input', /\$\{nothing\} is neither an input nor an output/],
    ];
    for (const [name, step, kind, message] of cases) {
      const id = await tool(`Fails: ${name}`);
      await addStep(id, { name, ...step });
      const result = await run(id, {});
      assert.equal(result.success, false, name);
      assert.equal(result.error!.kind, kind, `${name}: ${JSON.stringify(result.error)}`);
      assert.match(result.error!.message, message);
    }
  });

  it('checks inputs before any call and the output against the declared fields', async () => {
    const id = await tool('Typed', { inputFields: [{ name: 'n', type: 'number', required: true }], outputFields: [{ name: 'missing', type: 'string' }] });
    await addStep(id, { name: 'order', requestMethod: 'GET', requestUrl: `${api.url}/orders/\${n}`, responseMapping: { status: 'data.status' } });
    api.requests.length = 0;
    const noInput = await run(id, {});
    assert.deepEqual([noInput.error, api.requests.length], [{ kind: 'invalid_input', message: 'input "n" is required' }, 0]);
    assert.equal((await run(id, { n: 'twelve' })).error!.message, 'input "n" must be a number');
    const output = await run(id, { n: '12' });
    assert.deepEqual(output.error, { kind: 'invalid_output', message: `the chain's output has no "missing" (declared as an output field)` });
    assert.equal(api.requests[0]!.path, '/orders/12');
  });

  it('tests one step alone with earlier outputs given', async () => {
    const id = await tool('Alone');
    const s = await addStep(id, { name: 'customer', requestMethod: 'GET', requestUrl: `${api.url}/customers/\${order.customerId}`, responseMapping: { name: 'name' } });
    const record = await ok<Record_>(200, 'POST', `/v2/api-function-configs/${s.id}/test/public`, { inputs: {}, previous: { order: { customerId: 'c_7' } } });
    assert.deepEqual([record.status, record.output, record.error, record.request.url], [200, { name: 'Ada Lovelace' }, null, `${api.url}/customers/c_7`]);
  });

  it('refuses loopback and private addresses when the operator has not allowed them', async () => {
    const strict = await startTestApp();
    try {
      const tenant = await makeTenant(strict);
      const id = (await expectStatus<{ id: string }>(strict, 201, 'POST', '/v2/hc-tools/public', tenant.key, { name: 'Internal' })).id;
      await expectStatus(strict, 201, 'POST', '/v2/api-function-configs/public', tenant.key, { toolId: id, name: 'x', requestMethod: 'GET', requestUrl: `${api.url}/orders/1` });
      const result = await expectStatus<Run>(strict, 200, 'POST', `/v2/hc-tools/${id}/test/public`, tenant.key, { inputs: {} });
      assert.equal(result.error!.kind, 'blocked_address');
    } finally {
      await strict.close();
    }
  });

  it('reads response paths', () => {
    const doc = { data: { items: [{ id: 1, tags: ['a'] }, { id: 2, tags: ['b'] }] }, results: [{ name: 'x' }, { name: 'y' }] };
    assert.equal(readPath(doc, 'data.items[1].id'), 2);
    assert.deepEqual(readPath(doc, 'results[*].name'), ['x', 'y']);
    assert.deepEqual(readPath(doc, 'data.items[*].tags[0]'), ['a', 'b']);
    assert.equal(readPath(doc, 'data.items[5].id'), undefined);
    assert.equal(readPath(doc, 'data.constructor'), undefined);
  });
});
