import { createHash } from 'node:crypto';
import { z } from 'zod';
import { inTransaction } from '../../db/database.js';
import { storableText } from '../../http/text-guard.js';
import { defineJob, defineOrphanSweep, type JobContext } from '../../jobs/job.js';
import { detectContentKind, MIME_TYPE_OF_KIND, UnsupportedContentError } from '../../ingest/extract/index.js';
import { ingestRuntime } from '../../ingest/runtime.js';
import { compareContent, contentFingerprint } from './changes.js';
import { FETCHERS, IngestFailure } from './fetchers.js';
import { claimJob, failOrphanedJobs, finishJob, type NewSource, type SourceRow } from './sources.repository.js';
import type { SourceKind } from './sources.schemas.js';

const RETRY_LIMIT = 3;


const ingestPayload = z
  .object({ workspaceId: z.uuid(), sourceId: z.uuid(), kind: z.enum(['add', 'refresh']) })
  .strict();
export type IngestPayload = z.infer<typeof ingestPayload>;

/**
 * Fetches and extracts one source: PENDING -> IN_PROGRESS -> COMPLETED | FAILED. The job's id is
 * the source's `linkedJobId`; a job that is no longer the source's latest (re-queued or deleted)
 * does nothing. Transient failures (timeouts, 5xx, 429) are retried with backoff, and the record
 * stays IN_PROGRESS until the last attempt decides.
 */
export const ingestSourceJob = defineJob({
  name: 'sources.ingest',
  payload: ingestPayload,
  options: (config) => ({
    retryLimit: RETRY_LIMIT,
    retryDelaySeconds: config.ingest.retryDelaySeconds,
    retryDelayMaxSeconds: config.ingest.retryDelaySeconds * 12,
    expireInSeconds: config.ingest.leaseSeconds,
  }),
  concurrency: (config) => config.ingest.concurrency,
  handler: ingestSource,
});

async function ingestSource(ctx: JobContext, payload: IngestPayload): Promise<void> {
  const source = await inTransaction(ctx.db, (tx) => claimJob(tx, payload.workspaceId, payload.sourceId, ctx.jobId, ctx.clock.now()));
  if (!source) {
    ctx.log.info({ sourceId: payload.sourceId }, 'source job superseded or source deleted; nothing to do');
    return;
  }
  const finalAttempt = ctx.retryCount >= RETRY_LIMIT;
  let result: { status: 'COMPLETED' | 'FAILED'; changes: Partial<NewSource> };
  try {
    result = { status: 'COMPLETED', changes: await process(ctx, source, payload.kind === 'refresh') };
  } catch (error) {
    if (error instanceof IngestFailure && (!error.retryable || finalAttempt)) {
      result = { status: 'FAILED', changes: { success: false, error: error.message } };
    } else if (finalAttempt) {
      ctx.log.error({ err: error, sourceId: source.id }, 'source ingestion failed unexpectedly');
      result = { status: 'FAILED', changes: { success: false, error: 'processing failed unexpectedly; try again later' } };
    } else {
      throw error;
    }
  }
  if (result.changes.error) result.changes.error = storableText(result.changes.error);
  const written = await inTransaction(ctx.db, (tx) =>
    finishJob(tx, source.workspaceId, source.id, ctx.jobId, result.status, result.changes, ctx.clock.now()),
  );
  ctx.log.info({ sourceId: source.id, status: result.status, written: Boolean(written), error: result.changes.error }, 'source processed');
}

/** Fetch, extract and compare; returns the record's new content fields. Throws IngestFailure. */
async function process(ctx: JobContext, source: SourceRow, refresh: boolean): Promise<Partial<NewSource>> {
  const fetcher = FETCHERS[source.source as SourceKind];
  if (!fetcher) throw new IngestFailure(`${source.source} is not connected in this workspace`);
  const outcome = await fetcher.fetch(source, { db: ctx.db, config: ctx.config, signal: ctx.signal, refresh });
  const unchanged = { success: true, error: '' };
  if (outcome.kind === 'not_modified') return unchanged;

  const bodyHash = createHash('sha256').update(outcome.body).digest('hex');
  if (source.success && source.bodyHash === bodyHash) return { ...unchanged, etag: outcome.etag, lastModified: outcome.lastModified };

  const kind = detectContentKind({ contentType: outcome.contentType, filename: outcome.filename, body: outcome.body });
  if (!kind) throw new IngestFailure(`unsupported content type: ${outcome.contentType ?? 'unknown'}`);
  let extracted;
  try {
    const { body, charset, filename, url } = outcome;
    extracted = await ingestRuntime(ctx.config).extract({ body, charset, filename, url, contentType: MIME_TYPE_OF_KIND[kind] }, { signal: ctx.signal });
  } catch (error) {
    // A stopping worker or an expired lease: the job is retried, the source not failed.
    ctx.signal.throwIfAborted();
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
    ...unchanged,
    title: titleGiven ? source.title : title || source.title,
    mimeType: MIME_TYPE_OF_KIND[kind],
    paragraphs,
    ...comparison,
    contentFingerprint: fingerprint,
    bodyHash,
    etag: outcome.etag,
    lastModified: outcome.lastModified,
  };
}

/** Every minute: no record stays PENDING or IN_PROGRESS after its job is gone from the queue. */
export const sweepSourceJobsJob = defineOrphanSweep(
  'sources.sweep',
  'source jobs',
  'processing stopped: the ingestion job ended without a result; refresh the source to try again',
  failOrphanedJobs,
);
