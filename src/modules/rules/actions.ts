import type { WorkspaceContext } from '../../context.js';
import { actionsForDrafting, existingActionIds } from '../tools/index.js';

/**
 * What rule flows need to know about actions (`hc-tools` with `alwaysGet: false`), from the tools
 * module: which ids name an action of the workspace (a flow's tool node must), and the actions a
 * drafted flow may call.
 */
export interface ActionCatalog {
  /** The ids among `ids` that name an action of the workspace. */
  existingActionIds(ctx: Pick<WorkspaceContext, 'db' | 'workspaceId'>, ids: readonly string[]): Promise<Set<string>>;
  /** The workspace's actions, for drafting flows from instructions (a tool node names one of them). */
  actionsForDrafting(ctx: Pick<WorkspaceContext, 'db' | 'workspaceId'>): Promise<{ id: string; name: string; description: string; inputNames?: string[] }[]>;
}

export const actionCatalog: ActionCatalog = { existingActionIds, actionsForDrafting };
