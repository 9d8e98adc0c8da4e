import type { DraftRuleOutput, DraftWarning, RuleDraftingContext } from '../../ai/contracts/draft-rule.js';
import { LlmError } from '../../ai/index.js';
import { authorOf, emit, inTransaction } from '../../context.js';
import { publishRequest } from '../../events/events.js';
import type { RuleDraftWarning } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { flowConfigSchema } from '../../evaluators/flow.js';
import { requireAgentIds } from '../agents/index.js';
import { listTagGroupsWithTags } from '../tags/index.js';
import { actionCatalog } from './actions.js';
import {
  findRuleDraft,
  insertRule,
  insertRuleDraft,
  type RuleDraftRow,
  type RuleRow,
  type RuleWithAgents,
  setRuleAgents,
  updateRule as updateRuleRow,
  updateRuleDraft,
} from './rules.repository.js';
import type { RuleSource, TriggerType } from './rules.schemas.js';
import { appendVersion, checkFlowReferences, type Ctx, requireRule, storedFlow, updateRule } from './rules.service.js';
import { draftRuleTask, flowOfDraft, refineRuleTask } from './rules.tasks.js';

// ---------------------------------------------------------------------------------------------
// Drafts: generate from instructions, refine, publish

async function draftingContext(ctx: Ctx): Promise<RuleDraftingContext> {
  const [groups, actions] = await Promise.all([listTagGroupsWithTags(ctx), actionCatalog.actionsForDrafting(ctx)]);
  return {
    tags: groups.flatMap((g) => g.tags.map((t) => ({ id: t.id, tagName: t.tagName, groupTitle: g.title }))),
    actions,
  };
}

