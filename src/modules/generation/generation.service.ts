import type { ExistingArticle, GeneratedArticle, GenerationInput, GenerationOutput } from '../../ai/contracts/generate-knowledge.js';
import { LlmError, NO_USAGE, type TokenUsage } from '../../ai/index.js';
import { emit, inTransaction, onBehalfOf, type WorkspaceContext } from '../../context.js';
import { withLocks } from '../../db/key-locks.js';
import type { OrphanSweep } from '../../jobs/job.js';
import { AppError } from '../../http/errors.js';
import { storableText } from '../../http/text-guard.js';
import {
  ARTICLE_LIMITS,
  type ArticleRow,
  createArticle,
  createDraftFromLive,
  findOpenDraft,
  folderChoices,
  getArticle,
  getArticlesByIds,
  searchKnowledge,
  updateArticleContent,
} from '../knowledge/index.js';
import { getSourcesByIds, type LinkedOperation, linkKnowledge, type SourceRow } from '../sources/index.js';
import { claimJob, failStaleJob, finishJob, type KnowledgeJobRow, unscopedStaleJobs } from './generation.repository.js';
import { ARTICLE_ORIGIN_OF, type GenerationOrigin } from './generation.schemas.js';
import { generateKnowledgeTask, PROMPT_ARTICLE_CHARS } from './generation.tasks.js';

/** Existing articles a job weighs the text against (the best matches of the knowledge search). */
const CANDIDATE_ARTICLES = 5;
/** How much of the text makes the search query that finds them. */
const QUERY_CHARS = 400;

/** A job's failure with the words its `error` shows, and the tokens spent before it. */
class GenerationFailure extends Error {
  constructor(
    message: string,
    readonly usage: TokenUsage = NO_USAGE,
  ) {
    super(message);
  }
}

/**
 * One knowledge-generation job: PENDING -> IN_PROGRESS -> COMPLETED | FAILED. It reads the text
 * (the request's candidate text, or the source's paragraphs), finds the most similar live articles
 * and the folders, asks the model (or the built-in engine) for a decision within the allowed
 * operations, and writes the article, the source's link and the job's result in one transaction.
 * Every failure ends the job FAILED with `error` set and nothing written. The end emits
 * `knowledge.generated`. What the job writes is stamped with the key that queued it.
 */
export async function runGeneration(ctx: WorkspaceContext, jobId: string): Promise<void> {
  const job = await claimJob(ctx.db, ctx.workspaceId, jobId, ctx.clock.now());
  if (!job) return;
  const jobCtx = onBehalfOf(ctx, job.createdBy);
  let result: JobResult;
  try {
    result = await generate(jobCtx, job);
  } catch (error) {
    const known = error instanceof GenerationFailure || error instanceof LlmError;
    if (!known) ctx.log.error({ err: error, jobId: job.id }, 'knowledge job failed unexpectedly');
    const usage = error instanceof GenerationFailure || error instanceof LlmError ? error.usage : NO_USAGE;
    const message = known ? error.message : `generation failed unexpectedly: ${(error as Error).message}`;
    result = { status: 'FAILED', error: storableText(message), ...tokens(usage) };
    await inTransaction(jobCtx, async (tx) => {
      if (await finishJob(tx.db, ctx.workspaceId, job.id, result, ctx.clock.now())) await emitEnd(tx, job.id, result);
    });
  }
  ctx.log.info({ jobId: job.id, status: result.status, operation: result.operation, error: result.error }, 'knowledge job ended');
}

type JobResult = Parameters<typeof finishJob>[3];

function emitEnd(ctx: WorkspaceContext, jobId: string, result: JobResult): Promise<void> {
  return emit(ctx, 'knowledge.generated', {
    jobId,
    status: result.status === 'COMPLETED' ? 'COMPLETED' : 'FAILED',
    operation: result.operation ?? null,
    articleId: result.hcArticleId ?? null,
  });
}

const tokens = (usage: TokenUsage) => ({ inputTokens: usage.inputTokens, outputTokens: usage.outputTokens });

