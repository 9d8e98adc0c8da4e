import { principalOf } from '../../context.js';
import type { KeyAuthenticator } from '../../http/auth.js';
import { defineRoute } from '../../http/route.js';
import { presentCurrentWorkspace, presentVerifiedWorkspace } from './workspaces.presenter.js';
import { currentWorkspaceSchema, updateWorkspaceBodySchema } from './workspaces.schemas.js';
import { updateCurrentWorkspace } from './workspaces.service.js';

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
      handler: async ({ ctx }) => presentVerifiedWorkspace(principalOf(ctx)),
    }),
    defineRoute({
      method: 'PATCH',
      url: '/v2/workspace/public',
      auth: 'write',
      tags,
      summary: 'Update the workspace of the calling API key',
      description:
        'Renames the workspace (`name`) and/or sets the default re-sync of its sources (`sourceSyncInterval`: `off`, ' +
        '`hourly`, `daily`, `weekly` or a five-field cron expression in UTC), which applies to every source that has no ' +
        'interval of its own nor one from its provider connection (docs/sources.md, "Scheduled re-sync"). Give at least ' +
        'one field; an invalid interval is a 400 naming it.',
      body: updateWorkspaceBodySchema,
      response: currentWorkspaceSchema,
      handler: async ({ ctx, body }) => {
        const workspace = await updateCurrentWorkspace(ctx, body);
        authenticator.forgetWorkspace(ctx.workspaceId);
        return presentCurrentWorkspace(workspace, principalOf(ctx));
      },
    }),
  ];
}
