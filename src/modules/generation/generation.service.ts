import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { llmProvider, LlmError } from '../../ai/index.js';
import type { RequestContext } from '../../context.js';
import { inTransaction } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import { storableText } from '../../http/text-guard.js';
import { requireAgent } from '../agents/index.js';
import { ARTICLE_LIMITS, FOLDER_LIMITS, parseTreeFile, type TreeRow, writeTreeFile } from '../knowledge/index.js';
import { existingSourceIds, LINKED_OPERATIONS } from '../sources/index.js';
import { generateKnowledgeJob } from './generation.jobs.js';
import { findJobs, insertJobs, type KnowledgeJobRow, type NewKnowledgeJob } from './generation.repository.js';
import type { bulkBodySchema, generateBodySchema } from './generation.schemas.js';
import { initializeTreeTask, type TreeOutput } from './generation.tasks.js';

type GenerateBody = z.output<typeof generateBodySchema>;
type BulkBody = z.output<typeof bulkBodySchema>;

/** The fields of a job row every request sets the same way. */
function jobRow(ctx: RequestContext, body: Pick<GenerateBody, 'restrictedOps' | 'instructions' | 'botId' | 'isDraft'>, now = ctx.clock.now()) {
  const { llm } = ctx.config;
  return {
    workspaceId: ctx.workspaceId,
    instructions: body.instructions ?? '',
    allowedOps: [...new Set(body.restrictedOps ?? LINKED_OPERATIONS)],
    botId: body.botId ?? null,
    isDraft: body.isDraft,
    status: 'PENDING',
    provider: llm.provider,
    model: llm.model,
    createdBy: ctx.apiKeyId,
    createdAt: now,
    updatedAt: now,
  } satisfies Partial<NewKnowledgeJob>;
}

/** Queues the jobs (rows and queue entries commit together); rows already FAILED are only recorded. */
async function queueJobs(ctx: RequestContext, rows: NewKnowledgeJob[]): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    await insertJobs(tx, rows);
    const runnable = rows.filter((r) => r.status === 'PENDING');
    await ctx.queue.enqueueMany(
      tx,
      generateKnowledgeJob,
      runnable.map((r) => ({ id: r.id, payload: { workspaceId: ctx.workspaceId, jobId: r.id } })),
    );
  });
}

/** POST /v2/knowledge/public: one generation job from candidate text. */
export async function queueGeneration(ctx: RequestContext, body: GenerateBody): Promise<{ backgroundJobId: string }> {
  if (body.botId) await requireAgent(ctx, body.botId);
  if (body.documentId && !(await existingSourceIds(ctx.db, ctx.workspaceId, [body.documentId])).has(body.documentId)) {
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
export async function queueBulkGeneration(ctx: RequestContext, body: BulkBody): Promise<{ jobs: { documentId: string; backgroundJobId: string }[] }> {
  if (body.botId) await requireAgent(ctx, body.botId);
  const ids = [...new Set(body.documentIds)];
  const existing = await existingSourceIds(ctx.db, ctx.workspaceId, ids);
  const now = ctx.clock.now();
  const rows: NewKnowledgeJob[] = ids.map((documentId) => ({
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
export async function getJobStatuses(ctx: RequestContext, jobIds: string[]): Promise<KnowledgeJobRow[]> {
  const ids = [...new Set(jobIds)];
  const rows = new Map((await findJobs(ctx.db, ctx.workspaceId, ids)).map((r) => [r.id, r]));
  const missing = ids.find((id) => !rows.has(id));
  if (missing) throw new AppError('not_found', `knowledge job ${missing} not found`);
  return ids.map((id) => rows.get(id)!);
}

/**
 * POST /v2/knowledge/public/tree/initialize: the tree file (the CSV `tree/persist` reads) of a
 * knowledge base designed from the prompt. Articles are drafts. The file is read back with the
 * import's own parser before it is sent, so persist accepts it unchanged.
 */
export async function initializeTree(ctx: RequestContext, initPrompt: string): Promise<string> {
  if (!/[\p{L}\p{N}]/u.test(initPrompt)) throw noTopics();
  let output: TreeOutput;
  try {
    ({ output } = await llmProvider(ctx.config).run(initializeTreeTask, { initPrompt }));
  } catch (error) {
    if (error instanceof LlmError) throw new AppError('bad_gateway', error.message);
    throw error;
  }
  const rows = treeRows(output);
  if (rows.length === 0) throw noTopics();
  const file = writeTreeFile(rows);
  try {
    parseTreeFile(file);
  } catch (error) {
    throw new AppError('bad_gateway', `the generated tree is not a valid tree file: ${(error as Error).message}`);
  }
  return file;
}

const noTopics = () =>
  new AppError('bad_request', 'initPrompt: no topics found; describe the help centre, for example as an outline of topics');

const clip = (text: string, max: number) => storableText(text).trim().slice(0, max).trim();
/** A list cell of the tree file separates items with `|`; an item keeps its text without it. */
const listItems = (items: string[], max: number) =>
  [...new Set(items.map((i) => clip(i.replace(/\|/g, '/'), max)).filter(Boolean))].slice(0, ARTICLE_LIMITS.listItems);

/**
 * The model's (or the built-in engine's) tree as rows of the tree file, within the article limits
 * and the import's rules: a folder named twice is one folder (its first description), an article
 * title appears once per folder, and text the database cannot store is dropped.
 */
function treeRows(output: TreeOutput): TreeRow[] {
  const folders = new Map<string, { folderPath: string[]; folderDescription: string; titles: Set<string>; rows: TreeRow[] }>();
  for (const folder of output.folders) {
    const folderPath = folder.path.map((t) => clip(t, FOLDER_LIMITS.title)).filter(Boolean);
    if (folderPath.length === 0) continue;
    const key = folderPath.join('\u0000').toLowerCase();
    let entry = folders.get(key);
    if (!entry) {
      entry = { folderPath, folderDescription: clip(folder.description, FOLDER_LIMITS.description), titles: new Set(), rows: [] };
      folders.set(key, entry);
    }
    for (const a of folder.articles) {
      const title = clip(a.title, ARTICLE_LIMITS.title);
      const mainKnowledge = clip(a.mainKnowledge, ARTICLE_LIMITS.mainKnowledge);
      if (!title || !mainKnowledge || entry.titles.has(title.toLowerCase())) continue;
      entry.titles.add(title.toLowerCase());
      entry.rows.push({
        line: 0,
        folderPath: entry.folderPath,
        folderDescription: entry.folderDescription,
        article: {
          title,
          mainKnowledge,
          agentInstruction: '',
          questions: listItems(a.questions, ARTICLE_LIMITS.question),
          keywords: listItems(a.keywords, ARTICLE_LIMITS.keyword),
          escalation: false,
          isDraft: true,
        },
      });
    }
  }
  return [...folders.values()].flatMap((f) =>
    f.rows.length ? f.rows : [{ line: 0, folderPath: f.folderPath, folderDescription: f.folderDescription }],
  );
}
