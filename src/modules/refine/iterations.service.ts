import type { ChangeOutput, DiagnoseInput, DiagnoseOutput } from '../../ai/contracts/diagnose.js';
import { LlmError } from '../../ai/index.js';
import { emit, inTransaction, type ProcessContext, type WorkspaceContext } from '../../context.js';
import type { AnswerSnapshot, PromptSectionValue, PromptSet, RootCause } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { storableText } from '../../http/text-guard.js';
import type { JobRecord } from '../../jobs/job.js';
import { createPromptDraft, discardPromptDraft, getAgentPrompt, getPromptDraft, workspaceDefaultPrompts } from '../agents/index.js';
import { type AnswerOverlay, type AnsweredTurn, type EventRow, postEvent, readTrace, requireAnsweredTurn } from '../conversations/index.js';
import { createArticle, createDraftFromLive, deleteArticles, folderChoices, getArticle, getArticlesByIds, searchKnowledge } from '../knowledge/index.js';
import { createRuleDraft, discardRuleDraft, getRuleDraft, proposeRuleChange, publishedRulesForAgent, type RuleWithAgents } from '../rules/index.js';
import {
  type ChangeRow,
  deleteChanges,
  findIteration,
  findSession,
  insertChange,
  type IterationRow,
  listChanges,
  moveIteration,
  moveIterationIfStale,
  type SessionRow,
  unscopedStaleIterations,
} from './refine.repository.js';
import { RUNNING_STATUSES } from './refine.schemas.js';
import { diagnoseTask } from './refine.tasks.js';

/**
 * The Refine with AI iteration (docs/refine.md), run by the `refine.iterate` job: diagnose the
 * reply, draft the change through the owners' draft paths (origin FIX_REVIEW), and replay the
 * customer's message with the drafts overlaid in a new conversation of source `replay`.
 */

type Ctx = WorkspaceContext;

/** How many articles the diagnosis reads: the best for the question and for the feedback. */
const DIAGNOSIS_ARTICLES = 4;

export const snapshot = (conversationId: string, event: EventRow): AnswerSnapshot => ({
  interactionId: conversationId,
  eventId: event.id,
  originalEventId: event.userEventId,
  content: event.message,
  role: event.role,
  type: event.type,
  createdAt: event.createdAt.toISOString(),
});

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs one iteration: diagnose, draft the change, replay. Idempotent: a worker that died leaves
 * the iteration running, and the retry starts it over (the drafts of the earlier attempt are
 * discarded first). Any failure ends it `failed` with the reason.
 */
export async function runIteration(ctx: Ctx, iterationId: string): Promise<void> {
  const now = ctx.clock.now();
  if (!(await moveIteration(ctx.db, ctx.workspaceId, iterationId, RUNNING_STATUSES, { status: 'generating_changes', startedAt: now, updatedAt: now, error: null }))) return;
  const iteration = (await findIteration(ctx.db, ctx.workspaceId, iterationId))!;
  const session = (await findSession(ctx.db, ctx.workspaceId, iteration.sessionId))!;
  try {
    await restart(ctx, session, iteration);
    await iterate(ctx, session, iteration);
  } catch (error) {
    const known = error instanceof AppError || error instanceof LlmError;
    if (!known) ctx.log.error({ err: error, iterationId }, 'fix iteration failed unexpectedly');
    const at = ctx.clock.now();
    await moveIteration(ctx.db, ctx.workspaceId, iterationId, RUNNING_STATUSES, {
      status: 'failed',
      error: storableText(known ? errorText(error) : `the iteration failed unexpectedly: ${errorText(error)}`).slice(0, 2_000),
      completedAt: at,
      updatedAt: at,
    });
  }
}

/** Drops what an earlier attempt of this iteration left (its changes and their drafts, not those carried over). */
async function restart(ctx: Ctx, session: SessionRow, iteration: IterationRow): Promise<void> {
  const own = await listChanges(ctx.db, ctx.workspaceId, [iteration.id]);
  if (own.length === 0) return;
  const carried = iteration.previousIterationId ? await listChanges(ctx.db, ctx.workspaceId, [iteration.previousIterationId]) : [];
  const shared = new Set(carried.flatMap((c) => [c.draftPromptVersionId, c.draftArticleId, c.draftRuleVersionId]).filter(Boolean));
  await discardDrafts(ctx, session, own.filter((c) => ![c.draftPromptVersionId, c.draftArticleId, c.draftRuleVersionId].some((d) => d && shared.has(d))));
  await deleteChanges(ctx.db, ctx.workspaceId, iteration.id);
}

