// Link extraction for the crawler: a single linear pass over the markup that only looks at tag
// starts, so deeply nested or malformed pages (the 25 KB nested spider trap) cost no more than
// their length. A DOM is not needed to find `<a href>` and `<base href>`.
import { decodeText } from '../extract/index.js';
import { normalizeUrl } from './url.js';

/** Stop scanning after this much markup; links beyond it are rare and the crawl is bounded anyway. */
export const MAX_SCANNED_CHARS = 2 * 1024 * 1024;
/** At most this many distinct links per page. */
export const MAX_LINKS_PER_PAGE = 5_000;

/** Elements whose content is not markup: skipped wholesale so `"<a href=...>"` in a script is ignored. */
const RAW_TEXT_ELEMENTS = new Set(['script', 'style', 'textarea', 'template', 'noscript', 'xmp']);
const LINK_ELEMENTS = new Set(['a', 'area']);

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);?/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Index of the `>` that ends the tag starting at `start`, honouring quoted attribute values. */
function tagEnd(html: string, start: number): number {
  let quote: string | null = null;
  for (let i = start; i < html.length; i++) {
    const char = html[i];
    if (quote !== null) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '>') {
      return i;
    }
  }
  return -1;
}

function hrefOf(tag: string): string | null {
  const match = /(?:^|[\s"'/])href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(tag);
  if (!match) return null;
  return decodeAttribute(match[1] ?? match[2] ?? match[3] ?? '').trim();
}

/** A fetched HTML page whose links the crawl follows (plain data: it may be sent to a worker thread). */
export interface LinkScan {
  body: Uint8Array;
  charset: string | null;
  /** The page's URL after redirects, which relative links resolve against. */
  url: string;
}

/** The links of a fetched page: decode, then scan (what a CPU pool thread runs for the crawl). */
export function scanPageLinks(page: LinkScan): string[] {
  return extractLinks(decodeHtml(page.body, page.charset), page.url);
}

/** Decodes (the scanned start of) a page body for link scanning. */
export function decodeHtml(body: Uint8Array, charset: string | null): string {
  // The extractors' decoder: BOM, then the header charset, then <meta charset>, else UTF-8.
  return decodeText(body.subarray(0, MAX_SCANNED_CHARS), charset, 'html');
}

/**
 * Absolute, normalised http(s) URLs of the `<a href>` and `<area href>` links of a page, resolved
 * against its `<base href>` when it has one. De-duplicated, in document order, bounded.
 */
export function extractLinks(html: string, pageUrl: string): string[] {
  const text = html.length > MAX_SCANNED_CHARS ? html.slice(0, MAX_SCANNED_CHARS) : html;
  const links = new Set<string>();
  let base = pageUrl;
  let sawBase = false;
  let i = 0;
  while (i < text.length && links.size < MAX_LINKS_PER_PAGE) {
    const lt = text.indexOf('<', i);
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      i = end < 0 ? text.length : end + 3;
      continue;
    }
    const nameMatch = /^<([a-zA-Z][a-zA-Z0-9-]*)/.exec(text.slice(lt, lt + 32));
    if (!nameMatch) {
      i = lt + 1;
      continue;
    }
    const name = (nameMatch[1] as string).toLowerCase();
    const end = tagEnd(text, lt + nameMatch[0].length);
    if (end < 0) break;
    const tag = text.slice(lt + nameMatch[0].length, end);
    i = end + 1;
    if (RAW_TEXT_ELEMENTS.has(name)) {
      const closer = new RegExp(`</${name}`, 'gi');
      closer.lastIndex = i;
      i = closer.exec(text)?.index ?? text.length;
      continue;
    }
    if (name === 'base' && !sawBase) {
      // Only the first <base href> counts (HTML: "the first base element with an href").
      const href = hrefOf(tag);
      const resolved = href === null ? null : normalizeUrl(href, pageUrl);
      if (resolved !== null) {
        base = resolved;
        sawBase = true;
      }
      continue;
    }
    if (!LINK_ELEMENTS.has(name)) continue;
    const href = hrefOf(tag);
    if (href === null || href === '' || href.startsWith('#')) continue;
    const url = normalizeUrl(href, base);
    if (url !== null) links.add(url);
  }
  return [...links];
}
