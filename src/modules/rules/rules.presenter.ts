import { iso } from '../../http/schemas.js';
import type { RuleVersionRow, RuleWithAgents } from './rules.repository.js';
import type { RuleStatus, RuleType } from './rules.schemas.js';

/** A rule without its flow (list items). */
export function presentRuleSummary(rule: RuleWithAgents) {
  return {
    id: rule.id,
    companyId: rule.workspaceId,
    type: rule.type as RuleType,
    name: rule.name,
    description: rule.description,
    status: rule.status as RuleStatus,
    isDraft: rule.status === 'DRAFT',
    source: rule.source,
    triggerType: rule.triggerType,
    inputSchema: rule.inputSchema,
    botIds: rule.status === 'DRAFT' ? [] : rule.botIds,
    version: rule.version,
    versionId: rule.currentVersionId,
    behaviorInstructions: rule.behaviorInstructions,
    createdAt: iso(rule.createdAt),
    updatedAt: iso(rule.updatedAt),
    createdBy: rule.createdBy,
  };
}

/** The full rule, with its flow. */
export function presentRule(rule: RuleWithAgents) {
  return { ...presentRuleSummary(rule), flowConfig: rule.flowConfig };
}

/** A drafted or refined rule with the parts of its instructions it did not turn into the flow. */
export function presentDraftedRule(rule: RuleWithAgents & { warnings: { fragment: string; message: string }[] }) {
  return { ...presentRule(rule), warnings: rule.warnings };
}

/** A version as the history lists it: the rule as it was at that version, without the flow. */
export function presentRuleVersionItem(rule: RuleWithAgents, version: RuleVersionRow) {
  const { item } = version;
  return {
    versionId: version.id,
    version: version.version,
    createdAt: iso(version.createdAt),
    createdBy: version.createdBy,
    restoredFromVersionId: version.restoredFromVersionId,
    item: {
      id: rule.id,
      name: item.name,
      description: item.description,
      status: item.status,
      source: item.source,
      triggerType: item.triggerType,
      botIds: item.botIds,
      version: version.version,
      versionId: version.id,
      createdAt: iso(rule.createdAt),
      updatedAt: iso(version.createdAt),
    },
  };
}

/** One version with its flow and input schema. */
export function presentRuleVersion(rule: RuleWithAgents, version: RuleVersionRow) {
  const listed = presentRuleVersionItem(rule, version);
  return { ...listed, item: { ...listed.item, inputSchema: version.item.inputSchema, flowConfig: version.item.flowConfig } };
}
