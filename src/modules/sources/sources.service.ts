import { createHash, randomUUID } from 'node:crypto';
import { inTransaction, type WorkspaceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import { isUuid } from '../../http/schemas.js';
import type { Upload } from '../../http/multipart.js';
import { crawlSite } from '../../ingest/crawl/crawler.js';
import { normalizeUrl } from '../../ingest/crawl/url.js';
import { detectContentKind, MIME_TYPE_OF_KIND } from '../../ingest/extract/index.js';
import { deleteArticles } from '../knowledge/index.js';
import { enqueueIngestion, setSourcesSyncInterval, unscheduleSources } from './queueing.service.js';
import { storageUrlOf } from './sources.presenter.js';
import {
  sourceUrlsByArticle,
  deleteSources as deleteSourceRows,
  existingSourceIds,
  findByExternalIds,
  findFile,
  findSource,
  findSourcesByIds,
  insertFile,
  insertSources,
  listSources as listSourceRows,
  linkKnowledge as linkKnowledgeRow,
  type SourceRow,
} from './sources.repository.js';
import type { IngestBody, SourceListQuery } from './sources.schemas.js';


export async function listSources(ctx: WorkspaceContext, query: SourceListQuery) {
  if (query.cursor && !(await findSource(ctx.db, ctx.workspaceId, query.cursor))) {
    throw new AppError('bad_request', 'query.cursor: no source with this id in the workspace');
  }
  return listSourceRows(ctx.db, ctx.workspaceId, query);
}

export async function getSource(ctx: WorkspaceContext, id: string): Promise<SourceRow> {
  const row = await findSource(ctx.db, ctx.workspaceId, id);
  if (!row) throw new AppError('not_found', `source ${id} not found`);
  return row;
}

export interface QueueResult {
  addedDocumentIds: string[];
  updatedDocumentIds: string[];
  jobs: { id: string; documentId: string; status: 'PENDING' }[];
  documents: SourceRow[];
}

/** Queues one ingestion job per source inside the transaction (the record says PENDING exactly when the job exists). */
export async function queueJobs(
  ctx: WorkspaceContext,
  tx: Db,
  added: string[],
  updated: string[],
  flags: { english?: boolean; baser?: boolean } = {},
): Promise<QueueResult> {
  const jobs = await enqueueIngestion(ctx, tx, added, updated, flags);
  const rows = new Map((await findSourcesByIds(tx, ctx.workspaceId, jobs.map((j) => j.sourceId))).map((r) => [r.id, r]));
  return {
    addedDocumentIds: added,
    updatedDocumentIds: updated,
    jobs: jobs.map((job) => ({ id: job.jobId, documentId: job.sourceId, status: 'PENDING' })),
    documents: jobs.map((job) => rows.get(job.sourceId)).filter((row): row is SourceRow => row !== undefined),
  };
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

/** The ingest route's `syncInterval`, when given: the sources' own re-sync interval (null: the defaults). */
async function setSyncIntervalOf(ctx: WorkspaceContext, tx: Db, ids: string[], syncInterval: string | null | undefined): Promise<void> {
  if (syncInterval === undefined) return;
  await setSourcesSyncInterval(ctx, tx, await findSourcesByIds(tx, ctx.workspaceId, ids), syncInterval);
}

/** POST /v2/documents/public: web URLs are created or refreshed; other sources are ids. */
export async function ingest(ctx: WorkspaceContext, body: IngestBody): Promise<QueueResult> {
  if (body.documentIdsToAdd.length === 0 && body.documentIdsToRefresh.length === 0) {
    throw new AppError('bad_request', 'body: give at least one entry in documentIdsToAdd or documentIdsToRefresh');
  }
  const flags = { english: body.english, baser: body.baser };
  return body.source === 'web' ? ingestWeb(ctx, body, flags) : ingestById(ctx, body, flags);
}

const MAX_URL_LENGTH = 2048;
const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A page URL as Parley stores and fetches it (normalised), or why it is not accepted. */
function acceptUrl(entry: string): { url: string } | { problem: string } {
  const url = normalizeUrl(entry);
  if (!url) return { problem: 'not a valid http(s) URL' };
  const parsed = new URL(url);
  if (parsed.username || parsed.password) return { problem: 'URLs with credentials are not accepted' };
  const host = parsed.hostname;
  const ip = host.startsWith('[') || /^[\d.]+$/.test(host);
  if (!ip && (host.length > 253 || !host.replace(/\.$/, '').split('.').every((label) => HOST_LABEL.test(label)))) {
    return { problem: `not a valid host name: ${host}` };
  }
  // Percent-encoding can make a URL much longer than what was sent.
  if (url.length > MAX_URL_LENGTH) return { problem: `longer than ${MAX_URL_LENGTH} characters once encoded` };
  return { url };
}

function webUrls(entries: string[], field: string): string[] {
  return unique(
    entries.map((entry, i) => {
      if (field !== 'links' && isUuid(entry)) {
        throw new AppError('bad_request', `body.${field}.${i}: source ids are not accepted for source=web; give the page URL`);
      }
      const accepted = acceptUrl(entry);
      if ('problem' in accepted) throw new AppError('bad_request', `body.${field}.${i}: ${accepted.problem}`);
      return accepted.url;
    }),
  );
}

async function ingestWeb(ctx: WorkspaceContext, body: IngestBody, flags: { english: boolean; baser: boolean }): Promise<QueueResult> {
  const toAdd = webUrls(body.documentIdsToAdd, 'documentIdsToAdd');
  const toRefresh = webUrls(body.documentIdsToRefresh, 'documentIdsToRefresh');
  return inTransaction(ctx, async ({ db: tx }) => {
    const byUrl = new Map((await findByExternalIds(tx, ctx.workspaceId, 'web', unique([...toAdd, ...toRefresh]))).map((r) => [r.externalId, r]));
    toRefresh.forEach((url) => {
      if (!byUrl.has(url)) {
        const i = body.documentIdsToRefresh.findIndex((entry) => normalizeUrl(entry) === url);
        throw new AppError('bad_request', `body.documentIdsToRefresh.${i}: no web source for ${url}; add it with documentIdsToAdd`);
      }
    });
    const fresh = toAdd.filter((url) => !byUrl.has(url));
    const now = ctx.clock.now();
    const inserted = await insertSources(
      tx,
      ctx.workspaceId,
      fresh.map((url) => ({
        source: 'web',
        externalId: url,
        originalUrl: url,
        domain: new URL(url).hostname,
        title: url,
        createdAt: now,
        updatedAt: now,
      })),
    );
    const insertedUrls = new Set(inserted.map((r) => r.externalId));
    // A URL a concurrent request inserted first is refreshed like any existing one.
    const raced = fresh.filter((url) => !insertedUrls.has(url));
    for (const row of await findByExternalIds(tx, ctx.workspaceId, 'web', raced)) byUrl.set(row.externalId, row);
    const added = inserted.map((r) => r.id);
    const updated = unique([...toAdd, ...toRefresh].filter((url) => byUrl.has(url)).map((url) => byUrl.get(url)!.id));
    await setSyncIntervalOf(ctx, tx, [...added, ...updated], body.syncInterval);
    return queueJobs(ctx, tx, added, updated, flags);
  });
}

async function ingestById(ctx: WorkspaceContext, body: IngestBody, flags: { english: boolean; baser: boolean }): Promise<QueueResult> {
  const ids = (entries: string[], field: string) =>
    unique(
      entries.map((entry, i) => {
        if (!isUuid(entry)) throw new AppError('bad_request', `body.${field}.${i}: expected a source id (UUID) for source=${body.source}`);
        return entry.toLowerCase();
      }),
    );
  const toAdd = ids(body.documentIdsToAdd, 'documentIdsToAdd');
  const toRefresh = ids(body.documentIdsToRefresh, 'documentIdsToRefresh').filter((id) => !toAdd.includes(id));
  return inTransaction(ctx, async ({ db: tx }) => {
    const rows = new Map((await findSourcesByIds(tx, ctx.workspaceId, [...toAdd, ...toRefresh], { lock: true })).map((r) => [r.id, r]));
    const check = (list: string[], field: string, entries: string[]) =>
      list.forEach((id) => {
        if (rows.get(id)?.source !== body.source) {
          const i = entries.findIndex((entry) => entry.toLowerCase() === id);
          throw new AppError('bad_request', `body.${field}.${i}: no ${body.source} source ${id} in this workspace`);
        }
      });
    check(toAdd, 'documentIdsToAdd', body.documentIdsToAdd);
    check(toRefresh, 'documentIdsToRefresh', body.documentIdsToRefresh);
    await setSyncIntervalOf(ctx, tx, [...toAdd, ...toRefresh], body.syncInterval);
    return queueJobs(ctx, tx, toAdd, toRefresh, flags);
  });
}

/** POST /v2/documents/public/refresh: re-fetches existing sources; uploaded files cannot be. */
export async function refreshSources(ctx: WorkspaceContext, documentIds: string[]): Promise<string[]> {
  const ids = unique(documentIds);
  return inTransaction(ctx, async ({ db: tx }) => {
    const rows = new Map((await findSourcesByIds(tx, ctx.workspaceId, ids, { lock: true })).map((r) => [r.id, r]));
    ids.forEach((id) => {
      const row = rows.get(id);
      const i = documentIds.indexOf(id);
      if (!row) throw new AppError('bad_request', `body.documentIds.${i}: no source ${id} in this workspace`);
      if (row.source === 'files') {
        throw new AppError('bad_request', `body.documentIds.${i}: ${id} is an uploaded file, which cannot be refreshed; upload it again`);
      }
    });
    await queueJobs(ctx, tx, [], ids);
    return ids;
  });
}

/** DELETE /v2/documents/public: the sources, their files and job history, and optionally their articles. */
export async function deleteSources(ctx: WorkspaceContext, documentIds: string[], withArticles: boolean) {
  const ids = unique(documentIds);
  return inTransaction(ctx, async (txCtx) => {
    const tx = txCtx.db;
    // Locking first makes a running job's final write wait for the delete and then find nothing.
    const rows = new Map((await findSourcesByIds(tx, ctx.workspaceId, ids, { lock: true })).map((r) => [r.id, r]));
    ids.forEach((id) => {
      if (!rows.has(id)) throw new AppError('bad_request', `body.documentIds.${documentIds.indexOf(id)}: no source ${id} in this workspace`);
    });
    const articleIds = withArticles
      ? unique([...rows.values()].map((r) => r.linkedKnowledgeId).filter((id): id is string => id !== null))
      : [];
    // Their re-sync schedules go after the commit.
    await unscheduleSources(txCtx, tx, [...rows.values()]);
    const deletedSources = await deleteSourceRows(tx, ctx.workspaceId, ids);
    // Other sources linked to a deleted article are unlinked (sources.listeners.ts).
    const deletedArticles = await deleteArticles(txCtx, articleIds);
    const order = new Map(ids.map((id, i) => [id, i]));
    deletedSources.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    return { deletedSources, deletedArticles };
  });
}

/** POST /v2/documents/public/files: stores the original bytes and queues their extraction. */
export async function uploadFile(ctx: WorkspaceContext, upload: Upload): Promise<QueueResult> {
  const { file } = upload;
  const fields = upload.fields as { title?: string; english?: boolean };
  if (file.data.byteLength === 0) throw new AppError('bad_request', 'body.file: the file is empty');
  const kind = detectContentKind({ contentType: file.mimetype, filename: file.filename, body: file.data });
  if (!kind) {
    throw new AppError(
      'unsupported_media_type',
      `unsupported file type ${file.mimetype || 'unknown'} (${file.filename}); upload PDF, DOCX, HTML, Markdown or plain text`,
    );
  }
  const id = randomUUID();
  const filename = file.filename || `upload.${kind === 'markdown' ? 'md' : kind === 'text' ? 'txt' : kind}`;
  const sha256 = createHash('sha256').update(file.data).digest('hex');
  return inTransaction(ctx, async ({ db: tx }) => {
    const now = ctx.clock.now();
    await insertSources(tx, ctx.workspaceId, [
      {
        id,
        source: 'files',
        externalId: id,
        originalUrl: filename,
        title: fields.title ?? filename,
        storageUrl: storageUrlOf(id),
        mimeType: MIME_TYPE_OF_KIND[kind],
        english: fields.english ?? true,
        misc: { filename, size: file.data.byteLength, sha256, titleGiven: fields.title !== undefined },
        createdAt: now,
        updatedAt: now,
      },
    ]);
    await insertFile(tx, ctx.workspaceId, { sourceId: id, filename, mimeType: MIME_TYPE_OF_KIND[kind], sha256, data: file.data, createdAt: now });
    return queueJobs(ctx, tx, [id], []);
  });
}

/** The original bytes of an uploaded file source. */
export async function getSourceFile(ctx: WorkspaceContext, id: string) {
  const file = await findFile(ctx.db, ctx.workspaceId, id);
  if (!file) throw new AppError('not_found', `no uploaded file for source ${id}`);
  return file;
}

export interface DeepCrawlInput {
  links: string[];
  limit: number;
  maxDepth: number;
  include?: string[];
  exclude?: string[];
}

/** POST /v2/documents/public/deep-crawl/links: discovers same-site URLs, creating nothing. */
export async function deepCrawl(ctx: WorkspaceContext, input: DeepCrawlInput, signal?: AbortSignal) {
  const seeds = webUrls(input.links, 'links');
  const { outbound } = ctx;
  const result = await crawlSite({
    seeds,
    limit: input.limit,
    maxDepth: input.maxDepth,
    ...(input.include ? { include: input.include } : {}),
    ...(input.exclude ? { exclude: input.exclude } : {}),
    timeBudgetMs: ctx.config.ingest.crawlTimeBudgetMs,
    perHostDelayMs: ctx.config.ingest.hostDelayMs,
    userAgent: outbound.userAgent,
    fetch: outbound.fetch,
    robots: outbound.robots,
    limiter: outbound.limiter,
    scanLinks: outbound.scanLinks,
    ...(signal ? { signal } : {}),
  });
  return { data: result.urls, message: result.message };
}

/** Which of `ids` are sources of the workspace (ids only: no content is read). */
export async function existingSources(ctx: WorkspaceContext, ids: string[]): Promise<Set<string>> {
  return existingSourceIds(ctx.db, ctx.workspaceId, ids);
}

/** Sources of the workspace by id; `lock` holds them until the caller's transaction ends. */
export async function getSourcesByIds(ctx: WorkspaceContext, ids: string[], options: { lock?: boolean } = {}): Promise<SourceRow[]> {
  return findSourcesByIds(ctx.db, ctx.workspaceId, ids, options);
}

/**
 * Records what a knowledge job made of a source: the article, the operation and why. The source's
 * knowledge is now in step with its content, so it is no longer flagged changed.
 */
export async function linkKnowledge(
  ctx: WorkspaceContext,
  sourceId: string,
  link: { linkedKnowledgeId: string | null; linkedOperation: string; linkedReason: string },
): Promise<void> {
  await linkKnowledgeRow(ctx.db, ctx.workspaceId, sourceId, link, ctx.clock.now());
}

/** The source URL each article was made from, when one is linked: conversations' `usedArticles[].documentUrl`. */
export async function sourceUrlsOfArticles(ctx: Pick<WorkspaceContext, 'db' | 'workspaceId'>, articleIds: readonly string[]): Promise<Map<string, string>> {
  return sourceUrlsByArticle(ctx.db, ctx.workspaceId, articleIds);
}