/** What the drafts of the iterations so far change, as the replay overlays it. */
interface Drafts {
  prompts: { draftId: string; prompts: PromptSet } | null;
  articles: { draftId: string; replacesArticleId: string | null }[];
  rules: { draftId: string; rule: RuleWithAgents }[];
}

async function iterate(ctx: Ctx, session: SessionRow, iteration: IterationRow): Promise<void> {
  const turn = await requireAnsweredTurn(ctx, session.conversationId, session.targetEventId);
  const carried = iteration.previousIterationId ? await listChanges(ctx.db, ctx.workspaceId, [iteration.previousIterationId]) : [];
  const drafts = await draftsOf(ctx, session, carried);
  const liveRules = await publishedRulesForAgent(ctx, session.agentId, 'intent');
  const rules = liveRules.map((r) => drafts.rules.find((d) => d.rule.id === r.id)?.rule ?? r);
  const input = await diagnosisInput(ctx, turn, iteration.feedbackNote, drafts, rules);
  const { output } = await ctx.llm.run(diagnoseTask, input, ctx.signal ? { signal: ctx.signal } : {});
  checkIds(output, input);

  // The changes as drafts, with the carried changes they do not replace, in one transaction with the iteration still running.
  const kept = carried.filter((c) => !output.changes.some((next) => sameTarget(c, next)));
  const made: MadeDraft[] = [];
  try {
    for (const next of output.changes) made.push(await makeDraft(ctx, session, turn, next, output, drafts, rules));
  } catch (error) {
    await discardDrafts(ctx, session, made.map(asChange));
    throw error;
  }
  const at = ctx.clock.now();
  const moved = await inTransaction(ctx, async (tx) => {
    const current = await findIteration(tx.db, ctx.workspaceId, iteration.id, { lock: true });
    if (current?.status !== 'generating_changes') return false;
    // The main cause first: changes are listed by creation time.
    for (const [i, change] of [...made.map(asChange), ...kept].entries()) {
      await insertChange(tx.db, ctx.workspaceId, {
        sessionId: session.id,
        iterationId: iteration.id,
        conversationId: session.conversationId,
        targetEventId: session.targetEventId,
        rootCause: change.rootCause,
        changeType: change.changeType,
        draftPromptVersionId: change.draftPromptVersionId,
        draftArticleId: change.draftArticleId,
        draftRuleVersionId: change.draftRuleVersionId,
        warnings: change.warnings,
        createdAt: new Date(at.getTime() + i),
      });
    }
    return moveIteration(tx.db, ctx.workspaceId, iteration.id, ['generating_changes'], { status: 'replaying', summary: output.summary, confidence: output.confidence, warnings: output.warnings, updatedAt: at });
  });
  if (!moved) {
    await discardDrafts(ctx, session, made.map(asChange));
    return;
  }
  if (made.length === 0) {
    const done = ctx.clock.now();
    await moveIteration(ctx.db, ctx.workspaceId, iteration.id, ['replaying'], { status: 'no_change', completedAt: done, updatedAt: done });
    return;
  }

  // Replay the customer's message with every draft of the iteration overlaid.
  const overlaid = await draftsOf(ctx, session, await listChanges(ctx.db, ctx.workspaceId, [iteration.id]));
  const overlay: AnswerOverlay = {
    ...(overlaid.prompts ? { prompts: overlaid.prompts.prompts } : {}),
    ...(overlaid.rules.length ? { rules: overlaid.rules.map((r) => r.rule) } : {}),
    ...(overlaid.articles.length ? { articleDrafts: overlaid.articles } : {}),
  };
  const events = await postEvent(
    ctx,
    {
      content: turn.userEvent.message,
      role: 'user',
      botId: session.agentId,
      metadata: { user_attributes: turn.conversation.userAttributes, channel: turn.conversation.channel as 'chat' | 'email' },
    },
    { source: 'replay', overlay },
  );
  const reply = events.find((e) => e.role !== 'user') ?? null;
  const replayed = reply ? snapshot(reply.conversationId, reply) : null;
  const old = iteration.oldAnswerSnapshot as AnswerSnapshot | null;
  const same = (replayed?.content ?? null) === (old?.content ?? null);
  const done = ctx.clock.now();
  await inTransaction(ctx, async (tx) => {
    const ended = await moveIteration(tx.db, ctx.workspaceId, iteration.id, ['replaying'], {
      status: same ? 'no_change' : 'ready',
      replayConversationId: events[0]!.conversationId,
      replayEventId: reply?.id ?? null,
      newAnswerSnapshot: replayed,
      completedAt: done,
      updatedAt: done,
    });
    if (ended && !same) await emit(tx, 'refine.iteration.ready', {
        sessionId: session.id,
        iterationId: iteration.id,
        conversationId: session.conversationId,
        targetEventId: session.targetEventId,
      });
  });
}

