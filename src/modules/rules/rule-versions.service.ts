import { authorOf, inTransaction } from '../../context.js';
import type { Db } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import { flowConfigSchema } from '../../evaluators/flow.js';
import { existingAgentIds } from '../agents/index.js';
import { findRuleVersion, listRuleVersions, type RuleRow, type RuleVersionRow, type RuleWithAgents, setRuleAgents, updateRule as updateRuleRow } from './rules.repository.js';
import { appendVersion, checkFlowReferences, type Ctx, requireRule } from './rules.service.js';

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
