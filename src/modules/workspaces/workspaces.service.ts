import type { OperatorContext, RequestContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { type ApiKeyRow, findApiKey } from '../api-keys/api-keys.repository.js';
import {
  insertWorkspace,
  listWorkspaces as listWorkspaceRows,
  findWorkspace,
  renameWorkspace as renameWorkspaceRow,
  type WorkspaceRow,
} from './workspaces.repository.js';

/** The workspace of the calling key, with that key. */
export async function getCurrentWorkspace(ctx: RequestContext): Promise<{ workspace: WorkspaceRow; key: ApiKeyRow }> {
  const [workspace, key] = await Promise.all([
    findWorkspace(ctx.db, ctx.workspaceId),
    findApiKey(ctx.db, ctx.workspaceId, ctx.apiKeyId),
  ]);
  if (!workspace || !key) throw new AppError('not_found', 'workspace not found');
  return { workspace, key };
}

export async function renameCurrentWorkspace(
  ctx: RequestContext,
  name: string,
): Promise<{ workspace: WorkspaceRow; key: ApiKeyRow }> {
  const workspace = await renameWorkspaceRow(ctx.db, ctx.workspaceId, name, ctx.clock.now());
  const key = await findApiKey(ctx.db, ctx.workspaceId, ctx.apiKeyId);
  if (!workspace || !key) throw new AppError('not_found', 'workspace not found');
  return { workspace, key };
}

export async function createWorkspace(ctx: Pick<OperatorContext, 'db'>, name: string): Promise<WorkspaceRow> {
  return insertWorkspace(ctx.db, name);
}

export async function listWorkspaces(ctx: Pick<OperatorContext, 'db'>): Promise<WorkspaceRow[]> {
  return listWorkspaceRows(ctx.db);
}
