import { emit, inTransaction, type ProcessContext, type WorkspaceContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import {
  findWorkspace,
  updateWorkspace as updateWorkspaceRow,
  unscopedCountWorkspaces,
  unscopedInsertWorkspace,
  unscopedListWorkspaces,
  type WorkspaceRow,
} from './workspaces.repository.js';

type WorkspaceView = Pick<WorkspaceRow, 'id' | 'name' | 'createdAt' | 'sourceSyncInterval'>;

/**
 * PATCH /v2/workspace/public: renames the workspace and/or sets its sources' default re-sync; a
 * changed default emits `workspace.source-sync-changed` (the sources module reschedules the sources
 * that follow it) in the same transaction.
 */
export async function updateCurrentWorkspace(ctx: WorkspaceContext, values: { name?: string; sourceSyncInterval?: string }): Promise<WorkspaceView> {
  return inTransaction(ctx, async (tx) => {
    const before = await findWorkspace(tx.db, ctx.workspaceId);
    const workspace = await updateWorkspaceRow(tx.db, ctx.workspaceId, values, ctx.clock.now());
    if (!before || !workspace) throw new AppError('not_found', 'workspace not found');
    if (workspace.sourceSyncInterval !== before.sourceSyncInterval) {
      await emit(tx, 'workspace.source-sync-changed', { interval: workspace.sourceSyncInterval });
    }
    return workspace;
  });
}

/** The default re-sync recurrence of the workspace's sources. */
export async function workspaceSourceSyncInterval(ctx: Pick<WorkspaceContext, 'db' | 'workspaceId'>): Promise<string> {
  return (await findWorkspace(ctx.db, ctx.workspaceId))?.sourceSyncInterval ?? 'off';
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
