import { principalOf, type ProcessContext, type WorkspaceContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import {
  findWorkspace,
  renameWorkspace as renameWorkspaceRow,
  unscopedCountWorkspaces,
  unscopedInsertWorkspace,
  unscopedListWorkspaces,
  type WorkspaceRow,
} from './workspaces.repository.js';

type WorkspaceView = Pick<WorkspaceRow, 'id' | 'name' | 'createdAt'>;

/**
 * The workspace of the calling key, as authentication just verified it (no further query: this is
 * the route scripts call to check a key, so it costs what authentication costs).
 */
export function getCurrentWorkspace(ctx: WorkspaceContext): WorkspaceView {
  const { workspace } = principalOf(ctx);
  return { id: ctx.workspaceId, name: workspace.name, createdAt: workspace.createdAt };
}

export async function renameCurrentWorkspace(ctx: WorkspaceContext, name: string): Promise<WorkspaceView> {
  const workspace = await renameWorkspaceRow(ctx.db, ctx.workspaceId, name, ctx.clock.now());
  if (!workspace) throw new AppError('not_found', 'workspace not found');
  return workspace;
}

/** The workspace the operator names, or 404. */
export async function requireWorkspace(ctx: Pick<ProcessContext, 'db'>, workspaceId: string): Promise<WorkspaceRow> {
  const workspace = await findWorkspace(ctx.db, workspaceId);
  if (!workspace) throw new AppError('not_found', `workspace ${workspaceId} not found`);
  return workspace;
}

export async function createWorkspace(ctx: Pick<ProcessContext, 'db'>, name: string): Promise<WorkspaceRow> {
  return unscopedInsertWorkspace(ctx.db, name);
}

export async function listWorkspaces(ctx: Pick<ProcessContext, 'db'>): Promise<WorkspaceRow[]> {
  return unscopedListWorkspaces(ctx.db);
}

/** How many workspaces exist: the first start of an empty database creates one. */
export async function countWorkspaces(ctx: Pick<ProcessContext, 'db'>): Promise<number> {
  return unscopedCountWorkspaces(ctx.db);
}