/** Decides and writes; returns the result it recorded. Throws GenerationFailure or LlmError. */
async function generate(ctx: WorkspaceContext, job: KnowledgeJobRow): Promise<JobResult> {
  const source = job.documentId ? await requireSource(ctx, job) : undefined;
  const text = job.candidateKnowledge ?? source?.paragraphs.join('\n\n') ?? '';
  const titleHint = source?.title || null;
  const linked = source?.linkedKnowledgeId ? await getArticle(ctx, source.linkedKnowledgeId) : undefined;
  const linkable = linked && !(linked.isDraft && linked.isDraftPublished) ? linked : undefined;
  // The source's own article (made from it) follows it; an article it was merged into, or only
  // found to cover it, is a candidate like any other and keeps what else it says.
  const own = linkable && linkable.misc.sourceId === source?.id ? linkable : undefined;

  const query = `${titleHint ?? ''}\n${text.slice(0, QUERY_CHARS)}`;
  const hits = await searchKnowledge(ctx, { query, agentId: job.botId ?? undefined, limit: CANDIDATE_ARTICLES });
  const found = hits.map((h) => h.article.id);
  if (linkable && !found.includes(linkable.id)) found.unshift(linkable.id);
  // Jobs that may update the same article take turns from here to their write, so that each one
  // merges into what the one before it wrote: the candidates are read again once they are held.
  return withLocks(ctx.db, found.map((id) => articleLockKey(ctx.workspaceId, id)), async (db) => {
    const held = { ...ctx, db };
    return decideAndWrite(held, job, { text, titleHint, source, own, candidates: await getArticlesByIds(held, found) });
  });
}

/** What a job decides from: its text and source, and the candidates as read under their locks. */
interface JobText {
  text: string;
  titleHint: string | null;
  source: SourceRow | undefined;
  /** The source's own article (made from it), which the text rewrites. */
  own: ArticleRow | undefined;
  candidates: ArticleRow[];
}

/**
 * The lock a job holds on a candidate article from reading it to its write (db/key-locks.ts). An
 * editor's change takes no lock: a job whose article changed meanwhile still fails (apply).
 */
const articleLockKey = (workspaceId: string, articleId: string) => `parley.article:${workspaceId}:${articleId}`;

/** Decides (the model or the built-in engine) and writes; returns the result it recorded. */
async function decideAndWrite(ctx: WorkspaceContext, job: KnowledgeJobRow, read: JobText): Promise<JobResult> {
  const { text, titleHint, source, own, candidates } = read;
  const folders = await folderChoices(ctx, job.botId ?? undefined);
  // With no folder and no article, adding is the only thing a job could do: it says what is missing
  // rather than ending as DO_NOTHING (docs/ai.md).
  if (job.allowedOps.includes('ADD_ARTICLE_TO_FOLDER') && folders.length === 0 && candidates.length === 0) {
    throw new GenerationFailure(
      job.botId
        ? "there is no active folder to add an article to among the agent's folders; attach a folder to the agent first"
        : 'there is no active folder to add an article to; create a folder first',
    );
  }

  const input: GenerationInput = {
    text,
    titleHint,
    instructions: job.instructions,
    allowed: job.allowedOps as LinkedOperation[],
    candidates: candidates.map(existing),
    folders,
    linkedArticleId: own?.id ?? null,
  };
  const { output, usage } = await ctx.llm.run(generateKnowledgeTask, input, ctx.signal ? { signal: ctx.signal } : {});
  const decision = checkDecision({ ...output, reason: output.reason.trim() }, input, usage);
  const target = candidates.find((a) => a.id === decision.articleId);
  // The source's own article is rewritten from the text, so what the model did not see is not lost.
  const cut = target && target.id !== own?.id && target.mainKnowledge.length > PROMPT_ARTICLE_CHARS;
  if (decision.operation === 'UPDATE_ARTICLE' && ctx.config.llm.provider !== 'builtin' && cut) {
    throw new GenerationFailure(
      `article "${target.title}" is longer than the ${PROMPT_ARTICLE_CHARS} characters a model is shown; ` +
        'updating it would drop its end, so it is left to an editor',
      usage,
    );
  }

  return inTransaction(ctx, async (tx) => {
    try {
      return await write(tx);
    } catch (error) {
      // A refused write (an article changed or a folder deleted meanwhile) still spent the tokens.
      if (error instanceof GenerationFailure || error instanceof AppError) throw new GenerationFailure(error.message, usage);
      ctx.log.error({ err: error, jobId: job.id }, 'knowledge job failed unexpectedly while writing');
      throw new GenerationFailure(`generation failed unexpectedly: ${(error as Error).message}`, usage);
    }
  });

  async function write(tx: WorkspaceContext): Promise<JobResult> {
    // The source is locked: a delete waits, or has happened and this job writes nothing.
    const current = job.documentId ? await requireSource(tx, job, { lock: true }) : undefined;
    if (current && current.linkedKnowledgeId !== source?.linkedKnowledgeId) {
      throw new GenerationFailure('another job linked this source while this one ran; run the job again', usage);
    }
    const written = await apply(tx, job, decision, candidates, current);
    if (job.documentId) {
      await linkKnowledge(tx, job.documentId, {
        linkedKnowledgeId: written.linkedId,
        linkedOperation: decision.operation,
        linkedReason: storableText(decision.reason),
      });
    }
    const result: JobResult = {
      status: 'COMPLETED',
      error: '',
      hcArticleId: written.hcArticleId,
      operation: decision.operation,
      reason: storableText(decision.reason),
      ...tokens(usage),
    };
    if (!(await finishJob(tx.db, job.workspaceId, job.id, result, ctx.clock.now()))) {
      throw new GenerationFailure('the job was ended by another worker');
    }
    await emitEnd(tx, job.id, result);
    return result;
  }
}

