import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { assertError } from '../support/security.js';

describe('error bodies', () => {
  let t: TestApp;
  let tenant: Tenant;
  before(async () => {
    t = await startTestApp({ env: { PARLEY_BODY_LIMIT_BYTES: '1024' } });
    tenant = await makeTenant(t);
  });
  after(() => t.close());

  const patch = (options: { raw?: string; body?: unknown; headers?: Record<string, string> }) =>
    t.request('PATCH', '/v2/workspace/public', { key: tenant.key, ...options });

  it('answers 400 for malformed JSON and leaves the record unchanged', async () => {
    assertError(await patch({ raw: '{"name":', headers: { 'content-type': 'application/json' } }), 400, /JSON/);
    const current = await t.request<{ name: string }>('GET', '/v2/workspace/public', { key: tenant.key });
    assert.equal(current.body.name, tenant.name);
  });

  it('answers 400 naming the field that fails validation', async () => {
    assertError(await patch({ body: { name: 5 } }), 400, /^body\.name: /);
    assertError(await patch({ body: { name: '' } }), 400, /^body\.name: /);
    assertError(await patch({ body: { name: 'x'.repeat(201) } }), 400, /^body\.name: /);
    assertError(await patch({ body: { name: 'ok', extra: true } }), 400, /^body: .*extra/);
    assertError(await patch({ body: [1, 2] }), 400, /^body/);
  });

  it('answers 400 for an empty JSON body', async () => {
    assertError(await patch({ raw: '', headers: { 'content-type': 'application/json' } }), 400);
  });

  it('answers 415 for a body that is not JSON', async () => {
    assertError(await patch({ raw: 'name=x', headers: { 'content-type': 'text/plain' } }), 415, 'Content-Type must be application/json');
    assertError(await patch({ raw: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415);
    assertError(await patch({ raw: '--b\r\n', headers: { 'content-type': 'multipart/form-data; boundary=b' } }), 415);
  });

  it('answers 413 for a body over the configured limit', async () => {
    assertError(await patch({ body: { name: 'x'.repeat(2000) } }), 413, /1024 bytes/);
  });

  it('answers 404 with the error body for an unknown route', async () => {
    assertError(await t.request('GET', '/v2/nothing-here'), 404, 'route GET /v2/nothing-here not found');
    assertError(await t.request('DELETE', '/v2/workspace/public', { key: tenant.key }), 404);
  });

  /** Sends bytes exactly as a client wrote them and reads the whole answer (status line, headers, body). */
  const raw = (request: string) =>
    new Promise<{ status: number; reason: string; headers: string; body: string }>((resolve, reject) => {
      const url = new URL(t.url);
      const socket = net.connect(Number(url.port), url.hostname, () => socket.write(request));
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('error', reject);
      socket.on('end', () => {
        const [head = '', body = ''] = data.split('\r\n\r\n');
        const match = /^HTTP\/1\.1 (\d+) ([^\r]*)/.exec(head);
        resolve({ status: Number(match?.[1]), reason: match?.[2] ?? '', headers: head.toLowerCase(), body });
      });
    });
  const expectBody = (answer: { status: number; body: string; headers: string }, status: number, error: string, message: RegExp) => {
    assert.match(answer.headers, /content-type: application\/json/);
    const body = JSON.parse(answer.body) as { statusCode: number; message: string; error: string };
    assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'statusCode']);
    assert.deepEqual([answer.status, body.statusCode, body.error], [status, status, error]);
    assert.match(body.message, message);
  };

  it('answers errors raised before any route runs with the same body and reason phrase', async () => {
    // A path parameter over the router's limit: 414 (Fastify's own body had "Bad Request" and a code).
    const long = await t.request('GET', `/v2/hc-articles/${'a'.repeat(150)}/public`, { key: tenant.key });
    assertError(long, 414, 'path: a path parameter is longer than 100 characters');
    assert.equal((long.body as { error: string }).error, 'URI Too Long');
    // Broken percent-encoding in the path.
    const bad = await raw(`GET /v2/hc-articles/%E0%A4%A/public HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tenant.key}\r\nConnection: close\r\n\r\n`);
    expectBody(bad, 400, 'Bad Request', /^path: \/v2\/hc-articles\/%E0%A4%A\/public is not valid percent-encoding$/);
    assert.equal(bad.reason, 'Bad Request');
    // An Expect header Node does not know: 417 with a body (Node's own answer has none).
    const expectation = await raw(`GET /v2/workspace/public HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\nAuthorization: Bearer ${tenant.key}\r\nConnection: close\r\n\r\n`);
    expectBody(expectation, 417, 'Expectation Failed', /^header\.expect: "something-else" is not supported/);
    assert.equal(expectation.reason, 'Expectation Failed');
    // HTTP the parser refuses, and headers over Node's limit.
    const malformed = await raw('GET /v2/workspace/public HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
    expectBody(malformed, 400, 'Bad Request', /^malformed HTTP request \(HPE_INVALID_HEADER_TOKEN\)$/);
    const huge = await raw(`GET /v2/workspace/public HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
    expectBody(huge, 431, 'Request Header Fields Too Large', /headers are larger/);
    assert.equal(huge.reason, 'Request Header Fields Too Large');
    // 100-continue still works.
    const ok = await raw(`GET /v2/workspace/public HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nAuthorization: Bearer ${tenant.key}\r\nConnection: close\r\n\r\n`);
    assert.equal(ok.status, 100);
    assert.match(ok.body, /HTTP\/1\.1 200 OK/);
  });

  it('echoes a sane X-Request-Id and generates one otherwise', async () => {
    const given = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'trace-123' } });
    assert.equal(given.headers.get('x-request-id'), 'trace-123');
    const generated = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    assert.match(generated.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    const error = await t.request('GET', '/nope');
    assert.match(error.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });
});

describe('unexpected failures', () => {
  let t: TestApp;
  let tenant: Tenant;
  let broken = false;
  before(async () => {
    t = await startTestApp({
      clock: {
        now: () => {
          if (broken) throw new Error('clock exploded: secret internals');
          return new Date();
        },
      },
    });
    tenant = await makeTenant(t);
  });
  after(() => t.close());

  it('answers a generic 500 and logs the real error with the request id', async () => {
    broken = true;
    const res = await t.request('PATCH', '/v2/workspace/public', {
      key: tenant.key,
      body: { name: 'x' },
      headers: { 'x-request-id': 'req-500-check' },
    });
    broken = false;
    assertError(res, 500, 'internal server error (request id req-500-check)');
    assert.ok(!res.text.includes('secret internals'));
    const logged = t.logs.find((l) => l.reqId === 'req-500-check' && l.msg === 'unhandled error');
    assert.ok(logged, 'error logged with the request id');
    assert.match(JSON.stringify(logged.err), /clock exploded: secret internals/);
  });
});
