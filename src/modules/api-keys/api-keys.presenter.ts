import { toScopes } from './api-keys.service.js';
import type { ApiKeyRow } from './api-keys.repository.js';

/** A key as listed: never the secret or its hash. */
export function presentApiKey(row: ApiKeyRow) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    prefix: row.prefix,
    scopes: toScopes(row.scopes),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/** A key as created: the one answer that carries the plaintext secret. */
export function presentCreatedApiKey(row: ApiKeyRow, key: string) {
  return {
    id: row.id,
    name: row.name,
    key,
    prefix: row.prefix,
    scopes: toScopes(row.scopes),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}
