// The site crawler behind "deep crawl": discovers same-site page URLs from a few seeds, reading
// robots.txt and sitemaps first and then walking links breadth-first. It lists URLs, it does not
// ingest them; every page it lists answered 200 with a type the extractors can read.
//
// Bounds, all of which end the crawl with what was found so far: `limit` listed URLs, `maxDepth`
// link hops from a seed, `timeBudgetMs`, 5 × limit pages fetched, a bounded frontier and a bounded
// number of sitemap documents. Failures of single pages are counted, never thrown.
import { createHash } from 'node:crypto';
import { detectContentKind } from '../extract/index.js';
import { FetchError, type SafeFetch } from '../fetch/safe-fetch.js';
import { compileFilters } from './filters.js';
import type { Filter } from './filters.js';
import { HostLimiter, type HostPoliteness } from './host-limiter.js';
import { type LinkScan, scanPageLinks } from './links.js';
import { RobotsCache } from './robots.js';
import { parseSitemap } from './sitemap.js';
import { isSameSite, looksLikeAsset, normalizeUrl } from './url.js';

export { compileGlob } from './filters.js';
export { HostLimiter } from './host-limiter.js';
export type { HostLimiterOptions, HostPoliteness } from './host-limiter.js';

export interface CrawlOptions {
  seeds: string[];
  limit: number;
  /** Link hops from a seed; sitemap-listed URLs count as one hop. Default 3. */
  maxDepth?: number;
  /**
   * Globs on the URL path+query (`*` any chars but `/`, `**` any chars, `?` one char); a pattern
   * starting with `http` matches the whole URL. `include` filters what is returned only; `exclude`
   * also keeps matching pages from being fetched.
   */
  include?: string[];
  exclude?: string[];
  /** Default 60 s. */
  timeBudgetMs?: number;
  /** Pages fetched at once, over all hosts. Default 4. */
  concurrency?: number;
  /** Minimum spacing between requests to one host; a robots.txt Crawl-delay (≤ 5 s) raises it. */
  perHostDelayMs?: number;
  userAgent: string;
  fetch: SafeFetch;
  /** Shared robots.txt cache; one is made for this crawl when absent. */
  robots?: RobotsCache;
  /** Shared per-host limiter (so crawls and ingestion jobs are polite together). */
  limiter?: HostPoliteness;
  /** Scans a page for links off the event loop (the CPU pool); inline when absent. */
  scanLinks?: (page: LinkScan, signal: AbortSignal) => Promise<string[]>;
  signal?: AbortSignal;
}

export interface CrawlStats {
  fetched: number;
  skippedByRobots: number;
  skippedOffSite: number;
  errors: number;
  truncated: boolean;
  timedOut: boolean;
}

export interface CrawlResult {
  urls: string[];
  message: string;
  stats: CrawlStats;
}

const DEFAULT_MAX_DEPTH = 3;
const DEFAULT_TIME_BUDGET_MS = 60_000;
const DEFAULT_CONCURRENCY = 4;
/** Longest robots.txt Crawl-delay honoured (a larger one would stall a crawl or an ingestion). */
export const MAX_CRAWL_DELAY_MS = 5_000;
const FETCHES_PER_LISTED_URL = 5;
const FRONTIER_PER_LISTED_URL = 20;
const MAX_SITEMAP_DOCUMENTS = 25;
const MAX_SITEMAP_NESTING = 3;


interface QueueItem {
  url: string;
  depth: number;
  /** Discovery order: among byte-identical pages the earliest discovered is the one listed. */
  seq: number;
}

interface ContentOwner {
  seq: number;
  url: string;
}

type PageKind = 'html' | 'document' | 'other';

const STOPPED: unique symbol = Symbol('stopped');
/** A page whose origin cannot be fetched at all (see noteRefusal). */
const REFUSED: unique symbol = Symbol('refused');

/** HTML is scanned for links; other types the extractors read are listed; the rest is skipped. */
function pageKind(contentType: string | null, body: Uint8Array): PageKind {
  const kind = detectContentKind({ contentType, body });
  return kind === 'html' ? 'html' : kind === null ? 'other' : 'document';
}

