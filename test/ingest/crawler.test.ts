import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { compileGlob, crawlSite, HostLimiter } from '../../src/ingest/crawl/crawler.js';
import type { CrawlOptions } from '../../src/ingest/crawl/crawler.js';
import { createSafeFetch } from '../../src/ingest/fetch/safe-fetch.js';
import { crawlFixtures } from '../support/processes.js';

const nutchSite = path.join(crawlFixtures, 'nutch-fetch-test-site');
const UA = 'ParleyBot/0.1 (+https://github.com/parley; self-hosted support agent)';

const safeFetch = createSafeFetch({ allowPrivate: true, userAgent: UA, timeoutMs: 10_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 5 });

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(handler: Handler): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function html(res: ServerResponse, body: string, status = 200): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`);
}

function links(...hrefs: string[]): string {
  return hrefs.map((href) => `<a href="${href}">${href}</a>`).join('\n');
}

function crawl(overrides: Partial<CrawlOptions> & { seeds: string[] }): ReturnType<typeof crawlSite> {
  return crawlSite({ limit: 100, maxDepth: 3, timeBudgetMs: 10_000, userAgent: UA, fetch: safeFetch, perHostDelayMs: 0, ...overrides });
}

function paths(urls: string[], origin: string): string[] {
  return urls.map((url) => url.slice(origin.length)).sort();
}

/** Serves a directory like a static web server: `/` is index.html, unknown paths 404. */
function staticSite(dir: string, log: string[]): Handler {
  return (req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    log.push(pathname);
    const file = pathname === '/' ? 'index.html' : pathname.slice(1);
    try {
      if (file.includes('..') || file.includes('/')) throw new Error('outside');
      const body = readFileSync(path.join(dir, file));
      res.writeHead(200, { 'content-type': file.endsWith('.txt') ? 'text/plain' : 'text/html' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  };
}

after(() => safeFetch.close());

describe('crawl of the Nutch fetch-test site', () => {
  const log: string[] = [];
  let site: { server: Server; origin: string };
  before(async () => {
    site = await listen(staticSite(nutchSite, log));
  });
  after(() => site.server.close());
  beforeEach(() => {
    log.length = 0;
  });

  it('finds index, pagea and pageb; the byte-identical dup is dropped; no loop', async () => {
    const result = await crawl({ seeds: [`${site.origin}/`] });
    // `/index.html` and `/dup_of_pagea.html` have the same bytes as `/` and `/pagea.html`, which
    // were discovered first.
    assert.deepEqual(paths(result.urls, site.origin), ['/', '/pagea.html', '/pageb.html']);
    assert.equal(result.stats.truncated, false);
    assert.equal(result.stats.timedOut, false);
    const pages = log.filter((p) => p.endsWith('.html') || p === '/');
    assert.deepEqual([...pages].sort(), ['/', '/dup_of_pagea.html', '/index.html', '/pagea.html', '/pageb.html']);
    assert.ok(log.includes('/robots.txt'));
    assert.match(result.message, /^Found 3 URLs from 1 seed in \d+\.\d s \(limit 100\)\.$/);
  });

  it('fetches and scans the nested spider trap and the bogus-charset page in bounded time', async () => {
    const started = Date.now();
    const result = await crawl({ seeds: [`${site.origin}/nested_spider_trap.html`, `${site.origin}/exception.html`] });
    assert.deepEqual(paths(result.urls, site.origin), ['/exception.html', '/nested_spider_trap.html']);
    assert.ok(Date.now() - started < 2_000);
  });
});

describe('crawl of a generated site', () => {
  const log: string[] = [];
  let site: { server: Server; origin: string };
  let other: { server: Server; origin: string };

  const pages: Record<string, Handler> = {
    '/robots.txt': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nDisallow: /private/\n\nUser-agent: otherbot\nDisallow: /\n\nSitemap: /sitemap-index.xml\n');
    },
    '/sitemap-index.xml': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end('<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>/sitemaps/pages.xml</loc></sitemap></sitemapindex>');
    },
    '/sitemaps/pages.xml': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
          ['/orphan-1', '/orphan-2', '/private/in-sitemap', 'http://elsewhere.example/page', '/about'].map((loc) => `<url><loc>${loc}</loc></url>`).join('') +
          '</urlset>',
      );
    },
    '/sitemap.xml': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('/from-default-sitemap\n'); // relative lines are not URLs in a text sitemap: ignored
    },
    '/': (_req, res) =>
      html(
        res,
        links('/docs/', 'about', '/private/hidden', 'http://external.example/', 'https://www.example.org/x', '/logo.png', '/site.css', '/app.js?v=1', '/file.pdf', '/broken', '/missing', 'mailto:team@example.com', 'javascript:void(0)', '#top', '/docs/intro#part', '/image-only', '/to-about'),
      ),
    '/docs/': (_req, res) => html(res, links('intro', 'guide/setup', 'guide/advanced?tab=1', '/blog/post', '/docs/', '../')),
    '/docs/intro': (_req, res) => html(res, `<base href="/docs/guide/">${links('setup', '/docs/')}<script>var x = '<a href="/docs/in-script">';</script><!-- <a href="/docs/in-comment"> -->`),
    '/docs/guide/setup': (_req, res) => html(res, links('../intro', 'advanced?tab=1')),
    '/docs/guide/advanced': (_req, res) => html(res, links('/docs/guide/deeper')),
    '/docs/guide/deeper': (_req, res) => html(res, 'leaf'),
    '/about': (_req, res) => html(res, links('/')),
    '/blog/post': (_req, res) => html(res, 'post'),
    '/orphan-1': (_req, res) => html(res, 'orphan one'),
    '/orphan-2': (_req, res) => html(res, 'orphan two'),
    '/file.pdf': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end('%PDF-1.4 fake');
    },
    '/image-only': (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    },
    '/to-about': (_req, res) => {
      res.writeHead(301, { location: '/about' });
      res.end();
    },
    '/broken': (_req, res) => html(res, 'server error', 500),
    '/twins/': (_req, res) => html(res, links('first', 'second')),
    '/twins/first': (_req, res) => {
      // Identical to /twins/second but answers later: it must still be the one listed.
      const timer = setTimeout(() => html(res, 'same bytes'), 150);
      res.on('close', () => clearTimeout(timer));
    },
    '/twins/second': (_req, res) => html(res, 'same bytes'),
    '/slowsite/': (_req, res) => html(res, links('fast', 'slow')),
    '/slowsite/fast': (_req, res) => html(res, 'fast'),
    '/slowsite/slow': (_req, res) => {
      const timer = setTimeout(() => html(res, 'slow'), 5_000);
      res.on('close', () => clearTimeout(timer));
    },
  };

  function handler(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x');
    log.push(`${url.pathname}${url.search}`);
    const trap = /^\/trap\/(\d+)(?:\/x)?$/.exec(url.pathname);
    if (trap) {
      // An endless generated space: every page links to two new ones.
      const n = Number(trap[1]);
      html(res, `trap ${url.pathname} ${links(`/trap/${n + 1}`, `/trap/${n + 1}/x`)}`);
      return;
    }
    const page = pages[url.pathname];
    if (page) page(req, res);
    else html(res, 'not found', 404);
  }

  before(async () => {
    site = await listen(handler);
    other = await listen((_req, res) => html(res, 'other'));
  });
  after(() => {
    site.server.close();
    other.server.close();
  });
  beforeEach(() => {
    log.length = 0;
  });

  it('reads robots.txt and sitemaps, walks links, stays on site and skips what it must', async () => {
    const result = await crawl({ seeds: [`${site.origin}/`] });
    assert.deepEqual(paths(result.urls, site.origin), [
      '/',
      '/about',
      '/blog/post',
      '/docs/',
      '/docs/guide/advanced?tab=1',
      '/docs/guide/deeper',
      '/docs/guide/setup',
      '/docs/intro',
      '/file.pdf',
      '/orphan-1',
      '/orphan-2',
    ]);
    // Robots-disallowed pages (linked and in the sitemap) and assets are never requested.
    for (const never of ['/private/hidden', '/private/in-sitemap', '/logo.png', '/site.css', '/app.js?v=1', '/docs/in-script', '/docs/in-comment']) {
      assert.ok(!log.includes(never), `${never} was requested`);
    }
    assert.ok(log.includes('/sitemap-index.xml') && log.includes('/sitemaps/pages.xml') && log.includes('/sitemap.xml'));
    assert.equal(result.stats.skippedByRobots, 2);
    assert.equal(result.stats.skippedOffSite, 3); // external.example, www.example.org, elsewhere.example
    assert.equal(result.stats.errors, 2); // /broken (500) and /missing (404)
    // Nothing is fetched twice, except /about reached once by link and once through /to-about's redirect.
    const repeated = log.filter((p, i) => log.indexOf(p) !== i);
    assert.deepEqual(repeated, ['/about']);
  });

  it('lists the first-discovered URL of byte-identical pages, whichever answers first', async () => {
    const result = await crawl({ seeds: [`${site.origin}/twins/`] });
    assert.deepEqual(paths(result.urls, site.origin), ['/twins/', '/twins/first']);
  });

  it('scopes a seed below the root to its directory', async () => {
    const result = await crawl({ seeds: [`${site.origin}/docs/intro`] });
    assert.deepEqual(paths(result.urls, site.origin), ['/docs/', '/docs/guide/advanced?tab=1', '/docs/guide/deeper', '/docs/guide/setup', '/docs/intro']);
    assert.ok(!log.includes('/about') && !log.includes('/blog/post') && !log.includes('/orphan-1'));
  });

  it('include filters only the result; exclude also prunes the walk', async () => {
    const included = await crawl({ seeds: [`${site.origin}/`], include: ['/docs/guide/**'] });
    assert.deepEqual(paths(included.urls, site.origin), ['/docs/guide/advanced?tab=1', '/docs/guide/deeper', '/docs/guide/setup']);
    log.length = 0;
    const excluded = await crawl({ seeds: [`${site.origin}/`], exclude: ['/docs/guide/*', `http*://*/orphan-?`] });
    const found = paths(excluded.urls, site.origin);
    assert.ok(!found.some((p) => p.startsWith('/docs/guide/') || p.startsWith('/orphan')), found.join());
    assert.ok(found.includes('/docs/intro'));
    assert.ok(!log.some((p) => p.startsWith('/docs/guide/setup') || p.startsWith('/orphan')), 'excluded pages are not fetched');
  });

  it('honours maxDepth', async () => {
    const shallow = await crawl({ seeds: [`${site.origin}/`], maxDepth: 1 });
    const found = paths(shallow.urls, site.origin);
    assert.ok(found.includes('/docs/') && found.includes('/orphan-1') && found.includes('/docs/intro'));
    assert.ok(!found.includes('/docs/guide/setup') && !found.includes('/blog/post'));
    // Depth 0: the seed and what the site's sitemaps list, no links followed.
    const onlySeed = await crawl({ seeds: [`${site.origin}/`], maxDepth: 0 });
    assert.deepEqual(paths(onlySeed.urls, site.origin).sort(), ['/', '/about', '/orphan-1', '/orphan-2']);
  });

  it('stops at the limit and says so', async () => {
    const result = await crawl({ seeds: [`${site.origin}/`], limit: 3, concurrency: 1 });
    assert.equal(result.urls.length, 3);
    assert.equal(result.stats.truncated, true);
    assert.match(result.message, /^Found 3 URLs from 1 seed in .* \(limit 3\)\. Stopped at the limit/);
  });

  it('bounds a spider trap by depth and by limit', async () => {
    const byDepth = await crawl({ seeds: [`${site.origin}/trap/1`], maxDepth: 3 });
    // Depth 0: /trap/1; each further level has /trap/n and /trap/n/x (both link to the same two).
    assert.equal(byDepth.urls.length, 1 + 2 + 2 + 2);
    const byLimit = await crawl({ seeds: [`${site.origin}/trap/1`], maxDepth: 1000, limit: 25 });
    assert.equal(byLimit.urls.length, 25);
    assert.equal(byLimit.stats.truncated, true);
    assert.ok(byLimit.stats.fetched <= 125);
  });

  it('returns what it found when the time budget runs out', async () => {
    const started = Date.now();
    const result = await crawl({ seeds: [`${site.origin}/slowsite/`], timeBudgetMs: 700 });
    assert.ok(Date.now() - started < 2_000, 'returns at the budget, not when the slow page answers');
    assert.deepEqual(paths(result.urls, site.origin), ['/slowsite/', '/slowsite/fast']);
    assert.equal(result.stats.timedOut, true);
    assert.match(result.message, /Stopped at the time budget/);
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    const pending = crawl({ seeds: [`${site.origin}/slowsite/`], signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const result = await pending;
    assert.ok(Date.now() - started < 2_000);
    assert.ok(!result.urls.some((url) => url.endsWith('/slow')));
  });

  it('crawls several seeds on different sites', async () => {
    const result = await crawl({ seeds: [`${site.origin}/docs/guide/setup`, `${other.origin}/`], maxDepth: 0 });
    assert.deepEqual(result.urls.sort(), [`${other.origin}/`, `${site.origin}/docs/guide/setup`].sort());
    assert.match(result.message, /from 2 seeds/);
  });

  it('rejects invalid seeds with TypeError', async () => {
    await assert.rejects(crawl({ seeds: ['ftp://example.com/'] }), TypeError);
    await assert.rejects(crawl({ seeds: ['not a url'] }), TypeError);
  });
});

