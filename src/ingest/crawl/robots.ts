// robots.txt per RFC 9309, written here rather than taken from robots-parser because the RFC's
// group rules (an empty group does not fall back to `*`, repeated groups merge, other records do
// not end a group) and its fetch-status rules are exactly what the crawler must obey.
import { canonicalPercentEncoding } from './url.js';
import type { SafeFetch } from '../fetch/safe-fetch.js';
import { FetchError } from '../fetch/safe-fetch.js';

interface Rule {
  allow: boolean;
  /** Canonically percent-encoded path pattern, may contain `*` and a trailing `$`. */
  pattern: string;
}

interface Group {
  agents: string[];
  rules: Rule[];
  crawlDelay: number | null;
}

export interface RobotsRules {
  /** Whether `userAgent` may fetch `url` (full URL or path). */
  isAllowed(url: string, userAgent: string): boolean;
  /** The Crawl-delay of the group that applies to `userAgent`, in seconds. */
  crawlDelaySeconds(userAgent: string): number | null;
  /** Sitemap URLs, absolute, de-duplicated, in file order. */
  readonly sitemaps: string[];
  /** Set when robots.txt could not be read (5xx, network): why everything is disallowed for now. */
  readonly unreachable?: string;
}

/** RFC 9309 §2.5: parsers must read at least 500 KiB; we stop there. */
const MAX_ROBOTS_CHARS = 512 * 1024;

/** Key spellings Google's reference parser accepts, so site owners' typos mean what they meant. */
const USER_AGENT_KEYS = new Set(['user-agent', 'useragent', 'user agent']);
const DISALLOW_KEYS = new Set(['disallow', 'dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw']);
const SITEMAP_KEYS = new Set(['sitemap', 'site-map']);
const CRAWL_DELAY_KEYS = new Set(['crawl-delay', 'crawldelay']);

/**
 * Decodes robots.txt bytes: UTF-8 by default (RFC 9309 §2.3), UTF-16 when a BOM says so, and the
 * UTF-8 BOM dropped.
 */
export function decodeRobots(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  return new TextDecoder('utf-8', { ignoreBOM: false }).decode(bytes);
}

/** Splits `key: value` (or `key value` without colon, as Google accepts) after removing comments. */
function splitLine(line: string): { key: string; value: string } | null {
  const hash = line.indexOf('#');
  const text = (hash >= 0 ? line.slice(0, hash) : line).trim();
  if (text === '') return null;
  const colon = text.indexOf(':');
  if (colon >= 0) return { key: text.slice(0, colon).trim().toLowerCase(), value: text.slice(colon + 1).trim() };
  const space = text.search(/\s/);
  if (space < 0) return null;
  return { key: text.slice(0, space).toLowerCase(), value: text.slice(space).trim() };
}

/** The product token of a User-agent line or of our own UA string: up to the first `/` or space. */
export function productToken(userAgent: string): string {
  return (userAgent.trim().split(/[\s/]/)[0] ?? '').toLowerCase();
}

