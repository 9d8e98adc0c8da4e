export { stepRoutes } from './steps.routes.js';
export { toolRoutes } from './tools.routes.js';
export { actionRunner, type ActionRunner, actionsForDrafting, attributesForAgent, existingActionIds } from './tools.service.js';
export type { StepRecord, ToolRunResult } from './engine.service.js';
export type { DataStepRow } from './tools.repository.js';
export { rotateStoredSecrets } from './secrets.service.js';
