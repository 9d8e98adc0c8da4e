import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { decodeRobots, matchesPattern, parseRobots, robotsFromResponse, RobotsCache } from '../../src/ingest/crawl/robots.js';
import { FetchError } from '../../src/ingest/fetch/safe-fetch.js';
import type { FetchedResource, FetchRequest } from '../../src/ingest/fetch/safe-fetch.js';
import { crawlFixtures } from '../support/processes.js';

const robotsDir = path.join(crawlFixtures, 'crawler-commons/robots');
const ROBOTS_URL = 'https://www.example.com/robots.txt';

function load(name: string) {
  return parseRobots(decodeRobots(readFileSync(path.join(robotsDir, name))), ROBOTS_URL);
}

function check(rules: ReturnType<typeof load>, agent: string, expectations: Record<string, boolean>): void {
  for (const [url, allowed] of Object.entries(expectations)) {
    assert.equal(rules.isAllowed(`https://www.example.com${url}`, agent), allowed, `${agent} ${url}`);
  }
}

describe('RFC 9309 examples', () => {
  it('§5.1 simple example', () => {
    const rules = load('rfc9309-example-simple-robots.txt');
    check(rules, 'SomeBot/1.0', {
      '/example/': false,
      '/example/page.html': false,
      '/images/cat.gif': false,
      '/publications/': true,
      '/publications/paper.html': true,
      '/': true,
      '/about': true,
      '/images/cat.gif?x=1': true, // `$` anchors at the end of path+query
    });
    check(rules, 'foobot', {
      '/': false,
      '/about': false,
      '/example/page.html': true,
      '/example/allowed.gif': true,
      '/example/other.html': false,
      '/example/page.html.bak': true, // Allow: /example/page.html is a prefix rule
    });
    for (const agent of ['barbot', 'BazBot/2.0']) {
      check(rules, agent, { '/example/page.html': false, '/example/other.html': true, '/x.gif': true, '/': true });
    }
    // quxbot's group is empty: everything allowed, no fall-back to `*` (which would block .gif).
    check(rules, 'quxbot', { '/example/page.html': true, '/x.gif': true, '/': true });
  });

  it('§5.2 longest match', () => {
    const rules = load('rfc9309-example-longest-match-robots.txt');
    check(rules, 'foobot', {
      '/example/page/': true,
      '/example/page/index.html': true,
      '/example/page/disallowed.gif': false,
    });
  });

  it('§2.2.1 group merging, case-insensitive user agents', () => {
    const rules = load('rfc9309-example-rule-group-merging.txt');
    for (const agent of ['ExampleBot', 'examplebot', 'EXAMPLEBOT/3.1 (+https://example.bot)']) {
      check(rules, agent, { '/foo': false, '/bar': false, '/baz': false, '/qux': true });
    }
    check(rules, 'OtherBot', { '/foo': false, '/bar': false, '/baz': true });
    check(rules, 'bazbot', { '/foo': true, '/bar': true, '/baz': false });
  });
});

