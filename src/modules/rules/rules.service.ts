import { authorOf, inTransaction, type WorkspaceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import type { RuleVersionItem } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { type FlowNode, flowTagRefs, flowToolRefs, withNodeIds } from '../../evaluators/flow.js';
import { requireAgentIds } from '../agents/index.js';
import { existingTagIds } from '../tags/index.js';
import { actionCatalog } from './actions.js';
import {
  deleteRule as deleteRuleRow,
  findRule,
  insertRule,
  insertRuleVersion,
  listPublishedRulesForAgent,
  listRules as listRuleRows,
  listRuleNames,
  type RuleRow,
  type RuleWithAgents,
  setRuleAgents,
  updateRule as updateRuleRow,
} from './rules.repository.js';
import type { CreateRuleBody, RuleSource, RuleType, UpdateRuleBody } from './rules.schemas.js';

// Intent and business rules: reading, creating, changing and deleting them, with what every
// change checks (the agents, actions and tags a rule names) and the version a published rule
// appends. Drafts from instructions: rule-drafts.service.ts; history: rule-versions.service.ts;
// the dry run and the planner's match: rule-matching.service.ts.

export type Ctx = WorkspaceContext;

const notFound = () => new AppError('not_found', 'rule not found');

export async function requireRule(db: Db, ctx: Ctx, id: string, lock = false): Promise<RuleWithAgents> {
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
export async function checkFlowReferences(ctx: Ctx, flow: FlowNode, field: string): Promise<void> {
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
export async function appendVersion(ctx: Ctx, db: Db, rule: RuleRow, botIds: string[], restoredFrom: string | null = null): Promise<RuleRow> {
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

export const storedFlow = (flow: FlowNode | null | undefined) => (flow ? (withNodeIds(flow) as unknown as Record<string, unknown>) : null);

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
        // A flow the lead wrote replaces what drafting did not understand.
        ...(body.flowConfig !== undefined && rule.status === 'DRAFT' ? { draftWarnings: [] } : {}),
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

/** The published rules of one type that apply to an agent (the answer pipeline's read). */
export async function publishedRulesForAgent(ctx: Ctx, agentId: string, type: RuleType): Promise<RuleWithAgents[]> {
  return listPublishedRulesForAgent(ctx.db, ctx.workspaceId, agentId, type);
}

/** Names of rules by id (any status), for analytics. */
export async function ruleNames(ctx: Pick<Ctx, 'db' | 'workspaceId'>, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await listRuleNames(ctx.db, ctx.workspaceId, ids);
  return new Map(rows.map((r) => [r.id, r.name]));
}

