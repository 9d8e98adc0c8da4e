import { LlmError, NO_USAGE, type TokenUsage } from '../../ai/index.js';
import { authorOf, inTransaction, type WorkspaceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import type { RuleVersionItem } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import type { EvaluationContext } from '../../rules/context.js';
import { flowConfigSchema, type FlowNode, flowTagRefs, flowToolRefs, withNodeIds } from '../../rules/flow.js';
import { dryRunTools, flowStateSchema, walkFlow } from '../../rules/walker.js';
import { existingAgentIds, requireAgentIds } from '../agents/index.js';
import { existingTagIds, listTagGroupsWithTags } from '../tags/index.js';
import { actionCatalog } from './actions.js';
import {
  deleteRule as deleteRuleRow,
  findRule,
  findRuleDraft,
  findRuleVersion,
  insertRule,
  insertRuleDraft,
  insertRuleVersion,
  listPublishedRulesForAgent,
  listRules as listRuleRows,
  listRuleNames,
  listRuleVersions,
  type RuleDraftRow,
  type RuleRow,
  type RuleVersionRow,
  type RuleWithAgents,
  setRuleAgents,
  updateRule as updateRuleRow,
  updateRuleDraft,
} from './rules.repository.js';
import type { CreateRuleBody, RuleSource, RuleType, TriggerType, UpdateRuleBody } from './rules.schemas.js';
import { draftRuleTask, type DraftRuleOutput, flowOfDraft, matchRuleTask, refineRuleTask, RULE_MATCH_THRESHOLD, type RuleDraftingContext } from './rules.tasks.js';

type Ctx = WorkspaceContext;

const notFound = () => new AppError('not_found', 'rule not found');

async function requireRule(db: Db, ctx: Ctx, id: string, lock = false): Promise<RuleWithAgents> {
  const rule = await findRule(db, ctx.workspaceId, id, { lock });
  if (!rule) throw notFound();
  return rule;
}

export async function listRules(ctx: Ctx, query: { isDraft?: boolean; type: RuleType; source?: RuleSource }): Promise<RuleWithAgents[]> {
  return listRuleRows(ctx.db, ctx.workspaceId, { type: query.type, status: query.isDraft ? 'DRAFT' : 'PUBLISHED', source: query.source });
}

export async function getRule(ctx: Ctx, id: string): Promise<RuleWithAgents> {
  return requireRule(ctx.db, ctx, id);
}

// ---------------------------------------------------------------------------------------------
// Checks of what a rule names: agents, actions, tags

const nodePath = (field: string, path: readonly (string | number)[]) => [field, ...path].join('.');

/**
 * 400 naming the node of the first tool node whose action does not exist in the workspace, or the
 * first tag id that names no tag the workspace sees.
 */
async function checkFlowReferences(ctx: Ctx, flow: FlowNode, field: string): Promise<void> {
  const tools = flowToolRefs(flow);
  if (tools.length) {
    const found = await actionCatalog.existingActionIds(ctx, [...new Set(tools.map((t) => t.toolId))]);
    const missing = tools.find((t) => !found.has(t.toolId));
    if (missing) {
      throw new AppError('bad_request', `${nodePath(field, [...missing.path, 'toolId'])}: action ${missing.toolId} does not exist in this workspace`);
    }
  }
  const tags = flowTagRefs(flow);
  if (tags.length) {
    const found = await existingTagIds(ctx, [...new Set(tags.map((t) => t.tagId))]);
    const missing = tags.find((t) => !found.has(t.tagId));
    if (missing) {
      throw new AppError('bad_request', `${nodePath(field, [...missing.path, 'tagIds', missing.index])}: tag ${missing.tagId} does not exist in this workspace`);
    }
  }
}

function checkKind(type: string, flowConfig: unknown, field = 'body.flowConfig'): void {
  if (type === 'business' && flowConfig !== undefined && flowConfig !== null) {
    throw new AppError('bad_request', `${field}: business rules have no flow; their description is the policy applied to every answer`);
  }
}

// ---------------------------------------------------------------------------------------------
// Versions

function versionItem(rule: Pick<RuleRow, 'name' | 'description' | 'status' | 'source' | 'triggerType' | 'inputSchema' | 'flowConfig'>, botIds: string[]): RuleVersionItem {
  return {
    name: rule.name,
    description: rule.description,
    status: rule.status,
    source: rule.source,
    triggerType: rule.triggerType,
    botIds,
    inputSchema: rule.inputSchema,
    flowConfig: rule.flowConfig,
  };
}

/** Appends the next version of a published rule and points the rule at it (inside the caller's transaction). */
async function appendVersion(ctx: Ctx, db: Db, rule: RuleRow, botIds: string[], restoredFrom: string | null = null): Promise<RuleRow> {
  const now = ctx.clock.now();
  const number = (rule.version ?? 0) + 1;
  const version = await insertRuleVersion(db, ctx.workspaceId, {
    ruleId: rule.id,
    version: number,
    item: versionItem(rule, botIds),
    restoredFromVersionId: restoredFrom,
    by: authorOf(ctx),
    now,
  });
  return updateRuleRow(db, ctx.workspaceId, rule.id, { version: number, currentVersionId: version.id }, authorOf(ctx), now);
}

const storedFlow = (flow: FlowNode | null | undefined) => (flow ? (withNodeIds(flow) as unknown as Record<string, unknown>) : null);

// ---------------------------------------------------------------------------------------------
// Create, update, delete

/** A published rule, version 1. */
export async function createRule(ctx: Ctx, body: CreateRuleBody): Promise<RuleWithAgents> {
  checkKind(body.type, body.flowConfig);
  const created: RuleWithAgents = await inTransaction(ctx, async (tx) => {
    const botIds = await requireAgentIds(tx, body.botIds, 'body.botIds');
    const flow = storedFlow(body.flowConfig);
    if (body.flowConfig) await checkFlowReferences(tx, body.flowConfig, 'body.flowConfig');
    const row = await insertRule(
      tx.db,
      ctx.workspaceId,
      {
        type: body.type,
        status: 'PUBLISHED',
        name: body.name,
        description: body.description,
        source: body.source,
        triggerType: body.triggerType,
        inputSchema: body.inputSchema,
        flowConfig: flow,
        behaviorInstructions: null,
      },
      authorOf(ctx),
      ctx.clock.now(),
    );
    await setRuleAgents(tx.db, ctx.workspaceId, row.id, botIds);
    await appendVersion(tx, tx.db, row, botIds);
    return requireRule(tx.db, tx, row.id);
  });
  return created;
}

/**
 * Changes a rule. A published rule gets a new version (every change, history append-only); a draft
 * changes in place. `baseVersion`, when given, must be the current version (409 otherwise).
 */
export async function updateRule(ctx: Ctx, id: string, body: UpdateRuleBody): Promise<RuleWithAgents> {
  return inTransaction(ctx, async (tx) => {
    const rule = await requireRule(tx.db, tx, id, true);
    checkKind(rule.type, body.flowConfig);
    if (body.baseVersion !== undefined && body.baseVersion !== rule.version) {
      throw new AppError('conflict', `the rule changed since version ${body.baseVersion}: its current version is ${rule.version ?? 'none (a draft)'}`);
    }
    if (rule.status === 'DRAFT' && body.botIds !== undefined && body.botIds.length > 0) {
      throw new AppError('bad_request', 'body.botIds: a draft gets its agents when it is published (POST /v2/hc-rules/{id}/publish/public)');
    }
    const botIds = body.botIds === undefined || rule.status === 'DRAFT' ? rule.botIds : await requireAgentIds(tx, body.botIds, 'body.botIds');
    if (body.flowConfig) await checkFlowReferences(tx, body.flowConfig, 'body.flowConfig');
    const changed = await updateRuleRow(
      tx.db,
      ctx.workspaceId,
      id,
      {
        name: body.name,
        description: body.description,
        source: body.source,
        triggerType: body.triggerType,
        inputSchema: body.inputSchema,
        flowConfig: body.flowConfig === undefined ? undefined : storedFlow(body.flowConfig),
      },
      authorOf(ctx),
      ctx.clock.now(),
    );
    if (rule.status !== 'DRAFT') {
      if (body.botIds !== undefined) await setRuleAgents(tx.db, ctx.workspaceId, id, botIds);
      await appendVersion(tx, tx.db, changed, botIds);
    }
    return requireRule(tx.db, tx, id);
  });
}

/** Deletes a rule with its versions and agent assignments. */
export async function deleteRule(ctx: Ctx, id: string): Promise<RuleWithAgents> {
  return inTransaction(ctx, async (tx) => {
    const rule = await requireRule(tx.db, tx, id, true);
    await deleteRuleRow(tx.db, ctx.workspaceId, id);
    return rule;
  });
}

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
async function acceptDraft(ctx: Ctx, output: DraftRuleOutput): Promise<{ name: string; description: string; flowConfig: Record<string, unknown> | null }> {
  const tree = flowOfDraft(output);
  if ('error' in tree) throw new AppError('bad_gateway', `the drafted flow is not a tree: ${tree.error}`);
  const named = { name: output.name.trim().slice(0, 200) || 'Untitled rule', description: output.description.trim().slice(0, 4_000) };
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
async function modelCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof LlmError) throw new AppError('bad_gateway', error.message);
    throw error;
  }
}