/** One crawl's state; `crawlSite` builds it, runs it and reports. */
class Crawl {
  readonly urls: string[] = [];
  /** The first refused fetch, for the summary. */
  refusal: string | undefined;
  readonly stats: CrawlStats = { fetched: 0, skippedByRobots: 0, skippedOffSite: 0, errors: 0, truncated: false, timedOut: false };
  private readonly queue: QueueItem[] = [];
  private head = 0;
  private readonly seen = new Set<string>();
  private readonly offSite = new Set<string>();
  private readonly contentOwners = new Map<string, ContentOwner>();
  private nextSeq = 0;
  private active = 0;
  private wake: (() => void) | null = null;
  private stopped = false;
  /** Settles when the crawl stops, to abandon waits (robots.txt, host spacing) that ignore the signal. */
  private readonly whenStopped: Promise<typeof STOPPED>;
  private resolveStopped: () => void = () => undefined;
  private readonly include: Filter | null;
  private readonly exclude: Filter | null;
  private readonly robots: RobotsCache;
  private readonly limiter: HostPoliteness;
  readonly controller = new AbortController();

  constructor(
    private readonly options: CrawlOptions,
    private readonly seeds: string[],
    private readonly maxDepth: number,
  ) {
    this.include = compileFilters(options.include);
    this.exclude = compileFilters(options.exclude);
    this.robots = options.robots ?? new RobotsCache(options.fetch, options.userAgent);
    const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.limiter = options.limiter ?? new HostLimiter({ perHost: concurrency, delayMs: options.perHostDelayMs ?? 0 });
    this.whenStopped = new Promise((resolve) => {
      this.resolveStopped = () => resolve(STOPPED);
    });
  }

  /** Awaits `promise` unless the crawl stops first (then STOPPED). Rejections pass through. */
  private untilStopped<T>(promise: Promise<T>): Promise<T | typeof STOPPED> {
    return Promise.race([promise, this.whenStopped]);
  }

  private get maxFetches(): number {
    return this.options.limit * FETCHES_PER_LISTED_URL;
  }

  /** Stops scheduling and cancels requests in flight. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.controller.abort();
    this.resolveStopped();
    this.notify();
  }

  async run(): Promise<void> {
    for (const seed of this.seeds) this.enqueue(seed, 0, true);
    await this.discoverSitemaps();
    const concurrency = Math.max(1, this.options.concurrency ?? DEFAULT_CONCURRENCY);
    await Promise.all(Array.from({ length: concurrency }, () => this.worker()));
  }

  /** Queues a URL unless it was seen, is off-site, an asset or excluded. Seeds skip the filters. */
  private enqueue(url: string, depth: number, isSeed = false): void {
    if (this.seen.has(url) || depth > this.maxDepth) return;
    if (!isSeed) {
      if (!this.seeds.some((seed) => isSameSite(url, seed))) {
        if (!this.offSite.has(url)) {
          this.offSite.add(url);
          this.stats.skippedOffSite++;
        }
        return;
      }
      if (looksLikeAsset(url) || this.exclude?.test(url)) return;
      if (this.queue.length - this.head >= this.options.limit * FRONTIER_PER_LISTED_URL) {
        this.stats.truncated = true;
        return;
      }
    }
    this.seen.add(url);
    this.queue.push({ url, depth, seq: this.nextSeq++ });
    this.notify();
  }