function resolveSitemap(value: string, robotsUrl: string): string | null {
  try {
    const url = new URL(value, robotsUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Parses robots.txt text into groups; never throws. */
export function parseRobots(text: string, robotsUrl: string): RobotsRules {
  const groups: Group[] = [];
  const sitemaps = new Set<string>();
  let current: Group | null = null;
  // A User-agent line after a rule starts a new group; consecutive User-agent lines (even with
  // other records such as Crawl-delay between them, §2.2.4) share one group.
  let sawRule = true;

  const body = text.replace(/^\uFEFF/, '').slice(0, MAX_ROBOTS_CHARS);
  for (const line of body.split(/\r\n|\r|\n/)) {
    const entry = splitLine(line);
    if (entry === null) continue;
    const { key, value } = entry;
    if (USER_AGENT_KEYS.has(key)) {
      if (sawRule || current === null) {
        current = { agents: [], rules: [], crawlDelay: null };
        groups.push(current);
        sawRule = false;
      }
      const token = value === '*' ? '*' : productToken(value);
      if (token !== '') current.agents.push(token);
    } else if (key === 'allow' || DISALLOW_KEYS.has(key)) {
      if (current === null) continue; // rules before any User-agent line belong to no group
      sawRule = true;
      if (value !== '') current.rules.push({ allow: key === 'allow', pattern: canonicalPattern(value) });
    } else if (SITEMAP_KEYS.has(key)) {
      const url = resolveSitemap(value, robotsUrl);
      if (url !== null) sitemaps.add(url);
    } else if (CRAWL_DELAY_KEYS.has(key)) {
      const seconds = Number(value);
      if (current !== null && Number.isFinite(seconds) && seconds >= 0) {
        current.crawlDelay = Math.max(current.crawlDelay ?? 0, seconds);
      }
    }
    // Other records (Host, Request-rate, Clean-param, ...) are ignored and do not end a group.
  }
  return new ParsedRobots(groups, [...sitemaps]);
}

/** Patterns are compared in the same percent-encoding as paths (RFC 9309 §2.2.2). */
function canonicalPattern(value: string): string {
  const path = value.startsWith('/') || value.startsWith('*') ? value : `/${value}`;
  return canonicalPercentEncoding(path);
}

class ParsedRobots implements RobotsRules {
  constructor(
    private readonly groups: Group[],
    readonly sitemaps: string[],
  ) {}

  /** Rules of every group naming our product token, merged; else of every `*` group; else none. */
  private select(userAgent: string): { rules: Rule[]; crawlDelay: number | null } | null {
    const token = productToken(userAgent);
    let matched = this.groups.filter((group) => group.agents.includes(token));
    if (matched.length === 0) matched = this.groups.filter((group) => group.agents.includes('*'));
    if (matched.length === 0) return null;
    const delays = matched.map((group) => group.crawlDelay).filter((delay): delay is number => delay !== null);
    return { rules: matched.flatMap((group) => group.rules), crawlDelay: delays.length > 0 ? Math.max(...delays) : null };
  }

  isAllowed(url: string, userAgent: string): boolean {
    const path = pathOf(url);
    if (path === '/robots.txt') return true;
    const group = this.select(userAgent);
    if (group === null) return true;
    let best: Rule | null = null;
    for (const rule of group.rules) {
      if (!matchesPattern(rule.pattern, path)) continue;
      if (best === null || rule.pattern.length > best.pattern.length || (rule.pattern.length === best.pattern.length && rule.allow)) {
        best = rule;
      }
    }
    return best === null || best.allow;
  }

  crawlDelaySeconds(userAgent: string): number | null {
    return this.select(userAgent)?.crawlDelay ?? null;
  }
}

/** Path and query of a URL (or of a path given directly), canonically percent-encoded. */
function pathOf(url: string): string {
  let target = url;
  try {
    const parsed = new URL(url, 'http://robots.invalid');
    target = `${parsed.pathname}${parsed.search}`;
  } catch {
    // keep the raw text
  }
  return canonicalPercentEncoding(target || '/');
}

/**
 * Whether `pattern` (with `*` = any sequence, trailing `$` = end) matches a prefix of `path`.
 * Tracks the set of reachable positions, so the cost is O(pattern × path) without backtracking.
 */
export function matchesPattern(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  let positions: number[] = [0];
  for (let i = 0; i < body.length && positions.length > 0; i++) {
    const char = body[i];
    if (char === '*') {
      const first = positions[0] as number;
      positions = [];
      for (let p = first; p <= path.length; p++) positions.push(p);
      continue;
    }
    const next: number[] = [];
    for (const p of positions) if (path[p] === char) next.push(p + 1);
    positions = next;
  }
  if (positions.length === 0) return false;
  return anchored ? positions.includes(path.length) : true;
}

const ALLOW_ALL: RobotsRules = { isAllowed: () => true, crawlDelaySeconds: () => null, sitemaps: [] };
const DISALLOW_ALL: RobotsRules = {
  isAllowed: (url: string) => pathOf(url) === '/robots.txt',
  crawlDelaySeconds: () => null,
  sitemaps: [],
};

/**
 * RFC 9309 §2.3.1: a 2xx robots.txt is obeyed; 4xx (401 and 403 included) and a redirect that
 * could not be followed mean there are no rules; 5xx or no answer at all (status null) means the
 * site is unreachable and nothing may be crawled.
 */
export function robotsFromResponse(status: number | null, body: Uint8Array | string | null, robotsUrl = 'http://robots.invalid/robots.txt'): RobotsRules {
  if (status === null || status >= 500 || status < 200) return DISALLOW_ALL;
  // A 3xx that reaches us is a redirect that could not be followed: "unavailable", like a 4xx.
  if (status >= 300) return ALLOW_ALL;
  const text = body === null ? '' : typeof body === 'string' ? body : decodeRobots(body);
  return parseRobots(text, robotsUrl);
}

export interface RobotsDecision {
  allowed: boolean;
  crawlDelaySeconds: number | null;
  sitemaps: string[];
  /** Why the origin is closed for now when robots.txt could not be read (retry later), else null. */
  unreachable: string | null;
}

export interface RobotsCacheOptions {
  /** How long a fetched robots.txt is trusted; default one hour. */
  ttlMs?: number;
  /** How long an unreachable robots.txt blocks the site before we ask again; default one minute. */
  failureTtlMs?: number;
  now?: () => number;
}

interface CacheEntry {
  rules: Promise<RobotsRules>;
  expiresAt: number;
}

/** Fetch failures that mean the origin cannot be fetched at all, whatever robots.txt says. */
const REFUSED = new Set(['blocked_address', 'invalid_url']);

/** robots.txt per origin with a TTL; concurrent checks for one origin share a single fetch. */
export class RobotsCache {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly ttlMs: number;
  private readonly failureTtlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly fetch: SafeFetch,
    private readonly userAgent: string,
    options: RobotsCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 60 * 60 * 1000;
    this.failureTtlMs = options.failureTtlMs ?? 60 * 1000;
    this.now = options.now ?? Date.now;
  }

  async check(url: string): Promise<RobotsDecision> {
    const origin = new URL(url).origin;
    const rules = await this.rulesFor(origin);
    return {
      allowed: rules.isAllowed(url, this.userAgent),
      crawlDelaySeconds: rules.crawlDelaySeconds(this.userAgent),
      sitemaps: rules.sitemaps,
      unreachable: rules.unreachable ?? null,
    };
  }

  /** Drops what is cached for the origin of `url`, so the next check reads robots.txt again. */
  forget(url: string): void {
    this.entries.delete(new URL(url).origin);
  }

  private rulesFor(origin: string): Promise<RobotsRules> {
    const cached = this.entries.get(origin);
    if (cached && cached.expiresAt > this.now()) return cached.rules;
    // Until the answer is in, the entry never expires, so concurrent callers share the pending fetch.
    const entry: CacheEntry = { rules: Promise.resolve(ALLOW_ALL), expiresAt: Infinity };
    entry.rules = this.load(origin, (ttlMs) => {
      entry.expiresAt = this.now() + ttlMs;
    });
    this.entries.set(origin, entry);
    return entry.rules;
  }

  private async load(origin: string, setTtl: (ttlMs: number) => void): Promise<RobotsRules> {
    const robotsUrl = `${origin}/robots.txt`;
    try {
      const response = await this.fetch({ url: robotsUrl, headers: { accept: 'text/plain,*/*;q=0.5' } });
      if (response.status >= 500) {
        setTtl(this.failureTtlMs);
        return { ...DISALLOW_ALL, unreachable: `${robotsUrl} answered HTTP ${response.status}` };
      }
      setTtl(this.ttlMs);
      return robotsFromResponse(response.status, response.body, response.url);
    } catch (error) {
      setTtl(this.failureTtlMs);
      // §2.3.1.2: more than five redirects may be treated as "unavailable" (a 4xx): allow.
      if (error instanceof FetchError && error.kind === 'too_many_redirects') return ALLOW_ALL;
      // A host Parley may not fetch at all (a private address, a bad URL) is not a robots.txt
      // question: the caller reports the fetch error itself.
      if (error instanceof FetchError && REFUSED.has(error.kind)) throw error;
      return { ...DISALLOW_ALL, unreachable: error instanceof Error ? error.message : String(error) };
    }
  }
}