/** The drafts behind a list of changes, as they are now. */
async function draftsOf(ctx: Ctx, session: SessionRow, changes: readonly ChangeRow[]): Promise<Drafts> {
  const drafts: Drafts = { prompts: null, articles: [], rules: [] };
  const liveRules = changes.some((c) => c.draftRuleVersionId) ? await publishedRulesForAgent(ctx, session.agentId, 'intent') : [];
  for (const change of changes) {
    if (change.draftPromptVersionId) {
      const draft = await getPromptDraft(ctx, session.agentId, change.draftPromptVersionId);
      drafts.prompts = { draftId: draft.id, prompts: draft.prompts };
    }
    if (change.draftArticleId) {
      const draft = await getArticle(ctx, change.draftArticleId);
      if (draft) drafts.articles.push({ draftId: draft.id, replacesArticleId: draft.originalArticleId });
    }
    if (change.draftRuleVersionId) {
      const draft = await getRuleDraft(ctx, change.draftRuleVersionId);
      const live = liveRules.find((r) => r.id === draft?.ruleId);
      if (draft && live) drafts.rules.push({ draftId: draft.id, rule: { ...live, name: draft.item.name, description: draft.item.description, flowConfig: draft.item.flowConfig } });
    }
  }
  return drafts;
}

/** What the diagnosis reads: the reply's trace, the feedback, the rules and the articles that bear on both. */
async function diagnosisInput(ctx: Ctx, turn: AnsweredTurn, feedback: string, drafts: Drafts, rules: RuleWithAgents[]): Promise<DiagnoseInput> {
  const trace = readTrace(turn.event.metadata);
  const overlay = drafts.articles.length
    ? { include: drafts.articles.map((d) => d.draftId), exclude: drafts.articles.flatMap((d) => (d.replacesArticleId ? [d.replacesArticleId] : [])) }
    : undefined;
  const search = (query: string) => searchKnowledge(ctx, { query, agentId: turn.conversation.agentId, limit: DIAGNOSIS_ARTICLES, ...(overlay ? { overlay } : {}) });
  const [forQuestion, forFeedback] = await Promise.all([search(turn.userEvent.message), search(`${turn.userEvent.message} ${feedback}`.slice(0, 2_000))]);
  const used = new Set(turn.event.usedArticles.map((a) => a.id));
  const standIn = new Map(drafts.articles.flatMap((d) => (d.replacesArticleId ? [[d.draftId, d.replacesArticleId] as const] : [])));
  const seen = new Set<string>();
  const articles: DiagnoseInput['articles'] = [];
  for (const hit of [...forQuestion, ...forFeedback]) {
    // An earlier iteration's draft of a live article stands for that article.
    const id = standIn.get(hit.article.id) ?? hit.article.id;
    if (seen.has(id)) continue;
    seen.add(id);
    articles.push({ id, title: hit.article.title, body: hit.article.mainKnowledge, questions: hit.article.questions, used: used.has(id) });
  }
  const executedId = trace?.executedRules?.ruleId;
  const executed = executedId ? rules.find((r) => r.id === executedId) : undefined;
  return {
    question: turn.userEvent.message,
    answer: turn.event.message,
    handover: turn.event.handover,
    escalationReason: turn.event.escalationReason,
    performKnowledgeSearch: trace?.planning ? trace.planning.performKnowledgeSearch : null,
    feedback,
    articles,
    executedRule: executed ? { id: executed.id, name: executed.name } : null,
    rules: rules.map((r) => ({ id: r.id, name: r.name, description: r.description })),
  };
}