const callOptions = (ctx: Ctx) => (ctx.signal ? { signal: ctx.signal } : {});

/** A draft intent rule whose flow is generated from plain-language instructions. */
export async function draftRule(
  ctx: Ctx,
  body: { behaviorInstructions: string; name?: string; source: RuleSource; triggerType: TriggerType },
): Promise<RuleWithAgents> {
  const drafting = await draftingContext(ctx);
  const { output } = await modelCall(() =>
    ctx.llm.run(draftRuleTask, { behaviorInstructions: body.behaviorInstructions, ...drafting }, callOptions(ctx)),
  );
  const draft = await acceptDraft(ctx, output);
  const row = await insertRule(
    ctx.db,
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
    },
    authorOf(ctx),
    ctx.clock.now(),
  );
  return { ...row, botIds: [] };
}

/** Applies refinement instructions to a draft's flow (published rules change through PATCH). */
export async function refineRule(ctx: Ctx, id: string, refinementInstructions: string): Promise<RuleWithAgents> {
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
      { description: draft.description || current.description, flowConfig: draft.flowConfig, behaviorInstructions: history.slice(0, 50_000) },
      authorOf(ctx),
      ctx.clock.now(),
    );
    return requireRule(tx.db, tx, id);
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

/** Publishes a draft for the given agents: it becomes version 1. */
export async function publishRule(ctx: Ctx, id: string, botIds: string[]): Promise<RuleWithAgents> {
  return inTransaction(ctx, async (tx) => {
    const rule = await requireRule(tx.db, tx, id, true);
    requireDraft(rule, 'publish');
    const agents = await requireAgentIds(tx, botIds, 'body.botIds');
    if (rule.flowConfig) await checkFlowReferences(tx, flowConfigSchema.parse(rule.flowConfig), 'flowConfig');
    const published = await updateRuleRow(tx.db, ctx.workspaceId, id, { status: 'PUBLISHED' }, authorOf(ctx), ctx.clock.now());
    await setRuleAgents(tx.db, ctx.workspaceId, id, agents);
    await appendVersion(tx, tx.db, published, agents);
    return requireRule(tx.db, tx, id);
  });
}

