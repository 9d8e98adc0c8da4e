import { defineRoute } from '../../http/route.js';
import { presentCurrentWorkspace } from './workspaces.presenter.js';
import { currentWorkspaceSchema, renameWorkspaceBodySchema } from './workspaces.schemas.js';
import { getCurrentWorkspace, renameCurrentWorkspace } from './workspaces.service.js';

const tags = ['Workspace'];

export const workspaceRoutes = [
  defineRoute({
    method: 'GET',
    url: '/v2/workspace/public',
    auth: 'read',
    tags,
    summary: 'The workspace of the calling API key',
    description: 'Returns the workspace the key belongs to and the key itself (without its secret). ' +
      'Useful to check which workspace and scopes a key has.',
    response: currentWorkspaceSchema,
    handler: async ({ ctx }) => {
      const { workspace, key } = await getCurrentWorkspace(ctx);
      return presentCurrentWorkspace(workspace, key);
    },
  }),
  defineRoute({
    method: 'PATCH',
    url: '/v2/workspace/public',
    auth: 'write',
    tags,
    summary: 'Rename the workspace of the calling API key',
    body: renameWorkspaceBodySchema,
    response: currentWorkspaceSchema,
    handler: async ({ ctx, body }) => {
      const { workspace, key } = await renameCurrentWorkspace(ctx, body.name);
      return presentCurrentWorkspace(workspace, key);
    },
  }),
];
