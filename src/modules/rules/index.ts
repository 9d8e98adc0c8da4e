export { ruleRoutes } from './rules.routes.js';
export {
  createRuleDraft,
  discardRuleDraft,
  getRuleDraft,
  matchIntentRules,
  proposeRuleChange,
  publishedRulesForAgent,
  publishRuleDraft,
  ruleNames,
} from './rules.service.js';
export type { RuleDraftRow } from './rules.repository.js';
export type { RuleWithAgents } from './rules.repository.js';
export { actionCatalog, type ActionCatalog } from './actions.js';
export { ruleListeners } from './rules.listeners.js';