async function requireSource(ctx: WorkspaceContext, job: KnowledgeJobRow, options: { lock?: boolean } = {}): Promise<SourceRow> {
  const [source] = await getSourcesByIds(ctx, [job.documentId!], options);
  if (!source) throw new GenerationFailure(`source ${job.documentId} no longer exists`);
  if (job.candidateKnowledge !== null) return source;
  if (source.linkedJobStatus !== 'COMPLETED' || !source.success) {
    throw new GenerationFailure(
      source.linkedJobStatus === 'FAILED' || (source.linkedJobStatus === 'COMPLETED' && !source.success)
        ? `source ${source.id} has no content: its ingestion failed (${source.error || 'no reason recorded'})`
        : `source ${source.id} has no content yet: its ingestion is ${source.linkedJobStatus ?? 'not queued'}; generate after it is COMPLETED`,
    );
  }
  if (source.paragraphs.length === 0) throw new GenerationFailure(`source ${source.id} has no extracted text`);
  return source;
}

function existing(article: ArticleRow): ExistingArticle {
  return {
    id: article.id,
    title: article.title,
    mainKnowledge: article.mainKnowledge,
    questions: article.questions,
    keywords: article.keywords,
    parentFolderId: article.parentFolderId,
  };
}

interface CheckedDecision {
  operation: LinkedOperation;
  articleId: string | null;
  folderId: string | null;
  reason: string;
  article: GeneratedArticle | null;
}

/** The answer held to the request: an allowed operation on ids it was shown, with a usable article. */
function checkDecision(output: GenerationOutput, input: GenerationInput, usage: TokenUsage): CheckedDecision {
  const fail = (why: string) => new GenerationFailure(`the ${output.operation} decision cannot be applied: ${why}`, usage);
  if (!input.allowed.includes(output.operation)) throw fail(`it is not among the allowed operations (${input.allowed.join(', ')})`);
  const known = new Set(input.candidates.map((a) => a.id));
  const article = output.article ? fitArticle(output.article) : null;
  switch (output.operation) {
    case 'ADD_ARTICLE_TO_FOLDER':
      if (input.folders.length === 0) throw fail('there is no active folder to add an article to; create a folder first');
      if (!output.folderId) throw fail(`no folder was chosen (${output.reason})`);
      if (!input.folders.some((f) => f.id === output.folderId)) throw fail(`folder ${output.folderId} is not one of the folders`);
      if (!article) throw fail(output.article ? 'the article has a blank title or body' : 'no article was written');
      return { ...output, articleId: null, article };
    case 'UPDATE_ARTICLE':
      if (!output.articleId) throw fail(`no article was chosen (${output.reason})`);
      if (!known.has(output.articleId)) throw fail(`article ${output.articleId} is not one of the candidate articles`);
      if (!article) throw fail(output.article ? 'the article has a blank title or body' : 'no article was written');
      return { ...output, folderId: null, article };
    default:
      return { ...output, articleId: output.articleId && known.has(output.articleId) ? output.articleId : null, folderId: null, article: null };
  }
}

