// URL normalisation and site scoping for the crawler.
//
// Resolution is always WHATWG (`new URL(input, base)`), never hand-rolled joining; on top of it we
// apply the RFC 3986 equivalences that make a good de-duplication key without changing what a
// server would see: percent-escape hex in upper case, unreserved characters decoded, characters
// RFC 3986 does not allow in a path or query percent-encoded, no fragment, no empty `?`, no trailing
// dot on the host. We deliberately do NOT sort or drop query parameters and do NOT collapse `//` in
// paths: both can change which resource a server returns.

const HEX = '0123456789ABCDEF';

/** RFC 3986 `unreserved`: safe to decode wherever they appear. */
function isUnreserved(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x61 && code <= 0x7a) || // a-z
    (code >= 0x30 && code <= 0x39) || // 0-9
    code === 0x2d || // -
    code === 0x2e || // .
    code === 0x5f || // _
    code === 0x7e // ~
  );
}

/** Characters allowed literally in an RFC 3986 path or query (pchar / "/" / "?", plus "%"). */
const ALLOWED_LITERAL = new Set("!$&'()*+,;=:@/?%-._~".split(''));

function isHexDigit(char: string | undefined): boolean {
  return char !== undefined && /^[0-9A-Fa-f]$/.test(char);
}

function percentEncodeByte(byte: number): string {
  return `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
}

/**
 * Canonical percent-encoding of a path or query string: `%xx` escapes in upper case, escapes of
 * unreserved characters decoded, a `%` that starts no valid escape encoded as `%25`, and every
 * character RFC 3986 does not allow literally (space, `"<>[]\^`{|}`, controls, non-ASCII as UTF-8)
 * encoded. Shared with the robots.txt matcher, which needs the same equivalence (RFC 9309 §2.2.2).
 */
export function canonicalPercentEncoding(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (char === '%') {
      const a = text[i + 1];
      const b = text[i + 2];
      if (isHexDigit(a) && isHexDigit(b)) {
        const code = parseInt(`${a}${b}`, 16);
        out += isUnreserved(code) ? String.fromCharCode(code) : `%${(a as string).toUpperCase()}${(b as string).toUpperCase()}`;
        i += 2;
      } else {
        out += '%25';
      }
      continue;
    }
    const code = char.charCodeAt(0);
    if (code > 0x20 && code < 0x7f && (isUnreserved(code) || ALLOWED_LITERAL.has(char))) {
      out += char;
      continue;
    }
    // Encode the whole code point (surrogate pairs included) as UTF-8.
    const codePoint = text.codePointAt(i) as number;
    const literal = String.fromCodePoint(codePoint);
    i += literal.length - 1;
    for (const byte of Buffer.from(literal, 'utf8')) out += percentEncodeByte(byte);
  }
  return out;
}

function parseHttpUrl(input: string, base?: string): URL | null {
  let url: URL;
  try {
    // No String#trim: the URL parser strips exactly C0 controls and spaces, and other Unicode
    // whitespace must stay significant to agree with it.
    url = base === undefined ? new URL(input) : new URL(input, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.hostname === '') return null;
  return url;
}

/**
 * The crawler's URL identity: WHATWG-resolved, http(s) only, canonical percent-encoding, no
 * fragment, no default port, no empty query. Returns null for anything that is not a fetchable
 * http(s) URL (relative input without base, other schemes, invalid hosts).
 */
export function normalizeUrl(input: string, base?: string): string | null {
  const url = parseHttpUrl(input, base);
  if (url === null) return null;
  url.hash = '';
  // "www.example.org." and "www.example.org" are the same DNS name.
  if (url.hostname.endsWith('.') && !url.hostname.startsWith('[')) url.hostname = url.hostname.slice(0, -1);
  if (url.hostname === '') return null;
  const path = canonicalPercentEncoding(url.pathname);
  const query = url.search.length > 1 ? `?${canonicalPercentEncoding(url.search.slice(1))}` : '';
  return `${url.protocol}//${authority(url)}${path}${query}`;
}

function authority(url: URL): string {
  const credentials = url.username || url.password ? `${url.username}${url.password ? `:${url.password}` : ''}@` : '';
  return `${credentials}${url.host}`;
}

/** Host without a leading `www.`, so that `www.example.com` and `example.com` count as one site. */
function siteHost(hostname: string): string {
  return hostname.startsWith('www.') ? hostname.slice(4) : hostname;
}

/**
 * The directory a seed scopes the crawl to: `/docs/intro` → `/docs/`, `/docs/` → `/docs/`,
 * `/` or `/index.html` → `/` (no restriction).
 */
export function seedPathPrefix(seed: string): string {
  const url = parseHttpUrl(seed);
  if (url === null) return '/';
  const path = url.pathname;
  return path.slice(0, path.lastIndexOf('/') + 1) || '/';
}

/**
 * Whether `url` belongs to the site a crawl from `seed` may visit: the same host (a leading `www.`
 * is ignored on both sides, ports must agree, http and https are interchangeable) and, when the
 * seed points below the root, a path inside the seed's directory.
 */
export function isSameSite(url: string, seed: string): boolean {
  const target = parseHttpUrl(url);
  const origin = parseHttpUrl(seed);
  if (target === null || origin === null) return false;
  if (siteHost(target.hostname) !== siteHost(origin.hostname)) return false;
  if (target.port !== origin.port) return false;
  const prefix = seedPathPrefix(seed);
  if (prefix === '/') return true;
  const path = canonicalPercentEncoding(target.pathname);
  // The directory itself without its trailing slash (`/docs`) is part of the section too.
  return path.startsWith(prefix) || path === prefix.slice(0, -1);
}

/**
 * File extensions that never hold a page worth ingesting. PDF, Office documents, plain text and
 * Markdown are NOT here: the extractors ingest them. Matched on the last path segment only.
 */
const ASSET_EXTENSIONS = new Set([
  // images
  'png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'svg', 'ico', 'bmp', 'tif', 'tiff', 'heic',
  // styles, scripts, data for scripts
  'css', 'js', 'mjs', 'cjs', 'map', 'json', 'wasm',
  // fonts
  'woff', 'woff2', 'ttf', 'otf', 'eot',
  // audio and video
  'mp3', 'wav', 'ogg', 'oga', 'flac', 'aac', 'm4a', 'mp4', 'm4v', 'webm', 'mov', 'avi', 'mkv', 'wmv', 'flv',
  // archives and binaries
  'zip', 'gz', 'tgz', 'bz2', 'xz', '7z', 'rar', 'tar', 'dmg', 'iso', 'exe', 'msi', 'deb', 'rpm', 'apk', 'bin', 'jar',
  // feeds and machine-readable listings (read by the sitemap parser, not as pages)
  'xml', 'rss', 'atom',
]);

/** True when the URL's file extension says it is an image, script, font, media file or archive. */
export function looksLikeAsset(url: string): boolean {
  const parsed = parseHttpUrl(url);
  if (parsed === null) return false;
  const segment = parsed.pathname.slice(parsed.pathname.lastIndexOf('/') + 1);
  const dot = segment.lastIndexOf('.');
  if (dot <= 0) return false;
  return ASSET_EXTENSIONS.has(segment.slice(dot + 1).toLowerCase());
}
