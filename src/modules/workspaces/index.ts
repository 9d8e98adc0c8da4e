export { presentWorkspace } from './workspaces.presenter.js';
export { workspaceRoutes } from './workspaces.routes.js';
export { workspaceNameSchema, workspaceSchema } from './workspaces.schemas.js';
export { countWorkspaces, createWorkspace, listWorkspaces, requireWorkspace, workspaceSourceSyncInterval } from './workspaces.service.js';
