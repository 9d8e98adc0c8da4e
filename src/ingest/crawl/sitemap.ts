// Sitemap parsing: sitemaps.org urlset and sitemap index, RSS 2.0, Atom, plain text, gzip.
//
// A lenient, linear-time tag scanner rather than a validating XML parser, because real sitemaps
// break the rules: a wrong namespace, `<sitemap>` entries with a bare URL and no `<loc>`,
// whitespace around URLs, BOMs. Only element local names matter; `<image:loc>` and other extension
// elements are skipped by requiring `<loc>` to carry the same prefix as the root element (so a
// urlset in a wrong namespace still yields its URLs). Parsing never fetches anything.
import { gunzipSync } from 'node:zlib';
import { normalizeUrl } from './url.js';

export interface ParsedSitemap {
  /** Page URLs, normalised, de-duplicated, in document order. */
  urls: string[];
  /** Child sitemaps of a sitemap index, normalised, de-duplicated. */
  sitemaps: string[];
}

/** sitemaps.org limits: 50,000 URLs and 50 MB (uncompressed) per file. */
export const MAX_SITEMAP_URLS = 50_000;
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Gunzips when the gzip magic bytes are present (whatever the Content-Type or file name said). */
function toText(body: Uint8Array | string): string {
  if (typeof body === 'string') return body.slice(0, MAX_SITEMAP_BYTES);
  let bytes = body;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: MAX_SITEMAP_BYTES });
    } catch {
      return ''; // corrupt or larger than the limit: nothing trustworthy in it
    }
  }
  return new TextDecoder('utf-8').decode(bytes.subarray(0, MAX_SITEMAP_BYTES));
}

type Token =
  | { kind: 'open'; prefix: string | null; name: string; attributes: string; selfClosing: boolean }
  | { kind: 'close'; prefix: string | null; name: string }
  | { kind: 'text'; text: string };

/**
 * Splits XML into tags and text in one pass (no regex backtracking, so an unclosed element or
 * CDATA section cannot make the work quadratic). Comments, processing instructions and doctypes
 * are dropped; CDATA becomes text; entities in text are decoded.
 */
function* tokens(xml: string): Generator<Token> {
  let i = 0;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const textEnd = lt < 0 ? xml.length : lt;
    if (textEnd > i) yield { kind: 'text', text: decodeEntities(xml.slice(i, textEnd)) };
    if (lt < 0) return;
    if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt + 9);
      yield { kind: 'text', text: xml.slice(lt + 9, end < 0 ? xml.length : end) };
      i = end < 0 ? xml.length : end + 3;
      continue;
    }
    const closer = xml.startsWith('<!--', lt) ? '-->' : '>';
    const end = xml.indexOf(closer, lt + 1);
    if (end < 0) return;
    i = end + closer.length;
    const tag = xml.slice(lt + 1, end);
    const match = /^(\/?)(?:([\w.-]+):)?([\w.-]+)/.exec(tag);
    if (!match) continue; // comment, <?xml?>, <!DOCTYPE>
    const prefix = match[2] ?? null;
    const name = (match[3] ?? '').toLowerCase();
    if (match[1]) yield { kind: 'close', prefix, name };
    else yield { kind: 'open', prefix, name, attributes: tag.slice(match[0].length), selfClosing: tag.endsWith('/') };
  }
}

function attribute(attributes: string, name: string): string | null {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i').exec(attributes);
  return match ? decodeEntities(match[1] ?? match[2] ?? '') : null;
}

class Collector {
  private readonly seen = new Set<string>();
  readonly list: string[] = [];
  constructor(private readonly base: string) {}
  add(raw: string | null): void {
    if (raw === null || this.list.length >= MAX_SITEMAP_URLS) return;
    const url = normalizeUrl(raw.trim(), this.base);
    if (url === null || this.seen.has(url)) return;
    this.seen.add(url);
    this.list.push(url);
  }
}

