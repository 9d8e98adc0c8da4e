import { principalOf } from '../../context.js';
import type { KeyAuthenticator } from '../../http/auth.js';
import { defineRoute } from '../../http/route.js';
import { presentCurrentWorkspace } from './workspaces.presenter.js';
import { currentWorkspaceSchema, renameWorkspaceBodySchema } from './workspaces.schemas.js';
import { getCurrentWorkspace, renameCurrentWorkspace } from './workspaces.service.js';

const tags = ['Workspace'];

/** Routes of the calling key's workspace. */
export function workspaceRoutes(authenticator: KeyAuthenticator) {
  return [
    defineRoute({
      method: 'GET',
      url: '/v2/workspace/public',
      auth: 'read',
      tags,
      summary: 'The workspace of the calling API key',
      description:
        'Returns the workspace the key belongs to and the key itself (without its secret). ' +
        'Useful to check which workspace and scopes a key has. Answered from the verified key, so a ' +
        'rename made through another process shows within a second.',
      response: currentWorkspaceSchema,
      handler: async ({ ctx }) => presentCurrentWorkspace(getCurrentWorkspace(ctx), principalOf(ctx)),
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
        const workspace = await renameCurrentWorkspace(ctx, body.name);
        authenticator.forgetWorkspace(ctx.workspaceId);
        return presentCurrentWorkspace(workspace, principalOf(ctx));
      },
    }),
  ];
}
