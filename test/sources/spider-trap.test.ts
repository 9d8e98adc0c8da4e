// Ingesting the fixture site's spider trap and bogus-charset page finishes in bounded time while the
// service keeps answering.
import { setTimeout as sleep } from 'node:timers/promises';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { type FakeSite, startFakeSite } from '../support/fake-site.js';
import { expectStatus } from '../support/security.js';
import { INGEST_ENV, waitForSource } from '../support/sources.js';
import { addWeb, list, NUTCH_SITE } from './support.js';

describe('ingesting the spider trap and the bogus-charset page', () => {
  let t: TestApp;
  let site: FakeSite;
  let w: Tenant;
  before(async () => {
    t = await startTestApp({ work: true, env: INGEST_ENV });
    const served = (name: string) => ({ headers: { 'content-type': 'text/html' }, body: readFileSync(path.join(NUTCH_SITE, name)) });
    site = await startFakeSite({
      '/nested_spider_trap.html': served('nested_spider_trap.html'),
      '/exception.html': served('exception.html'),
    });
    w = await makeTenant(t);
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  it('finishes both in bounded time while the service keeps answering', async () => {
    const started = Date.now();
    const byUrl = await addWeb(t, w.key, [site.url('/nested_spider_trap.html'), site.url('/exception.html')]);
    const trapId = byUrl.get(site.url('/nested_spider_trap.html'))!;
    const exceptionId = byUrl.get(site.url('/exception.html'))!;
    // The service answers promptly while the pages are processed.
    for (let i = 0; i < 5; i++) {
      const asked = Date.now();
      await list(t, w.key);
      assert.ok(Date.now() - asked < 2000, 'listing answered within 2 s');
      await sleep(50);
    }
    const trap = await waitForSource(t, w.key, trapId, undefined, 30_000);
    const exception = await waitForSource(t, w.key, exceptionId, undefined, 30_000);
    assert.ok(Date.now() - started < 30_000);

    assert.equal(trap.linkedJobStatus, 'COMPLETED', trap.error);
    assert.equal(trap.success, true);
    assert.equal(trap.title, 'nested spider trap');
    assert.ok(trap.paragraphs.some((p) => p.includes('Nutch fetcher test page')), JSON.stringify(trap.paragraphs));

    assert.equal(exception.linkedJobStatus, 'COMPLETED', exception.error);
    assert.equal(exception.success, true);
    assert.equal(exception.title, 'Exception');
    assert.ok(
      exception.paragraphs.some((p) => p.includes('Trying to parse this one will fail with a MalformedInputException')),
      JSON.stringify(exception.paragraphs),
    );
    await expectStatus(t, 200, 'GET', '/v2/documents/public?limit=1', w.key);
  });
});
