import type { WorkspaceContext } from '../../context.js';
import { FetchError, describeHttpStatus } from '../../ingest/fetch/safe-fetch.js';
import { MAX_CRAWL_DELAY_MS } from '../../ingest/crawl/crawler.js';
import { CONNECTORS, PROVIDER_LABELS, ProviderError, type ProviderName, type ResourceRef } from '../../ingest/providers/index.js';
import { notConnected, openProviderSession } from '../providers/index.js';
import { findFile, type SourceRow } from './sources.repository.js';
import type { SourceKind } from './sources.schemas.js';

/**
 * One step of the ingestion pipeline: bring the bytes of a source. Web pages, uploaded files and
 * provider items are fetchers of the same pipeline; extraction, change detection and the record's
 * state machine are shared (ingestion.service.ts).
 */
export interface SourceFetcher {
  fetch(ctx: WorkspaceContext, source: SourceRow, options: FetchOptions): Promise<FetchOutcome>;
}

export interface FetchOptions {
  /** A refresh: validators of the last successful fetch may be sent. */
  readonly refresh: boolean;
}

export type FetchOutcome =
  | { kind: 'not_modified'; marker?: string }
  | {
      kind: 'content';
      body: Uint8Array;
      contentType: string | null;
      charset: string | null;
      filename: string | null;
      url: string | null;
      etag: string | null;
      lastModified: string | null;
      /** A provider's change marker of this content (last_edited_time, updated_at, version, checksum). */
      marker?: string;
      /** The title the provider gives the resource (wins over the extracted one). */
      title?: string | null;
      /** Resources found inside this one (Notion child pages and database rows), registered and ingested too. */
      children?: ResourceRef[];
    };

/** A failure with a message for the record's `error`; `retryable` failures are tried again later. */
export class IngestFailure extends Error {
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'IngestFailure';
  }
}


export const webFetcher: SourceFetcher = {
  async fetch(ctx, source, options) {
    const runtime = ctx.outbound;
    const url = source.externalId;
    const headers: Record<string, string> = {};
    if (options.refresh && source.success) {
      if (source.etag) headers['if-none-match'] = source.etag;
      if (source.lastModified) headers['if-modified-since'] = source.lastModified;
    }
    try {
      const robots = await runtime.robots.check(url);
      if (robots.unreachable) {
        // RFC 9309: an unreachable robots.txt closes the site for now; the retry reads it again.
        runtime.robots.forget(url);
        throw new IngestFailure(`robots.txt could not be read, so the site is treated as closed to crawlers: ${robots.unreachable}`, true);
      }
      if (!robots.allowed) {
        throw new IngestFailure(`robots.txt of ${new URL(url).host} does not allow ${runtime.userAgent.split('/')[0]} to fetch this page`);
      }
      // A robots.txt Crawl-delay (capped) wins over the configured pause when longer.
      const delayMs = Math.max(ctx.config.ingest.hostDelayMs, Math.min((robots.crawlDelaySeconds ?? 0) * 1000, MAX_CRAWL_DELAY_MS));
      const response = await runtime.limiter.run(url, () => runtime.fetch({ url, headers, signal: ctx.signal }), delayMs);
      if (response.status === 304) {
        if (Object.keys(headers).length) return { kind: 'not_modified' };
        throw new IngestFailure('the site answered HTTP 304 to a request without validators');
      }
      const problem = describeHttpStatus(response.status);
      if (problem) throw new IngestFailure(problem, response.status === 429 || response.status >= 500);
      return {
        kind: 'content',
        body: response.body,
        contentType: response.contentType,
        charset: response.charset,
        filename: null,
        url: response.url,
        etag: response.headers.etag ?? null,
        lastModified: response.headers['last-modified'] ?? null,
      };
    } catch (error) {
      if (error instanceof FetchError && error.kind === 'blocked_address') {
        throw new IngestFailure(`refused to fetch ${url}: private or loopback address`);
      }
      if (error instanceof FetchError) throw new IngestFailure(error.message, error.retryable);
      throw error;
    }
  },
};

export const fileFetcher: SourceFetcher = {
  async fetch(ctx, source) {
    const file = await findFile(ctx.db, ctx.workspaceId, source.id);
    if (!file) throw new IngestFailure('the uploaded file is missing; upload it again');
    return {
      kind: 'content',
      body: file.data,
      contentType: file.mimeType,
      charset: null,
      filename: file.filename,
      url: null,
      etag: null,
      lastModified: null,
    };
  },
};

/** How deep below its registered resource a provider source was found (Notion child pages, database rows). */
export function depthOf(source: Pick<SourceRow, 'misc'>): number {
  return typeof source.misc.depth === 'number' ? source.misc.depth : 0;
}

/**
 * A provider's resources through its connector (src/ingest/providers), with the workspace's
 * connection opened for the call. The change marker of the last successful fetch lets a refresh
 * skip an unchanged resource before its body is fetched.
 */
export function providerFetcher(provider: ProviderName): SourceFetcher {
  return {
    async fetch(ctx, source, options) {
      const session = await openProviderSession(ctx, provider);
      if (!session) throw new IngestFailure(notConnected(provider).message);
      // A resource read before has a change marker; the last successful read's lets a refresh skip.
      const readBefore = typeof source.misc.providerMarker === 'string' ? source.misc.providerMarker : null;
      const marker = source.success ? readBefore : null;
      try {
        const result = await CONNECTORS[provider].fetchItem(
          session,
          { externalId: source.externalId, type: source.type, marker, depth: depthOf(source) },
          { refresh: options.refresh, maxChildDepth: ctx.config.ingest.notionChildDepth },
        );
        if (result.kind === 'unchanged') return { kind: 'not_modified', marker: result.marker };
        return {
          kind: 'content',
          body: result.body,
          contentType: result.contentType,
          charset: null,
          filename: result.filename,
          url: result.url,
          etag: null,
          lastModified: null,
          marker: result.marker,
          title: result.title,
          children: result.children,
        };
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        // A 404 means lost permission only for a resource that was read before.
        if (error.failure === 'not_found' && readBefore === null) {
          throw new IngestFailure(
            `not found: ${PROVIDER_LABELS[provider]} has no ${source.type ?? 'resource'} ${source.externalId} that this connection can read (check the id, and that it is shared with the connection)`,
          );
        }
        throw new IngestFailure(error.message, error.retryable);
      }
    },
  };
}

/** The fetcher of each kind of source. */
export const FETCHERS: Record<SourceKind, SourceFetcher> = {
  web: webFetcher,
  files: fileFetcher,
  notion: providerFetcher('notion'),
  zendesk: providerFetcher('zendesk'),
  confluence: providerFetcher('confluence'),
  googledrive: providerFetcher('googledrive'),
};