describe('robots.txt Crawl-delay', () => {
  it('spaces requests to one host by the Crawl-delay', async () => {
    const starts: number[] = [];
    const site = await listen((req, res) => {
      if (req.url === '/robots.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('User-agent: parleybot\nCrawl-delay: 0.25\n');
        return;
      }
      if (req.url?.startsWith('/p')) starts.push(Date.now());
      html(res, req.url === '/p0' ? links('/p1', '/p2', '/p3') : `leaf ${req.url}`);
    });
    try {
      const result = await crawl({ seeds: [`${site.origin}/p0`] });
      assert.equal(result.urls.length, 4);
      // Starts are reserved 250 ms apart; the site sees them as they arrive, each late by what a
      // loaded machine adds. So: the four span three delays (less one arrival's lateness), and no
      // two arrive closer than half the delay.
      const gaps = starts.slice(1).map((at, i) => at - (starts[i] as number));
      assert.ok((starts.at(-1) as number) - (starts[0] as number) >= 3 * 250 - 100, `span of ${gaps.join(', ')} ms`);
      assert.ok(gaps.every((gap) => gap >= 125), `gaps ${gaps.join(', ')} ms`);
    } finally {
      site.server.close();
    }
  });
});

describe('compileGlob', () => {
  it('translates *, ** and ?', () => {
    assert.ok(compileGlob('/docs/*').test('/docs/intro'));
    assert.ok(!compileGlob('/docs/*').test('/docs/guide/setup'));
    assert.ok(compileGlob('/docs/**').test('/docs/guide/setup'));
    assert.ok(!compileGlob('/docs/**').test('/docs'));
    assert.ok(compileGlob('/v?/api').test('/v2/api'));
    assert.ok(!compileGlob('/v?/api').test('/v10/api'));
    assert.ok(compileGlob('/search?q=*').test('/search?q=x')); // `?` is any one char, `?` included
    assert.ok(compileGlob('/search?q=*').test('/searchXq=x'));
    assert.ok(compileGlob('/a.b(c)+[d]').test('/a.b(c)+[d]'));
    assert.ok(!compileGlob('/a.b').test('/axb'));
    assert.ok(compileGlob('https://*.example.com/**').test('https://docs.example.com/a/b'));
  });
});

