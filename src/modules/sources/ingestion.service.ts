import { createHash } from 'node:crypto';
import { emit, inTransaction, type WorkspaceContext } from '../../context.js';
import type { OrphanSweep } from '../../jobs/job.js';
import { storableText } from '../../http/text-guard.js';
import { detectContentKind, MIME_TYPE_OF_KIND, UnsupportedContentError } from '../../ingest/extract/index.js';
import { compareContent, contentFingerprint } from './changes.js';
import type { Db } from '../../db/database.js';
import type { ResourceRef } from '../../ingest/providers/index.js';
import { depthOf, FETCHERS, IngestFailure } from './fetchers.service.js';
import { enqueueIngestion } from './queueing.service.js';
import { claimJob, failStaleJob, findByExternalIds, finishJob, insertSources, type NewSource, type SourceRow, unscopedStaleJobs } from './sources.repository.js';
import type { SourceKind } from './sources.schemas.js';

/** One attempt of a source's ingestion job. */
export interface IngestRun {
  readonly sourceId: string;
  /** The queue job's id: the source's `linkedJobId` while the job is its latest. */
  readonly jobId: string;
  /** `sync`: a refresh the source's re-sync schedule queued (emits `source.synced` too). */
  readonly kind: 'add' | 'refresh' | 'sync';
  /** No retry follows: a retryable failure is recorded as the result. */
  readonly finalAttempt: boolean;
}

/**
 * Fetches and extracts one source: PENDING -> IN_PROGRESS -> COMPLETED | FAILED. A job that is no
 * longer the source's latest (re-queued or deleted) does nothing. Transient failures (timeouts,
 * 5xx, 429) are thrown for the queue to retry with backoff, and the record stays IN_PROGRESS until
 * the last attempt decides. The result emits `source.ingested`.
 */
export async function ingestSource(ctx: WorkspaceContext, run: IngestRun): Promise<void> {
  const source = await inTransaction(ctx, (tx) => claimJob(tx.db, ctx.workspaceId, run.sourceId, run.jobId, ctx.clock.now()));
  if (!source) {
    ctx.log.info({ sourceId: run.sourceId }, 'source job superseded or source deleted; nothing to do');
    return;
  }
  let result: { status: 'COMPLETED' | 'FAILED'; changes: Partial<NewSource>; children?: Children };
  try {
    result = { status: 'COMPLETED', ...(await process(ctx, source, run.kind !== 'add')) };
  } catch (error) {
    if (error instanceof IngestFailure && (!error.retryable || run.finalAttempt)) {
      result = { status: 'FAILED', changes: { success: false, error: error.message } };
    } else if (run.finalAttempt) {
      ctx.log.error({ err: error, sourceId: source.id }, 'source ingestion failed unexpectedly');
      result = { status: 'FAILED', changes: { success: false, error: 'processing failed unexpectedly; try again later' } };
    } else {
      throw error;
    }
  }
  if (result.changes.error) result.changes.error = storableText(result.changes.error);
  const written = await inTransaction(ctx, async (tx) => {
    const row = await finishJob(tx.db, ctx.workspaceId, source.id, run.jobId, result.status, result.changes, ctx.clock.now());
    if (row) await emit(tx, 'source.ingested', { sourceId: row.id, status: result.status, changed: row.changed });
    if (row && run.kind === 'sync') {
      // A change this run found on a source linked to knowledge: its fingerprint moved and it is flagged.
      const foundChange = row.changed && row.contentFingerprint !== source.contentFingerprint;
      await emit(tx, 'source.synced', { sourceId: row.id, status: result.status, foundChange });
    }
    if (row && result.children) await queueChildren(ctx, tx.db, row, result.children);
    return row;
  });
  ctx.log.info({ sourceId: source.id, status: result.status, written: Boolean(written), error: result.changes.error }, 'source processed');
}

/**
 * Resources found inside a provider source (Notion child pages and database rows) become sources
 * of their own, one level deeper, in the transaction that records the parent: new ones are added,
 * known ones refreshed (their change markers make an unchanged one cheap). An unchanged parent
 * gives the external ids of the children it listed last time: those are refreshed, since a child's
 * edit does not change its parent's marker.
 */
async function queueChildren(ctx: WorkspaceContext, tx: Db, parent: SourceRow, children: Children): Promise<void> {
  const ids = [...new Set([...children.found.map((c) => c.externalId), ...children.listed])].filter((id) => id !== parent.externalId);
  if (ids.length === 0) return;
  const now = ctx.clock.now();
  const depth = depthOf(parent) + 1;
  const existing = new Map((await findByExternalIds(tx, ctx.workspaceId, parent.source, ids)).map((r) => [r.externalId, r]));
  const inserted = await insertSources(
    tx,
    ctx.workspaceId,
    children.found
      .filter((c) => c.externalId !== parent.externalId && !existing.has(c.externalId))
      .map((c) => ({
        source: parent.source,
        externalId: c.externalId,
        title: c.title,
        originalUrl: c.originalUrl,
        mimeType: c.mimeType,
        type: c.object,
        english: parent.english,
        baser: parent.baser,
        misc: { depth, parentId: parent.id },
        createdAt: now,
        updatedAt: now,
      })),
  );
  // A child another job inserted first is known like the others.
  const insertedIds = new Set(inserted.map((r) => r.externalId));
  const raced = ids.filter((id) => !existing.has(id) && !insertedIds.has(id));
  if (raced.length) for (const row of await findByExternalIds(tx, ctx.workspaceId, parent.source, raced)) existing.set(row.externalId, row);
  // Known children are refreshed (unless a job already has them): their markers make unchanged ones cheap.
  const known = [...existing.values()].filter((r) => r.linkedJobStatus !== 'PENDING' && r.linkedJobStatus !== 'IN_PROGRESS').map((r) => r.id);
  await enqueueIngestion(ctx, tx, inserted.map((r) => r.id), known);
}

