import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { OperatorContext, Scope } from '../../context.js';
import type { Db } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import { findWorkspace } from '../workspaces/workspaces.repository.js';
import {
  type ApiKeyRow,
  deleteDeadApiKeys,
  findApiKeyByHash,
  insertApiKey,
  listApiKeys as listApiKeyRows,
  revokeApiKeyById,
  touchApiKey,
} from './api-keys.repository.js';

export const KEY_PREFIX = 'parley_';
/** `parley_` + 32 random bytes in base64url (43 characters). */
export const KEY_PATTERN = /^parley_[A-Za-z0-9_-]{43}$/;
const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 6;
/** lastUsedAt is written at most this often per key, so authentication stays a read. */
const TOUCH_INTERVAL_MS = 60_000;

/** Stored scopes as the typed set (unknown values, which no code writes, are dropped). */
export function toScopes(stored: readonly string[]): Scope[] {
  return stored.filter((s): s is Scope => s === 'read' || s === 'write');
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export interface CreateApiKeyInput {
  name?: string | undefined;
  scopes: Scope[];
  expiresAt?: Date | undefined;
}

/** Creates a key; the plaintext exists only in the returned value. */
export async function createApiKey(
  ctx: Pick<OperatorContext, 'db' | 'clock'>,
  workspaceId: string,
  input: CreateApiKeyInput,
): Promise<{ row: ApiKeyRow; key: string }> {
  if (!(await findWorkspace(ctx.db, workspaceId))) throw new AppError('not_found', `workspace ${workspaceId} not found`);
  if (input.expiresAt && input.expiresAt.getTime() <= ctx.clock.now().getTime()) {
    throw new AppError('bad_request', 'expiresAt: must be in the future');
  }
  const key = generateApiKey();
  const scopes = [...new Set(input.scopes)].sort();
  const row = await insertApiKey(ctx.db, workspaceId, {
    name: input.name?.trim() || `key ${key.slice(KEY_PREFIX.length, DISPLAY_PREFIX_LENGTH)}`,
    prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
    keyHash: hashApiKey(key),
    scopes,
    expiresAt: input.expiresAt ?? null,
  });
  return { row, key };
}

export async function listApiKeys(ctx: Pick<OperatorContext, 'db'>, workspaceId: string): Promise<ApiKeyRow[]> {
  if (!(await findWorkspace(ctx.db, workspaceId))) throw new AppError('not_found', `workspace ${workspaceId} not found`);
  return listApiKeyRows(ctx.db, workspaceId);
}

/** Revokes a key (idempotent: revoking twice keeps the first revocation time). */
export async function revokeApiKey(ctx: Pick<OperatorContext, 'db' | 'clock'>, id: string): Promise<ApiKeyRow> {
  const row = await revokeApiKeyById(ctx.db, id, ctx.clock.now());
  if (!row) throw new AppError('not_found', `API key ${id} not found`);
  return row;
}

/** Deletes keys that expired or were revoked more than `retentionDays` ago. */
export async function purgeDeadApiKeys(db: Db, now: Date, retentionDays: number): Promise<number> {
  return deleteDeadApiKeys(db, new Date(now.getTime() - retentionDays * 24 * 3600 * 1000));
}

/** A verified key and its workspace: what authentication hands to the request context. */
export interface Principal {
  apiKeyId: string;
  workspaceId: string;
  scopes: Scope[];
  expiresAt: Date | null;
  key: { name: string; prefix: string };
  workspace: { name: string; createdAt: Date };
}

export type KeyLookup = { status: 'ok'; principal: Principal } | { status: 'invalid' };

/** Looks a presented key up by its hash; revoked and unknown keys are both 'invalid'. */
export async function lookupApiKey(db: Db, presented: string, now: Date): Promise<KeyLookup> {
  const hash = hashApiKey(presented);
  const found = await findApiKeyByHash(db, hash);
  if (!found || found.key.revokedAt) return { status: 'invalid' };
  const { key: row, workspace } = found;
  const stored = Buffer.from(row.keyHash, 'hex');
  const given = Buffer.from(hash, 'hex');
  if (stored.length !== given.length || !timingSafeEqual(stored, given)) return { status: 'invalid' };
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    await touchApiKey(db, row.workspaceId, row.id, now);
  }
  return {
    status: 'ok',
    principal: {
      apiKeyId: row.id,
      workspaceId: row.workspaceId,
      scopes: toScopes(row.scopes),
      expiresAt: row.expiresAt,
      key: { name: row.name, prefix: row.prefix },
      workspace: { name: workspace.name, createdAt: workspace.createdAt },
    },
  };
}