describe('robots.txt parsing', () => {
  it('parses every crawler-commons fixture without throwing', () => {
    for (const name of readdirSync(robotsDir)) {
      const rules = load(name);
      assert.equal(typeof rules.isAllowed('/any/path', 'ParleyBot/0.1'), 'boolean', name);
      assert.equal(rules.isAllowed('/robots.txt', 'ParleyBot/0.1'), true, `${name}: /robots.txt is always allowed`);
    }
  });

  it('decodes UTF-8, UTF-16LE and UTF-16BE BOMs to the same rules', () => {
    const texts = ['robots-with-utf8-bom.txt', 'robots-with-utf16le-bom.txt', 'robots-with-utf16be-bom.txt'].map((name) =>
      decodeRobots(readFileSync(path.join(robotsDir, name))),
    );
    for (const text of texts) {
      assert.ok(text.startsWith('User-agent: *'), JSON.stringify(text.slice(0, 20)));
      const rules = parseRobots(text, ROBOTS_URL);
      assert.equal(rules.isAllowed('/login.aspx', 'ParleyBot'), false);
      assert.equal(rules.isAllowed('/register.aspx', 'ParleyBot'), false);
      assert.equal(rules.isAllowed('/docs/', 'ParleyBot'), true);
    }
    assert.equal(texts[1], texts[2]);
  });

  it('handles DOS line endings and reads Crawl-delay', () => {
    const rules = load('dos-line-endings.txt');
    assert.equal(rules.crawlDelaySeconds('ParleyBot'), 1);
    assert.equal(rules.isAllowed('/anything', 'ParleyBot'), true);
  });

  it('merges groups for Crawl-delay without letting other records end a group', () => {
    const rules = load('crawl-delay-group-merging.txt');
    assert.equal(rules.crawlDelaySeconds('mybot'), 10);
    assert.equal(rules.crawlDelaySeconds('yourbot'), 10);
    assert.equal(rules.crawlDelaySeconds('ParleyBot'), 30);
    for (const agent of ['mybot', 'yourbot']) check(rules, agent, { '/private/x': false, '/public': true });
    // The file's comment claims the later `yourbot` group also applies to mybot. RFC 9309 merges
    // only groups that name the product token, so it applies to yourbot alone (as in Google's parser).
    check(rules, 'yourbot', { '/login/': false });
    check(rules, 'mybot', { '/login/': true });
    check(rules, 'ParleyBot', { '/private/x': true, '/login/': true });
  });

  it('ignores extension records inside groups', () => {
    const rules = load('extensions-group-merging.txt');
    check(rules, 'mybot', { '/private/x': false, '/llms.txt': true, '/other': true });
    check(rules, 'yourbot', { '/private/x': false, '/login/': false });
    check(rules, 'ParleyBot', { '/llms.txt': true, '/other': false });
    const ext = load('extension-robots.txt');
    check(ext, 'mybot', { '/private/': false, '/secret/': true });
    assert.deepEqual(ext.sitemaps, ['https://www.example.com/sitemap.xml']);
  });

  it('accepts missing colons and common directive typos like the reference parser', () => {
    const typos = load('directive-typos-robots.txt');
    check(typos, 'bot1', { '/desallow/': true, '/dissalow/': false });
    check(typos, 'bot2', { '/useragent/': false });
    check(typos, 'bot4', { '/useragent-no-colon/': false });
    const format = load('format-errors-robots.txt');
    check(format, 'bot1', { '/whitespace-before-colon/': false, '/no-colon/': false });
    check(format, 'bot2', { '/no-colon-useragent/': false });
    check(format, 'bot3', { '/whitespace-before-colon': true, '/other': false });
  });

  it('resolves rule precedence: longest match, allow wins a tie', () => {
    const rules = load('precedence-of-rules.txt');
    // `Disallow: /*` (2 octets) is longer than `Allow: /` (1 octet), so it wins for `/`.
    check(rules, 'wget', { '/': false, '/foo': true, '/index.html': true, '/other': false });
    check(rules, 'testy', { '/foo/bar': true, '/foo/baz': false, '/foo': false, '/x': true });
    const merged = load('merge-rules.txt');
    // Allow: /foo/bar and Disallow: /foo/bar of wget's two merged groups tie: allow wins.
    check(merged, 'wget', { '/foo/bar': true, '/tmp/bar': false, '/ckh/bar': true, '/other': true });
    check(merged, 'curl', { '/x': false });
    check(merged, 'someone', { '/foo/bar': false, '/x': true });
    const tie = parseRobots('User-agent: *\nDisallow: /page\nAllow: /page\n', ROBOTS_URL);
    assert.equal(tie.isAllowed('/page', 'x'), true);
  });

  it('matches wildcards and end anchors', () => {
    const rules = load('wildcards.txt');
    check(rules, 'ParleyBot', {
      '/gp/registry/wishlist/abc/reserve': false,
      '/wishlist/universal/x': true,
      '/wishlist/other': false,
      '/gp/cart': false,
      '/books': true,
    });
    assert.equal(matchesPattern('/*.php$', '/index.php'), true);
    assert.equal(matchesPattern('/*.php$', '/index.php?x'), false);
    assert.equal(matchesPattern('/fish*', '/fish.html'), true);
    assert.equal(matchesPattern('/fish/', '/fish'), false);
    assert.equal(matchesPattern('/*/a*b*c$', '/x/aaaabbbbccc'), true);
    // No catastrophic backtracking on pathological patterns.
    const started = Date.now();
    assert.equal(matchesPattern(`/${'*a'.repeat(40)}$`, `/${'a'.repeat(5000)}b`), false);
    assert.ok(Date.now() - started < 1_000);
  });

  it('compares percent-encoding canonically', () => {
    const rules = parseRobots('User-agent: *\nDisallow: /%7Ejoe/\nDisallow: /caf%c3%a9\nDisallow: /a%2fb\n', ROBOTS_URL);
    assert.equal(rules.isAllowed('https://www.example.com/~joe/index.html', 'x'), false);
    assert.equal(rules.isAllowed('https://www.example.com/café', 'x'), false);
    assert.equal(rules.isAllowed('https://www.example.com/a%2Fb', 'x'), false);
    assert.equal(rules.isAllowed('https://www.example.com/a/b', 'x'), true); // an encoded / is not a /
    const malformed = load('malformed-path.txt');
    assert.equal(malformed.isAllowed('/wiki/Wikipedia_talk:Mediation_Committee/x', 'x'), false);
  });

  it('resolves relative Sitemap lines and de-duplicates them', () => {
    assert.deepEqual(load('relative-sitemap-robots.txt').sitemaps, ['https://www.example.com/sitemap.xml']);
    assert.deepEqual(load('sitemap-robots-dedup.txt').sitemaps, ['http://example.org/sitemap.xml']);
    // A bare URL line is not a directive; the mixed-case URL is kept as written.
    assert.deepEqual(load('sitemap-robots.txt').sitemaps, ['http://domain.com/sitemap.xml', 'http://domain.com/dir/MixedCased-sitemap.xml']);
  });

  it('uses the agent group of the 13 KB many-user-agents file', () => {
    const rules = load('many-user-agents.txt');
    assert.equal(typeof rules.isAllowed('/', 'ParleyBot'), 'boolean');
  });

  it('treats rules before any User-agent line as belonging to no group', () => {
    const rules = parseRobots('Disallow: /\nUser-agent: *\nDisallow: /private\n', ROBOTS_URL);
    assert.equal(rules.isAllowed('/', 'x'), true);
    assert.equal(rules.isAllowed('/private', 'x'), false);
  });
});

