import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { parseSitemap } from '../../src/ingest/crawl/sitemap.js';
import { crawlFixtures } from '../support/processes.js';

const sitemapDir = path.join(crawlFixtures, 'crawler-commons/sitemaps');

function parseFile(name: string, url = `http://www.example.com/${name}`) {
  return parseSitemap(readFileSync(path.join(sitemapDir, name)), url);
}

describe('parseSitemap on the crawler-commons fixtures', () => {
  it('plain-text sitemap', () => {
    assert.deepEqual(parseFile('sitemap.txt').urls, ['http://www.domain.com/page1.html', 'http://www.domain.com/page2.html']);
  });

  it('plain-text sitemap with a BOM', () => {
    assert.deepEqual(parseFile('sitemap-with-bom.txt').urls, ['http://www.domain.com/page1.html', 'http://www.domain.com/page2.html']);
  });

  it('gzipped plain-text sitemap (detected by magic bytes)', () => {
    const { urls } = parseFile('sitemap.txt.gz');
    assert.equal(urls.length, 5);
    assert.equal(urls[1], 'http://www.example.com/catalog?item=12&desc=vacation_hawaii');
  });

  it('gzipped XML urlset with &amp; decoded', () => {
    const { urls, sitemaps } = parseFile('xmlSitemap.gz');
    assert.deepEqual(urls, [
      'http://www.example.com/',
      'http://www.example.com/catalog?item=12&desc=vacation_hawaii',
      'http://www.example.com/catalog?item=73&desc=vacation_new_zealand',
      'http://www.example.com/catalog?item=74&desc=vacation_newfoundland',
      'http://www.example.com/catalog?item=83&desc=vacation_usa',
    ]);
    assert.deepEqual(sitemaps, []);
  });

  it('lenient sitemap index: 15 entries written without <loc>', () => {
    const { urls, sitemaps } = parseFile('sitemap.index.xml');
    assert.equal(sitemaps.length, 15);
    assert.equal(sitemaps[0], 'https://example.com/sitemap.jss?portalCode=10260&lang=en');
    assert.deepEqual(urls, []);
  });

  it('prefixed namespace', () => {
    assert.deepEqual(parseFile('sitemap.ns.xml').urls, ['http://www.example.com/1', 'http://www.example.com/2']);
  });

  it('wrong namespace still yields both <loc> (lenient choice), whitespace trimmed', () => {
    assert.deepEqual(parseFile('sitemap.badns.xml').urls, ['http://www.example.com/1', 'http://www.example.com/2']);
  });

  it('Atom feed: entry links without rel or with rel="alternate"', () => {
    const { urls } = parseFile('atom.xml');
    assert.deepEqual(urls, ['http://example.org/2003/12/13/atom03', 'http://example.org/2003/12/13/atom03.html']);
  });

  it('news extension sitemaps', () => {
    assert.equal(parseFile('extension/hebdenbridgetimes-articles-sitemap.xml').urls.length, 74);
    assert.equal(parseFile('extension/shinpaideshou-news-sitemap.xml').urls.length, 3);
    assert.equal(parseFile('extension/sitemap-news.xml').urls.length, 2);
  });

  it('image, video, mobile, hreflang and pagemap extensions: only the page <loc>', () => {
    assert.deepEqual(parseFile('extension/sitemap-images.xml').urls, ['http://www.example.com/images/some_image_landing_page.html']);
    assert.equal(parseFile('extension/sitemap-videos.xml').urls.length, 3);
    assert.deepEqual(parseFile('extension/sitemap-videos-tvshow.xml').urls, ['https://example.org/my-tv-show/23/13/']);
    assert.equal(parseFile('extension/sitemap-mobile.xml').urls.length, 3);
    assert.deepEqual(parseFile('extension/sitemap-links.xml').urls, [
      'http://www.example.com/english/',
      'http://www.example.com/deutsch/',
      'http://www.example.com/schweiz-deutsch/',
    ]);
    assert.equal(parseFile('extension/pagemaps-sitemap.xml').urls.length, 2);
  });

  it('parses every fixture without throwing', () => {
    const names = readdirSync(sitemapDir, { recursive: true, encoding: 'utf8' }).filter((name) => /\.(xml|txt|gz)$/.test(name));
    assert.ok(names.length >= 15);
    for (const name of names) assert.doesNotThrow(() => parseFile(name), name);
  });

  it('never fetches: do-not-visit.txt is parsed as text, with no network access', async () => {
    const original = globalThis.fetch;
    let fetched = false;
    globalThis.fetch = async () => {
      fetched = true;
      throw new Error('no network in sitemap parsing');
    };
    try {
      const { urls } = parseFile('do-not-visit.txt');
      assert.deepEqual(urls, ['http://www.example.com/do-not-visit-here']);
    } finally {
      globalThis.fetch = original;
    }
    assert.equal(fetched, false);
  });
});

