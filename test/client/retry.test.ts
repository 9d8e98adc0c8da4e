// @parley/client against an app with a small rate limit (2 requests per 2 s): a 429 is sent again
// after its Retry-After (a POST's body too, applied once), and given up on when retries are off, used
// up, or the wait is longer than the client accepts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createParleyClient, ParleyApiError, retryAfterSeconds } from '../../packages/client/src/index.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant } from '../support/factories.js';

const LIMITED = /^rate limit of 2 requests per 2 seconds exceeded; retry later$/;

describe('@parley/client: 429 retries', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { PARLEY_RATE_LIMIT_MAX: '2', PARLEY_RATE_LIMIT_WINDOW_MS: '2000' } });
  });
  after(() => t.close());

  /** A client of a new workspace whose every attempt is recorded (status, Retry-After, when). */
  async function recordedClient(retry?: Parameters<typeof createParleyClient>[0]['retry']) {
    const { key } = await makeTenant(t);
    const attempts: { method: string; status: number; retryAfter: string | null; at: number }[] = [];
    const parley = createParleyClient({
      baseUrl: t.url,
      apiKey: key,
      ...(retry === undefined ? {} : { retry }),
      fetch: async (request) => {
        const response = await fetch(request);
        attempts.push({ method: request.method, status: response.status, retryAfter: response.headers.get('retry-after'), at: Date.now() });
        return response;
      },
    });
    return { parley, attempts, key };
  }

  /**
   * Uses up the key's window with plain requests until one is refused with more than a second of
   * the window left (Retry-After 2), so the next request is refused too however the test is paced.
   */
  async function exhaust(key: string): Promise<void> {
    for (;;) {
      const response = await fetch(`${t.url}/v2/workspace/public`, { headers: { authorization: `Bearer ${key}` } });
      await response.arrayBuffer();
      if (response.status !== 429) continue;
      const wait = Number(response.headers.get('retry-after'));
      if (wait >= 2) return;
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    }
  }

  it('waits Retry-After seconds and sends the request again; a POST body is sent whole and applied once', async () => {
    const { parley, attempts, key } = await recordedClient();
    await exhaust(key);
    const folder = await parley.unwrap(parley.POST('/v2/hc-folders/public', { body: { title: 'Retried', description: 'sent after a 429' } }));
    assert.equal(folder.title, 'Retried');
    assert.equal(folder.description, 'sent after a 429');
    assert.deepEqual(attempts.map((a) => `${a.method} ${a.status}`), ['POST 429', 'POST 201']);
    const limited = attempts[0]!;
    const retryAfterS = Number(limited.retryAfter);
    assert.ok(retryAfterS >= 1 && retryAfterS <= 2, `Retry-After ${limited.retryAfter}`);
    const waitedMs = attempts[1]!.at - limited.at;
    assert.ok(waitedMs >= retryAfterS * 1000 - 20, `waited ${waitedMs} ms for Retry-After ${retryAfterS}`);
    const snapshot = await parley.unwrap(parley.GET('/v2/hc-folders/public'));
    assert.deepEqual(snapshot.snapshotObjV2.map((f) => f.title), ['Retried'], 'one folder: the 429 did not create one');
  });

  it('without retries the 429 is a ParleyApiError with its Retry-After', async () => {
    const { parley, attempts, key } = await recordedClient(false);
    await exhaust(key);
    const error = await parley.unwrap(parley.GET('/v2/workspace/public')).catch((e: unknown) => e);
    assert.ok(error instanceof ParleyApiError);
    assert.equal(error.statusCode, 429);
    assert.equal(error.error, 'Too Many Requests');
    assert.match(error.message, LIMITED);
    assert.equal(error.retryAfter, Number(attempts[0]!.retryAfter));
    assert.ok(error.retryAfter! >= 1 && error.retryAfter! <= 2);
    assert.equal(attempts.length, 1);
  });

  it('a Retry-After longer than maxDelayMs, or retries used up, fails at once', async () => {
    const impatient = await recordedClient({ maxDelayMs: 500 });
    await exhaust(impatient.key);
    const started = Date.now();
    const error = await impatient.parley.unwrap(impatient.parley.GET('/v2/workspace/public')).catch((e: unknown) => e);
    assert.ok(error instanceof ParleyApiError && error.statusCode === 429 && error.retryAfter! >= 1);
    assert.ok(Date.now() - started < 500, 'no wait');
    assert.equal(impatient.attempts.length, 1);

    // Retries used up: a server that always answers 429 (Retry-After 0) gets the first attempt and two more.
    let calls = 0;
    const alwaysLimited = createParleyClient({
      baseUrl: t.url,
      retry: { retries: 2 },
      fetch: async () => {
        calls += 1;
        return new Response(JSON.stringify({ statusCode: 429, message: 'slow down', error: 'Too Many Requests' }), { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '0', 'x-request-id': `req-${calls}` } });
      },
    });
    const usedUp = await alwaysLimited.unwrap(alwaysLimited.GET('/healthz')).catch((e: unknown) => e);
    assert.ok(usedUp instanceof ParleyApiError);
    assert.deepEqual([usedUp.statusCode, usedUp.message, usedUp.requestId, usedUp.retryAfter, calls], [429, 'slow down', 'req-3', 0, 3]);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(retryAfterSeconds('7', now), 7);
    assert.equal(retryAfterSeconds('Thu, 01 Jan 2026 00:00:03 GMT', now), 3);
    assert.equal(retryAfterSeconds('Wed, 31 Dec 2025 23:59:00 GMT', now), 0);
    assert.equal(retryAfterSeconds(null, now), undefined);
    assert.equal(retryAfterSeconds('soon', now), undefined);
  });
});
