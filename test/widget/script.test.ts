// Parley serves the chat widget's script at /widget.js (src/http/widget.ts): cached 5 minutes and
// revalidated by its ETag, gzipped for browsers that accept it, loadable from any page; and the
// demo page at /widget/demo, which says what the widget will do with a key on this page and embeds
// it under a strict policy. Neither is in the API's OpenAPI document.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { type TestApp, startTestApp } from '../support/app.js';
import { createKey, setupWidget } from './support.js';

const SCRIPT = '(function(){console.log("the widget")})();\n'.repeat(50);

describe('the widget script and its demo page', () => {
  let t: TestApp;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'parley-widget-'));
    writeFileSync(path.join(dir, 'widget.js'), SCRIPT);
    t = await startTestApp({ env: { PARLEY_WIDGET_DIR: dir } });
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves /widget.js to any page, cached 5 minutes with an ETag, gzipped when accepted', async () => {
    const plain = await fetch(`${t.url}/widget.js`, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(plain.status, 200);
    assert.equal(await plain.text(), SCRIPT);
    assert.equal(plain.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(plain.headers.get('cache-control'), 'public, max-age=300');
    assert.equal(plain.headers.get('access-control-allow-origin'), '*');
    assert.equal(plain.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.equal(plain.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(plain.headers.get('content-encoding'), null);
    const etag = plain.headers.get('etag');
    assert.match(etag ?? '', /^"[A-Za-z0-9_-]{27}"$/);

    // undici's fetch would decompress: read the bytes as sent.
    const { request } = await import('undici');
    const zipped = await request(`${t.url}/widget.js`, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.equal(zipped.headers.vary, 'accept-encoding');
    const bytes = Buffer.from(await zipped.body.arrayBuffer());
    assert.ok(bytes.length < SCRIPT.length / 5, `gzipped ${bytes.length} bytes of ${SCRIPT.length}`);
    assert.equal(gunzipSync(bytes).toString(), SCRIPT);

    const again = await fetch(`${t.url}/widget.js`, { headers: { 'if-none-match': `W/${etag}` } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
  });

  it('serves a new build at once (a new ETag), and answers 503 with the error body when none is built', async () => {
    const before = (await fetch(`${t.url}/widget.js`)).headers.get('etag');
    const next = `${SCRIPT}// next\n`;
    writeFileSync(path.join(dir, 'widget.js'), next);
    const later = new Date(Date.now() + 5000);
    utimesSync(path.join(dir, 'widget.js'), later, later);
    const res = await fetch(`${t.url}/widget.js`, { headers: { 'if-none-match': before ?? '' } });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), next);
    assert.notEqual(res.headers.get('etag'), before);

    const empty = mkdtempSync(path.join(os.tmpdir(), 'parley-widget-empty-'));
    const bare = await startTestApp({ env: { PARLEY_WIDGET_DIR: empty } });
    try {
      const missing = await bare.request<{ statusCode: number; error: string; message: string }>('GET', '/widget.js');
      assert.equal(missing.status, 503);
      assert.equal(missing.body.statusCode, 503);
      assert.match(missing.body.message, /the widget is not built .*run npm run build/);
    } finally {
      await bare.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('demo page: a form, then what the key will do on this page, and the widget only for a key that allows it', async () => {
    const origin = new URL(t.url).origin;
    const form = await t.request('GET', '/widget/demo');
    assert.equal(form.status, 200);
    assert.match(form.headers.get('content-type') ?? '', /^text\/html/);
    const csp = form.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /style-src 'sha256-[A-Za-z0-9+/]+=*'(;|$)/, 'no inline style but its own, by hash');
    assert.match(form.text, /<form method="get" action="\/widget\/demo">/);
    assert.doesNotMatch(form.text, /<script/);
    assert.ok(form.text.includes(`<code>${origin}</code>`));

    const s = await setupWidget(t);
    const here = await createKey(t, s.w.key, s.agentId, { allowedOrigins: [origin] });
    const notHere = s.widget; // allows https://shop.example only
    const status = async (query: string) => {
      const res = await t.request('GET', `/widget/demo?${query}`);
      assert.equal(res.status, 200);
      return { text: res.text, status: /<p class="status (ok|problem)" role="status">([^<]*)<\/p>/.exec(res.text)?.slice(1) };
    };
    const allowed = await status(`key=${here.key}&title=Help&color=%230f766e&locale=fr`);
    assert.deepEqual(allowed.status, ['ok', 'The key allows this page: the chat is at the bottom right.']);
    assert.ok(allowed.text.includes(`<script src="/widget.js" data-key="${here.key}" data-title="Help" data-color="#0f766e" data-locale="fr" async></script>`));
    assert.ok(allowed.text.includes(`&#60;script src=&#34;${origin}/widget.js&#34; data-key=&#34;${here.key}&#34;`), 'the snippet for a site, shown as text');

    const elsewhere = await status(`key=${notHere.key}`);
    assert.deepEqual(elsewhere.status, ['problem', `This key does not allow this page&#39;s origin, ${origin}: add it to the key&#39;s allowedOrigins to try the key here.`]);
    assert.doesNotMatch(elsewhere.text, /<script/);
    const unknown = await status(`key=pk_${'a'.repeat(32)}`);
    assert.deepEqual(unknown.status, ['problem', 'No widget key is called this (it may have been deleted).']);
    const malformed = await status('key=parley_abc');
    assert.deepEqual(malformed.status?.[0], 'problem');
    assert.match(malformed.status?.[1] ?? '', /This is not a widget key/);

    // What the page echoes is escaped: no markup from the query reaches it.
    const hostile = await status(`key=${here.key}&title=${encodeURIComponent('"><script>alert(1)</script>')}`);
    assert.ok(hostile.text.includes('data-title="&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;"'));
    assert.equal(hostile.text.match(/<script/g)?.length, 1, 'the widget script only');
  });

  it('demo page: behind a proxy, the origin is PARLEY_PUBLIC_URL\'s', async () => {
    const proxied = await startTestApp({ env: { PARLEY_WIDGET_DIR: dir, PARLEY_PUBLIC_URL: 'https://support.example.com/' } });
    try {
      const s = await setupWidget(proxied);
      const key = await createKey(proxied, s.w.key, s.agentId, { allowedOrigins: ['https://support.example.com'] });
      const res = await proxied.request('GET', `/widget/demo?key=${key.key}`);
      assert.ok(res.text.includes('<code>https://support.example.com</code>'));
      assert.match(res.text, /<p class="status ok" role="status">The key allows this page/);
      assert.ok(res.text.includes(`&#60;script src=&#34;https://support.example.com/widget.js&#34;`));
    } finally {
      await proxied.close();
    }
  });

  it('is not part of the API document', async () => {
    const doc = await t.request<{ paths: Record<string, unknown> }>('GET', '/openapi.json');
    assert.ok(!('/widget.js' in doc.body.paths));
    assert.ok(!('/widget/demo' in doc.body.paths));
  });
});
