import type { Config } from '../config/config.js';
import type { HostTurnStore } from '../db/limits.js';
import { HostLimiter, type HostPoliteness } from './crawl/host-limiter.js';
import { SharedHostLimiter } from './crawl/shared-host-limiter.js';
import { RobotsCache } from './crawl/robots.js';
import type { LinkScan } from './crawl/links.js';
import type { Extracted, ExtractInput } from './extract/index.js';
import { createSafeFetch, type SafeFetch } from './fetch/safe-fetch.js';
import type { CpuPool } from '../workers/pool.js';

/**
 * The outbound side of one process: one safeFetch (one connection pool), one robots.txt cache and
 * one per-host limiter shared by every ingestion job and deep crawl, so politeness holds across them
 * (and, on PostgreSQL, across every process of the deployment).
 */
export interface Outbound {
  readonly fetch: SafeFetch;
  readonly robots: RobotsCache;
  readonly limiter: HostPoliteness;
  readonly userAgent: string;
  /** Extraction of fetched or uploaded bytes, in the CPU pool (off the event loop). */
  readonly extract: (input: ExtractInput, options?: { signal?: AbortSignal }) => Promise<Extracted>;
  /** The deep crawl's link scan of a page, in the CPU pool. */
  readonly scanLinks: (page: LinkScan, signal: AbortSignal) => Promise<string[]>;
  /** Closes the connection pool (at shutdown; the CPU pool is closed by its owner). */
  close(): Promise<void>;
}

/**
 * The `outbound` port of a process, built once at start (a test app builds its own). With `hostTurns`
 * (the database's, on PostgreSQL) politeness holds for the deployment; without, for this process.
 */
export function createOutbound(config: Config, pool: CpuPool, hostTurns?: HostTurnStore): Outbound {
  const fetch = createSafeFetch({
    allowPrivate: config.fetch.allowPrivate,
    userAgent: config.fetch.userAgent,
    timeoutMs: config.fetch.timeoutMs,
    maxBytes: config.fetch.maxBytes,
    maxRedirects: 5,
  });
  const politeness = { perHost: config.ingest.perHost, delayMs: config.ingest.hostDelayMs };
  return {
    fetch,
    robots: new RobotsCache(fetch, config.fetch.userAgent),
    limiter: hostTurns ? new SharedHostLimiter(hostTurns, politeness) : new HostLimiter(politeness),
    userAgent: config.fetch.userAgent,
    extract: (input, options) => pool.run('extract', input, options),
    scanLinks: (page, signal) => pool.run('links', page, { signal }),
    close: () => fetch.close(),
  };
}
