// The rules routes' shared security suite: keys, scopes, and another workspace's rules (404).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { assertError, expectStatus, type SecuredRouteRow, securitySuites } from '../support/security.js';
import {
  createAgent,
  createRule,
  draftPath,
  publishPath,
  refinePath,
  restorePath,
  type Rule,
  rulePath,
  type RuleSummary,
  rulesPath,
  testPath,
  versionPath,
  versionsPath,
} from './support.js';

describe('rules routes: security', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  type Build = SecuredRouteRow[3];
  const published = (app: TestApp, owner: Tenant) => createRule(app, owner);
  const draft = async (app: TestApp, owner: Tenant) =>
    expectStatus<Rule>(app, 201, 'POST', draftPath, owner.writeKey, { behaviorInstructions: 'Ask for the order number, then say "Thanks!"' });

  const list: Build = async () => ({ path: rulesPath });
  const create: Build = async () => ({ path: rulesPath, body: { name: 'Rule', description: 'When asked', flowConfig: { type: 'end' } } });
  const makeDraft: Build = async () => ({ path: draftPath, body: { behaviorInstructions: 'Say "Hello".' } });
  const get: Build = async (app, owner) => ({ path: rulePath((await published(app, owner)).id) });
  const patch: Build = async (app, owner) => ({ path: rulePath((await published(app, owner)).id), body: { description: 'Changed' } });
  const remove: Build = async (app, owner) => ({ path: rulePath((await published(app, owner)).id) });
  const refine: Build = async (app, owner) => ({ path: refinePath((await draft(app, owner)).id), body: { refinementInstructions: 'Also ask for the email.' } });
  const publish: Build = async (app, owner) => {
    const rule = await draft(app, owner);
    return { path: publishPath(rule.id), body: { botIds: [await createAgent(app, owner)] } };
  };
  const versions: Build = async (app, owner) => ({ path: versionsPath((await published(app, owner)).id) });
  const version: Build = async (app, owner) => {
    const rule = await published(app, owner);
    return { path: versionPath(rule.id, rule.versionId!) };
  };
  const restore: Build = async (app, owner) => {
    const rule = await published(app, owner);
    return { path: restorePath(rule.id, rule.versionId!) };
  };
  const test: Build = async (app, owner) => ({ path: testPath((await published(app, owner)).id), body: { message: 'Where is my order?' } });

  // [label, method, scope, request, status for a resource of another workspace]
  const routes: SecuredRouteRow[] = [
    ['list', 'GET', 'read', list, undefined],
    ['create', 'POST', 'write', create, undefined],
    ['draft', 'POST', 'write', makeDraft, undefined],
    ['get', 'GET', 'read', get, 404],
    ['update', 'PATCH', 'write', patch, 404],
    ['delete', 'DELETE', 'write', remove, 404],
    ['refine', 'POST', 'write', refine, 404],
    ['publish', 'POST', 'write', publish, 404],
    ['versions', 'GET', 'read', versions, 404],
    ['version', 'GET', 'read', version, 404],
    ['restore', 'POST', 'write', restore, 404],
    ['test', 'POST', 'read', test, 404],
  ];
  securitySuites(() => t, routes);

  describe('another workspace', () => {
    it("never lists, changes or deletes another workspace's rules", async () => {
      const [owner, caller] = [await makeTenant(t), await makeTenant(t)];
      const rule = await createRule(t, owner);
      assert.deepEqual(await expectStatus<RuleSummary[]>(t, 200, 'GET', rulesPath, caller.key), []);
      assertError(await t.request('PATCH', rulePath(rule.id), { key: caller.key, body: { name: 'Hijacked' } }), 404, 'rule not found');
      assertError(await t.request('DELETE', rulePath(rule.id), { key: caller.key }), 404, 'rule not found');
      const still = await expectStatus<Rule>(t, 200, 'GET', rulePath(rule.id), owner.key);
      assert.equal(still.name, 'Order status');
      assert.equal(still.version, 1);
    });

    it("refuses to publish a draft for another workspace's agent", async () => {
      const [owner, caller] = [await makeTenant(t), await makeTenant(t)];
      const foreign = await createAgent(t, owner);
      const rule = await draft(t, caller);
      assertError(await t.request('POST', publishPath(rule.id), { key: caller.key, body: { botIds: [foreign] } }), 400, `body.botIds.0: agent ${foreign} does not exist in this workspace`);
      assert.equal((await expectStatus<Rule>(t, 200, 'GET', rulePath(rule.id), caller.key)).status, 'DRAFT');
    });
  });
});