/** Validates what a model (or the built-in engine) drafted: the flow language and what it names. */
async function acceptDraft(ctx: Ctx, output: DraftRuleOutput): Promise<{ name: string; description: string; flowConfig: Record<string, unknown> | null; warnings: DraftWarning[] }> {
  const tree = flowOfDraft(output);
  if ('error' in tree) throw new AppError('bad_gateway', `the drafted flow is not a tree: ${tree.error}`);
  const warnings = (output.warnings ?? []).map((w) => ({ fragment: w.fragment.slice(0, 2_000), message: w.message.slice(0, 2_000) }));
  const named = { name: output.name.trim().slice(0, 200) || 'Untitled rule', description: output.description.trim().slice(0, 4_000), warnings };
  if (tree.flow === null) return { ...named, flowConfig: null };
  const parsed = flowConfigSchema.safeParse(tree.flow);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError('bad_gateway', `the drafted flow is not valid at flowConfig.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  try {
    await checkFlowReferences(ctx, parsed.data, 'flowConfig');
  } catch (error) {
    if (error instanceof AppError) throw new AppError('bad_gateway', `the drafted flow names something that does not exist: ${error.message}`);
    throw error;
  }
  return { ...named, flowConfig: storedFlow(parsed.data) };
}

/** Runs a model call; a model failure is a 502 naming it. */
export async function modelCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof LlmError) throw new AppError('bad_gateway', error.message);
    throw error;
  }
}

export const callOptions = (ctx: Ctx) => (ctx.signal ? { signal: ctx.signal } : {});

/** A draft intent rule whose flow is generated from plain-language instructions. */
export async function draftRule(
  ctx: Ctx,
  body: { behaviorInstructions: string; name?: string; source: RuleSource; triggerType: TriggerType },
): Promise<DraftedRule> {
  const drafting = await draftingContext(ctx);
  const { output } = await modelCall(() =>
    ctx.llm.run(draftRuleTask, { behaviorInstructions: body.behaviorInstructions, ...drafting }, callOptions(ctx)),
  );
  const draft = await acceptDraft(ctx, output);
  const row = await inTransaction(ctx, (tx) =>
    insertRule(
      tx.db,
      ctx.workspaceId,
      {
        type: 'intent',
        status: 'DRAFT',
        name: body.name ?? draft.name,
        description: draft.description,
        source: body.source,
        triggerType: body.triggerType,
        inputSchema: {},
        flowConfig: draft.flowConfig,
        behaviorInstructions: body.behaviorInstructions,
        draftWarnings: draft.warnings,
      },
      authorOf(ctx),
      ctx.clock.now(),
    ),
  );
  return { ...row, botIds: [], warnings: draft.warnings };
}

/** A drafted or refined rule with the parts of its instructions not turned into the flow. */
export type DraftedRule = RuleWithAgents & { warnings: DraftWarning[] };

/** Applies refinement instructions to a draft's flow (published rules change through PATCH). */
export async function refineRule(ctx: Ctx, id: string, refinementInstructions: string): Promise<DraftedRule> {
  const rule = await requireRule(ctx.db, ctx, id);
  requireDraft(rule, 'refine');
  const drafting = await draftingContext(ctx);
  const input = { rule: { name: rule.name, description: rule.description, flowConfig: rule.flowConfig }, refinementInstructions, ...drafting };
  const { output } = await modelCall(() => ctx.llm.run(refineRuleTask, input, callOptions(ctx)));
  const draft = await acceptDraft(ctx, output);
  return inTransaction(ctx, async (tx) => {
    const current = await requireRule(tx.db, tx, id, true);
    requireDraft(current, 'refine');
    if (current.updatedAt.getTime() !== rule.updatedAt.getTime()) {
      throw new AppError('conflict', 'the draft changed while it was being refined; refine it again');
    }
    const history = [current.behaviorInstructions, `Refinement: ${refinementInstructions}`].filter(Boolean).join('\n\n');
    await updateRuleRow(
      tx.db,
      ctx.workspaceId,
      id,
      {
        description: draft.description || current.description,
        flowConfig: draft.flowConfig,
        behaviorInstructions: history.slice(0, 50_000),
        draftWarnings: mergeWarnings(current.draftWarnings, draft.warnings),
      },
      authorOf(ctx),
      ctx.clock.now(),
    );
    const refined = await requireRule(tx.db, tx, id);
    return { ...refined, warnings: refined.draftWarnings };
  });
}

function requireDraft(rule: RuleRow, what: 'refine' | 'publish'): void {
  if (rule.status !== 'DRAFT') {
    throw new AppError(
      'conflict',
      what === 'refine'
        ? 'the rule is published: refine applies to drafts; change a published rule with PATCH /v2/hc-rules/{id}/public'
        : 'the rule is already published; change its agents with PATCH /v2/hc-rules/{id}/public',
    );
  }
}

/**
 * The warnings a draft keeps after a refinement: those it had (a refinement does not re-read the
 * first instructions) and the refinement's own, once each.
 */
function mergeWarnings(kept: readonly RuleDraftWarning[], added: readonly RuleDraftWarning[]): RuleDraftWarning[] {
  const seen = new Set(kept.map((w) => w.fragment));
  return [...kept, ...added.filter((w) => !seen.has(w.fragment))].slice(0, 50);
}

/** A draft with parts of its instructions not understood publishes only when the request accepts them. */
function requireUnderstood(rule: RuleRow, acceptWarnings: boolean): void {
  if (rule.draftWarnings.length === 0 || acceptWarnings) return;
  const parts = rule.draftWarnings.map((w) => `"${w.fragment}" (${w.message})`).join('; ');
  throw new AppError(
    'conflict',
    `the draft has parts of its instructions that were not turned into its flow: ${parts}. Refine the draft, edit its flowConfig, or publish with acceptWarnings: true`,
  );
}

/**
 * Publishes a draft for the given agents: it becomes version 1. A draft with warnings publishes
 * only with `acceptWarnings`; the warnings are cleared once it is published.
 */
/**
 * The publish route's: the test gate first (`publish.requested`, docs/testing.md: 409 when the
 * agents' test cases that pass today fail with the rule, unless `force`), then the publish.
 */
export async function publishRuleGated(ctx: Ctx, id: string, botIds: string[], options: { acceptWarnings: boolean; force: boolean }): Promise<RuleWithAgents> {
  const rule = await requireRule(ctx.db, ctx, id);
  requireDraft(rule, 'publish');
  requireUnderstood(rule, options.acceptWarnings);
  const agents = await requireAgentIds(ctx, botIds, 'body.botIds');
  await emit(ctx, 'publish.requested', publishRequest({ kind: 'rule_draft', id }, agents, { ruleDraftIds: [id] }, options.force));
  return publishRule(ctx, id, botIds, options.acceptWarnings);
}

export async function publishRule(ctx: Ctx, id: string, botIds: string[], acceptWarnings = false): Promise<RuleWithAgents> {
  return inTransaction(ctx, async (tx) => {
    const rule = await requireRule(tx.db, tx, id, true);
    requireDraft(rule, 'publish');
    requireUnderstood(rule, acceptWarnings);
    const agents = await requireAgentIds(tx, botIds, 'body.botIds');
    if (rule.flowConfig) await checkFlowReferences(tx, flowConfigSchema.parse(rule.flowConfig), 'flowConfig');
    const published = await updateRuleRow(tx.db, ctx.workspaceId, id, { status: 'PUBLISHED', draftWarnings: [] }, authorOf(ctx), ctx.clock.now());
    await setRuleAgents(tx.db, ctx.workspaceId, id, agents);
    await appendVersion(tx, tx.db, published, agents);
    return requireRule(tx.db, tx, id);
  });
}

// ---------------------------------------------------------------------------------------------
// Drafts of published rules (Refine with AI proposes a rule change as one)

/**
 * A published intent rule with `changeInstructions` applied to its flow (the refine task: a model,
 * or the built-in flow refinement), checked like any drafted flow, not stored.
 */
export async function proposeRuleChange(ctx: Ctx, id: string, changeInstructions: string): Promise<{ rule: RuleWithAgents; name: string; description: string; flowConfig: Record<string, unknown> | null }> {
  const rule = await requireRule(ctx.db, ctx, id);
  const drafting = await draftingContext(ctx);
  const input = { rule: { name: rule.name, description: rule.description, flowConfig: rule.flowConfig }, refinementInstructions: changeInstructions, ...drafting };
  const { output } = await modelCall(() => ctx.llm.run(refineRuleTask, input, callOptions(ctx)));
  const draft = await acceptDraft(ctx, output);
  return { rule, name: rule.name, description: draft.description || rule.description, flowConfig: draft.flowConfig };
}

/** Stores a proposed new version of a published rule, based on its current version. */
export async function createRuleDraft(ctx: Ctx, ruleId: string, item: RuleDraftRow['item'], baseVersion: number | null): Promise<RuleDraftRow> {
  const now = ctx.clock.now();
  return insertRuleDraft(ctx.db, ctx.workspaceId, { ruleId, item, baseVersion, origin: 'FIX_REVIEW', createdAt: now, updatedAt: now });
}

export async function getRuleDraft(ctx: Ctx, id: string): Promise<RuleDraftRow | undefined> {
  return findRuleDraft(ctx.db, ctx.workspaceId, id);
}

/** Publishes a rule draft as the rule's next version (409 when the rule moved on from the draft's base). */
export async function publishRuleDraft(ctx: Ctx, id: string): Promise<RuleWithAgents> {
  return inTransaction(ctx, async (tx) => {
    const draft = await findRuleDraft(tx.db, ctx.workspaceId, id, { lock: true });
    if (!draft) throw new AppError('not_found', `rule draft ${id} not found`);
    if (draft.status !== 'draft') throw new AppError('conflict', `rule draft ${id} is already ${draft.status}`);
    const rule = await requireRule(tx.db, tx, draft.ruleId, true);
    if (draft.baseVersion !== null && rule.version !== draft.baseVersion) {
      throw new AppError('conflict', `the rule "${rule.name}" changed since the draft was made (draft of version ${draft.baseVersion}, current version ${rule.version})`);
    }
    const updated = await updateRule(tx, draft.ruleId, {
      name: draft.item.name,
      description: draft.item.description,
      ...(draft.item.flowConfig ? { flowConfig: flowConfigSchema.parse(draft.item.flowConfig) } : {}),
    });
    await updateRuleDraft(tx.db, ctx.workspaceId, id, { status: 'published', publishedVersionId: updated.currentVersionId, updatedAt: ctx.clock.now() });
    return updated;
  });
}

/** Discards an unpublished rule draft (a published one stays as the record of what was published). */
export async function discardRuleDraft(ctx: Ctx, id: string): Promise<void> {
  const draft = await findRuleDraft(ctx.db, ctx.workspaceId, id);
  if (draft?.status === 'draft') await updateRuleDraft(ctx.db, ctx.workspaceId, id, { status: 'discarded', updatedAt: ctx.clock.now() });
}
