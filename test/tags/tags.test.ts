// Tag groups and tags through HTTP: the routes, the deployed quirks, the read-only system groups,
// case-insensitive unique names, and the shared security suite.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CONVERSATION_STATUS_GROUP_ID,
  CONVERSATION_STATUSES,
  ESCALATION_REASON_GROUP_ID,
  ESCALATION_REASONS,
  SYSTEM_TAG_IDS,
} from '../../src/modules/tags/index.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { assertError, expectStatus, type SecuredRouteRow, securitySuites } from '../support/security.js';

interface Group {
  id: string;
  title: string;
  description: string;
  prompt: string;
  multiselect: boolean;
  mandatory: boolean;
  isOutputTagGroup: boolean;
  companyId: string | null;
  isSystem: boolean;
  createdAt: string;
  updatedAt: string;
}
interface Tag {
  id: string;
  tagGroupId: string;
  tagName: string;
  tagDescription: string;
  companyId: string | null;
  createdAt: string;
  updatedAt: string;
}

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const groups = '/v2/tag-groups/public';
const group = (id: string) => `/v2/tag-groups/${id}/public`;
const groupTags = (id: string) => `/v2/tag-groups/${id}/tags/public`;
const tagsOf = (...ids: string[]) => `/v2/tag-groups/tags/public${ids.length ? `?${ids.map((id) => `tagGroupIds=${id}`).join('&')}` : ''}`;
const tag = (id: string) => `/v2/tags/${id}/public`;