describe('robotsFromResponse', () => {
  const body = new TextEncoder().encode('User-agent: *\nDisallow: /private\nSitemap: /s.xml\n');
  it('obeys a 2xx file', () => {
    const rules = robotsFromResponse(200, body, 'http://h/robots.txt');
    assert.equal(rules.isAllowed('/private', 'x'), false);
    assert.equal(rules.isAllowed('/public', 'x'), true);
    assert.deepEqual(rules.sitemaps, ['http://h/s.xml']);
  });
  it('allows everything after a 4xx, including 401 and 403', () => {
    for (const status of [400, 401, 403, 404, 410, 429]) {
      assert.equal(robotsFromResponse(status, body).isAllowed('/private', 'x'), true, String(status));
    }
  });
  it('disallows everything after a 5xx or no answer, except robots.txt itself', () => {
    for (const status of [500, 503, null]) {
      const rules = robotsFromResponse(status, body);
      assert.equal(rules.isAllowed('/', 'x'), false, String(status));
      assert.equal(rules.isAllowed('/robots.txt', 'x'), true);
    }
  });
});

describe('RobotsCache', () => {
  function fakeFetch(answer: (url: string) => Partial<FetchedResource> | Error) {
    const calls: string[] = [];
    const fetch = async (request: FetchRequest): Promise<FetchedResource> => {
      calls.push(request.url);
      await new Promise((resolve) => setTimeout(resolve, 10));
      const result = answer(request.url);
      if (result instanceof Error) throw result;
      return { url: request.url, status: 200, headers: {}, contentType: 'text/plain', charset: null, body: new Uint8Array(), redirects: [], ...result };
    };
    return { fetch, calls };
  }

  it('fetches once per origin for concurrent checks and caches for the TTL', async () => {
    let now = 0;
    const { fetch, calls } = fakeFetch(() => ({ body: new TextEncoder().encode('User-agent: parleybot\nDisallow: /no\nCrawl-delay: 2\nSitemap: /sm.xml') }));
    const cache = new RobotsCache(fetch, 'ParleyBot/0.1 (+https://github.com/parley)', { ttlMs: 1000, now: () => now });
    const [a, b, c] = await Promise.all([cache.check('https://a.test/no/1'), cache.check('https://a.test/yes'), cache.check('https://b.test/no')]);
    assert.deepEqual(calls.sort(), ['https://a.test/robots.txt', 'https://b.test/robots.txt']);
    assert.deepEqual(a, { allowed: false, crawlDelaySeconds: 2, sitemaps: ['https://a.test/sm.xml'], unreachable: null });
    assert.equal(b?.allowed, true);
    assert.equal(c?.allowed, false);
    await cache.check('https://a.test/again');
    assert.equal(calls.length, 2);
    now = 2000;
    await cache.check('https://a.test/again');
    assert.equal(calls.length, 3);
  });

  it('blocks a site whose robots.txt cannot be fetched, and asks again sooner', async () => {
    let now = 0;
    const { fetch, calls } = fakeFetch(() => new FetchError('network', 'connection refused'));
    const cache = new RobotsCache(fetch, 'ParleyBot', { ttlMs: 60_000, failureTtlMs: 100, now: () => now });
    const down = await cache.check('https://down.test/page');
    assert.equal(down.allowed, false);
    assert.equal(down.unreachable, 'connection refused');
    assert.equal((await cache.check('https://down.test/robots.txt')).allowed, true);
    now = 200;
    await cache.check('https://down.test/page');
    assert.equal(calls.length, 2);
    // forget() makes the next check read robots.txt again at once.
    cache.forget('https://down.test/other');
    await cache.check('https://down.test/page');
    assert.equal(calls.length, 3);
  });

  it('allows a site whose robots.txt is missing (404)', async () => {
    const { fetch } = fakeFetch(() => ({ status: 404, body: new TextEncoder().encode('Not found') }));
    assert.equal((await new RobotsCache(fetch, 'ParleyBot').check('https://nope.test/x')).allowed, true);
  });
});