/** A generated article within the article limits; a blank title or body cannot be saved. */
function fitArticle(article: GeneratedArticle): GeneratedArticle | null {
  const list = (items: string[], max: number) =>
    [...new Set(items.map((i) => storableText(i).trim()).filter((i) => i && i.length <= max))].slice(0, ARTICLE_LIMITS.listItems);
  const title = storableText(article.title).trim().slice(0, ARTICLE_LIMITS.title).trim();
  const mainKnowledge = storableText(article.mainKnowledge).trim().slice(0, ARTICLE_LIMITS.mainKnowledge).trim();
  if (!title || !mainKnowledge) return null;
  return {
    title,
    mainKnowledge,
    questions: list(article.questions, ARTICLE_LIMITS.question),
    keywords: list(article.keywords, ARTICLE_LIMITS.keyword),
    agentInstruction: storableText(article.agentInstruction).slice(0, ARTICLE_LIMITS.agentInstruction),
  };
}

/**
 * Writes the decision. Returns the article the job names (`hcArticleId`: the new article, the
 * draft of an update, or the article that already covers the text) and the one the source links
 * to (the live article, or the draft while no live article exists).
 */
async function apply(
  ctx: WorkspaceContext,
  job: KnowledgeJobRow,
  decision: CheckedDecision,
  candidates: ArticleRow[],
  source: SourceRow | undefined,
): Promise<{ hcArticleId: string | null; linkedId: string | null }> {
  const origin = ARTICLE_ORIGIN_OF[job.origin as GenerationOrigin];
  const misc = { knowledgeJobId: job.id, ...(job.documentId ? { sourceId: job.documentId } : {}), ...(job.hcEventId ? { hcEventId: job.hcEventId } : {}) };
  if (decision.operation === 'ADD_ARTICLE_TO_FOLDER') {
    const row = await createArticle(ctx, {
      ...decision.article!,
      escalation: false,
      parentFolderId: decision.folderId!,
      isDraft: job.isDraft,
      origin,
      misc,
    });
    return { hcArticleId: row.id, linkedId: row.id };
  }
  if (decision.operation === 'UPDATE_ARTICLE') {
    const read = candidates.find((a) => a.id === decision.articleId)!;
    const target = await getArticle(ctx, read.id, { lock: true });
    if (!target || (target.isDraft && target.isDraftPublished)) {
      throw new GenerationFailure(`article "${read.title}" was deleted or published while the job ran; run the job again`);
    }
    if (target.version !== read.version || target.updatedAt.getTime() !== read.updatedAt.getTime()) {
      throw new GenerationFailure(
        `article "${read.title}" changed while the job ran (version ${read.version} -> ${target.version}); ` +
          'run the job again so that change is not lost',
      );
    }
    const content = {
      ...decision.article!,
      agentInstruction: decision.article!.agentInstruction || target.agentInstruction,
      escalation: target.escalation,
    };
    // An open draft (the source's own, not yet published) is updated in place.
    if (target.isDraft || !job.isDraft) {
      await updateArticleContent(ctx, target.id, content);
      return { hcArticleId: target.id, linkedId: target.id };
    }
    // A source's earlier draft of the same version that nobody touched yet is revised rather than
    // repeated; a draft a reviewer edited is kept as it is, and a new draft made.
    const pending = source ? await findOpenDraft(ctx, target, source.id) : undefined;
    if (pending) {
      await updateArticleContent(ctx, pending.id, content);
      return { hcArticleId: pending.id, linkedId: target.id };
    }
    const draft = await createDraftFromLive(ctx, target.id, content, origin, misc);
    return { hcArticleId: draft.id, linkedId: target.id };
  }
  return { hcArticleId: decision.articleId, linkedId: decision.articleId ?? source?.linkedKnowledgeId ?? null };
}

const ORPHAN_ERROR = 'processing stopped: the generation job ended without a result; queue it again';

/** The orphan sweep of knowledge jobs (jobs/job.ts): a job whose queue entry is gone is marked FAILED. */
export const orphanedGenerations: OrphanSweep = {
  job: 'knowledge.generate',
  stale: async (ctx, olderThan) => (await unscopedStaleJobs(ctx.db, olderThan)).map((j) => ({ ...j, jobId: j.id })),
  fail: (ctx, j, olderThan) => failStaleJob(ctx.db, j.workspaceId, j.id, olderThan, ctx.clock.now(), ORPHAN_ERROR),
};