describe('tags and tag groups', () => {
  let t: TestApp;
  let w: Tenant;
  before(async () => {
    t = await startTestApp();
    w = await makeTenant(t);
  });
  after(() => t.close());

  const ok = <T>(status: number, method: string, path: string, body?: unknown, key = w.key) => expectStatus<T>(t, status, method, path, key, body);
  const fail = async (method: string, path: string, status: number, message?: string | RegExp, body?: unknown, key = w.key) =>
    assertError(await t.request(method, path, { key, body }), status, message);
  const makeGroup = (title = 'Topic', key = w.key) => expectStatus<Group>(t, 201, 'POST', groups, key, { title });
  const makeTag = (groupId: string, tagName: string, key = w.key) => expectStatus<Tag>(t, 201, 'POST', groupTags(groupId), key, { tagName });

  describe('system groups', () => {
    it('shows the read-only system groups with their fixed ids to every workspace', async () => {
      const listed = await ok<Group[]>(200, 'GET', groups, undefined, w.readKey);
      assert.deepEqual(listed.slice(0, 2).map((g) => [g.id, g.title, g.companyId, g.isSystem, g.mandatory, g.isOutputTagGroup]), [
        [CONVERSATION_STATUS_GROUP_ID, 'Conversation Status', null, true, true, true],
        [ESCALATION_REASON_GROUP_ID, 'Escalation Reason', null, true, false, true],
      ]);
      const statuses = await ok<Tag[]>(200, 'GET', groupTags(CONVERSATION_STATUS_GROUP_ID));
      assert.deepEqual(statuses.map((s) => [s.id, s.tagName]), CONVERSATION_STATUSES.map((name) => [SYSTEM_TAG_IDS[name], name]));
      const reasons = await ok<Tag[]>(200, 'GET', groupTags(ESCALATION_REASON_GROUP_ID));
      assert.deepEqual(reasons.map((s) => [s.id, s.tagName]), ESCALATION_REASONS.map((name) => [SYSTEM_TAG_IDS[name], name]));
      const other = await makeTenant(t);
      assert.deepEqual((await ok<Group[]>(200, 'GET', groups, undefined, other.key)).map((g) => g.id), [CONVERSATION_STATUS_GROUP_ID, ESCALATION_REASON_GROUP_ID]);
    });

    it('refuses every change of a system group or its tags with a 400 naming the group', async () => {
      const readOnly = 'tag group "Conversation Status" is a read-only system group';
      await fail('PUT', group(CONVERSATION_STATUS_GROUP_ID), 400, readOnly, { title: 'Mine now' });
      await fail('DELETE', group(CONVERSATION_STATUS_GROUP_ID), 400, readOnly);
      await fail('POST', groupTags(CONVERSATION_STATUS_GROUP_ID), 400, readOnly, { tagName: 'Pending' });
      const tagId = SYSTEM_TAG_IDS['No Reply'];
      await fail('PUT', groupTags(tagId), 400, readOnly, { tagName: 'Silent' });
      await fail('DELETE', tag(tagId), 400, readOnly);
      assert.equal((await ok<Tag>(200, 'GET', tag(tagId))).tagName, 'No Reply');
    });
  });

  describe('groups', () => {
    it('creates with defaults, gets, updates given fields only, and deletes with its tags', async () => {
      const created = await ok<Group>(201, 'POST', groups, { title: '  Product  ' });
      assert.deepEqual(
        { ...created, id: undefined, createdAt: undefined, updatedAt: undefined },
        { id: undefined, title: 'Product', description: '', prompt: '', multiselect: false, mandatory: false, isOutputTagGroup: false, companyId: w.workspaceId, isSystem: false, createdAt: undefined, updatedAt: undefined },
      );
      assert.deepEqual(await ok<Group>(200, 'GET', group(created.id), undefined, w.readKey), created);
      const updated = await ok<Group>(200, 'PUT', group(created.id), { prompt: 'Pick the product', multiselect: true });
      assert.equal(updated.title, 'Product');
      assert.equal(updated.prompt, 'Pick the product');
      assert.equal(updated.multiselect, true);
      const child = await makeTag(created.id, 'Widget');
      const deleted = await ok<Group>(200, 'DELETE', group(created.id));
      assert.equal(deleted.id, created.id);
      await fail('GET', group(created.id), 404, 'tag group not found');
      await fail('GET', tag(child.id), 404, 'tag not found');
    });

    it('lists the workspace groups after the system groups in creation order', async () => {
      const w2 = await makeTenant(t);
      const a = await makeGroup('A', w2.key);
      const b = await makeGroup('B', w2.key);
      assert.deepEqual((await ok<Group[]>(200, 'GET', groups, undefined, w2.key)).map((g) => g.id).slice(2), [a.id, b.id]);
    });

    it('validates input', async () => {
      await fail('POST', groups, 400, /body\.title/, { title: '' });
      await fail('POST', groups, 400, /body\.multiselect/, { title: 'x', multiselect: 'yes' });
      await fail('POST', groups, 400, /Unrecognized key: "colour"/, { title: 'x', colour: 'red' });
      await fail('GET', group('nope'), 400, /path\.id/);
      await fail('GET', group(UNKNOWN), 404, 'tag group not found');
      await fail('PUT', group(UNKNOWN), 404, 'tag group not found', { title: 'x' });
      await fail('DELETE', group(UNKNOWN), 404, 'tag group not found');
    });
  });

  describe('tags', () => {
    it('creates, lists, updates through the group path (the deployed quirk), gets and deletes', async () => {
      const g = await makeGroup('Billing');
      const invoice = await ok<Tag>(201, 'POST', groupTags(g.id), { tagName: 'Invoice', tagDescription: 'Invoices' });
      assert.equal(invoice.tagGroupId, g.id);
      assert.equal(invoice.companyId, w.workspaceId);
      const refund = await makeTag(g.id, 'Refund');
      assert.deepEqual((await ok<Tag[]>(200, 'GET', groupTags(g.id), undefined, w.readKey)).map((x) => x.tagName), ['Invoice', 'Refund']);
      const renamed = await ok<Tag>(200, 'PUT', groupTags(refund.id), { tagName: 'Refunds' });
      assert.equal(renamed.tagName, 'Refunds');
      assert.equal(renamed.tagDescription, '');
      assert.deepEqual(await ok<Tag>(200, 'GET', tag(refund.id), undefined, w.readKey), renamed);
      await fail('PUT', groupTags(g.id), 404, 'tag not found', { tagName: 'x' });
      const deleted = await ok<Tag>(200, 'DELETE', tag(invoice.id));
      assert.equal(deleted.id, invoice.id);
      await fail('GET', tag(invoice.id), 404, 'tag not found');
      await fail('DELETE', tag(invoice.id), 404, 'tag not found');
    });

    it('keeps names unique per group, case-insensitively, also under concurrent creates', async () => {
      const g = await makeGroup('Priority');
      await makeTag(g.id, 'Urgent');
      await fail('POST', groupTags(g.id), 409, 'tag group "Priority" already has a tag named "Urgent"', { tagName: 'URGENT' });
      const low = await makeTag(g.id, 'Low');
      await fail('PUT', groupTags(low.id), 409, /already has a tag named "Urgent"/, { tagName: 'urgent' });
      assert.equal((await ok<Tag>(200, 'PUT', groupTags(low.id), { tagName: 'LOW' })).tagName, 'LOW', 'renaming to its own name in another case is allowed');
      const other = await makeGroup('Other');
      await makeTag(other.id, 'Urgent');
      const results = await Promise.all(Array.from({ length: 5 }, () => t.request<Tag>('POST', groupTags(g.id), { key: w.key, body: { tagName: 'Normal' } })));
      assert.deepEqual(results.map((r) => r.status).sort(), [201, 409, 409, 409, 409]);
      assert.equal((await ok<Tag[]>(200, 'GET', groupTags(g.id))).filter((x) => x.tagName === 'Normal').length, 1);
    });

    it('lists tags of several groups with a repeated parameter only', async () => {
      const a = await makeGroup('Channel');
      const b = await makeGroup('Region');
      const email = await makeTag(a.id, 'Email');
      const emea = await makeTag(b.id, 'EMEA');
      const both = await ok<Tag[]>(200, 'GET', tagsOf(a.id, b.id), undefined, w.readKey);
      assert.deepEqual(new Set(both.map((x) => x.id)), new Set([email.id, emea.id]));
      assert.deepEqual((await ok<Tag[]>(200, 'GET', tagsOf(b.id))).map((x) => x.id), [emea.id]);
      await fail('GET', `/v2/tag-groups/tags/public?tagGroupIds=${a.id},${b.id}`, 400, /^query\.tagGroupIds\.0: a comma-separated list is not accepted/);
      await fail('GET', tagsOf(a.id, UNKNOWN), 404, `tag group ${UNKNOWN} not found`);
      await fail('GET', tagsOf('nope'), 400, /query\.tagGroupIds/);
      const all = await ok<Tag[]>(200, 'GET', tagsOf());
      assert.ok(all.some((x) => x.id === SYSTEM_TAG_IDS.other) && all.some((x) => x.id === email.id));
    });
  });

  describe('another workspace', () => {
    it("never sees, changes or deletes another workspace's groups and tags", async () => {
      const [owner, caller] = [await makeTenant(t), await makeTenant(t)];
      const g = await makeGroup('Secret', owner.key);
      const x = await makeTag(g.id, 'Hidden', owner.key);
      assert.ok(!(await ok<Group[]>(200, 'GET', groups, undefined, caller.key)).some((y) => y.id === g.id));
      await fail('GET', tagsOf(g.id), 404, `tag group ${g.id} not found`, undefined, caller.key);
      await fail('POST', groupTags(g.id), 404, 'tag group not found', { tagName: 'Injected' }, caller.key);
      await fail('PUT', groupTags(x.id), 404, 'tag not found', { tagName: 'Renamed' }, caller.key);
      assert.equal((await ok<Tag>(200, 'GET', tag(x.id), undefined, owner.key)).tagName, 'Hidden');
    });
  });

  const ownGroup = async (app: TestApp, owner: Tenant) => (await expectStatus<Group>(app, 201, 'POST', groups, owner.key, { title: 'G' })).id;
  const ownTag = async (app: TestApp, owner: Tenant) => (await expectStatus<Tag>(app, 201, 'POST', groupTags(await ownGroup(app, owner)), owner.key, { tagName: 'T' })).id;
  const routes: SecuredRouteRow[] = [
    ['list groups', 'GET', 'read', async () => ({ path: groups }), undefined],
    ['create group', 'POST', 'write', async () => ({ path: groups, body: { title: 'G' } }), undefined],
    ['get group', 'GET', 'read', async (app, o) => ({ path: group(await ownGroup(app, o)) }), 404],
    ['update group', 'PUT', 'write', async (app, o) => ({ path: group(await ownGroup(app, o)), body: { title: 'H' } }), 404],
    ['delete group', 'DELETE', 'write', async (app, o) => ({ path: group(await ownGroup(app, o)) }), 404],
    ['list group tags', 'GET', 'read', async (app, o) => ({ path: groupTags(await ownGroup(app, o)) }), 404],
    ['create tag', 'POST', 'write', async (app, o) => ({ path: groupTags(await ownGroup(app, o)), body: { tagName: 'N' } }), 404],
    ['update tag', 'PUT', 'write', async (app, o) => ({ path: groupTags(await ownTag(app, o)), body: { tagName: 'M' } }), 404],
    ['tags of groups', 'GET', 'read', async (app, o) => ({ path: tagsOf(await ownGroup(app, o)) }), 404],
    ['get tag', 'GET', 'read', async (app, o) => ({ path: tag(await ownTag(app, o)) }), 404],
    ['delete tag', 'DELETE', 'write', async (app, o) => ({ path: tag(await ownTag(app, o)) }), 404],
  ];
  securitySuites(() => t, routes);
});
