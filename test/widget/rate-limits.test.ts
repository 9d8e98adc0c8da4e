// The widget's rate limits: per visitor (the key's visitorRateLimit, or the deployment's default;
// a visitor is a conversation's token, or the client's address before one) and per key; 429 with
// Retry-After, readable by the page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.js';
import { makeTenant } from '../support/factories.js';
import { assertError, expectStatus } from '../support/security.js';
import { createKey, eventsOf, ORIGIN, start, START, visit } from './support.js';

function assertLimited(res: { status: number; headers: Headers; body: unknown }) {
  assertError(res, 429, /rate limit of \d+ requests per .* exceeded/);
  assert.match(res.headers.get('retry-after') ?? '', /^\d+$/);
  assert.equal(res.headers.get('access-control-allow-origin'), ORIGIN);
}

describe('widget rate limits', () => {
  let t: TestApp;
  before(async () => {
    // A long window: nothing resets while a test runs. Per key: 12 requests (the workspace key's
    // setup spends its own); per visitor by default: 3.
    t = await startTestApp({ env: { PARLEY_RATE_LIMIT_WINDOW_MS: '3600000', PARLEY_RATE_LIMIT_MAX: '12', PARLEY_WIDGET_VISITOR_RATE_LIMIT: '3' } });
  });
  after(() => t.close());

  const agentWithKey = async (visitorRateLimit?: number) => {
    const w = await makeTenant(t);
    const agentId = (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/bots/public', w.key, { name: 'Support' })).id;
    return createKey(t, w.key, agentId, { visitorRateLimit });
  };

  it("limits each visitor to the deployment's default, one conversation's token apart from another's", async () => {
    const key = await agentWithKey();
    const c = await start(t, key.key); // this address: 1 of 3
    const d = await start(t, key.key); // 2 of 3
    const poll = (conversation: typeof c) => visit(t, 'GET', eventsOf(conversation.conversationId), { key: key.key, token: conversation.visitorToken });
    for (let i = 0; i < 3; i++) assert.equal((await poll(c)).status, 200);
    assertLimited(await poll(c));
    // Another visitor (the other conversation's token) still has its own share.
    assert.equal((await poll(d)).status, 200);
    assert.equal((await visit(t, 'POST', START, { key: key.key, body: {} })).status, 201); // 3 of 3
    assertLimited(await visit(t, 'POST', START, { key: key.key, body: {} }));
  });

  it("limits each visitor to the key's own visitorRateLimit", async () => {
    const key = await agentWithKey(1);
    assert.equal((await visit(t, 'POST', START, { key: key.key, body: {} })).status, 201);
    const limited = await visit(t, 'POST', START, { key: key.key, body: {} });
    assertLimited(limited);
    assert.equal(limited.headers.get('x-ratelimit-limit'), '1');
  });

  it('limits the key as a whole across visitors', async () => {
    const key = await agentWithKey(100);
    const started = await start(t, key.key);
    for (let i = 0; i < 11; i++) {
      const res = await visit(t, 'GET', eventsOf(started.conversationId), { key: key.key, token: started.visitorToken });
      assert.equal(res.status, 200, res.text);
    }
    const limited = await visit(t, 'GET', eventsOf(started.conversationId), { key: key.key, token: started.visitorToken });
    assertLimited(limited);
    assert.equal(limited.headers.get('x-ratelimit-limit'), '12');
  });
});
