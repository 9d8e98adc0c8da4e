import { z } from 'zod';
import { defineRoute } from '../../http/route.js';
import { idParamsSchema } from '../../http/schemas.js';
import { MIME_TYPE_OF_KIND } from '../../ingest/extract/index.js';
import { presentSource } from './sources.presenter.js';
import {
  deepCrawlBodySchema,
  deepCrawlResponseSchema,
  deleteBodySchema,
  deleteResponseSchema,
  discoveryResponseSchema,
  ingestBodySchema,
  ingestResponseSchema,
  patchSourceBodySchema,
  refreshBodySchema,
  refreshResponseSchema,
  registerBodySchema,
  registerResponseSchema,
  resourceParamsSchema,
  sourceListQuerySchema,
  sourceListSchema,
  sourceSchema,
  uploadFieldsSchema,
} from './sources.schemas.js';
import { loadSyncDefaults } from './queueing.service.js';
import { discoverResources, registerResources } from './resources.service.js';
import type { SyncDefaults } from './sync.js';
import { patchSource } from './sync.service.js';
import {
  deepCrawl,
  deleteSources,
  getSource,
  getSourceFile,
  ingest,
  listSources,
  type QueueResult,
  refreshSources,
  uploadFile,
} from './sources.service.js';

const tags = ['Sources'];

/** An attachment header any client reads: an ASCII fallback name plus the exact UTF-8 name (RFC 6266). */
function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

function presentQueued(result: QueueResult, sync: SyncDefaults) {
  return { ...result, documents: result.documents.map((row) => presentSource(row, sync)) };
}