/** A model may only name the articles and rules it was shown, and a change carries its content. */
function checkIds(output: DiagnoseOutput, input: DiagnoseInput): void {
  for (const change of output.changes) {
    const articleId = change.article?.articleId ?? null;
    if (change.changeType === 'update_article' && (!articleId || !input.articles.some((a) => a.id === articleId))) {
      throw new AppError('bad_gateway', `the diagnosis names an article that was not among those it read (${articleId ?? 'none'})`);
    }
    const ruleId = change.rule?.ruleId ?? null;
    if (change.changeType === 'update_rule' && (!ruleId || !input.rules.some((r) => r.id === ruleId))) {
      throw new AppError('bad_gateway', `the diagnosis names a rule that is not one of the agent's intent rules (${ruleId ?? 'none'})`);
    }
    const missing =
      (change.changeType === 'update_prompt' && !change.promptSection) ||
      ((change.changeType === 'create_article' || change.changeType === 'update_article') && !change.article) ||
      (change.changeType === 'update_rule' && !change.rule);
    if (missing) throw new AppError('bad_gateway', `the diagnosis proposes ${change.changeType} without its content`);
  }
}

function sameTarget(change: ChangeRow, next: ChangeOutput): boolean {
  if (change.draftPromptVersionId) return next.changeType === 'update_prompt';
  if (change.draftRuleVersionId) return next.changeType === 'update_rule' && change.rootCause.target.ruleId === next.rule?.ruleId;
  if (change.draftArticleId) return next.changeType === 'update_article' && change.rootCause.target.articleId === next.article?.articleId;
  return false;
}

type MadeDraft = Pick<ChangeRow, 'rootCause' | 'changeType' | 'draftPromptVersionId' | 'draftArticleId' | 'draftRuleVersionId' | 'warnings'>;
const asChange = (made: MadeDraft) => made as ChangeRow;

/** A change as a draft through the owner's own draft path (origin FIX_REVIEW). */
async function makeDraft(ctx: Ctx, session: SessionRow, turn: AnsweredTurn, change: ChangeOutput, output: DiagnoseOutput, drafts: Drafts, rules: RuleWithAgents[]): Promise<MadeDraft> {
  const { summary, warnings } = output;
  const cause = change.rootCause;
  const target = Object.fromEntries(Object.entries(cause.target).filter(([, v]) => v !== null)) as RootCause['target'];
  const made: MadeDraft = { rootCause: { ...cause, target }, changeType: change.changeType, draftPromptVersionId: null, draftArticleId: null, draftRuleVersionId: null, warnings };
  if (change.changeType === 'update_prompt') {
    const section = change.promptSection!;
    const base = drafts.prompts?.prompts ?? (await currentPrompts(ctx, session.agentId));
    const id = `refine.${section.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'section'}`;
    const sections: PromptSectionValue[] = [...base[section.promptType].filter((s) => s.id !== id), { id, title: section.title, content: section.content, enabled: true }];
    const draft = await createPromptDraft(ctx, session.agentId, { ...base, [section.promptType]: sections, note: summary.slice(0, 1_000) }, 'FIX_REVIEW');
    made.draftPromptVersionId = draft.id;
    made.rootCause.target = { ...made.rootCause.target, promptType: section.promptType, promptSectionIds: [id] };
  } else if (change.changeType === 'create_article') {
    const article = change.article!;
    const folder = await folderForNewArticle(ctx, session.agentId, turn);
    const draft = await createArticle(ctx, {
      title: article.title,
      mainKnowledge: article.mainKnowledge,
      agentInstruction: '',
      questions: article.questions,
      keywords: [],
      escalation: false,
      parentFolderId: folder,
      isDraft: true,
      origin: 'FIX_REVIEW',
    });
    made.draftArticleId = draft.id;
  } else if (change.changeType === 'update_article') {
    const article = change.article!;
    const live = await getArticle(ctx, article.articleId!);
    if (!live || live.isDraft) throw new AppError('bad_gateway', `the diagnosis names article ${article.articleId}, which is not a live article`);
    const draft = await createDraftFromLive(
      ctx,
      live.id,
      { title: article.title, mainKnowledge: article.mainKnowledge, agentInstruction: live.agentInstruction, questions: article.questions, keywords: live.keywords, escalation: live.escalation },
      'FIX_REVIEW',
    );
    made.draftArticleId = draft.id;
    made.rootCause.target = { ...made.rootCause.target, articleId: live.id };
  } else {
    const wanted = change.rule!;
    const rule = rules.find((r) => r.id === wanted.ruleId)!;
    // No flow change asked: the rule keeps its flow (the change is to its trigger description).
    const proposed = wanted.instructions.trim()
      ? await proposeRuleChange(ctx, wanted.ruleId, wanted.instructions)
      : { rule, name: rule.name, description: rule.description, flowConfig: rule.flowConfig };
    const description = wanted.addToDescription ? `${proposed.description} ${wanted.addToDescription}`.slice(0, 4_000) : proposed.description;
    const draft = await createRuleDraft(ctx, rule.id, { name: proposed.name, description, flowConfig: proposed.flowConfig }, proposed.rule.version);
    made.draftRuleVersionId = draft.id;
  }
  return made;
}

