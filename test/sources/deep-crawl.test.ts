// POST /v2/documents/public/deep-crawl/links: discovery over robots.txt, sitemaps and links on fake
// sites, its limits and filters, and validation.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TestApp } from '../support/app.js';
import { makeTenant } from '../support/factories.js';
import { type FakeSite, startFakeSite } from '../support/fake-site.js';
import { assertError } from '../support/security.js';
import { INGEST_ENV } from '../support/sources.js';
import { assertSameUrls, CRAWL, crawl, list, NUTCH_SITE, pageHtml, startAppWithoutWorkers } from './support.js';

describe('POST /v2/documents/public/deep-crawl/links', () => {
  let t: TestApp;
  let site: FakeSite;
  let u: (path: string) => string;
  /** Every same-site page a full crawl from / finds. */
  let everything: string[];
  before(async () => {
    t = await startAppWithoutWorkers({ env: INGEST_ENV });
    site = await startFakeSite();
    u = (p) => site.url(p);
    const text = (body: string, type: string) => ({ headers: { 'content-type': type }, body });
    site.set('/robots.txt', text(`User-agent: *\nDisallow: /private/\n\nSitemap: ${u('/sitemap.xml')}\n`, 'text/plain'));
    site.set(
      '/sitemap.xml',
      text(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
          [u('/'), u('/b'), u('/from-sitemap'), u('/private/in-sitemap'), 'https://elsewhere.example/from-sitemap']
            .map((loc) => `<url><loc>${loc}</loc></url>`)
            .join('') +
          '</urlset>',
        'application/xml',
      ),
    );
    site.set(
      '/',
      pageHtml('Home', [
        '/a', '/b', '/a#top', '/a?ref=home', '/private/secret', '/logo.png', '/style.css', '/docs/', '/gone', '/data',
        'https://elsewhere.example/page', 'mailto:help@acme.test', '#main',
      ]),
    );
    site.set('/a', pageHtml('Page A', ['/b', '/', '/a/deeper']));
    site.set('/b', pageHtml('Page B', ['/a']));
    site.set('/a/deeper', pageHtml('Deeper page', ['/a']));
    site.set('/docs/', pageHtml('Docs home', ['/docs/one', '/docs/two', '/outside']));
    site.set('/docs/one', pageHtml('Docs one', ['/docs/']));
    site.set('/docs/two', pageHtml('Docs two', ['/b', '/docs/one']));
    site.set('/outside', pageHtml('Outside the docs'));
    site.set('/from-sitemap', pageHtml('Only in the sitemap'));
    site.set('/private/secret', pageHtml('Secret'));
    site.set('/private/in-sitemap', pageHtml('Secret in sitemap'));
    site.set('/logo.png', { headers: { 'content-type': 'image/png' }, body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]) });
    site.set('/style.css', text('body { color: red }', 'text/css'));
    site.set('/data', text('{"not":"a page"}', 'application/json'));
    everything = ['/', '/a', '/b', '/a/deeper', '/docs/', '/docs/one', '/docs/two', '/outside', '/from-sitemap'].map(u);
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  it('lists exactly the same-site pages (robots.txt, sitemap, links), and creates nothing', async () => {
    const w = await makeTenant(t);
    const result = await crawl(t, w.key, { links: [u('/')] });
    assertSameUrls(result.data, everything, result.message);
    for (const path of ['/private/secret', '/private/in-sitemap', '/logo.png', '/style.css']) {
      assert.equal(site.hits(path), 0, `${path} is never requested`);
    }
    assert.equal(site.hits('/robots.txt') >= 1, true);
    assert.equal(site.hits('/sitemap.xml') >= 1, true);
    assert.deepEqual(await list(t, w.key), { documents: [], hasMore: false });
  });

  it('accepts seeds as the ingest route does (no trailing slash, upper-case scheme, fragment)', async () => {
    const w = await makeTenant(t);
    const result = await crawl(t, w.key, { links: [`${site.origin.replace('http://', 'HTTP://')}#top`] });
    assertSameUrls(result.data, everything, result.message);
  });

  it('stops at limit', async () => {
    const w = await makeTenant(t);
    for (const limit of [1, 3]) {
      const result = await crawl(t, w.key, { links: [u('/')], limit });
      assert.equal(result.data.length, limit, JSON.stringify(result));
      for (const url of result.data) assert.ok(everything.includes(url), `${url} is a page of the site`);
    }
  });

  it('maxDepth: 0 lists the seeds and the sitemap URLs only', async () => {
    const w = await makeTenant(t);
    const result = await crawl(t, w.key, { links: [u('/')], maxDepth: 0 });
    assertSameUrls(result.data, [u('/'), u('/b'), u('/from-sitemap')], result.message);
  });

  it('maxDepth: 1 adds the pages the seeds link to, not their links', async () => {
    const w = await makeTenant(t);
    const result = await crawl(t, w.key, { links: [u('/')], maxDepth: 1 });
    assertSameUrls(result.data, ['/', '/a', '/b', '/docs/', '/from-sitemap'].map(u), result.message);
  });

  it('include globs filter what is returned; the walk still reaches them', async () => {
    const w = await makeTenant(t);
    const docs = await crawl(t, w.key, { links: [u('/')], include: ['/docs/**'] });
    assertSameUrls(docs.data, ['/docs/', '/docs/one', '/docs/two'].map(u), docs.message);
    const two = await crawl(t, w.key, { links: [u('/')], include: ['/a', '/b'] });
    assertSameUrls(two.data, ['/a', '/b'].map(u), two.message);
    const star = await crawl(t, w.key, { links: [u('/')], include: ['/docs/*'] });
    assertSameUrls(star.data, ['/docs/', '/docs/one', '/docs/two'].map(u), star.message);
    const oneSegment = await crawl(t, w.key, { links: [u('/')], include: ['/*'] });
    assertSameUrls(oneSegment.data, ['/', '/a', '/b', '/outside', '/from-sitemap'].map(u), oneSegment.message);
  });

  it('exclude globs are neither listed nor followed', async () => {
    const w = await makeTenant(t);
    const hitsOfA = site.hits('/a');
    const hitsOfDeeper = site.hits('/a/deeper');
    // `**` crosses segments and the query: /a, /a?ref=home and /a/deeper are all out.
    const noA = await crawl(t, w.key, { links: [u('/')], exclude: ['/a**'] });
    assertSameUrls(noA.data, everything.filter((x) => x !== u('/a') && x !== u('/a/deeper')), noA.message);
    assert.equal(site.hits('/a'), hitsOfA, '/a is not fetched');
    assert.equal(site.hits('/a/deeper'), hitsOfDeeper, '/a/deeper is not reached');
    const noDocs = await crawl(t, w.key, { links: [u('/')], exclude: ['/docs/**'] });
    assertSameUrls(noDocs.data, ['/', '/a', '/b', '/a/deeper', '/from-sitemap'].map(u), noDocs.message);
  });

  it('stays below the folder of a seed that has one', async () => {
    const w = await makeTenant(t);
    const result = await crawl(t, w.key, { links: [u('/docs/')] });
    assertSameUrls(result.data, ['/docs/', '/docs/one', '/docs/two'].map(u), result.message);
  });

  const invalid: [string, unknown, string | RegExp][] = [
    ['an empty links array', { links: [] }, /^body\.links: /],
    ['no links', {}, /^body\.links: /],
    ['links that is not an array', { links: 'https://acme.test/' }, /^body\.links: /],
    ['a link that is not a URL', { links: ['not a url'] }, 'body.links.0: not a valid http(s) URL'],
    ['a non-http link', { links: ['https://acme.test/', 'ftp://acme.test/'] }, 'body.links.1: not a valid http(s) URL'],
    ['an empty link', { links: [''] }, /^body\.links\.0: /],
    ['limit 0', { links: ['https://acme.test/'], limit: 0 }, /^body\.limit: /],
    ['limit "10"', { links: ['https://acme.test/'], limit: '10' }, /^body\.limit: /],
    ['maxDepth 11', { links: ['https://acme.test/'], maxDepth: 11 }, /^body\.maxDepth: /],
    ['an unknown field', { links: ['https://acme.test/'], depth: 2 }, /depth/],
  ];
  for (const [what, body, message] of invalid) {
    it(`answers 400 for ${what}, fetching nothing`, async () => {
      const w = await makeTenant(t);
      const requests = site.requests.length;
      assertError(await t.request('POST', CRAWL, { key: w.key, body }), 400, message);
      assert.equal(site.requests.length, requests);
    });
  }

  it('answers 400 for a seed on the fake site with limit 0 without fetching it', async () => {
    const w = await makeTenant(t);
    const requests = site.requests.length;
    assertError(await t.request('POST', CRAWL, { key: w.key, body: { links: [u('/')], limit: 0 } }), 400, /^body\.limit: /);
    assert.equal(site.requests.length, requests);
  });

  describe('the Nutch fetch test site', () => {
    let nutch: FakeSite;
    before(async () => {
      const file = (name: string) => readFileSync(path.join(NUTCH_SITE, name));
      const htmlFile = (name: string) => ({ headers: { 'content-type': 'text/html' }, body: file(name) });
      nutch = await startFakeSite({
        '/': htmlFile('index.html'),
        '/index.html': htmlFile('index.html'),
        '/pagea.html': htmlFile('pagea.html'),
        '/pageb.html': htmlFile('pageb.html'),
        '/dup_of_pagea.html': htmlFile('dup_of_pagea.html'),
        '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: file('robots.txt') },
      });
    });
    after(() => nutch.close());

    it('finds 3 distinct pages from /, lists one of two byte-identical pages, and does not loop', async () => {
      const w = await makeTenant(t);
      const result = await crawl(t, w.key, { links: [nutch.url('/')] });
      assert.equal(result.data.length, 3, JSON.stringify(result));
      assert.ok(result.data.includes(nutch.url('/pageb.html')), JSON.stringify(result.data));
      const home = [nutch.url('/'), nutch.url('/index.html')].filter((x) => result.data.includes(x));
      assert.deepEqual(home, [nutch.url('/')], 'the seed is listed, not its byte-identical /index.html');
      const pageA = [nutch.url('/pagea.html'), nutch.url('/dup_of_pagea.html')].filter((x) => result.data.includes(x));
      assert.equal(pageA.length, 1, `exactly one of pagea/dup_of_pagea: ${JSON.stringify(result.data)}`);
      for (const p of ['/', '/index.html', '/pagea.html', '/pageb.html', '/dup_of_pagea.html']) {
        assert.ok(nutch.hits(p) <= 1, `${p} fetched ${nutch.hits(p)} times`);
      }
      assert.deepEqual(await list(t, w.key), { documents: [], hasMore: false });
    });
  });
});