describe('HostLimiter', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('allows at most perHost concurrent calls per host, hosts independent', async () => {
    const limiter = new HostLimiter({ perHost: 2, delayMs: 0 });
    const active = new Map<string, number>();
    const peak = new Map<string, number>();
    const task = (host: string) => async () => {
      active.set(host, (active.get(host) ?? 0) + 1);
      peak.set(host, Math.max(peak.get(host) ?? 0, active.get(host) ?? 0));
      await sleep(30);
      active.set(host, (active.get(host) ?? 0) - 1);
    };
    const started = Date.now();
    await Promise.all([
      ...Array.from({ length: 6 }, () => limiter.run('https://a.test/x', task('a'))),
      ...Array.from({ length: 6 }, () => limiter.run('https://b.test/y', task('b'))),
    ]);
    assert.equal(peak.get('a'), 2);
    assert.equal(peak.get('b'), 2);
    assert.ok(Date.now() - started < 250, 'hosts run in parallel');
  });

  it('spaces starts on one host by delayMs and passes results and errors through', async () => {
    const limiter = new HostLimiter({ perHost: 4, delayMs: 80 });
    const starts: number[] = [];
    const results = await Promise.all([1, 2, 3].map((n) => limiter.run('https://a.test/', async () => (starts.push(Date.now()), n))));
    assert.deepEqual(results, [1, 2, 3]);
    // One start the event loop ran late shortens the gap before it and lengthens the next: the
    // span of three starts is what the limiter guarantees.
    assert.ok((starts[2] as number) - (starts[0] as number) >= 2 * 80 - 5, `starts ${starts.join(', ')}`);
    await assert.rejects(limiter.run('https://a.test/', async () => Promise.reject(new Error('boom'))), /boom/);
    assert.equal(await limiter.run('https://a.test/', async () => 'still works', 0), 'still works');
  });
});
