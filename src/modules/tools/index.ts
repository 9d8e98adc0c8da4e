export { toolRoutes } from './tools.routes.js';
export { actionsForDrafting, existingActionIds } from './tools.service.js';
