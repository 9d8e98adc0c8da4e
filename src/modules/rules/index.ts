export { ruleRoutes } from './rules.routes.js';
export { createRuleDraft, discardRuleDraft, getRuleDraft, proposeRuleChange, publishRuleDraft } from './rule-drafts.service.js';
export { matchIntentRules } from './rule-matching.service.js';
export { getRule, publishedRulesForAgent, ruleNames } from './rules.service.js';
export type { RuleDraftRow } from './rules.repository.js';
export type { RuleWithAgents } from './rules.repository.js';
export { actionCatalog, type ActionCatalog } from './actions.js';
export { ruleListeners } from './rules.listeners.js';
