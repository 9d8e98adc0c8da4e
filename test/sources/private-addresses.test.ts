// Without PARLEY_FETCH_ALLOW_PRIVATE, ingestion and deep crawl refuse loopback URLs without contacting
// them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { type FakeSite, startFakeSite } from '../support/fake-site.js';
import { INGEST_ENV, waitForSource } from '../support/sources.js';
import { addOneWeb, crawl, pageHtml } from './support.js';

describe('private and loopback addresses (PARLEY_FETCH_ALLOW_PRIVATE unset)', () => {
  let t: TestApp;
  let site: FakeSite;
  let w: Tenant;
  before(async () => {
    const env: Record<string, string> = { ...INGEST_ENV };
    delete env.PARLEY_FETCH_ALLOW_PRIVATE;
    t = await startTestApp({ work: true, env });
    assert.equal(t.config.fetch.allowPrivate, false);
    site = await startFakeSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
      '/page': pageHtml('A page on the loopback address', ['/other']),
      '/other': pageHtml('Another page'),
    });
    w = await makeTenant(t);
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  it('fails the ingestion of a 127.0.0.1 URL, saying the address is private, without contacting it', async () => {
    const id = await addOneWeb(t, w.key, site.url('/page'));
    const done = await waitForSource(t, w.key, id);
    assert.equal(done.linkedJobStatus, 'FAILED');
    assert.equal(done.success, false);
    assert.deepEqual(done.paragraphs, []);
    assert.equal(site.requests.length, 0, 'the loopback site was never contacted');
    assert.match(done.error, /private|loopback/i, `error: ${done.error}`);
  });

  it('deep crawl of a 127.0.0.1 seed returns no URLs and contacts nothing', async () => {
    const result = await crawl(t, w.key, { links: [site.url('/page')] });
    assert.deepEqual(result.data, []);
    assert.equal(site.requests.length, 0);
  });

  it('deep crawl of a 127.0.0.1 seed says why nothing was found (private address)', async () => {
    const result = await crawl(t, w.key, { links: [site.url('/')] });
    assert.deepEqual(result.data, []);
    assert.match(result.message, /private|loopback/i, `message: ${result.message}`);
  });
});
