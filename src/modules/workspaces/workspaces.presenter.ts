import type { Principal } from '../api-keys/index.js';
import type { WorkspaceRow } from './workspaces.repository.js';
import type { CurrentWorkspace } from './workspaces.schemas.js';

export function presentWorkspace(row: Pick<WorkspaceRow, 'id' | 'name' | 'createdAt'>) {
  return { id: row.id, name: row.name, createdAt: row.createdAt.toISOString() };
}

/** The calling key's workspace, with the key itself (never its secret). */
export function presentCurrentWorkspace(workspace: Pick<WorkspaceRow, 'id' | 'name' | 'createdAt' | 'sourceSyncInterval'>, principal: Principal): CurrentWorkspace {
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

/** Answers built from a verified key, by the principal the key cache hands out. */
const VERIFIED = new WeakMap<Principal, CurrentWorkspace>();

/**
 * GET /v2/workspace/public's answer, which comes from the verified key alone (no query: scripts call
 * it to check a key): built once per verification, since the key cache hands every request the same
 * principal until it verifies the key again (PARLEY_AUTH_CACHE_MS) or a change of the workspace or
 * key forgets it. The requests of one verification share the object; nothing writes to an answer.
 */
export function presentVerifiedWorkspace(principal: Principal): CurrentWorkspace {
  const known = VERIFIED.get(principal);
  if (known) return known;
  const { name, createdAt, sourceSyncInterval } = principal.workspace;
  const answer = presentCurrentWorkspace({ id: principal.workspaceId, name, createdAt, sourceSyncInterval }, principal);
  VERIFIED.set(principal, answer);
  return answer;
}