/** Parses a sitemap, sitemap index, feed or text sitemap into page URLs and child sitemaps. */
export function parseSitemap(body: Uint8Array | string, sitemapUrl: string): ParsedSitemap {
  const text = toText(body).replace(/^\uFEFF/, '');
  const urls = new Collector(sitemapUrl);
  const sitemaps = new Collector(sitemapUrl);
  if (text.trimStart().startsWith('<')) parseXml(text, urls, sitemaps);
  else parseTextSitemap(text, urls);
  return { urls: urls.list, sitemaps: sitemaps.list };
}

/** One URL per line (sitemaps.org text format); lines that are not http(s) URLs are skipped. */
function parseTextSitemap(text: string, urls: Collector): void {
  for (const line of text.split(/\r\n|\r|\n/)) {
    const candidate = line.trim();
    if (/^https?:\/\//i.test(candidate)) urls.add(candidate);
  }
}

/**
 * Walks the tokens with a stack of open elements. Which element's text is a URL depends on the
 * root: `urlset` → `url/loc`; `sitemapindex` → `sitemap/loc`, or the bare text of `sitemap`;
 * `rss`/`rdf` → `item/link`; Atom `feed` → `entry/link[@href]` without rel or rel="alternate".
 */
function parseXml(xml: string, urls: Collector, sitemaps: Collector): void {
  const stack: { prefix: string | null; name: string }[] = [];
  let root: { prefix: string | null; name: string } | null = null;
  let buffer: string | null = null; // text of the element being captured
  let entryText = ''; // bare text directly inside an index <sitemap>
  let entryLoc: string | null = null;

  const parent = (): string | undefined => stack[stack.length - 2]?.name;
  for (const token of tokens(xml)) {
    if (token.kind === 'text') {
      if (buffer !== null) buffer += token.text;
      else if (root?.name === 'sitemapindex' && stack[stack.length - 1]?.name === 'sitemap') entryText += token.text;
      continue;
    }
    if (token.kind === 'open') {
      root ??= { prefix: token.prefix, name: token.name };
      if (root.name === 'feed' && token.name === 'link' && stack.some((e) => e.name === 'entry')) {
        const rel = attribute(token.attributes, 'rel');
        if (rel === null || rel.toLowerCase() === 'alternate') urls.add(attribute(token.attributes, 'href'));
      }
      if (token.selfClosing) continue;
      stack.push({ prefix: token.prefix, name: token.name });
      if (isCaptured(root, token, parent())) buffer = '';
      if (token.name === 'sitemap') {
        entryText = '';
        entryLoc = null;
      }
      continue;
    }
    // A close tag: pop up to the matching open element (tolerates unclosed children).
    const index = stack.map((e) => e.name).lastIndexOf(token.name);
    if (index < 0) continue;
    const closed = stack[index] as { prefix: string | null; name: string };
    const closedParent = stack[index - 1]?.name;
    stack.length = index;
    if (root === null) continue;
    if (buffer !== null && isCaptured(root, closed, closedParent)) {
      if (root.name === 'sitemapindex') entryLoc = buffer;
      else urls.add(buffer);
      buffer = null;
    }
    if (root.name === 'sitemapindex' && closed.name === 'sitemap') {
      const bare = entryText.trim();
      sitemaps.add(entryLoc ?? (/^https?:\/\/\S+$/i.test(bare) ? bare : null));
    }
  }
}

/** Whether the text of this element is a URL to collect, given the document's root. */
function isCaptured(root: { prefix: string | null; name: string }, element: { prefix: string | null; name: string }, parentName: string | undefined): boolean {
  switch (root.name) {
    case 'urlset':
      return element.name === 'loc' && element.prefix === root.prefix && parentName === 'url';
    case 'sitemapindex':
      return element.name === 'loc' && element.prefix === root.prefix && parentName === 'sitemap';
    case 'rss':
    case 'rdf':
      return element.name === 'link' && element.prefix === null && parentName === 'item';
    default:
      return false;
  }
}
