import { defineRoute } from '../../http/route.js';
import { idParamsSchema, iso } from '../../http/schemas.js';
import { presentFolder } from './folders.presenter.js';
import {
  createFolderBodySchema,
  deleteFolderQuerySchema,
  folderSchema,
  junctionsBodySchema,
  junctionsResultSchema,
  moveFolderBodySchema,
  snapshotQuerySchema,
  snapshotSchema,
  updateFolderBodySchema,
} from './folders.schemas.js';
import { applyJunctions, createFolder, deleteFolder, getSnapshot, moveFolder, updateFolderDetails } from './folders.service.js';

const tags = ['Folders'];
const present = (row: Parameters<typeof presentFolder>[0] & { botIds: string[] }) => presentFolder(row, row.botIds);

export function folderRoutes() {
  return [
    defineRoute({
      method: 'GET',
      url: '/v2/hc-folders/public',
      auth: 'read',
      tags,
      summary: 'Knowledge tree snapshot',
      description:
        'Every folder nested with its subfolders and the summaries of its live articles and open drafts ' +
        '(published drafts are left out). With `botId`, only the folders assigned to that agent and all ' +
        'their descendants; an unknown agent is a 404. The snapshot is computed on read: `id` is the ' +
        'workspace id, `createdAt` the time of computation, `updatedAt` the latest change it contains.',
      querystring: snapshotQuerySchema,
      errors: [404],
      response: snapshotSchema,
      serializer: 'presenter',
      handler: async ({ ctx, query }) => {
        const snapshot = await getSnapshot(ctx, query.botId);
        return {
          id: snapshot.workspaceId,
          createdAt: iso(snapshot.computedAt),
          updatedAt: iso(snapshot.updatedAt),
          snapshotObjV2: snapshot.folders,
        };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/hc-folders/public',
      auth: 'write',
      tags,
      summary: 'Create a folder',
      description: '`parentFolderId` (optional) must be a folder of the workspace (400 otherwise).',
      body: createFolderBodySchema,
      status: 201,
      response: folderSchema,
      handler: async ({ ctx, body }) => present(await createFolder(ctx, body)),
    }),
    defineRoute({
      method: 'PUT',
      url: '/v2/hc-folders/:id/public',
      auth: 'write',
      tags,
      summary: 'Update a folder',
      description: 'Sets title, description and active state (all required). Articles of an inactive folder are not used in answers.',
      params: idParamsSchema,
      body: updateFolderBodySchema,
      errors: [404],
      response: folderSchema,
      handler: async ({ ctx, params, body }) => present(await updateFolderDetails(ctx, params.id, body)),
    }),
    defineRoute({
      method: 'PUT',
      url: '/v2/hc-folders/:id/move/public',
      auth: 'write',
      tags,
      summary: 'Move a folder',
      description:
        'Moves the folder (with its subtree) under `parentFolderId`, or to the top level with null. Moving ' +
        'a folder into itself or one of its subfolders, or under a folder not in the workspace, is a 400.',
      params: idParamsSchema,
      body: moveFolderBodySchema,
      errors: [404],
      response: folderSchema,
      handler: async ({ ctx, params, body }) => present(await moveFolder(ctx, params.id, body.parentFolderId)),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v2/hc-folders/:id/public',
      auth: 'write',
      tags,
      summary: 'Delete a folder',
      description:
        'Returns the deleted folder. A folder that holds subfolders or articles is refused with 409 unless ' +
        '`cascade=true`, which deletes its whole subtree: subfolders, their articles and drafts with their ' +
        'history, and agent assignments. Drafts elsewhere made from deleted articles are kept, unlinked.',
      params: idParamsSchema,
      querystring: deleteFolderQuerySchema,
      errors: [404, 409],
      response: folderSchema,
      handler: async ({ ctx, params, query }) => present(await deleteFolder(ctx, params.id, query.cascade)),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/hc-bot-folder-junctions/public',
      auth: 'write',
      tags,
      summary: 'Assign folders to agents',
      description:
        'Applies every `ADD` and `DELETE` item in one transaction, all or nothing. Each folder and agent ' +
        'must exist in the workspace (400 naming the item otherwise). Adding an existing assignment or ' +
        'deleting a missing one changes nothing; for a pair named twice the last item wins. An agent ' +
        'answers from its assigned folders and all their descendants.',
      body: junctionsBodySchema,
      response: junctionsResultSchema,
      handler: async ({ ctx, body }) => {
        await applyJunctions(ctx, body.junctions);
        return { status: true as const };
      },
    }),
  ];
}