  /** Reads the sitemaps robots.txt names plus /sitemap.xml of each seed's origin, following indexes. */
  private async discoverSitemaps(): Promise<void> {
    const pending: { url: string; nesting: number }[] = [];
    const queued = new Set<string>();
    const add = (url: string, nesting: number): void => {
      if (!queued.has(url) && queued.size < MAX_SITEMAP_DOCUMENTS && nesting <= MAX_SITEMAP_NESTING) {
        queued.add(url);
        pending.push({ url, nesting });
      }
    };
    for (const origin of new Set(this.seeds.map((seed) => new URL(seed).origin))) {
      const robots = await this.untilStopped(this.robots.check(`${origin}/`)).catch(() => null);
      if (robots === STOPPED) return;
      for (const sitemap of robots?.sitemaps ?? []) add(sitemap, 0);
      add(`${origin}/sitemap.xml`, 0);
    }
    for (let i = 0; i < pending.length && !this.stopped; i++) {
      const { url, nesting } = pending[i] as { url: string; nesting: number };
      const parsed = await this.fetchSitemap(url);
      if (parsed === null) continue;
      for (const child of parsed.sitemaps) add(child, nesting + 1);
      // Sitemap URLs are listed by the site itself: depth 0, like the seeds.
      for (const page of parsed.urls) this.enqueue(page, 0);
    }
  }