// ---------------------------------------------------------------------------------------------
// History

function requireIntent(rule: RuleRow): void {
  if (rule.type === 'business') throw new AppError('bad_request', 'business rules have no version history: the versions routes are for intent rules');
}

export async function listVersions(ctx: Ctx, id: string): Promise<{ rule: RuleWithAgents; versions: RuleVersionRow[] }> {
  const rule = await requireRule(ctx.db, ctx, id);
  requireIntent(rule);
  return { rule, versions: await listRuleVersions(ctx.db, ctx.workspaceId, id) };
}

async function requireVersion(db: Db, ctx: Ctx, rule: RuleRow, versionId: string): Promise<RuleVersionRow> {
  const version = await findRuleVersion(db, ctx.workspaceId, rule.id, versionId);
  if (!version) throw new AppError('not_found', 'rule version not found');
  return version;
}

export async function getVersion(ctx: Ctx, id: string, versionId: string): Promise<{ rule: RuleWithAgents; version: RuleVersionRow }> {
  const rule = await requireRule(ctx.db, ctx, id);
  requireIntent(rule);
  return { rule, version: await requireVersion(ctx.db, ctx, rule, versionId) };
}

/**
 * Restores a version as a new version (history is append-only): its name, description, flow,
 * trigger, input schema and agents (those still in the workspace). 409 when its flow names an
 * action or tag that no longer exists.
 */
export async function restoreVersion(ctx: Ctx, id: string, versionId: string): Promise<RuleWithAgents> {
  return inTransaction(ctx, async (tx) => {
    const rule = await requireRule(tx.db, tx, id, true);
    requireIntent(rule);
    const version = await requireVersion(tx.db, tx, rule, versionId);
    const { item } = version;
    if (item.flowConfig) {
      try {
        await checkFlowReferences(tx, flowConfigSchema.parse(item.flowConfig), 'flowConfig');
      } catch (error) {
        if (error instanceof AppError) throw new AppError('conflict', `version ${version.version} cannot be restored: ${error.message}`);
        throw error;
      }
    }
    const live = await existingAgentIds(tx, item.botIds);
    const botIds = item.botIds.filter((a) => live.has(a));
    const changed = await updateRuleRow(
      tx.db,
      ctx.workspaceId,
      id,
      {
        name: item.name,
        description: item.description,
        source: item.source,
        triggerType: item.triggerType,
        inputSchema: item.inputSchema,
        flowConfig: item.flowConfig,
      },
      authorOf(ctx),
      ctx.clock.now(),
    );
    await setRuleAgents(tx.db, ctx.workspaceId, id, botIds);
    await appendVersion(tx, tx.db, changed, botIds, version.id);
    return requireRule(tx.db, tx, id);
  });
}

