import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AUTH_MESSAGES } from '../../src/http/errors.js';
import { type TestApp, TEST_ADMIN_TOKEN, startTestApp } from '../support/app.js';
import { assertError } from '../support/security.js';

interface Workspace {
  id: string;
  name: string;
  createdAt: string;
}
interface CreatedKey {
  id: string;
  name: string;
  key: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
}
interface ListedKey {
  id: string;
  workspaceId: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

describe('admin API', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('creates and lists workspaces', async () => {
    const created = await t.request<Workspace>('POST', '/v2/admin/workspaces', { headers: admin, body: { name: 'Acme' } });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body).sort(), ['createdAt', 'id', 'name']);
    assert.equal(created.body.name, 'Acme');
    const list = await t.request<Workspace[]>('GET', '/v2/admin/workspaces', { headers: admin });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.find((w) => w.id === created.body.id), created.body);
  });

  it('creates a key that works, shows its secret once, lists it without secrets and revokes it', async () => {
    const ws = await t.request<Workspace>('POST', '/v2/admin/workspaces', { headers: admin, body: { name: 'Keys' } });
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const created = await t.request<CreatedKey>('POST', `/v2/admin/workspaces/${ws.body.id}/api-keys`, {
      headers: admin,
      body: { name: 'ci', scopes: ['write', 'read', 'read'], expiresAt },
    });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body).sort(), ['createdAt', 'expiresAt', 'id', 'key', 'name', 'prefix', 'scopes']);
    assert.match(created.body.key, /^parley_[A-Za-z0-9_-]{43}$/);
    assert.equal(created.body.prefix, created.body.key.slice(0, 13));
    assert.deepEqual(created.body.scopes, ['read', 'write']);
    assert.equal(created.body.name, 'ci');
    assert.equal(created.body.expiresAt, expiresAt);

    const me = await t.request<{ id: string }>('GET', '/v2/workspace/public', { key: created.body.key });
    assert.equal(me.status, 200);
    assert.equal(me.body.id, ws.body.id);

    const list = await t.request<ListedKey[]>('GET', `/v2/admin/workspaces/${ws.body.id}/api-keys`, { headers: admin });
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 1);
    const [listed] = list.body;
    assert.ok(listed);
    assert.deepEqual(Object.keys(listed).sort(), [
      'createdAt', 'expiresAt', 'id', 'lastUsedAt', 'name', 'prefix', 'revokedAt', 'scopes', 'workspaceId',
    ]);
    assert.ok(!list.text.includes(created.body.key.slice(13)), 'secret must not be listed');
    assert.notEqual(listed.lastUsedAt, null);
    assert.equal(listed.revokedAt, null);

    const revoked = await t.request<ListedKey>('DELETE', `/v2/admin/api-keys/${created.body.id}`, { headers: admin });
    assert.equal(revoked.status, 200);
    assert.ok(revoked.body.revokedAt);
    assertError(await t.request('GET', '/v2/workspace/public', { key: created.body.key }), 401, AUTH_MESSAGES.invalid);
    const again = await t.request<ListedKey>('DELETE', `/v2/admin/api-keys/${created.body.id}`, { headers: admin });
    assert.equal(again.status, 200);
    assert.equal(again.body.revokedAt, revoked.body.revokedAt);
  });

  it('names a default key name and allows a key without expiry', async () => {
    const ws = await t.request<Workspace>('POST', '/v2/admin/workspaces', { headers: admin, body: { name: 'Defaults' } });
    const created = await t.request<CreatedKey>('POST', `/v2/admin/workspaces/${ws.body.id}/api-keys`, {
      headers: admin,
      body: { scopes: ['read'] },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.name, `key ${created.body.key.slice(7, 13)}`);
    assert.equal(created.body.expiresAt, null);
  });

  it('rejects bad input with 400 and unknown ids with 404', async () => {
    const ws = await t.request<Workspace>('POST', '/v2/admin/workspaces', { headers: admin, body: { name: 'Bad' } });
    const keys = `/v2/admin/workspaces/${ws.body.id}/api-keys`;
    assertError(await t.request('POST', '/v2/admin/workspaces', { headers: admin, body: {} }), 400, /^body\.name/);
    assertError(await t.request('POST', keys, { headers: admin, body: { scopes: ['admin'] } }), 400, /^body\.scopes\.0/);
    assertError(await t.request('POST', keys, { headers: admin, body: { scopes: [] } }), 400, /^body\.scopes/);
    assertError(await t.request('POST', keys, { headers: admin, body: { scopes: ['read'], expiresAt: 'tomorrow' } }), 400, /^body\.expiresAt/);
    assertError(
      await t.request('POST', keys, { headers: admin, body: { scopes: ['read'], expiresAt: '2020-01-01T00:00:00Z' } }),
      400,
      'expiresAt: must be in the future',
    );
    assertError(await t.request('POST', '/v2/admin/workspaces/not-a-uuid/api-keys', { headers: admin, body: { scopes: ['read'] } }), 400, /^path\.id/);
    assertError(await t.request('DELETE', '/v2/admin/api-keys/123', { headers: admin }), 400, /^path\.id/);
    const missing = '00000000-0000-4000-8000-000000000000';
    assertError(await t.request('POST', `/v2/admin/workspaces/${missing}/api-keys`, { headers: admin, body: { scopes: ['read'] } }), 404);
    assertError(await t.request('GET', `/v2/admin/workspaces/${missing}/api-keys`, { headers: admin }), 404);
    assertError(await t.request('DELETE', `/v2/admin/api-keys/${missing}`, { headers: admin }), 404);
    const list = await t.request<ListedKey[]>('GET', keys, { headers: admin });
    assert.deepEqual(list.body, [], 'nothing was half-written');
  });

  it('requires the admin token', async () => {
    assertError(await t.request('GET', '/v2/admin/workspaces'), 401, AUTH_MESSAGES.adminMissing);
    assertError(await t.request('GET', '/v2/admin/workspaces', { headers: { authorization: 'Bearer wrong-token' } }), 401, AUTH_MESSAGES.adminInvalid);
    assertError(await t.request('GET', '/v2/admin/workspaces', { headers: { authorization: 'Token x' } }), 401, AUTH_MESSAGES.malformed);
  });

  it('does not accept a workspace key as the admin token', async () => {
    const ws = await t.request<Workspace>('POST', '/v2/admin/workspaces', { headers: admin, body: { name: 'Escalate' } });
    const key = await t.request<CreatedKey>('POST', `/v2/admin/workspaces/${ws.body.id}/api-keys`, { headers: admin, body: { scopes: ['read', 'write'] } });
    assertError(await t.request('GET', '/v2/admin/workspaces', { key: key.body.key }), 401, AUTH_MESSAGES.adminInvalid);
    // The worker list names hosts and pids of the whole deployment: operators only.
    assertError(await t.request('GET', '/v2/admin/workers', { key: key.body.key }), 401, AUTH_MESSAGES.adminInvalid);
    assertError(await t.request('GET', '/v2/admin/workers'), 401, AUTH_MESSAGES.adminMissing);
  });
});

describe('admin API without PARLEY_ADMIN_TOKEN', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { PARLEY_ADMIN_TOKEN: '' } });
  });
  after(() => t.close());

  it('answers 404 saying it is disabled', async () => {
    assertError(await t.request('GET', '/v2/admin/workspaces', { headers: admin }), 404, AUTH_MESSAGES.adminDisabled);
    assertError(await t.request('GET', '/v2/admin/workers', { headers: admin }), 404, AUTH_MESSAGES.adminDisabled);
  });
});