async function currentPrompts(ctx: Ctx, agentId: string): Promise<PromptSet> {
  const { current, defaults } = await getAgentPrompt(ctx, agentId);
  return current?.prompts ?? defaults ?? workspaceDefaultPrompts();
}

/** A new article goes where the reply's best article is, else in the agent's first folder. */
async function folderForNewArticle(ctx: Ctx, agentId: string, turn: AnsweredTurn): Promise<string> {
  const usedId = turn.event.usedArticles[0]?.id;
  const used = usedId ? await getArticle(ctx, usedId) : undefined;
  if (used) return used.parentFolderId;
  const [first] = await folderChoices(ctx, agentId);
  if (!first) throw new AppError('bad_request', 'the agent has no folder to add an article to');
  return first.id;
}

/** Discards the drafts of changes that are not published (a draft shared by iterations goes once). */
export async function discardDrafts(ctx: Ctx, session: SessionRow, changes: readonly ChangeRow[]): Promise<void> {
  const prompts = new Set(changes.flatMap((c) => (c.draftPromptVersionId ? [c.draftPromptVersionId] : [])));
  const articles = new Set(changes.flatMap((c) => (c.draftArticleId ? [c.draftArticleId] : [])));
  const rules = new Set(changes.flatMap((c) => (c.draftRuleVersionId ? [c.draftRuleVersionId] : [])));
  for (const id of prompts) {
    const draft = await getPromptDraft(ctx, session.agentId, id).catch(() => undefined);
    if (draft?.status === 'draft') await discardPromptDraft(ctx, session.agentId, id);
  }
  const open = (await getArticlesByIds(ctx, [...articles])).filter((a) => a.isDraft && !a.isDraftPublished).map((a) => a.id);
  if (open.length) await deleteArticles(ctx, open);
  for (const id of rules) await discardRuleDraft(ctx, id);
}

/** Iterations of every workspace still running since before `olderThan` (the orphan sweep; across workspaces by design). */
export async function staleIterations(ctx: ProcessContext, olderThan: Date): Promise<JobRecord[]> {
  return (await unscopedStaleIterations(ctx.db, olderThan)).map((i) => ({ workspaceId: i.workspaceId, id: i.id, jobId: i.backgroundJobId }));
}

/** Fails an iteration whose queue job is gone, when it is still running and untouched since `olderThan`. */
export async function failStaleIteration(ctx: ProcessContext, record: JobRecord, olderThan: Date): Promise<boolean> {
  const now = ctx.clock.now();
  return moveIterationIfStale(ctx.db, record.workspaceId, record.id, olderThan, {
    status: 'failed',
    error: 'the iteration stopped: its worker went away and it was not taken over',
    completedAt: now,
    updatedAt: now,
  });
}