/** The published rules of one type that apply to an agent (the answer pipeline's read). */
export async function publishedRulesForAgent(ctx: Ctx, agentId: string, type: RuleType): Promise<RuleWithAgents[]> {
  return listPublishedRulesForAgent(ctx.db, ctx.workspaceId, agentId, type);
}

// ---------------------------------------------------------------------------------------------
// Test (a dry run)

export interface TestRuleInput {
  message: string;
  context: EvaluationContext;
  state?: Record<string, unknown> | null;
}

/**
 * Whether the rule's trigger matches a message, and the walk of its flow with the tool calls
 * recorded, not made. Nothing is stored.
 */
export async function testRule(ctx: Ctx, id: string, input: TestRuleInput) {
  const rule = await requireRule(ctx.db, ctx, id);
  if (rule.type === 'business') throw new AppError('bad_request', 'business rules have no flow to test: they apply to every answer of their agents');
  let state = null;
  if (input.state) {
    const parsed = flowStateSchema.safeParse(input.state);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AppError('bad_request', `body.state${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message ?? 'invalid'}`);
    }
    state = parsed.data;
  }
  const context: EvaluationContext = { ...input.context, message: { ...input.context.message, content: input.context.message?.content ?? input.message } };
  let trigger: { matched: boolean; score: number; reason: string };
  if (rule.triggerType === 'on_escalation') {
    const escalated = context.conversation?.status === 'Escalated to Human Agent';
    trigger = {
      matched: escalated,
      score: escalated ? 1 : 0,
      reason: escalated ? 'the conversation was handed over: on_escalation rules run at hand-over' : 'on_escalation rules run only at hand-over (conversation.status "Escalated to Human Agent")',
    };
  } else {
    const { output } = await modelCall(() =>
      ctx.llm.run(matchRuleTask, { message: input.message, rules: [{ id: rule.id, name: rule.name, description: rule.description }] }, callOptions(ctx)),
    );
    const match = output.matches.find((m) => m.ruleId === rule.id);
    const score = match ? Math.min(1, Math.max(0, match.score)) : 0;
    trigger = { matched: score >= RULE_MATCH_THRESHOLD, score, reason: match?.reason ?? 'the model did not score this rule' };
  }
  const walk = rule.flowConfig ? await walkFlow(flowConfigSchema.parse(rule.flowConfig), { message: input.message, context, state }, dryRunTools) : null;
  if (walk?.error) throw new AppError('bad_request', `body.${walk.error}`);
  return { ruleId: rule.id, version: rule.version, versionId: rule.currentVersionId, threshold: RULE_MATCH_THRESHOLD, trigger, walk };
}

/**
 * Which of `rules` a customer message triggers (the planner's match by description): the scores
 * of the match task, best first, and the rules at or above RULE_MATCH_THRESHOLD.
 */
export async function matchIntentRules(
  ctx: Ctx,
  message: string,
  rules: readonly { id: string; name: string; description: string }[],
  options: { signal?: AbortSignal } = {},
): Promise<{ matches: { ruleId: string; score: number; reason: string }[]; threshold: number; usage: TokenUsage }> {
  if (rules.length === 0) return { matches: [], threshold: RULE_MATCH_THRESHOLD, usage: NO_USAGE };
  const { output, usage } = await ctx.llm.run(matchRuleTask, { message, rules: rules.map((r) => ({ id: r.id, name: r.name, description: r.description })) }, options);
  const known = new Set(rules.map((r) => r.id));
  const matches = output.matches
    .filter((m) => known.has(m.ruleId))
    .map((m) => ({ ...m, score: Math.min(1, Math.max(0, m.score)) }))
    .sort((a, b) => b.score - a.score || a.ruleId.localeCompare(b.ruleId));
  return { matches, threshold: RULE_MATCH_THRESHOLD, usage };
}

/** Names of rules by id (any status), for analytics. */
export async function ruleNames(ctx: Pick<Ctx, 'db' | 'workspaceId'>, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await listRuleNames(ctx.db, ctx.workspaceId, ids);
  return new Map(rows.map((r) => [r.id, r.name]));
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
