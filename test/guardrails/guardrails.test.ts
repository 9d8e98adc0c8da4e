// Guardrails through HTTP: CRUD with agent assignment, validation naming the field, the test
// route, another workspace, and the shared security suite.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { assertError, expectStatus, type SecuredRouteRow, securitySuites } from '../support/security.js';

interface Guardrail { id: string; companyId: string; name: string; kind: string; stage: string; action: string; config: Record<string, unknown>; isEnabled: boolean; botIds: string[]; createdAt: string; updatedAt: string }
interface Outcome { stage: string; text: string; blocked: boolean; escalate: boolean; results: { id: string; name: string; matched: boolean; matches: { type: string; value?: string }[]; detail: string }[] }

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const list = '/v2/guardrails/public';
const one = (id: string) => `/v2/guardrails/${id}/public`;
const test = '/v2/guardrails/test/public';
const pii = { name: 'No card numbers', kind: 'pii_redaction', stage: 'input', action: 'redact', config: { types: ['card', 'email'] } };
const politics = { name: 'No politics', kind: 'blocked_topics', stage: 'input', action: 'block', config: { topics: ['politics, elections, voting'] } };

describe('guardrails', () => {
  let t: TestApp;
  let w: Tenant;
  let agentA: string;
  let agentB: string;
  before(async () => {
    t = await startTestApp();
    w = await makeTenant(t);
    agentA = (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/bots/public', w.key, { name: 'A' })).id;
    agentB = (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/bots/public', w.key, { name: 'B' })).id;
  });
  after(() => t.close());

  const ok = <T>(status: number, method: string, path: string, body?: unknown, key = w.key) => expectStatus<T>(t, status, method, path, key, body);
  const fail = async (method: string, path: string, status: number, message?: string | RegExp, body?: unknown, key = w.key) =>
    assertError(await t.request(method, path, { key, body }), status, message);

  it('creates, gets, lists by agent and stage, updates given fields and deletes', async () => {
    const created = await ok<Guardrail>(201, 'POST', list, { ...pii, botIds: [agentA] });
    assert.deepEqual(
      { ...created, id: undefined, createdAt: undefined, updatedAt: undefined },
      { ...pii, id: undefined, companyId: w.workspaceId, isEnabled: true, botIds: [agentA], createdAt: undefined, updatedAt: undefined },
    );
    assert.deepEqual(await ok<Guardrail>(200, 'GET', one(created.id), undefined, w.readKey), created);
    const other = await ok<Guardrail>(201, 'POST', list, { ...politics, botIds: [agentB] });
    assert.deepEqual((await ok<Guardrail[]>(200, 'GET', `${list}?botId=${agentA}`)).map((g) => g.id), [created.id]);
    assert.deepEqual((await ok<Guardrail[]>(200, 'GET', `${list}?stage=input`)).map((g) => g.id), [created.id, other.id]);
    assert.deepEqual(await ok<Guardrail[]>(200, 'GET', `${list}?stage=output`), []);
    const updated = await ok<Guardrail>(200, 'PUT', one(created.id), { isEnabled: false, botIds: [agentA, agentB] });
    assert.equal(updated.isEnabled, false);
    assert.deepEqual(updated.config, pii.config);
    assert.deepEqual(updated.botIds, [agentA, agentB].sort());
    const changedKind = await ok<Guardrail>(200, 'PUT', one(created.id), { kind: 'blocked_phrases', config: { phrases: ['refund now'] } });
    assert.equal(changedKind.kind, 'blocked_phrases');
    assert.deepEqual(changedKind.config, { phrases: ['refund now'], caseSensitive: false });
    assert.deepEqual(await ok<Guardrail>(200, 'DELETE', one(created.id)), changedKind);
    await fail('GET', one(created.id), 404, 'guardrail not found');
    await fail('DELETE', one(created.id), 404, 'guardrail not found');
  });

  it('refuses bad definitions with a 400 naming the field, storing nothing', async () => {
    const w2 = await makeTenant(t);
    const post = (body: unknown) => t.request('POST', list, { key: w2.key, body });
    assertError(await post({ ...pii, config: { types: ['passport'] } }), 400, /^body\.config\.types\.0: /);
    assertError(await post({ ...politics, action: 'redact' }), 400, 'body.action: blocked_topics cannot redact: use one of block, escalate, flag');
    assertError(await post({ name: 'Cite', kind: 'required_citation', stage: 'input', action: 'flag' }), 400, /^body\.stage: required_citation checks the agent's answer/);
    assertError(await post({ ...pii, kind: 'magic' }), 400, /^body\.kind: /);
    assertError(await post({ ...pii, name: ' ' }), 400, /^body\.name: /);
    assertError(await post({ ...pii, botIds: [UNKNOWN] }), 400, `body.botIds.0: agent ${UNKNOWN} does not exist in this workspace`);
    const made = await ok<Guardrail>(201, 'POST', list, pii, w2.key);
    await fail('PUT', one(made.id), 400, /^body\.config: /, { kind: 'blocked_topics' }, w2.key);
    await fail('PUT', one(made.id), 400, /^body\.config\.maxCharacters: /, { kind: 'answer_length', stage: 'output', action: 'block', config: {} }, w2.key);
    assert.deepEqual((await ok<Guardrail[]>(200, 'GET', list, undefined, w2.key)).map((g) => [g.id, g.kind]), [[made.id, 'pii_redaction']]);
    await fail('GET', `${list}?botId=${UNKNOWN}`, 404, 'agent not found', undefined, w2.key);
    await fail('PUT', one(UNKNOWN), 404, 'guardrail not found', { isEnabled: true }, w2.key);
  });

  describe('test route', () => {
    let w3: Tenant;
    let agent: string;
    let ids: string[];
    before(async () => {
      w3 = await makeTenant(t);
      agent = (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/bots/public', w3.key, { name: 'C' })).id;
      ids = [];
      for (const body of [
        { ...pii, botIds: [agent] },
        { ...politics, botIds: [agent] },
        { name: 'Short answers', kind: 'answer_length', stage: 'output', action: 'escalate', config: { maxCharacters: 20 }, botIds: [agent] },
        { name: 'Disabled', kind: 'blocked_phrases', stage: 'input', action: 'block', config: { phrases: ['card'] }, isEnabled: false, botIds: [agent] },
      ]) ids.push((await ok<Guardrail>(201, 'POST', list, body, w3.key)).id);
    });
    const run = (body: unknown) => ok<Outcome>(200, 'POST', test, body, w3.readKey);

    it("runs the agent's enabled input guardrails in order, redacting and reporting", async () => {
      const outcome = await run({ botId: agent, stage: 'input', text: 'My card 4111 1111 1111 1111 - who should I vote for?' });
      assert.equal(outcome.text, 'My card [redacted] - who should I vote for?');
      assert.equal(outcome.blocked, true);
      assert.equal(outcome.escalate, false);
      assert.deepEqual(outcome.results.map((r) => [r.name, r.matched]), [['No card numbers', true], ['No politics', true]]);
      assert.deepEqual(outcome.results[0]!.matches, [{ type: 'card', start: 8, end: 27 }]);
      assert.equal(outcome.results[1]!.detail, 'about "voting" (vote)');
      assert.ok(!JSON.stringify(outcome).includes('4111'), 'the card number is never echoed');
    });

    it('runs output guardrails and named ones, even disabled', async () => {
      const output = await run({ botId: agent, stage: 'output', text: 'This answer is longer than twenty characters' });
      assert.deepEqual([output.escalate, output.results.map((r) => r.name)], [true, ['Short answers']]);
      const named = await run({ guardrailIds: [ids[3]], stage: 'input', text: 'my card' });
      assert.deepEqual([named.blocked, named.results[0]!.matched], [true, true]);
      await fail('POST', test, 400, `body.guardrailIds.0: guardrail ${UNKNOWN} does not exist in this workspace`, { guardrailIds: [UNKNOWN], stage: 'input', text: 'x' }, w3.key);
      await fail('POST', test, 404, 'agent not found', { botId: UNKNOWN, stage: 'input', text: 'x' }, w3.key);
      await fail('POST', test, 400, /body\.stage/, { stage: 'middle', text: 'x' }, w3.key);
    });

    it('runs every enabled guardrail of the workspace without an agent', async () => {
      const outcome = await run({ stage: 'input', text: 'hello' });
      assert.deepEqual(outcome.results.map((r) => [r.name, r.matched]), [['No card numbers', false], ['No politics', false]]);
    });
  });

  it("never shows, changes or runs another workspace's guardrails", async () => {
    const [owner, caller] = [await makeTenant(t), await makeTenant(t)];
    const theirs = await ok<Guardrail>(201, 'POST', list, politics, owner.key);
    assert.deepEqual(await ok<Guardrail[]>(200, 'GET', list, undefined, caller.key), []);
    await fail('PUT', one(theirs.id), 404, 'guardrail not found', { isEnabled: false }, caller.key);
    await fail('POST', test, 400, /does not exist in this workspace/, { guardrailIds: [theirs.id], stage: 'input', text: 'vote' }, caller.key);
    const theirAgent = (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/bots/public', owner.key, { name: 'Theirs' })).id;
    await fail('POST', list, 400, /body\.botIds\.0/, { ...pii, botIds: [theirAgent] }, caller.key);
    assert.equal((await ok<Guardrail>(200, 'GET', one(theirs.id), undefined, owner.key)).isEnabled, true);
  });

  const own = async (app: TestApp, owner: Tenant) => (await expectStatus<Guardrail>(app, 201, 'POST', list, owner.key, politics)).id;
  const routes: SecuredRouteRow[] = [
    ['list', 'GET', 'read', async () => ({ path: list }), undefined],
    ['create', 'POST', 'write', async () => ({ path: list, body: pii }), undefined],
    ['get', 'GET', 'read', async (app, o) => ({ path: one(await own(app, o)) }), 404],
    ['update', 'PUT', 'write', async (app, o) => ({ path: one(await own(app, o)), body: { isEnabled: false } }), 404],
    ['delete', 'DELETE', 'write', async (app, o) => ({ path: one(await own(app, o)) }), 404],
    ['test', 'POST', 'read', async () => ({ path: test, body: { stage: 'input', text: 'hello' } }), undefined],
  ];
  securitySuites(() => t, routes);
});