/** What a provider source holds: the resources it lists now, or (unchanged) the external ids it listed last time. */
interface Children {
  found: ResourceRef[];
  listed: string[];
}

/** Fetch, extract and compare; returns the record's new content fields. Throws IngestFailure. */
async function process(ctx: WorkspaceContext, source: SourceRow, refresh: boolean): Promise<{ changes: Partial<NewSource>; children?: Children }> {
  const outcome = await FETCHERS[source.source as SourceKind].fetch(ctx, source, { refresh });
  const listed = Array.isArray(source.misc.childIds) ? (source.misc.childIds as string[]) : [];
  if (outcome.kind === 'not_modified') {
    // A provider's change marker is kept with the record, for the next refresh to compare.
    const misc = outcome.marker === undefined ? source.misc : { ...source.misc, providerMarker: outcome.marker };
    return { changes: { success: true, error: '', misc }, children: { found: [], listed } };
  }
  const children = outcome.children ?? [];
  const misc =
    outcome.marker === undefined ? source.misc : { ...source.misc, providerMarker: outcome.marker, childIds: children.map((c) => c.externalId) };
  const unchanged = { success: true, error: '', misc };
  const providerTitle = outcome.title ? storableText(outcome.title) : '';

  const bodyHash = createHash('sha256').update(outcome.body).digest('hex');
  if (source.success && source.bodyHash === bodyHash) {
    return { changes: { ...unchanged, etag: outcome.etag, lastModified: outcome.lastModified, ...(providerTitle ? { title: providerTitle } : {}) }, children: { found: children, listed: [] } };
  }

  const kind = detectContentKind({ contentType: outcome.contentType, filename: outcome.filename, body: outcome.body });
  if (!kind) throw new IngestFailure(`unsupported content type: ${outcome.contentType ?? 'unknown'}`);
  let extracted;
  try {
    const { body, charset, filename, url } = outcome;
    extracted = await ctx.outbound.extract({ body, charset, filename, url, contentType: MIME_TYPE_OF_KIND[kind] }, ctx.signal ? { signal: ctx.signal } : {});
  } catch (error) {
    // A stopping worker or an expired lease: the job is retried, the source not failed.
    ctx.signal?.throwIfAborted();
    if (error instanceof UnsupportedContentError) throw new IngestFailure(error.message);
    throw new IngestFailure(`could not extract the ${kind} content: ${(error as Error).message}`);
  }
  // Pages and files may carry a NUL or a broken surrogate; the database stores neither.
  const paragraphs = extracted.paragraphs.map(storableText).filter((p) => p.trim() !== '');
  if (paragraphs.length === 0) throw new IngestFailure('no extractable text');
  const title = storableText(extracted.title);

  const fingerprint = contentFingerprint(paragraphs);
  const comparison = compareContent(
    {
      paragraphs: source.paragraphs,
      oldParagraphs: source.oldParagraphs,
      changed: source.changed,
      fingerprint: source.contentFingerprint,
      linked: source.linkedKnowledgeId !== null,
    },
    paragraphs,
    fingerprint,
  );
  const titleGiven = source.misc.titleGiven === true;
  return {
    changes: {
      ...unchanged,
      title: titleGiven ? source.title : providerTitle || title || source.title,
      mimeType: MIME_TYPE_OF_KIND[kind],
      // Which extraction step gave an HTML page's text (main content, text blocks, structured data, meta description).
      ...(extracted.method ? { misc: { ...misc, extraction: extracted.method } } : {}),
      paragraphs,
      ...comparison,
      contentFingerprint: fingerprint,
      bodyHash,
      etag: outcome.etag,
      lastModified: outcome.lastModified,
    },
    children: { found: children, listed: [] },
  };
}

const ORPHAN_ERROR = 'processing stopped: the ingestion job ended without a result; refresh the source to try again';

/**
 * The orphan sweep of sources (jobs/job.ts): a source whose ingestion job the queue no longer holds
 * (its attempts ran out while a worker was dying) is marked FAILED, so no record waits forever.
 */
export const orphanedIngestions: OrphanSweep = {
  job: 'sources.ingest',
  stale: (ctx, olderThan) => unscopedStaleJobs(ctx.db, olderThan),
  fail: (ctx, s, olderThan) => failStaleJob(ctx.db, s.workspaceId, s.id, s.jobId, olderThan, ctx.clock.now(), ORPHAN_ERROR),
};
