import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { authorOf, enqueueMany, inTransaction, type WorkspaceContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { requireAgent } from '../agents/index.js';
import { existingSources, LINKED_OPERATIONS } from '../sources/index.js';
import { findJobs, insertJobs, type KnowledgeJobRow, type NewKnowledgeJob } from './generation.repository.js';
import type { bulkBodySchema, generateBodySchema } from './generation.schemas.js';

type GenerateBody = z.output<typeof generateBodySchema>;
type BulkBody = z.output<typeof bulkBodySchema>;

/** The fields of a job row every request sets the same way. */
function jobRow(ctx: WorkspaceContext, body: Pick<GenerateBody, 'restrictedOps' | 'instructions' | 'botId' | 'isDraft'>, now = ctx.clock.now()) {
  const { llm } = ctx.config;
  return {
    instructions: body.instructions ?? '',
    allowedOps: [...new Set(body.restrictedOps ?? LINKED_OPERATIONS)],
    botId: body.botId ?? null,
    isDraft: body.isDraft,
    status: 'PENDING',
    provider: llm.provider,
    model: llm.model,
    createdBy: authorOf(ctx),
    createdAt: now,
    updatedAt: now,
  } satisfies Partial<NewKnowledgeJob>;
}

/** Queues the jobs (rows and queue entries commit together); rows already FAILED are only recorded. */
async function queueJobs(ctx: WorkspaceContext, rows: Omit<NewKnowledgeJob, 'workspaceId'>[]): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    await insertJobs(tx.db, ctx.workspaceId, rows);
    const runnable = rows.filter((r) => r.status === 'PENDING');
    await enqueueMany(
      tx,
      'knowledge.generate',
      runnable.map((r) => ({ id: r.id, payload: { workspaceId: ctx.workspaceId, jobId: r.id } })),
    );
  });
}

/** POST /v2/knowledge/public: one generation job from candidate text. */
export async function queueGeneration(ctx: WorkspaceContext, body: GenerateBody): Promise<{ backgroundJobId: string }> {
  if (body.botId) await requireAgent(ctx, body.botId);
  if (body.documentId && !(await existingSources(ctx, [body.documentId])).has(body.documentId)) {
    throw new AppError('bad_request', `documentId: no source ${body.documentId} in this workspace`);
  }
  const id = randomUUID();
  await queueJobs(ctx, [
    {
      ...jobRow(ctx, body),
      id,
      origin: body.origin,
      documentId: body.documentId ?? null,
      hcEventId: body.hcEventId ?? null,
      candidateKnowledge: body.candidateKnowledge,
    },
  ]);
  return { backgroundJobId: id };
}

/**
 * POST /v2/knowledge/public/bulk: one generate-and-save job per source, in the order given
 * (repeated ids once). Each job stands alone: an id that names no source of the workspace gets a
 * job that is FAILED at once, so the others still run.
 */
export async function queueBulkGeneration(ctx: WorkspaceContext, body: BulkBody): Promise<{ jobs: { documentId: string; backgroundJobId: string }[] }> {
  if (body.botId) await requireAgent(ctx, body.botId);
  const ids = [...new Set(body.documentIds)];
  const existing = await existingSources(ctx, ids);
  const now = ctx.clock.now();
  const rows: Omit<NewKnowledgeJob, 'workspaceId'>[] = ids.map((documentId) => ({
    ...jobRow(ctx, body, now),
    id: randomUUID(),
    origin: 'sources',
    documentId,
    ...(existing.has(documentId)
      ? {}
      : { status: 'FAILED', error: `no source ${documentId} in this workspace`, startedAt: now, completedAt: now }),
  }));
  await queueJobs(ctx, rows);
  return { jobs: rows.map((r) => ({ documentId: r.documentId as string, backgroundJobId: r.id })) };
}

/** POST /v2/knowledge/public/jobs/status: the jobs in the order asked; 404 naming an unknown id. */
export async function getJobStatuses(ctx: WorkspaceContext, jobIds: string[]): Promise<KnowledgeJobRow[]> {
  const ids = [...new Set(jobIds)];
  const rows = new Map((await findJobs(ctx.db, ctx.workspaceId, ids)).map((r) => [r.id, r]));
  const missing = ids.find((id) => !rows.has(id));
  if (missing) throw new AppError('not_found', `knowledge job ${missing} not found`);
  return ids.map((id) => rows.get(id)!);
}

/**
 * A scheduled re-sync found a change on a source linked to knowledge (`source.synced`): one job
 * regenerates from it as POST /v2/knowledge/public/bulk does with its defaults (every operation,
 * drafts to review), in the transaction that records the change. Publishing the draft emits
 * `article.published` as usual.
 */
export async function queueSyncedSourceGeneration(ctx: WorkspaceContext, sourceId: string): Promise<string> {
  const id = randomUUID();
  await queueJobs(ctx, [{ ...jobRow(ctx, { isDraft: true }), id, origin: 'sources', documentId: sourceId }]);
  return id;
}
