import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { type TestApp, startTestApp } from '../support/app.js';
import { backend } from '../support/database.js';
import { makeTenant } from '../support/factories.js';
import { assertError } from '../support/security.js';

describe('rate limits', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { PARLEY_RATE_LIMIT_MAX: '3', PARLEY_RATE_LIMIT_ANSWER_MAX: '2', PARLEY_RATE_LIMIT_WINDOW_MS: '60000' } });
  });
  after(() => t.close());

  it('answers 429 with Retry-After once a key exceeds its limit, per key', async () => {
    const a = await makeTenant(t);
    const b = await makeTenant(t);
    for (let i = 0; i < 3; i += 1) {
      const ok = await t.request('GET', '/v2/workspace/public', { key: a.key });
      assert.equal(ok.status, 200);
      assert.equal(ok.headers.get('x-ratelimit-remaining'), String(2 - i));
    }
    const limited = await t.request('GET', '/v2/workspace/public', { key: a.key });
    assertError(limited, 429, /rate limit of 3 requests per 1 minute exceeded/);
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.equal(limited.text, JSON.stringify({ statusCode: 429, message: `rate limit of 3 requests per 1 minute exceeded; retry later`, error: 'Too Many Requests' }));
    assert.equal(limited.headers.get('x-ratelimit-limit'), '3');
    assert.equal(limited.headers.get('x-ratelimit-remaining'), '0');
    assert.equal(limited.headers.get('x-ratelimit-reset'), limited.headers.get('retry-after'));
    // Another key of the same workspace has its own budget.
    assert.equal((await t.request('GET', '/v2/workspace/public', { key: a.readKey })).status, 200);
    assert.equal((await t.request('GET', '/v2/workspace/public', { key: b.key })).status, 200);
  });

  it('sets the limit headers on every limited answer, the reset in seconds of the window left', async () => {
    const a = await makeTenant(t);
    const ok = await t.request('GET', '/v2/workspace/public', { key: a.key });
    assert.equal(ok.headers.get('x-ratelimit-limit'), '3');
    assert.equal(ok.headers.get('x-ratelimit-remaining'), '2');
    const reset = Number(ok.headers.get('x-ratelimit-reset'));
    assert.ok(reset > 0 && reset <= 60, `x-ratelimit-reset ${reset}`);
    assert.equal(ok.headers.get('retry-after'), null);
  });

  it('limits requests without a key per client address, and never the operations routes', async () => {
    const admin = { authorization: `Bearer ${t.config.adminToken}` };
    for (let i = 0; i < 3; i += 1) assert.equal((await t.request('GET', '/v2/admin/workspaces', { headers: admin })).status, 200);
    assertError(await t.request('GET', '/v2/admin/workspaces', { headers: admin }), 429, /rate limit of 3 requests/);
    for (let i = 0; i < 5; i += 1) {
      const health = await t.request('GET', '/healthz');
      assert.equal(health.status, 200);
      assert.equal(health.headers.get('x-ratelimit-limit'), null);
    }
  });

  it('counts the answering routes against a budget of their own', async () => {
    const a = await makeTenant(t);
    const answer = () => t.request('POST', '/v2/hc-interactions/events/public', { key: a.key, body: { content: 'Hello?', interactionId: randomUUID() } });
    const feedback = () => t.request('POST', `/v2/hc-events/${randomUUID()}/feedback/public`, { key: a.key, body: { csatRating: 5 } });
    const first = await answer();
    assert.equal(first.status, 404, first.text);
    assert.equal(first.headers.get('x-ratelimit-limit'), '2');
    assert.equal(first.headers.get('x-ratelimit-remaining'), '1');
    assert.equal((await feedback()).status, 404, 'feedback on a reply counts against the answering budget too');
    assertError(await answer(), 429, /rate limit of 2 requests per 1 minute exceeded/);
    // The key's management routes keep their own 3.
    for (let i = 0; i < 3; i += 1) assert.equal((await t.request('GET', '/v2/workspace/public', { key: a.key })).status, 200);
    assertError(await t.request('GET', '/v2/workspace/public', { key: a.key }), 429, /rate limit of 3 requests/);
  });

  it(`holds a key's limit ${backend === 'postgres' ? 'across two processes on one PostgreSQL' : 'per process when embedded'}`, async () => {
    const a = await makeTenant(t);
    const sibling = await t.sibling();
    try {
      const apps = [t, sibling];
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) statuses.push((await apps[i % 2]!.request('GET', '/v2/workspace/public', { key: a.key })).status);
      // PostgreSQL: one window for the deployment, 3 in all; embedded: each process its own 3.
      assert.deepEqual(statuses, backend === 'postgres' ? [200, 200, 200, 429, 429, 429] : [200, 200, 200, 200, 200, 200]);
    } finally {
      await sibling.close();
    }
  });

  it('counts in the process, never answering 500, while the shared count fails', { skip: backend !== 'postgres' && 'embedded mode counts in memory only' }, async () => {
    const a = await makeTenant(t);
    const db = t.database.db;
    await db.execute(sql`ALTER TABLE rate_limit_windows RENAME TO rate_limit_windows_away`);
    try {
      for (let i = 0; i < 3; i += 1) assert.equal((await t.request('GET', '/v2/workspace/public', { key: a.key })).status, 200);
      assertError(await t.request('GET', '/v2/workspace/public', { key: a.key }), 429, /rate limit of 3 requests/);
    } finally {
      await db.execute(sql`ALTER TABLE rate_limit_windows_away RENAME TO rate_limit_windows`);
    }
    const warnings = t.logs.filter((l) => l.level === 40 && String(l.msg).startsWith('the shared rate-limit count failed'));
    assert.equal(warnings.length, 1, 'one warning a window, not one a request');
    assert.equal((await t.request('GET', '/v2/workspace/public', { key: (await makeTenant(t)).key })).status, 200);
  });
});
