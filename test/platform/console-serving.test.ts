// Parley serves the built console at /console/ (src/http/console.ts): index.html never cached and
// under a Content-Security-Policy without inline scripts, hashed assets cached for a year, every
// other path the single page, / redirected there; none of it in the API's OpenAPI document.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type TestApp, startTestApp } from '../support/app.js';

const INDEX = '<!doctype html><html lang="en"><head><script type="module" src="/console/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = 'console.log("the console");\n';

describe('the console at /console/', () => {
  let t: TestApp;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'parley-console-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), INDEX);
    writeFileSync(path.join(dir, 'assets', 'index-Ab12Cd34.js'), SCRIPT);
    t = await startTestApp({ env: { PARLEY_CONSOLE_DIR: dir } });
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('redirects / to /console/', async () => {
    const res = await fetch(`${t.url}/`, { redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/console/');
  });

  for (const route of ['/console/', '/console', '/console/knowledge/articles/5d0b6f0e-8a3b-4e4b-9a43-0c2f7c8e1d22']) {
    it(`answers ${route} with index.html, not cached, under a CSP without inline scripts`, async () => {
      const res = await t.request('GET', route);
      assert.equal(res.status, 200);
      assert.equal(res.text, INDEX);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(res.headers.get('cache-control'), 'no-cache');
      const csp = res.headers.get('content-security-policy') ?? '';
      const scriptSrc = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src'));
      assert.equal(scriptSrc, "script-src 'self'");
      assert.match(csp, /default-src 'self'/);
      assert.match(csp, /frame-ancestors 'none'/);
    });
  }

  it('serves a hashed asset cached for a year, and a missing one as the API error', async () => {
    const res = await t.request('GET', '/console/assets/index-Ab12Cd34.js');
    assert.equal(res.status, 200);
    assert.equal(res.text, SCRIPT);
    assert.match(res.headers.get('content-type') ?? '', /javascript/);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    const missing = await t.request<{ statusCode: number; error: string }>('GET', '/console/assets/index-00000000.js');
    assert.equal(missing.status, 404);
    assert.deepEqual([missing.body.statusCode, missing.body.error], [404, 'Not Found']);
    const outside = await t.request('GET', '/console/assets/..%2f..%2fpackage.json');
    assert.ok(outside.status === 403 || outside.status === 404, `a path out of the folder answers ${outside.status}`);
    assert.ok(!outside.text.includes('"name"'));
  });

  it('keeps the console out of the OpenAPI document', async () => {
    const res = await t.request<{ paths: Record<string, unknown> }>('GET', '/openapi.json');
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body.paths).filter((p) => p === '/' || p.startsWith('/console')), []);
  });

  it('answers 503 naming the build when the console is not built', async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'parley-console-empty-'));
    const bare = await startTestApp({ env: { PARLEY_CONSOLE_DIR: empty } });
    try {
      const res = await bare.request<{ statusCode: number; message: string }>('GET', '/console/');
      assert.equal(res.status, 503);
      assert.equal(res.body.statusCode, 503);
      assert.match(res.body.message, /the console is not built .*: run npm run build/);
    } finally {
      await bare.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
