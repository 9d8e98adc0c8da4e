import type { WorkspaceContext } from '../../context.js';
import type { TestRunOverlay } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { getPromptDraft } from '../agents/index.js';
import type { AnswerOverlay } from '../conversations/index.js';
import { getArticle } from '../knowledge/index.js';
import { iterationDraftIds } from '../refine/index.js';
import { getRule, getRuleDraft, publishedRulesForAgent, type RuleWithAgents } from '../rules/index.js';

/**
 * A test run's drafts as the answer pipeline's overlay (docs/testing.md): the draft prompts, draft
 * rules as if published for the agent, Refine's proposed rule versions in place of their rules, and
 * article drafts searched as if live. Nothing live changes. Each draft must still be a draft: one
 * published, discarded or deleted since answers 400 naming it (`field`: where the ids came from).
 */

const bad = (field: string, message: string) => new AppError('bad_request', `${field}: ${message}`);

/** The ids a stored overlay stands for (an iteration's drafts read as they are now). */
async function overlayIds(ctx: WorkspaceContext, agentId: string, overlay: TestRunOverlay, field = 'overlay'): Promise<Required<Omit<TestRunOverlay, 'iterationId'>>> {
  if (overlay.iterationId) {
    const iteration = await iterationDraftIds(ctx, overlay.iterationId).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'not_found') throw bad(`${field}.iterationId`, `fix iteration ${overlay.iterationId} not found`);
      throw error;
    });
    if (iteration.agentId !== agentId) throw bad(`${field}.iterationId`, `the iteration is of agent ${iteration.agentId}, not of this run's agent ${agentId}`);
    return {
      promptDraftIds: iteration.promptDrafts.map((d) => d.draftId),
      articleDraftIds: iteration.articleDraftIds,
      ruleDraftIds: iteration.ruleDraftIds,
      ruleVersionDraftIds: iteration.ruleVersionDraftIds,
    };
  }
  return {
    promptDraftIds: overlay.promptDraftIds ?? [],
    articleDraftIds: overlay.articleDraftIds ?? [],
    ruleDraftIds: overlay.ruleDraftIds ?? [],
    ruleVersionDraftIds: overlay.ruleVersionDraftIds ?? [],
  };
}

/** The answer overlay of a run of `agentId` with these drafts; 400 naming a draft that is not one (any more). */
export async function answerOverlay(ctx: WorkspaceContext, agentId: string, overlay: TestRunOverlay, field = 'overlay'): Promise<AnswerOverlay> {
  const ids = await overlayIds(ctx, agentId, overlay, field);
  const out: AnswerOverlay = {};
  for (const id of ids.promptDraftIds) {
    const draft = await getPromptDraft(ctx, agentId, id).catch(() => undefined);
    if (!draft) throw bad(`${field}.promptDraftIds`, `prompt draft ${id} is not a draft of agent ${agentId}`);
    if (draft.status !== 'draft') throw bad(`${field}.promptDraftIds`, `prompt draft ${id} is ${draft.status}`);
    out.prompts = draft.prompts;
  }
  const articleDrafts: NonNullable<AnswerOverlay['articleDrafts']> = [];
  for (const id of ids.articleDraftIds) {
    const draft = await getArticle(ctx, id);
    if (!draft?.isDraft) throw bad(`${field}.articleDraftIds`, `article ${id} is not an article draft`);
    if (draft.isDraftPublished) throw bad(`${field}.articleDraftIds`, `article draft ${id} is already published`);
    articleDrafts.push({ draftId: draft.id, replacesArticleId: draft.originalArticleId });
  }
  if (articleDrafts.length) out.articleDrafts = articleDrafts;
  const rules: RuleWithAgents[] = [];
  for (const id of ids.ruleDraftIds) {
    const rule = await getRule(ctx, id).catch(() => undefined);
    if (!rule || rule.status !== 'DRAFT') throw bad(`${field}.ruleDraftIds`, `rule ${id} is not a draft rule`);
    rules.push({ ...rule, botIds: [agentId] });
  }
  if (ids.ruleVersionDraftIds.length) {
    const live = await publishedRulesForAgent(ctx, agentId, 'intent');
    for (const id of ids.ruleVersionDraftIds) {
      const draft = await getRuleDraft(ctx, id);
      if (!draft || draft.status !== 'draft') throw bad(`${field}.ruleVersionDraftIds`, `rule draft ${id} is not an open draft`);
      const rule = live.find((r) => r.id === draft.ruleId);
      // A proposed version of a rule this agent does not run changes nothing for it.
      if (rule) rules.push({ ...rule, name: draft.item.name, description: draft.item.description, flowConfig: draft.item.flowConfig ?? rule.flowConfig });
    }
  }
  if (rules.length) out.rules = rules;
  return out;
}