export function sourceRoutes() {
  return [
    defineRoute({
      method: 'GET',
      url: '/v2/documents/public',
      auth: 'read',
      tags,
      summary: 'List sources',
      description:
        'Source records, most recently updated first (`order=desc`: updatedAt, then externalId, then id). ' +
        'Keyset pagination: pass the last record\'s `id` as `cursor` with `direction=next` for the next page, ' +
        'or the first record\'s `id` with `direction=previous` to go back; `hasMore` says whether more ' +
        'records follow in the direction of travel. Rows inserted or updated between pages move to the ' +
        'front and are not repeated on later pages. When the cursor record itself may have changed since ' +
        '(a running ingestion updates records), also pass its `updatedAt` as `cursorUpdatedAt`: the page ' +
        'then continues from where that record was. `success` and `linkedKnowledge` may repeat; giving ' +
        'both values disables the filter. `domain` needs `source=web`. An unknown `cursor` is a 400.',
      querystring: sourceListQuerySchema,
      response: sourceListSchema,
      serializer: 'presenter',
      handler: async ({ ctx, query }) => {
        const page = await listSources(ctx, query);
        const sync = await loadSyncDefaults(ctx);
        return { documents: page.rows.map((row) => presentSource(row, sync)), hasMore: page.hasMore };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/documents/public/:id',
      auth: 'read',
      tags,
      summary: 'Get a source',
      params: idParamsSchema,
      errors: [404],
      response: sourceSchema,
      serializer: 'presenter',
      handler: async ({ ctx, params }) => presentSource(await getSource(ctx, params.id), await loadSyncDefaults(ctx)),
    }),
    defineRoute({
      method: 'PATCH',
      url: '/v2/documents/public/:id',
      auth: 'write',
      tags,
      summary: 'Set the re-sync interval of a source',
      description:
        "`syncInterval` is how often Parley refreshes the source on its own: `off`, `hourly`, `daily`, `weekly`, a five-field " +
        'cron expression in UTC (runs at least 5 minutes apart), or null to follow its provider connection\'s interval, then ' +
        "the workspace's (PATCH /v2/workspace/public). Each run is the refresh of POST /v2/documents/public/refresh, never " +
        'while another refresh of the source is queued or running; a change found on a source linked to knowledge queues ' +
        'a knowledge job that drafts the update. The record answers the interval in effect, `nextSyncAt`, `lastSyncAt`, ' +
        'and after failures `syncFailures` and `syncError` (a source failing repeatedly backs off). Uploaded files cannot ' +
        're-sync (400). 404 when the source is not in the workspace. docs/sources.md, "Scheduled re-sync".',
      params: idParamsSchema,
      body: patchSourceBodySchema,
      errors: [404],
      response: sourceSchema,
      serializer: 'presenter',
      handler: async ({ ctx, params, body }) => presentSource(await patchSource(ctx, params.id, body), await loadSyncDefaults(ctx)),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/documents/public',
      auth: 'write',
      tags,
      summary: 'Ingest sources',
      description:
        'Queues ingestion jobs and answers at once (202). For `source=web` the arrays hold page URLs: a URL ' +
        'with no record is created (`addedDocumentIds`); a URL that already has one, in either array, is ' +
        'refreshed (`updatedDocumentIds`). Refreshing a URL with no record is a 400. For provider sources ' +
        'the arrays hold source ids of that provider. Each record moves PENDING -> IN_PROGRESS -> ' +
        'COMPLETED or FAILED (`error` says why: robots.txt exclusion, a page behind authentication, an ' +
        'unsupported content type, ...). At most 5,000 entries per array. `syncInterval` sets the re-sync interval of every ' +
        'source named (see PATCH /v2/documents/public/{id}). Uploaded files have their own route.',
      body: ingestBodySchema,
      status: 202,
      response: ingestResponseSchema,
      handler: async ({ ctx, body }) => presentQueued(await ingest(ctx, body), await loadSyncDefaults(ctx)),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/documents/public/resources/:provider',
      auth: 'read',
      tags,
      summary: 'Discover the resources of a connected provider',
      description:
        'What the connection can read, following every page of the provider\'s listing: for `notion` a flat array ' +
        'of pages and databases (`object` `page` or `database`), for `zendesk` the Help Center\'s categories with ' +
        'their sections and articles, for `confluence` the spaces with their current pages. Resources already ' +
        'imported successfully are left out (and sections or spaces left empty by that). `googledrive` has no ' +
        'discovery: register its files by id. 400 when the provider is not connected or refuses the credentials ' +
        '(an expired connection), 502 when it cannot be reached or keeps rate limiting.',
      params: resourceParamsSchema,
      errors: [502],
      response: discoveryResponseSchema,
      handler: async ({ ctx, params }) => discoverResources(ctx, params.provider),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/documents/public/resources/:provider',
      auth: 'write',
      tags,
      summary: 'Register provider resources as sources',
      description:
        'Creates a source record for each resource (`addedDocumentIds`), or updates the metadata of the one with ' +
        'the same `externalId` (`updatedDocumentIds`); queues nothing: pass the ids to the ingest route ' +
        '(`source` = the provider). Notion ids are stored dashed and lower-case; `object` is the provider type ' +
        '(`page` or `database` for notion, default `page`; a Drive file\'s type defaults to its `mimeType`). ' +
        '400 when the provider is not connected, or naming the first resource with a missing or invalid field.',
      params: resourceParamsSchema,
      body: registerBodySchema,
      response: registerResponseSchema,
      handler: async ({ ctx, params, body }) => registerResources(ctx, params.provider, body),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/documents/public/deep-crawl/links',
      auth: 'write',
      tags,
      summary: 'Discover the pages of a site',
      description:
        'Crawls from the seed URLs and returns the same-site page URLs found, without creating records; ' +
        'feed the ones you want to the ingest route. Reads robots.txt (and obeys it) and the sitemaps ' +
        'it names, `/sitemap.xml` and sitemap indexes, then follows links up to `maxDepth`. Stays on the ' +
        "seed's host (www and non-www count as one) and below the seed's folder when the seed has one, " +
        'skips assets (images, scripts, styles, archives, media), normalises and de-duplicates URLs (also ' +
        'pages with identical content), and stops at `limit` URLs or the time budget ' +
        '(`PARLEY_CRAWL_TIME_BUDGET_MS`); `message` summarises what happened.',
      body: deepCrawlBodySchema,
      response: deepCrawlResponseSchema,
      handler: async ({ ctx, body, reply }) => {
        // A client that hangs up stops the crawl (the response closing unfinished means that).
        const abort = new AbortController();
        reply.raw.once('close', () => {
          if (!reply.raw.writableFinished) abort.abort();
        });
        return deepCrawl(ctx, body, abort.signal);
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/documents/public/refresh',
      auth: 'write',
      tags,
      summary: 'Refresh sources',
      description:
        'Queues a refresh job for each source and returns the accepted ids. Web pages are fetched with ' +
        '`If-None-Match`/`If-Modified-Since`, so an unchanged page is not extracted again. When the content ' +
        'of a source linked to knowledge changed meaningfully, the record gets `changed: true` and keeps ' +
        'the previous paragraphs in `oldParagraphs`. Unknown ids and uploaded files (`files`) are a 400.',
      body: refreshBodySchema,
      response: refreshResponseSchema,
      handler: async ({ ctx, body }) => refreshSources(ctx, body.documentIds),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v2/documents/public',
      auth: 'write',
      tags,
      summary: 'Delete sources',
      description:
        'Deletes the sources with their stored files and job history, all or nothing (an unknown id is a ' +
        '400 and deletes nothing). With `deleteArticles: true` the articles the sources are linked to are ' +
        'deleted too (drafts made from them are kept, unlinked). A job still processing a deleted source ' +
        'writes nothing.',
      body: deleteBodySchema,
      response: deleteResponseSchema,
      handler: async ({ ctx, body }) => {
        const { deletedSources, deletedArticles } = await deleteSources(ctx, body.documentIds, body.deleteArticles);
        return {
          deletedDocuments: deletedSources.map((s) => ({ id: s.id, title: s.title, originalUrl: s.originalUrl })),
          deletedArticles: deletedArticles.map((a) => ({ id: a.id, title: a.title, parentFolderId: a.parentFolderId })),
        };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/documents/public/files',
      auth: 'write',
      tags,
      summary: 'Upload a file as a source',
      description:
        'Stores a PDF, DOCX, HTML, Markdown or plain-text file as a `files` source and queues its ' +
        'extraction (202, same answer as the ingest route). The type is decided from the MIME type, the ' +
        'file name and the first bytes; anything else is a 415, a file over `PARLEY_UPLOAD_LIMIT_BYTES` a ' +
        '413. `storageUrl` downloads the original. `title` defaults to the extracted title.',
      upload: { fileField: 'file', fileDescription: 'the document', fields: uploadFieldsSchema },
      status: 202,
      errors: [415],
      response: ingestResponseSchema,
      handler: async ({ ctx, upload }) => presentQueued(await uploadFile(ctx, upload!), await loadSyncDefaults(ctx)),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/documents/:id/file/public',
      auth: 'read',
      tags,
      summary: 'Download the original of an uploaded file',
      description: "The bytes stored for a `files` source, with the file's type; the record's `storageUrl` points here.",
      params: idParamsSchema,
      errors: [404],
      // Each kind of file an upload can be stored as (src/ingest/extract/detect.ts).
      produces: Object.values(MIME_TYPE_OF_KIND),
      response: z.string().meta({ format: 'binary', description: 'the file as uploaded' }),
      handler: async ({ ctx, params, reply }) => {
        const file = await getSourceFile(ctx, params.id);
        reply.type(file.mimeType);
        reply.header('content-disposition', contentDisposition(file.filename));
        // Fastify sends a Buffer as is; the schema only documents the answer.
        return Buffer.from(file.data) as unknown as string;
      },
    }),
  ];
}
