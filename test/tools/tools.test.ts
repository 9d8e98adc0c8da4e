// Actions and attributes (/v2/hc-tools) through HTTP: the record, its fields and JSON Schemas,
// agent assignment, rule flows calling actions, deletion guarded by those flows, and security.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { assertError, expectStatus, type SecuredRouteRow, securitySuites } from '../support/security.js';

interface Tool {
  id: string; companyId: string; name: string; description: string; alwaysGet: boolean; source: string;
  inputFields: unknown[]; outputFields: unknown[]; inputSchema: Record<string, unknown>; outputSchema: Record<string, unknown>;
  botIds: string[]; createdAt: string; updatedAt: string; steps?: unknown[];
}

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const list = '/v2/hc-tools/public';
const one = (id: string) => `/v2/hc-tools/${id}/public`;
const assign = (id: string) => `/v2/hc-tools/${id}/assign/public`;

describe('actions and attributes', () => {
  let t: TestApp;
  let w: Tenant;
  let agentA: string;
  before(async () => {
    t = await startTestApp();
    w = await makeTenant(t);
    agentA = (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/bots/public', w.key, { name: 'A' })).id;
  });
  after(() => t.close());

  const ok = <T>(status: number, method: string, path: string, body?: unknown, key = w.key) => expectStatus<T>(t, status, method, path, key, body);
  const fail = async (method: string, path: string, status: number, message?: string | RegExp, body?: unknown, key = w.key) =>
    assertError(await t.request(method, path, { key, body }), status, message);
  const create = (body: Record<string, unknown> = {}, key = w.key) => ok<Tool>(201, 'POST', list, { name: 'Order lookup', ...body }, key);

  it('creates an action with empty schemas, as specified, and an attribute', async () => {
    const action = await create({ description: 'Looks up an order' });
    assert.deepEqual(
      { ...action, id: undefined, createdAt: undefined, updatedAt: undefined },
      { id: undefined, companyId: w.workspaceId, name: 'Order lookup', description: 'Looks up an order', alwaysGet: false, source: 'api', inputFields: [], outputFields: [], inputSchema: {}, outputSchema: {}, botIds: [], createdAt: undefined, updatedAt: undefined },
    );
    const attribute = await create({ name: 'Customer profile', alwaysGet: true, source: 'zendesk' });
    assert.deepEqual([attribute.alwaysGet, attribute.source], [true, 'zendesk']);
    const got = await ok<Tool>(200, 'GET', one(action.id), undefined, w.readKey);
    assert.deepEqual(got, { ...action, steps: [] });
  });

  it('refuses an unsupported source and other bad input, naming the field', async () => {
    await fail('POST', list, 400, /^body\.source: /, { name: 'x', source: 'fax' });
    await fail('POST', list, 400, /^body\.name: /, { name: '' });
    await fail('POST', list, 400, /^body\.alwaysGet: /, { name: 'x', alwaysGet: 'yes' });
    await fail('GET', one('nope'), 400, /path\.id/);
    await fail('GET', one(UNKNOWN), 404, 'action or attribute not found');
  });

  it('declares fields and derives the JSON Schemas', async () => {
    const tool = await create();
    const updated = await ok<Tool>(200, 'PATCH', one(tool.id), {
      inputFields: [{ name: 'orderNumber', type: 'string', required: true, description: 'e.g. A-1001' }, { name: 'verbose', type: 'boolean' }],
      outputFields: [{ name: 'status', type: 'string' }, { name: 'total', type: 'number' }],
    });
    assert.deepEqual(updated.inputFields, [
      { name: 'orderNumber', type: 'string', required: true, description: 'e.g. A-1001' },
      { name: 'verbose', type: 'boolean', required: false, description: '' },
    ]);
    assert.deepEqual(updated.inputSchema, {
      type: 'object',
      properties: { orderNumber: { type: 'string', description: 'e.g. A-1001' }, verbose: { type: 'boolean' } },
      required: ['orderNumber'],
      additionalProperties: false,
    });
    assert.deepEqual(updated.outputSchema, { type: 'object', properties: { status: { type: 'string' }, total: { type: 'number' } }, additionalProperties: false });
    assert.equal(updated.name, 'Order lookup', 'fields not given are kept');
    await fail('PATCH', one(tool.id), 400, /^body\.inputFields\.1\.name: field "a" is declared twice/, { inputFields: [{ name: 'a', type: 'string' }, { name: 'a', type: 'number' }] });
    await fail('PATCH', one(tool.id), 400, /^body\.outputFields\.0\.type: /, { outputFields: [{ name: 'x', type: 'date' }] });
    await fail('PATCH', one(tool.id), 400, /^body\.inputFields\.0\.name: a field name/, { inputFields: [{ name: 'has space', type: 'string' }] });
    await fail('PATCH', one(UNKNOWN), 404, undefined, { name: 'x' });
  });

  it('assigns to agents and lists by kind and agent', async () => {
    const w2 = await makeTenant(t);
    const a = (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/bots/public', w2.key, { name: 'A' })).id;
    const b = (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/bots/public', w2.key, { name: 'B' })).id;
    const action = await create({}, w2.key);
    const attribute = await create({ name: 'Profile', alwaysGet: true }, w2.key);
    assert.deepEqual((await ok<Tool>(200, 'POST', assign(attribute.id), { botIds: [a, b, a], action: 'ADD' }, w2.key)).botIds, [a, b].sort());
    assert.deepEqual((await ok<Tool>(200, 'POST', assign(attribute.id), { botIds: [a], action: 'ADD' }, w2.key)).botIds, [a, b].sort(), 'adding twice is harmless');
    assert.deepEqual((await ok<Tool>(200, 'POST', assign(attribute.id), { botIds: [b], action: 'DELETE' }, w2.key)).botIds, [a]);
    assert.deepEqual((await ok<Tool[]>(200, 'GET', `${list}?alwaysGet=true`, undefined, w2.key)).map((x) => x.id), [attribute.id]);
    assert.deepEqual((await ok<Tool[]>(200, 'GET', `${list}?alwaysGet=false`, undefined, w2.key)).map((x) => x.id), [action.id]);
    assert.deepEqual((await ok<Tool[]>(200, 'GET', `${list}?botId=${a}`, undefined, w2.key)).map((x) => x.id), [attribute.id]);
    assert.deepEqual((await ok<Tool[]>(200, 'GET', list, undefined, w2.key)).map((x) => x.id), [action.id, attribute.id]);
    await fail('POST', assign(action.id), 400, `body.botIds.0: agent ${agentA} does not exist in this workspace`, { botIds: [agentA], action: 'ADD' }, w2.key);
    await fail('POST', assign(action.id), 400, /^body\.action: /, { botIds: [a], action: 'TOGGLE' }, w2.key);
    await fail('GET', `${list}?botId=${UNKNOWN}`, 404, 'agent not found', undefined, w2.key);
  });

  describe('rule flows', () => {
    const flowCalling = (toolId: string) => ({ type: 'tool', toolId, inputs: { orderNumber: '${rule.orderNumber}' }, onFailure: { type: 'escalate', reason: 'tool_failure' } });

    it('let a tool node name an action, not an attribute, and draft with the actions', async () => {
      const w4 = await makeTenant(t);
      const action = await create({ name: 'Order lookup', description: 'Looks up an order by its order number' }, w4.key);
      await ok(200, 'PATCH', one(action.id), { inputFields: [{ name: 'orderNumber', type: 'string', required: true }] }, w4.key);
      const rule = await ok<{ id: string; flowConfig: unknown }>(201, 'POST', '/v2/hc-rules/public', { name: 'Lookup', description: 'Where is my order', flowConfig: flowCalling(action.id) }, w4.key);
      assert.equal((rule.flowConfig as { toolId: string }).toolId, action.id);
      const attribute = await create({ name: 'Profile', alwaysGet: true }, w4.key);
      await fail('POST', '/v2/hc-rules/public', 400, `body.flowConfig.toolId: action ${attribute.id} does not exist in this workspace`, { name: 'x', description: 'y', flowConfig: flowCalling(attribute.id) }, w4.key);
      const drafted = await ok<{ flowConfig: unknown }>(201, 'POST', '/v2/hc-rules/draft/public', { behaviorInstructions: 'Ask for the order number. Then look up the order.' }, w4.key);
      assert.deepEqual(JSON.parse(JSON.stringify(drafted.flowConfig)).next, { id: 'call_order_lookup', type: 'tool', toolId: action.id, inputs: { orderNumber: '${rule.orderNumber}' } });
    });

    it('keep an action they call from being deleted, naming the rules', async () => {
      const w3 = await makeTenant(t);
      const action = await create({ name: 'Refund' }, w3.key);
      const rule = await ok<{ id: string }>(201, 'POST', '/v2/hc-rules/public', { name: 'Refunds', description: 'Refund requests', flowConfig: { type: 'message', message: 'One moment', next: flowCalling(action.id) } }, w3.key);
      await fail('DELETE', one(action.id), 409, `"Refund" is called by the flow of rule "Refunds" (${rule.id}); change those rules first`, undefined, w3.key);
      assert.equal((await ok<Tool>(200, 'GET', one(action.id), undefined, w3.key)).name, 'Refund', 'nothing was deleted');
      await ok(200, 'DELETE', `/v2/hc-rules/${rule.id}/public`, undefined, w3.key);
      const deleted = await ok<Tool>(200, 'DELETE', one(action.id), undefined, w3.key);
      assert.equal(deleted.id, action.id);
      await fail('GET', one(action.id), 404, undefined, undefined, w3.key);
      await fail('DELETE', one(action.id), 404, undefined, undefined, w3.key);
    });
  });

  it("never shows, changes or assigns another workspace's actions", async () => {
    const [owner, caller] = [await makeTenant(t), await makeTenant(t)];
    const theirs = await create({}, owner.key);
    assert.deepEqual(await ok<Tool[]>(200, 'GET', list, undefined, caller.key), []);
    await fail('PATCH', one(theirs.id), 404, undefined, { name: 'Hijacked' }, caller.key);
    await fail('POST', '/v2/hc-rules/public', 400, /does not exist in this workspace/, { name: 'x', description: 'y', flowConfig: { type: 'tool', toolId: theirs.id } }, caller.key);
    assert.equal((await ok<Tool>(200, 'GET', one(theirs.id), undefined, owner.key)).name, 'Order lookup');
  });

  const own = async (app: TestApp, owner: Tenant) => (await expectStatus<Tool>(app, 201, 'POST', list, owner.key, { name: 'T' })).id;
  const routes: SecuredRouteRow[] = [
    ['create', 'POST', 'write', async () => ({ path: list, body: { name: 'T' } }), undefined],
    ['list', 'GET', 'read', async () => ({ path: list }), undefined],
    ['get', 'GET', 'read', async (app, o) => ({ path: one(await own(app, o)) }), 404],
    ['update', 'PATCH', 'write', async (app, o) => ({ path: one(await own(app, o)), body: { name: 'U' } }), 404],
    ['delete', 'DELETE', 'write', async (app, o) => ({ path: one(await own(app, o)) }), 404],
    [
      'assign',
      'POST',
      'write',
      async (app, o) => {
        const bot = (await expectStatus<{ id: string }>(app, 201, 'POST', '/v2/bots/public', o.key, { name: 'S' })).id;
        return { path: assign(await own(app, o)), body: { botIds: [bot], action: 'ADD' } };
      },
      404,
    ],
  ];
  securitySuites(() => t, routes);
});
