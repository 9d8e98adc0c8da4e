import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { isSameSite, looksLikeAsset, normalizeUrl, seedPathPrefix } from '../../src/ingest/crawl/url.js';
import { crawlFixtures } from '../support/processes.js';

const fixtures = path.join(crawlFixtures, 'crawler-commons');

/** The crawler-commons CSV dialect: comma separated, optional spaces, double-quoted fields. */
function parseCsvLine(line: string): string[] {
  const fields: string[] = [];
  let i = 0;
  while (i <= line.length) {
    while (line[i] === ' ') i++;
    let field = '';
    if (line[i] === '"') {
      for (i++; i < line.length; i++) {
        if (line[i] !== '"') field += line[i];
        else if (line[i + 1] === '"') field += line[++i];
        else break;
      }
      const comma = line.indexOf(',', i);
      i = comma < 0 ? line.length : comma;
    } else {
      const comma = line.indexOf(',', i);
      const end = comma < 0 ? line.length : comma;
      field = line.slice(i, end);
      i = end;
    }
    fields.push(field);
    i++;
  }
  return fields;
}

function csvRows(file: string): string[][] {
  return readFileSync(path.join(fixtures, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map(parseCsvLine);
}

describe('normalizeUrl', () => {
  it('agrees with the crawler-commons normaliser policy on at least 86 of 112 pairs', () => {
    // The 26 disagreements are deliberate: we do not sort or drop query parameters (11 rows), do not
    // collapse `//` in paths (6), and return null for non-http(s) or scheme-less input (9).
    const rows = csvRows('normalizer/weirdToNormalizedUrls.csv');
    assert.equal(rows.length, 112);
    const agreeing = rows.filter(([weird = '', expected = '']) => normalizeUrl(weird) === expected.trim());
    assert.ok(agreeing.length >= 86, `agreement ${agreeing.length}/${rows.length}`);
  });

  it('applies the documented canonical form', () => {
    const cases: [string, string | null][] = [
      ['HTTP://Example.COM:80/a/./b/../c?x=1#frag', 'http://example.com/a/c?x=1'],
      ['https://example.com:443', 'https://example.com/'],
      ['https://example.com:8443/', 'https://example.com:8443/'],
      ['http://foo.com/%7euser/%2f%41', 'http://foo.com/~user/%2FA'],
      ['http://foo.com/a b?q=a b', 'http://foo.com/a%20b?q=a%20b'],
      ['http://example.com/?', 'http://example.com/'],
      ['http://example.com/docs/', 'http://example.com/docs/'],
      ['http://example.com/docs', 'http://example.com/docs'],
      ['http://x.com/s?b=2&a=1', 'http://x.com/s?b=2&a=1'],
      ['http://x.com/s?q=a+b&r=c%2Bd', 'http://x.com/s?q=a+b&r=c%2Bd'],
      ['https://www.example.org./', 'https://www.example.org/'],
      ['http://bücher.de/', 'http://xn--bcher-kva.de/'],
      ['javascript:alert(1)', null],
      ['mailto:a@b.c', null],
      ['ftp://example.com/', null],
      ['/relative/path', null],
      ['', null],
    ];
    for (const [input, expected] of cases) assert.equal(normalizeUrl(input), expected, input);
    assert.equal(normalizeUrl('../b?x#y', 'https://h.test/docs/a/page'), 'https://h.test/docs/b?x');
    assert.equal(normalizeUrl('#top', 'https://h.test/page?q=1'), 'https://h.test/page?q=1');
  });

  it('is idempotent', () => {
    for (const [weird = ''] of csvRows('normalizer/weirdToNormalizedUrls.csv')) {
      const once = normalizeUrl(weird);
      if (once !== null) assert.equal(normalizeUrl(once), once, weird);
    }
  });

  it('rejects the invalid URLs', () => {
    const rows = csvRows('normalizer/invalidUrls.csv');
    assert.equal(rows.length, 2);
    for (const [input = ''] of rows) assert.equal(normalizeUrl(input), null, input);
  });

  it('resolves like RFC 3986 / WHATWG on url-resolve.csv', () => {
    const rows = csvRows('url-utils/url-resolve.csv');
    assert.ok(rows.length >= 20);
    let checked = 0;
    for (const [input = '', base = '', expected = ''] of rows) {
      const expectedUrl = new URL(expected);
      if (expectedUrl.protocol !== 'http:' && expectedUrl.protocol !== 'https:') continue;
      assert.equal(normalizeUrl(input, base || undefined), normalizeUrl(expected), `${input} against ${base}`);
      checked++;
    }
    assert.ok(checked >= 20);
  });

  it('agrees with the WHATWG parser on the wpt URL test data (no hand-rolled joining)', () => {
    type Case = { input: string; base: string | null; href?: string; failure?: boolean };
    const data = (JSON.parse(readFileSync(path.join(fixtures, 'url-utils/wpt-urltestdata.json'), 'utf8')) as unknown[]).filter(
      (entry): entry is Case => typeof entry === 'object' && entry !== null,
    );
    assert.equal(data.length, 888);
    const whatwg = (input: string, base: string | null): URL | null => {
      try {
        return base === null ? new URL(input) : new URL(input, base);
      } catch {
        return null;
      }
    };
    let httpCases = 0;
    for (const { input, base, failure } of data) {
      const result = normalizeUrl(input, base ?? undefined);
      const reference = whatwg(input, base);
      if (reference === null || (reference.protocol !== 'http:' && reference.protocol !== 'https:')) {
        assert.equal(result, null, `${JSON.stringify(input)} against ${base}`);
        continue;
      }
      if (failure) continue; // the data is newer than this Node's parser; we follow the parser
      // The same resource as the WHATWG answer, in our canonical form.
      assert.equal(result, normalizeUrl(reference.href), `${JSON.stringify(input)} against ${base}`);
      httpCases++;
    }
    assert.ok(httpCases >= 230, `${httpCases} http(s) cases`);
  });
});

describe('isSameSite', () => {
  it('scopes to the host, treating www and the bare domain as one site', () => {
    assert.equal(isSameSite('https://example.com/a', 'https://example.com/'), true);
    assert.equal(isSameSite('https://www.example.com/a', 'https://example.com/'), true);
    assert.equal(isSameSite('https://example.com/a', 'https://www.example.com/'), true);
    assert.equal(isSameSite('http://example.com/a', 'https://example.com/'), true);
    assert.equal(isSameSite('https://docs.example.com/a', 'https://example.com/'), false);
    assert.equal(isSameSite('https://example.com.evil.test/a', 'https://example.com/'), false);
    assert.equal(isSameSite('https://example.com:8080/a', 'https://example.com/'), false);
    assert.equal(isSameSite('mailto:a@example.com', 'https://example.com/'), false);
  });

  it('scopes to the seed directory when the seed is below the root', () => {
    assert.equal(seedPathPrefix('https://h.test/docs/intro'), '/docs/');
    assert.equal(seedPathPrefix('https://h.test/docs/'), '/docs/');
    assert.equal(seedPathPrefix('https://h.test/'), '/');
    assert.equal(seedPathPrefix('https://h.test/index.html'), '/');
    assert.equal(isSameSite('https://h.test/docs/guide/x', 'https://h.test/docs/intro'), true);
    assert.equal(isSameSite('https://h.test/docs', 'https://h.test/docs/intro'), true);
    assert.equal(isSameSite('https://h.test/docs-old/x', 'https://h.test/docs/intro'), false);
    assert.equal(isSameSite('https://h.test/blog/x', 'https://h.test/docs/'), false);
    assert.equal(isSameSite('https://h.test/blog/x', 'https://h.test/'), true);
    assert.equal(isSameSite('https://h.test/docs/%7Ea', 'https://h.test/docs/'), true);
  });
});

describe('looksLikeAsset', () => {
  it('skips images, styles, scripts, fonts, media and archives', () => {
    for (const url of ['https://h.test/logo.PNG', 'https://h.test/a/app.js?v=3', 'https://h.test/site.css', 'https://h.test/f.woff2', 'https://h.test/v.mp4', 'https://h.test/dl.zip', 'https://h.test/feed.xml', 'https://h.test/i.svg']) {
      assert.equal(looksLikeAsset(url), true, url);
    }
  });
  it('keeps pages and ingestible documents', () => {
    for (const url of ['https://h.test/', 'https://h.test/docs/intro', 'https://h.test/page.html', 'https://h.test/guide.pdf', 'https://h.test/spec.docx', 'https://h.test/notes.md', 'https://h.test/readme.txt', 'https://h.test/page.php?img=a.png', 'https://h.test/v1.2/', 'https://h.test/.well-known']) {
      assert.equal(looksLikeAsset(url), false, url);
    }
  });
});
