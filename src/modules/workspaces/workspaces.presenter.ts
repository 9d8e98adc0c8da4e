import type { Principal } from '../api-keys/index.js';
import type { WorkspaceRow } from './workspaces.repository.js';

export function presentWorkspace(row: Pick<WorkspaceRow, 'id' | 'name' | 'createdAt'>) {
  return { id: row.id, name: row.name, createdAt: row.createdAt.toISOString() };
}

/** The calling key's workspace, with the key itself (never its secret). */
export function presentCurrentWorkspace(workspace: Pick<WorkspaceRow, 'id' | 'name' | 'createdAt' | 'sourceSyncInterval'>, principal: Principal) {
  // A literal, not a spread of presentWorkspace: the key-check route's cost is mostly this (Node 20).
  return {
    id: workspace.id,
    name: workspace.name,
    createdAt: workspace.createdAt.toISOString(),
    sourceSyncInterval: workspace.sourceSyncInterval,
    apiKey: {
      id: principal.apiKeyId,
      name: principal.key.name,
      prefix: principal.key.prefix,
      scopes: principal.scopes,
      expiresAt: principal.expiresAt?.toISOString() ?? null,
    },
  };
}
