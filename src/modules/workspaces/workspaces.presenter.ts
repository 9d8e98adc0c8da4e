import { toScopes } from '../api-keys/api-keys.service.js';
import type { ApiKeyRow } from '../api-keys/api-keys.repository.js';
import type { WorkspaceRow } from './workspaces.repository.js';

export function presentWorkspace(row: WorkspaceRow) {
  return { id: row.id, name: row.name, createdAt: row.createdAt.toISOString() };
}

/** The calling key's workspace, with the key itself (never its secret). */
export function presentCurrentWorkspace(row: WorkspaceRow, key: ApiKeyRow) {
  return {
    ...presentWorkspace(row),
    apiKey: {
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      scopes: toScopes(key.scopes),
      expiresAt: key.expiresAt?.toISOString() ?? null,
    },
  };
}
