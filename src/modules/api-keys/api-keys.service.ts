import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ProcessContext, Scope } from '../../context.js';
import type { Db } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import { requireWorkspace } from '../workspaces/index.js';
import {
  type ApiKeyRow,
  unscopedDeleteDeadApiKeys,
  unscopedFindApiKeyByHash,
  insertApiKey,
  listApiKeys as listApiKeyRows,
  unscopedRevokeApiKey,
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
  ctx: Pick<ProcessContext, 'db' | 'clock'>,
  workspaceId: string,
  input: CreateApiKeyInput,
): Promise<{ row: ApiKeyRow; key: string }> {
  await requireWorkspace(ctx, workspaceId);
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

export async function listApiKeys(ctx: Pick<ProcessContext, 'db'>, workspaceId: string): Promise<ApiKeyRow[]> {
  await requireWorkspace(ctx, workspaceId);
  return listApiKeyRows(ctx.db, workspaceId);
}

/** Revokes a key (idempotent: revoking twice keeps the first revocation time). */
export async function revokeApiKey(ctx: Pick<ProcessContext, 'db' | 'clock'>, id: string): Promise<ApiKeyRow> {
  const row = await unscopedRevokeApiKey(ctx.db, id, ctx.clock.now());
  if (!row) throw new AppError('not_found', `API key ${id} not found`);
  return row;
}

/** Deletes keys (of every workspace) that expired or were revoked more than PARLEY_KEY_RETENTION_DAYS ago. */
export async function purgeDeadApiKeys(ctx: Pick<ProcessContext, 'db' | 'clock' | 'config'>): Promise<number> {
  return unscopedDeleteDeadApiKeys(ctx.db, new Date(ctx.clock.now().getTime() - ctx.config.keyRetentionDays * 24 * 3600 * 1000));
}

/** A verified key and its workspace: what authentication hands to the request context. */
export interface Principal {
  apiKeyId: string;
  workspaceId: string;
  scopes: Scope[];
  expiresAt: Date | null;
  key: { name: string; prefix: string };
  /** The workspace as the key's lookup read it (`sourceSyncInterval`: its sources' default re-sync). */
  workspace: { name: string; createdAt: Date; sourceSyncInterval: string };
  /**
   * Set for a widget key (`pk_...`, src/modules/widget): it holds no scope, only a visitor's rights
   * on its one agent, from its allowed origins. `visitorRateLimit` null: the deployment's default.
   */
  widget?: { agentId: string; allowedOrigins: readonly string[]; visitorRateLimit: number | null };
}

export type KeyLookup = { status: 'ok'; principal: Principal } | { status: 'invalid' };

/** Looks a presented key up by its hash; revoked and unknown keys are both 'invalid'. */
export async function lookupApiKey(db: Db, presented: string, now: Date): Promise<KeyLookup> {
  const hash = hashApiKey(presented);
  const found = await unscopedFindApiKeyByHash(db, hash);
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
      workspace: { name: workspace.name, createdAt: workspace.createdAt, sourceSyncInterval: workspace.sourceSyncInterval },
    },
  };
}
