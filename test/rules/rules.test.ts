import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestApp, startTestApp } from '../support/app.js';
import { testClock } from '../support/clock.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { assertError, expectStatus } from '../support/security.js';
import {
  createAgent,
  createRule,
  orderFlow,
  restorePath,
  type Rule,
  rulePath,
  type RuleSummary,
  rulesPath,
  UNKNOWN,
  versionPath,
  type Versions,
  versionsPath,
  type VersionItem,
} from './support.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('intent and business rules', () => {
  let t: TestApp;
  let w: Tenant;
  let agentA: string;
  let agentB: string;
  const clock = testClock();
  before(async () => {
    t = await startTestApp({ clock });
    w = await makeTenant(t);
    agentA = await createAgent(t, w, 'Agent A');
    agentB = await createAgent(t, w, 'Agent B');
  });
  after(() => t.close());

  const ok = <T>(status: number, method: string, path: string, body?: unknown, key = w.key) => expectStatus<T>(t, status, method, path, key, body);
  const fail = async (method: string, path: string, status: number, message?: string | RegExp, body?: unknown, key = w.key) =>
    assertError(await t.request(method, path, { key, body }), status, message);

  describe('create', () => {
    it('creates a published rule at version 1 with its agents and assigns missing node ids', async () => {
      const flow = { type: 'message', message: 'Hello', next: { type: 'end' } };
      const rule = await createRule(t, w, { flowConfig: flow, botIds: [agentB, agentA], inputSchema: { type: 'object' } });
      assert.equal(rule.type, 'intent');
      assert.equal(rule.status, 'PUBLISHED');
      assert.equal(rule.isDraft, false);
      assert.equal(rule.version, 1);
      assert.match(rule.versionId!, /^[0-9a-f-]{36}$/);
      assert.equal(rule.companyId, w.workspaceId);
      assert.equal(rule.source, 'api');
      assert.equal(rule.triggerType, 'on_message');
      assert.deepEqual(rule.inputSchema, { type: 'object' });
      assert.deepEqual(rule.botIds, [agentA, agentB].sort());
      assert.deepEqual(rule.flowConfig, { id: 'n1', type: 'message', message: 'Hello', next: { id: 'n2', type: 'end' } });
      assert.match(rule.createdAt, ISO);
      const got = await ok<Rule>(200, 'GET', rulePath(rule.id));
      assert.deepEqual(got, rule);
    });

    it("accepts the specification's one-node flow { type, message }", async () => {
      const rule = await createRule(t, w, { flowConfig: { type: 'message', message: 'We ship within 2 days.' } });
      assert.deepEqual(rule.flowConfig, { id: 'n1', type: 'message', message: 'We ship within 2 days.' });
    });

    it('creates a business rule without a flow and refuses one with a flow', async () => {
      const rule = await createRule(t, w, { type: 'business', name: 'No discounts', description: 'Never promise discounts.', flowConfig: undefined, botIds: [agentA] });
      assert.equal(rule.type, 'business');
      assert.equal(rule.flowConfig, null);
      assert.deepEqual(rule.botIds, [agentA]);
      await fail('POST', rulesPath, 400, /^body\.flowConfig: business rules have no flow/, { type: 'business', name: 'x', description: 'y', flowConfig: orderFlow() });
    });

    it('refuses an agent of another workspace, naming the entry', async () => {
      const other = await makeTenant(t);
      const foreign = await createAgent(t, other);
      await fail('POST', rulesPath, 400, `body.botIds.1: agent ${foreign} does not exist in this workspace`, {
        name: 'x',
        description: 'y',
        botIds: [agentA, foreign],
      });
      const rules = await ok<RuleSummary[]>(200, 'GET', `${rulesPath}?type=intent`);
      assert.ok(!rules.some((r) => r.name === 'x'), 'nothing half-written');
    });

    it('refuses bad input with a 400 naming the field', async () => {
      await fail('POST', rulesPath, 400, /body\.name/, { description: 'y' });
      await fail('POST', rulesPath, 400, /body\.type/, { name: 'x', description: 'y', type: 'policy' });
      await fail('POST', rulesPath, 400, /body\.triggerType/, { name: 'x', description: 'y', triggerType: 'sometimes' });
      await fail('POST', rulesPath, 400, /body\.source/, { name: 'x', description: 'y', source: 'fax' });
      await fail('POST', rulesPath, 400, /body\.botIds\.0/, { name: 'x', description: 'y', botIds: ['not-a-uuid'] });
      await fail('POST', rulesPath, 400, 'body: Unrecognized key: "surprise"', { name: 'x', description: 'y', surprise: 1 });
      const raw = await t.request('POST', rulesPath, { key: w.key, raw: '{"name":', headers: { 'content-type': 'application/json' } });
      assertError(raw, 400, /JSON/);
    });
  });

  describe('flow validation', () => {
    const post = (flowConfig: unknown) => t.request('POST', rulesPath, { key: w.key, body: { name: 'Flow', description: 'd', flowConfig } });

    it('names the node of an unknown type', async () => {
      assertError(await post({ type: 'message', message: 'hi', next: { type: 'teleport' } }), 400, /^body\.flowConfig\.next\.type: /);
    });
    it('names an unknown key of a node', async () => {
      assertError(await post({ type: 'message', message: 'hi', next: { type: 'end', colour: 'red' } }), 400, /^body\.flowConfig\.next: .*colour/);
    });
    it('names a tool node whose action does not exist', async () => {
      const flow = { type: 'message', message: 'hi', next: { type: 'condition', conditions: [{ scope: 'SCALAR', predicate: [] }], then: { type: 'tool', toolId: UNKNOWN } } };
      assertError(await post(flow), 400, `body.flowConfig.next.then.toolId: action ${UNKNOWN} does not exist in this workspace`);
    });
    it('names a tag node naming an unknown tag', async () => {
      assertError(await post({ type: 'tag', tagIds: [UNKNOWN] }), 400, `body.flowConfig.tagIds.0: tag ${UNKNOWN} does not exist in this workspace`);
    });
    it('names a bad condition inside a condition node', async () => {
      const flow = { type: 'condition', conditions: [{ scope: 'SCALAR', predicate: [{ left: { path: 'message.content', dataType: 'string' }, operator: 'resembles', right: { value: 'x' } }] }] };
      assertError(await post(flow), 400, /^body\.flowConfig\.conditions\.0\.predicate\.0\.operator: /);
    });
    it('refuses more than 200 nodes and more than 30 levels', async () => {
      let wide: Record<string, unknown> = { type: 'end' };
      // 201 nodes nested 2 per level stays under the depth limit only if spread; nest then/else.
      const branch = (depth: number): Record<string, unknown> =>
        depth === 0 ? { type: 'end' } : { type: 'condition', conditions: [{ scope: 'SCALAR', predicate: [] }], then: branch(depth - 1), else: branch(depth - 1) };
      wide = branch(7); // 255 nodes, depth 8
      assertError(await post(wide), 400, /at most 200 nodes/);
      let deep: Record<string, unknown> = { type: 'end' };
      for (let i = 0; i < 30; i += 1) deep = { type: 'message', message: `m${i}`, next: deep };
      assertError(await post(deep), 400, /at most 30 nodes deep/);
      const depth = 20_000;
      const raw = `{"name":"Deep","description":"d","flowConfig":${'{"type":"message","message":"m","next":'.repeat(depth)}{"type":"end"}${'}'.repeat(depth)}}`;
      const res = await t.request('POST', rulesPath, { key: w.key, raw, headers: { 'content-type': 'application/json' } });
      assert.ok(res.status === 400 || res.status === 413, `a very deep flow is a 4xx, got ${res.status}`);
    });
    it('refuses duplicate node ids', async () => {
      assertError(await post({ id: 'a', type: 'message', message: 'hi', next: { id: 'a', type: 'end' } }), 400, /^body\.flowConfig\.next\.id: node id "a" is used twice/);
    });
  });

  describe('list and get', () => {
    it('lists published intent rules by default, without flows, newest change first', async () => {
      const w2 = await makeTenant(t);
      const first = await createRule(t, w2, { name: 'First' });
      clock.advance(1_000);
      const second = await createRule(t, w2, { name: 'Second' });
      await createRule(t, w2, { name: 'Policy', type: 'business', flowConfig: undefined });
      const listed = await ok<RuleSummary[]>(200, 'GET', rulesPath, undefined, w2.readKey);
      assert.deepEqual(listed.map((r) => r.name), ['Second', 'First']);
      assert.ok(listed.every((r) => !('flowConfig' in r)));
      assert.deepEqual(listed[1], (({ flowConfig: _f, ...rest }) => rest)(first));
      assert.equal(listed[0]!.id, second.id);
      const business = await ok<RuleSummary[]>(200, 'GET', `${rulesPath}?type=business`, undefined, w2.readKey);
      assert.deepEqual(business.map((r) => r.name), ['Policy']);
      assert.deepEqual(await ok<RuleSummary[]>(200, 'GET', `${rulesPath}?isDraft=true`, undefined, w2.readKey), []);
      assert.deepEqual((await ok<RuleSummary[]>(200, 'GET', `${rulesPath}?source=ui`, undefined, w2.readKey)).length, 0);
      assert.deepEqual((await ok<RuleSummary[]>(200, 'GET', `${rulesPath}?source=api`, undefined, w2.readKey)).length, 2);
      await fail('GET', `${rulesPath}?type=other`, 400, /query\.type/, undefined, w2.readKey);
      await fail('GET', `${rulesPath}?isDraft=maybe`, 400, /query\.isDraft/, undefined, w2.readKey);
    });

    it('answers 404 for an unknown rule and 400 for a malformed id', async () => {
      await fail('GET', rulePath(UNKNOWN), 404, 'rule not found');
      await fail('GET', rulePath('nope'), 400, /path\.id/);
    });
  });

  describe('versions', () => {
    it('appends a version on every update; the history is newest first without flows', async () => {
      const rule = await createRule(t, w, { botIds: [agentA] });
      clock.advance(1_000);
      const v2 = await ok<Rule>(200, 'PATCH', rulePath(rule.id), { description: 'Where is my parcel', botIds: [agentB] });
      assert.equal(v2.version, 2);
      assert.notEqual(v2.versionId, rule.versionId);
      assert.equal(v2.description, 'Where is my parcel');
      assert.deepEqual(v2.botIds, [agentB]);
      assert.deepEqual(v2.flowConfig, rule.flowConfig, 'fields not given are kept');
      const history = await ok<Versions>(200, 'GET', versionsPath(rule.id), undefined, w.readKey);
      assert.equal(history.ruleId, rule.id);
      assert.equal(history.currentPublishedVersionId, v2.versionId);
      assert.deepEqual(history.versions.map((v) => v.version), [2, 1]);
      const [latest, oldest] = history.versions as [VersionItem, VersionItem];
      assert.equal(latest.versionId, v2.versionId);
      assert.equal(latest.item.versionId, v2.versionId);
      assert.equal(latest.item.id, rule.id);
      assert.equal(latest.item.status, 'PUBLISHED');
      assert.deepEqual(latest.item.botIds, [agentB]);
      assert.equal(oldest.item.description, 'The customer asks where their order is');
      assert.deepEqual(oldest.item.botIds, [agentA]);
      assert.ok(!('flowConfig' in latest.item));
      assert.equal(latest.restoredFromVersionId, null);
      assert.ok(latest.createdBy, 'the key that made the version');
    });

    it('gets one version with its flow and restores it as a new version', async () => {
      const rule = await createRule(t, w, { botIds: [agentA] });
      const changed = await ok<Rule>(200, 'PATCH', rulePath(rule.id), { name: 'Renamed', flowConfig: { type: 'end', message: 'Bye' } });
      const one = await ok<VersionItem>(200, 'GET', versionPath(rule.id, rule.versionId!), undefined, w.readKey);
      assert.equal(one.version, 1);
      assert.deepEqual(one.item.flowConfig, rule.flowConfig);
      const restored = await ok<Rule>(200, 'POST', restorePath(rule.id, rule.versionId!));
      assert.equal(restored.version, 3);
      assert.equal(restored.name, 'Order status');
      assert.deepEqual(restored.flowConfig, rule.flowConfig);
      assert.deepEqual(restored.botIds, [agentA]);
      const history = await ok<Versions>(200, 'GET', versionsPath(rule.id));
      assert.deepEqual(history.versions.map((v) => [v.version, v.restoredFromVersionId]), [[3, rule.versionId], [2, null], [1, null]]);
      assert.equal(history.versions[1]!.item.name, changed.name, 'history is never rewritten');
      await fail('GET', versionPath(rule.id, UNKNOWN), 404, 'rule version not found');
      await fail('POST', restorePath(rule.id, UNKNOWN), 404, 'rule version not found');
      const other = await createRule(t, w);
      await fail('GET', versionPath(other.id, rule.versionId!), 404, 'rule version not found');
    });

    it('never loses a version number under concurrent updates', async () => {
      const rule = await createRule(t, w);
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => t.request<Rule>('PATCH', rulePath(rule.id), { key: w.key, body: { description: `change ${i}` } })),
      );
      assert.deepEqual(results.map((r) => r.status), [200, 200, 200, 200, 200, 200]);
      assert.deepEqual(results.map((r) => r.body.version).sort((a, b) => a! - b!), [2, 3, 4, 5, 6, 7]);
      const history = await ok<Versions>(200, 'GET', versionsPath(rule.id));
      assert.deepEqual(history.versions.map((v) => v.version), [7, 6, 5, 4, 3, 2, 1]);
    });

    it('refuses a change based on an older version', async () => {
      const rule = await createRule(t, w);
      await ok<Rule>(200, 'PATCH', rulePath(rule.id), { description: 'a', baseVersion: 1 });
      await fail('PATCH', rulePath(rule.id), 409, /changed since version 1: its current version is 2/, { description: 'b', baseVersion: 1 });
      assert.equal((await ok<Rule>(200, 'GET', rulePath(rule.id))).description, 'a');
    });

    it('answers 400 for a business rule and 404 for an unknown rule', async () => {
      const rule = await createRule(t, w, { type: 'business', flowConfig: undefined });
      await fail('GET', versionsPath(rule.id), 400, /business rules have no version history/);
      await fail('GET', versionPath(rule.id, rule.versionId!), 400, /business rules/);
      await fail('POST', restorePath(rule.id, rule.versionId!), 400, /business rules/);
      await fail('GET', versionsPath(UNKNOWN), 404, 'rule not found');
      await fail('PATCH', rulePath(rule.id), 400, /business rules have no flow/, { flowConfig: { type: 'end' } });
    });
  });

  describe('delete', () => {
    it('deletes a rule with its versions', async () => {
      const rule = await createRule(t, w, { botIds: [agentA] });
      const deleted = await ok<Rule>(200, 'DELETE', rulePath(rule.id));
      assert.equal(deleted.id, rule.id);
      await fail('GET', rulePath(rule.id), 404);
      await fail('GET', versionsPath(rule.id), 404);
      await fail('DELETE', rulePath(rule.id), 404);
    });

    it("drops a deleted agent from the rule's agents", async () => {
      const agent = await createAgent(t, w, 'Temporary');
      const rule = await createRule(t, w, { botIds: [agent, agentA] });
      await ok(200, 'DELETE', `/v2/bots/${agent}/public`);
      assert.deepEqual((await ok<Rule>(200, 'GET', rulePath(rule.id))).botIds, [agentA]);
    });
  });
});