  private async fetchSitemap(url: string): Promise<ReturnType<typeof parseSitemap> | null> {
    try {
      const decision = await this.untilStopped(this.robots.check(url));
      if (decision === STOPPED || !decision.allowed) return null;
      const response = await this.untilStopped(
        this.limiter.run(url, () =>
          this.options.fetch({ url, signal: this.controller.signal, headers: { accept: 'application/xml,text/xml,text/plain;q=0.9,*/*;q=0.5' } }),
        ),
      );
      if (response === STOPPED || response.status < 200 || response.status >= 300) return null;
      return parseSitemap(response.body, response.url);
    } catch {
      return null; // a missing or broken sitemap only means fewer hints
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private waitForWork(): Promise<void> {
    return new Promise((resolve) => {
      const previous = this.wake;
      this.wake = () => {
        previous?.();
        resolve();
      };
    });
  }

  private async worker(): Promise<void> {
    while (!this.stopped) {
      const item = this.queue[this.head];
      if (item === undefined) {
        if (this.active === 0) return;
        await this.waitForWork();
        continue;
      }
      this.head++;
      if (this.stats.fetched >= this.maxFetches) {
        this.stats.truncated = true;
        this.stop();
        return;
      }
      this.active++;
      try {
        await this.visit(item);
      } finally {
        this.active--;
        this.notify();
      }
    }
  }

  /** Keeps the first refusal (a private address, a bad URL) so the summary can say why nothing came back. */
  private noteRefusal(error: FetchError): void {
    if (error.kind === 'blocked_address' || error.kind === 'invalid_url') this.refusal ??= error.message;
  }

  private async visit(item: QueueItem): Promise<void> {
    const decision = await this.untilStopped(this.robots.check(item.url)).catch((error: unknown) => {
      if (error instanceof FetchError) {
        this.noteRefusal(error);
        return REFUSED;
      }
      return null;
    });
    if (decision === STOPPED || decision === REFUSED) return;
    if (decision === null || !decision.allowed) {
      this.stats.skippedByRobots++;
      return;
    }
    const crawlDelayMs = Math.min((decision.crawlDelaySeconds ?? 0) * 1000, MAX_CRAWL_DELAY_MS);
    const delayMs = Math.max(this.options.perHostDelayMs ?? 0, crawlDelayMs);
    let response;
    try {
      this.stats.fetched++;
      response = await this.untilStopped(
        this.limiter.run(item.url, () => this.options.fetch({ url: item.url, signal: this.controller.signal }), delayMs),
      );
    } catch (error) {
      if (!this.stopped) {
        this.stats.errors++;
        if (error instanceof FetchError) this.noteRefusal(error);
      }
      return;
    }
    if (response === STOPPED || this.stopped) return;
    const url = this.finalUrl(item, response.url);
    if (url === null) return;
    if (response.status < 200 || response.status >= 300) {
      this.stats.errors++;
      return;
    }
    const kind = pageKind(response.contentType, response.body);
    if (kind === 'other' || !this.claimContent(response.body, { seq: item.seq, url })) return;
    if (kind === 'html' && item.depth < this.maxDepth) {
      for (const link of await this.links({ body: response.body, charset: response.charset, url })) this.enqueue(link, item.depth + 1);
    }
  }

  /** A page's links; none when the crawl stopped meanwhile or the scan failed (counted as an error). */
  private async links(page: LinkScan): Promise<string[]> {
    if (!this.options.scanLinks) return scanPageLinks(page);
    try {
      const links = await this.options.scanLinks(page, this.controller.signal);
      return this.stopped ? [] : links;
    } catch {
      if (!this.stopped) this.stats.errors++;
      return [];
    }
  }

  /** The URL a page is known by after redirects; null when the redirect left the site or hit a known URL. */
  private finalUrl(item: QueueItem, fetchedUrl: string): string | null {
    const url = normalizeUrl(fetchedUrl) ?? item.url;
    if (url === item.url) return url;
    if (!this.seeds.some((seed) => isSameSite(url, seed))) {
      this.stats.skippedOffSite++;
      return null;
    }
    if (this.seen.has(url)) return null;
    this.seen.add(url);
    return url;
  }

  /**
   * Registers a page's content. Byte-identical pages are listed once, under the URL discovered
   * first (lowest discovery order, so the choice does not depend on which response came back
   * first). Returns false when another URL already owns this content.
   */
  private claimContent(body: Uint8Array, page: ContentOwner): boolean {
    const hash = createHash('sha256').update(body).digest('hex');
    const owner = this.contentOwners.get(hash);
    if (owner && owner.seq < page.seq) return false;
    this.contentOwners.set(hash, page);
    if (owner) {
      // A later-discovered twin was listed first: list this URL in its place.
      const index = this.urls.indexOf(owner.url);
      if (index >= 0 && this.returnable(page.url)) this.urls[index] = page.url;
      return false; // links were already taken from the identical twin
    }
    this.list(page.url);
    return true;
  }

  /** include/exclude decide what is returned (exclude has also pruned the walk already). */
  private returnable(url: string): boolean {
    return (this.include === null || this.include.test(url)) && !this.exclude?.test(url);
  }

  private list(url: string): void {
    if (!this.returnable(url)) return;
    this.urls.push(url);
    if (this.urls.length >= this.options.limit) {
      // Truncated only if there was more to see.
      if (this.queue.length > this.head || this.active > 1) this.stats.truncated = true;
      this.stop();
    }
  }
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function summary(crawl: Crawl, seeds: number, limit: number, elapsedMs: number): string {
  let message = `Found ${plural(crawl.urls.length, 'URL')} from ${plural(seeds, 'seed')} in ${(elapsedMs / 1000).toFixed(1)} s (limit ${limit}).`;
  if (crawl.stats.timedOut) message += ' Stopped at the time budget.';
  else if (crawl.stats.truncated) message += ' Stopped at the limit; the site has more pages.';
  if (crawl.stats.skippedByRobots > 0) message += ` ${plural(crawl.stats.skippedByRobots, 'page')} skipped by robots.txt.`;
  if (crawl.refusal) message += ` Not fetched: ${crawl.refusal}.`;
  return message;
}

/**
 * Crawls from `seeds` (which must be http(s) URLs; others throw TypeError) and returns the
 * same-site page URLs found, at most `limit`.
 */
export async function crawlSite(options: CrawlOptions): Promise<CrawlResult> {
  const seeds = [...new Set(options.seeds.map((seed) => {
    const url = normalizeUrl(seed);
    if (url === null) throw new TypeError(`not an http(s) URL: ${seed}`);
    return url;
  }))];
  if (!Number.isInteger(options.limit) || options.limit < 1) throw new TypeError('limit must be a positive integer');
  const started = Date.now();
  const crawl = new Crawl(options, seeds, options.maxDepth ?? DEFAULT_MAX_DEPTH);
  const timer = setTimeout(() => {
    crawl.stats.timedOut = true;
    crawl.stop();
  }, options.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS);
  const onAbort = (): void => crawl.stop();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    if (options.signal?.aborted) crawl.stop();
    else await crawl.run();
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
  return { urls: crawl.urls, message: summary(crawl, seeds.length, options.limit, Date.now() - started), stats: crawl.stats };
}
