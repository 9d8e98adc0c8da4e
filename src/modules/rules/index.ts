export { ruleRoutes } from './rules.routes.js';
export { matchIntentRules, publishedRulesForAgent, ruleNames } from './rules.service.js';
export type { RuleWithAgents } from './rules.repository.js';
export { actionCatalog, type ActionCatalog } from './actions.js';
export { ruleListeners } from './rules.listeners.js';
