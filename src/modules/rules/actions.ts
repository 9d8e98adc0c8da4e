import type { WorkspaceContext } from '../../context.js';

/**
 * What rule flows need to know about actions (`hc-tools` with `alwaysGet: false`): which ids name
 * an existing action of the workspace. The actions capability implements it (issue 13); until it
 * exists no workspace has actions, so a flow's tool node is refused with a 400 naming the node.
 */
export interface ActionCatalog {
  /** The ids among `ids` that name an action of the workspace. */
  existingActionIds(ctx: Pick<WorkspaceContext, 'db' | 'workspaceId'>, ids: readonly string[]): Promise<Set<string>>;
  /** The workspace's actions, for drafting flows from instructions (a tool node names one of them). */
  actionsForDrafting(ctx: Pick<WorkspaceContext, 'db' | 'workspaceId'>): Promise<{ id: string; name: string; description: string }[]>;
}

export const actionCatalog: ActionCatalog = {
  existingActionIds: async () => new Set<string>(),
  actionsForDrafting: async () => [],
};
