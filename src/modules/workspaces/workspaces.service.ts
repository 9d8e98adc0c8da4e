import type { OperatorContext, RequestContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import {
  insertWorkspace,
  listWorkspaces as listWorkspaceRows,
  renameWorkspace as renameWorkspaceRow,
  type WorkspaceRow,
} from './workspaces.repository.js';

type WorkspaceView = Pick<WorkspaceRow, 'id' | 'name' | 'createdAt'>;

/**
 * The workspace of the calling key, as authentication just verified it (no further query: this is
 * the route scripts call to check a key, so it costs what authentication costs).
 */
export function getCurrentWorkspace(ctx: RequestContext): WorkspaceView {
  return { id: ctx.workspaceId, name: ctx.principal.workspace.name, createdAt: ctx.principal.workspace.createdAt };
}

export async function renameCurrentWorkspace(ctx: RequestContext, name: string): Promise<WorkspaceView> {
  const workspace = await renameWorkspaceRow(ctx.db, ctx.workspaceId, name, ctx.clock.now());
  if (!workspace) throw new AppError('not_found', 'workspace not found');
  return workspace;
}

export async function createWorkspace(ctx: Pick<OperatorContext, 'db'>, name: string): Promise<WorkspaceRow> {
  return insertWorkspace(ctx.db, name);
}

export async function listWorkspaces(ctx: Pick<OperatorContext, 'db'>): Promise<WorkspaceRow[]> {
  return listWorkspaceRows(ctx.db);
}
