export { presentWorkspace } from './workspaces.presenter.js';
export { countWorkspaces } from './workspaces.repository.js';
export { workspaceRoutes } from './workspaces.routes.js';
export { createWorkspace, listWorkspaces } from './workspaces.service.js';
