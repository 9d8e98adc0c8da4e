import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant } from '../support/factories.js';
import { assertError } from '../support/security.js';

describe('rate limits', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { PARLEY_RATE_LIMIT_MAX: '3', PARLEY_RATE_LIMIT_WINDOW_MS: '60000' } });
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
    // Another key of the same workspace has its own budget.
    assert.equal((await t.request('GET', '/v2/workspace/public', { key: a.readKey })).status, 200);
    assert.equal((await t.request('GET', '/v2/workspace/public', { key: b.key })).status, 200);
  });
});