describe('parseSitemap edge cases', () => {
  it('RSS items', () => {
    const rss = `<?xml version="1.0"?><rss version="2.0"><channel><link>https://h.test/</link>
      <item><title>A</title><link>https://h.test/a?x=1&amp;y=2</link></item>
      <item><link><![CDATA[https://h.test/b]]></link><atom:link href="https://h.test/ignored"/></item></channel></rss>`;
    assert.deepEqual(parseSitemap(rss, 'https://h.test/feed.xml').urls, ['https://h.test/a?x=1&y=2', 'https://h.test/b']);
  });

  it('resolves relative locs, drops invalid ones and de-duplicates', () => {
    const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <url><loc>/docs/a</loc></url><url><loc>https://h.test/docs/a#frag</loc></url>
      <url><loc>javascript:alert(1)</loc></url><url><loc>mailto:x@h.test</loc></url>
      <!-- <url><loc>https://h.test/commented-out</loc></url> -->
      <url><loc>https://h.test/docs/b</loc></url></urlset>`;
    assert.deepEqual(parseSitemap(xml, 'https://h.test/sitemap.xml').urls, ['https://h.test/docs/a', 'https://h.test/docs/b']);
  });

  it('a sitemap index with <loc> children', () => {
    const xml = `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <sitemap><loc>https://h.test/s1.xml</loc><lastmod>2024-01-01</lastmod></sitemap>
      <sitemap><loc>https://h.test/s2.xml.gz</loc></sitemap></sitemapindex>`;
    assert.deepEqual(parseSitemap(xml, 'https://h.test/sitemap.xml'), { urls: [], sitemaps: ['https://h.test/s1.xml', 'https://h.test/s2.xml.gz'] });
  });

  it('caps the number of URLs and survives truncated or unclosed XML in linear time', () => {
    const many = `<urlset>${Array.from({ length: 60_000 }, (_, i) => `<url><loc>https://h.test/p${i}</loc></url>`).join('')}</urlset>`;
    assert.equal(parseSitemap(many, 'https://h.test/sitemap.xml').urls.length, 50_000);
    const started = Date.now();
    const unclosed = `<urlset>${'<url><loc><![CDATA['.repeat(20_000)}`;
    assert.deepEqual(parseSitemap(unclosed, 'https://h.test/sitemap.xml').urls, []);
    assert.ok(Date.now() - started < 2_000);
  });

  it('returns nothing for a corrupt gzip body or an HTML page', () => {
    assert.deepEqual(parseSitemap(new Uint8Array([0x1f, 0x8b, 1, 2, 3]), 'https://h.test/s.gz').urls, []);
    assert.deepEqual(parseSitemap('<!doctype html><html><body><a href="/x">x</a></body></html>', 'https://h.test/sitemap.xml').urls, []);
    assert.deepEqual(parseSitemap(gzipSync('https://h.test/a\nnot a url\n'), 'https://h.test/s.txt.gz').urls, ['https://h.test/a']);
  });
});
