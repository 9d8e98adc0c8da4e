export { stepRoutes } from './steps.routes.js';
export { toolRoutes } from './tools.routes.js';
export { actionsForDrafting, existingActionIds } from './tools.service.js';
