export { agentRoutes } from './agents.routes.js';
export { existingAgentIds, requireAgent, requireAgentIds, requireAgentOrNotAcceptable, requireAnsweringAgent } from './agents.service.js';
export type { AgentWithPrompts } from './agents.repository.js';
export { serializePrompts, serializeSections } from './agents.presenter.js';
export { promptRoutes } from './prompts.routes.js';
export {
  createPromptDraft,
  discardDraft as discardPromptDraft,
  getAgentPrompt,
  getDraft as getPromptDraft,
  publishDraft as publishPromptDraft,
  workspaceDefaultPrompts,
} from './prompts.service.js';
