import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import type { Clock } from '../../src/clock.js';
import { apiKeys } from '../../src/db/schema/index.js';
import { AUTH_MESSAGES } from '../../src/http/errors.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeKey, makeTenant } from '../support/factories.js';
import { poll } from '../support/poll.js';
import { assertError, securitySuite } from '../support/security.js';

interface CurrentWorkspace {
  id: string;
  name: string;
  createdAt: string;
  apiKey: { id: string; name: string; prefix: string; scopes: string[]; expiresAt: string | null };
}

/** Real time plus an offset the test moves forward, so waiting out a cache needs no sleep. */
function movableClock(): Clock & { advance(ms: number): void } {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    advance: (ms) => {
      offsetMs += ms;
    },
  };
}

describe('workspace routes and authentication', () => {
  let t: TestApp;
  const clock = movableClock();
  before(async () => {
    t = await startTestApp({ clock });
  });
  after(() => t.close());

  securitySuite(() => t, {
    method: 'GET',
    scope: 'read',
    request: async () => ({ path: '/v2/workspace/public' }),
  });
  securitySuite(() => t, {
    method: 'PATCH',
    scope: 'write',
    request: async () => ({ path: '/v2/workspace/public', body: { name: 'renamed' } }),
  });

  it('returns the workspace of the calling key and nothing of another', async () => {
    const a = await makeTenant(t, 'alpha');
    const b = await makeTenant(t, 'beta');
    const ra = await t.request<CurrentWorkspace>('GET', '/v2/workspace/public', { key: a.readKey });
    const rb = await t.request<CurrentWorkspace>('GET', '/v2/workspace/public', { key: b.key });
    assert.equal(ra.status, 200);
    assert.equal(ra.body.id, a.workspaceId);
    assert.equal(ra.body.name, 'alpha');
    assert.deepEqual(ra.body.apiKey.scopes, ['read']);
    assert.equal(ra.body.apiKey.prefix, a.readKey.slice(0, 13));
    assert.equal(ra.body.apiKey.expiresAt, null);
    assert.match(ra.body.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(rb.body.id, b.workspaceId);
    assert.equal(rb.body.name, 'beta');
    assert.deepEqual(rb.body.apiKey.scopes, ['read', 'write']);
  });

  it('renames only the calling workspace', async () => {
    const a = await makeTenant(t, 'one');
    const b = await makeTenant(t, 'two');
    const res = await t.request<CurrentWorkspace>('PATCH', '/v2/workspace/public', { key: a.writeKey, body: { name: '  Support EU ' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.name, 'Support EU');
    const after = await t.request<CurrentWorkspace>('GET', '/v2/workspace/public', { key: a.readKey });
    assert.equal(after.body.name, 'Support EU', 'the new name shows at once in the renaming process');
    const other = await t.request<CurrentWorkspace>('GET', '/v2/workspace/public', { key: b.key });
    assert.equal(other.body.name, 'two');
  });

  it("answers a key's workspace as last verified: a rename shows at once in its process, in another once the key is verified again", async () => {
    const sibling = await t.sibling();
    try {
      const tenant = await makeTenant(t, 'before');
      const get = async (app: TestApp) => (await app.request<CurrentWorkspace>('GET', '/v2/workspace/public', { key: tenant.readKey })).body.name;
      assert.deepEqual([await get(t), await get(t), await get(sibling), await get(sibling)], ['before', 'before', 'before', 'before']);
      const renamed = await t.request<CurrentWorkspace>('PATCH', '/v2/workspace/public', { key: tenant.writeKey, body: { name: 'after' } });
      assert.equal(renamed.status, 200);
      assert.equal(await get(t), 'after', 'the renaming process forgets the verification at once');
      // The other answers from its verification, at most PARLEY_AUTH_CACHE_MS old (on the app's clock).
      clock.advance(t.config.authCacheMs + 1);
      assert.equal(await get(sibling), 'after');
    } finally {
      await sibling.close();
    }
  });

  it('accepts the scheme case-insensitively and records lastUsedAt', async () => {
    const tenant = await makeTenant(t);
    const key = await makeKey(t, tenant.workspaceId, { scopes: ['read'] });
    const res = await t.request('GET', '/v2/workspace/public', { headers: { authorization: `bearer ${key.key}` } });
    assert.equal(res.status, 200);
    const [row] = await t.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    assert.ok(row?.lastUsedAt instanceof Date);
    assert.ok(Date.now() - row.lastUsedAt.getTime() < 10_000);
  });

  it('stores only a SHA-256 hash of each key', async () => {
    const tenant = await makeTenant(t);
    const rows = await t.database.db.select().from(apiKeys).where(eq(apiKeys.workspaceId, tenant.workspaceId));
    assert.equal(rows.length, 3);
    for (const row of rows) {
      assert.match(row.keyHash, /^[0-9a-f]{64}$/);
      for (const key of [tenant.key, tenant.readKey, tenant.writeKey]) {
        assert.ok(!JSON.stringify(row).includes(key.slice(7)), 'plaintext key stored');
      }
    }
  });

  it('does not re-cache a key revoked while its lookup was in flight', async () => {
    const tenant = await makeTenant(t);
    const key = await makeKey(t, tenant.workspaceId);
    const admin = { authorization: `Bearer ${t.config.adminToken}` };
    const burst = Array.from({ length: 20 }, () => t.request('GET', '/v2/workspace/public', { key: key.key }));
    const revoked = await t.request('DELETE', `/v2/admin/api-keys/${key.id}`, { headers: admin });
    assert.equal(revoked.status, 200);
    for (const res of await Promise.all(burst)) assert.ok(res.status === 200 || res.status === 401);
    assertError(await t.request('GET', '/v2/workspace/public', { key: key.key }), 401, AUTH_MESSAGES.invalid);
  });

  it('honours a revocation made by another process within a second', async () => {
    const sibling = await t.sibling();
    try {
      const tenant = await makeTenant(t);
      const key = await makeKey(t, tenant.workspaceId);
      assert.equal((await sibling.request('GET', '/v2/workspace/public', { key: key.key })).status, 200);
      const revoked = await t.request('DELETE', `/v2/admin/api-keys/${key.id}`, {
        headers: { authorization: `Bearer ${t.config.adminToken}` },
      });
      assert.equal(revoked.status, 200);
      // The revoking process forgets the key at once; the other within its 1 s cache (on the app's clock).
      assertError(await t.request('GET', '/v2/workspace/public', { key: key.key }), 401, AUTH_MESSAGES.invalid);
      clock.advance(t.config.authCacheMs + 1);
      assertError(await sibling.request('GET', '/v2/workspace/public', { key: key.key }), 401, AUTH_MESSAGES.invalid);
    } finally {
      await sibling.close();
    }
  });
});

describe('key verification in steady use', () => {
  // A clock that moves only when told: a cached verification never runs out by itself here.
  let offsetMs = 0;
  const base = Date.now();
  const still: Clock = { now: () => new Date(base + offsetMs) };
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ clock: still });
  });
  after(() => t.close());

  it('verifies a key again in the background past half the cache time, so no request waits and a revocation still shows', async () => {
    const sibling = await t.sibling();
    try {
      const tenant = await makeTenant(t);
      const key = await makeKey(t, tenant.workspaceId);
      assert.equal((await sibling.request('GET', '/v2/workspace/public', { key: key.key })).status, 200);
      const revoked = await t.request('DELETE', `/v2/admin/api-keys/${key.id}`, { headers: { authorization: `Bearer ${t.config.adminToken}` } });
      assert.equal(revoked.status, 200);
      // Before half the cache time the other process answers from its verification.
      offsetMs += t.config.authCacheMs / 2 - 1;
      assert.equal((await sibling.request('GET', '/v2/workspace/public', { key: key.key })).status, 200);
      // Past it, the request is still answered from the cache, and the key is looked up behind it.
      offsetMs += 2;
      assert.equal((await sibling.request('GET', '/v2/workspace/public', { key: key.key })).status, 200);
      // The clock stands still, so only that lookup can end the cached verification.
      const after = await poll(() => sibling.request('GET', '/v2/workspace/public', { key: key.key }), (r) => r.status === 401, {
        what: 'the background verification to see the revocation',
      });
      assertError(after, 401, AUTH_MESSAGES.invalid);
    } finally {
      await sibling.close();
    }
  });
});
