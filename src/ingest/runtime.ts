import type { Config } from '../config/config.js';
import { HostLimiter } from './crawl/crawler.js';
import { RobotsCache } from './crawl/robots.js';
import type { LinkScan } from './crawl/links.js';
import type { Extracted, ExtractInput } from './extract/index.js';
import { type ClosableSafeFetch, createSafeFetch } from './fetch/safe-fetch.js';
import { cpuPoolOf } from '../workers/by-config.js';

/**
 * The outbound side of one process: one safeFetch (one connection pool), one robots.txt cache and
 * one per-host limiter shared by every ingestion job and deep crawl, so politeness holds across them.
 */
export interface IngestRuntime {
  readonly fetch: ClosableSafeFetch;
  readonly robots: RobotsCache;
  readonly limiter: HostLimiter;
  readonly userAgent: string;
  /** Extraction of fetched or uploaded bytes, in the CPU pool (off the event loop). */
  readonly extract: (input: ExtractInput, options?: { signal?: AbortSignal }) => Promise<Extracted>;
  /** The deep crawl's link scan of a page, in the CPU pool. */
  readonly scanLinks: (page: LinkScan, signal: AbortSignal) => Promise<string[]>;
}

const runtimes = new WeakMap<Config, IngestRuntime>();

/** The runtime of a configuration, created on first use (a test app's own config gets its own). */
export function ingestRuntime(config: Config): IngestRuntime {
  let runtime = runtimes.get(config);
  if (!runtime) {
    const fetch = createSafeFetch({
      allowPrivate: config.fetch.allowPrivate,
      userAgent: config.fetch.userAgent,
      timeoutMs: config.fetch.timeoutMs,
      maxBytes: config.fetch.maxBytes,
      maxRedirects: 5,
    });
    runtime = {
      fetch,
      robots: new RobotsCache(fetch, config.fetch.userAgent),
      limiter: new HostLimiter({ perHost: config.ingest.perHost, delayMs: config.ingest.hostDelayMs }),
      userAgent: config.fetch.userAgent,
      extract: (input, options) => cpuPoolOf(config).run('extract', input, options),
      scanLinks: (page, signal) => cpuPoolOf(config).run('links', page, { signal }),
    };
    runtimes.set(config, runtime);
  }
  return runtime;
}

/** Closes the connection pool of a configuration's runtime, if one was created. */
export async function closeIngestRuntime(config: Config): Promise<void> {
  const runtime = runtimes.get(config);
  if (!runtime) return;
  runtimes.delete(config);
  await runtime.fetch.close();
}
