import { randomBytes } from 'node:crypto';
import { inTransaction, type WorkspaceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import type { Principal } from '../api-keys/index.js';
import { requireAgent } from '../agents/index.js';
import type { CreateWidgetKeyBody } from './widget-keys.schemas.js';
import { deleteWidgetKey as deleteWidgetKeyRow, insertWidgetKey, listWidgetKeys as listWidgetKeyRows, type WidgetKeyRow, unscopedFindWidgetKey, unscopedOriginAllowed } from './widget-keys.repository.js';

export const WIDGET_KEY_PREFIX = 'pk_';
/** `pk_` + 24 random bytes in base64url (32 characters). */
export const WIDGET_KEY_PATTERN = /^pk_[A-Za-z0-9_-]{32}$/;

/** A publishable key for one agent of the workspace (404 for an agent it does not have). */
export async function createWidgetKey(ctx: WorkspaceContext, agentId: string, body: CreateWidgetKeyBody): Promise<WidgetKeyRow> {
  await requireAgent(ctx, agentId);
  return inTransaction(ctx, (tx) =>
    insertWidgetKey(tx.db, ctx.workspaceId, {
      agentId,
      name: body.name,
      key: WIDGET_KEY_PREFIX + randomBytes(24).toString('base64url'),
      allowedOrigins: [...new Set(body.allowedOrigins)],
      visitorRateLimit: body.visitorRateLimit ?? null,
      createdAt: ctx.clock.now(),
    }),
  );
}

export async function listWidgetKeys(ctx: WorkspaceContext, agentId: string): Promise<WidgetKeyRow[]> {
  await requireAgent(ctx, agentId);
  return listWidgetKeyRows(ctx.db, ctx.workspaceId, agentId);
}

/**
 * Deletes a key: it stops working at once in this process and within the authentication cache's
 * time (PARLEY_AUTH_CACHE_MS) in others. Conversations started with it keep their visitor tokens,
 * usable with the agent's other keys.
 */
export async function deleteWidgetKey(ctx: WorkspaceContext, id: string): Promise<WidgetKeyRow> {
  const row = await inTransaction(ctx, (tx) => deleteWidgetKeyRow(tx.db, ctx.workspaceId, id));
  if (!row) throw new AppError('not_found', 'widget key not found');
  return row;
}

/** Authentication of a presented widget key: the principal of a visitor of its agent, or null. */
export async function lookupWidgetKey(db: Db, presented: string): Promise<Principal | null> {
  const found = await unscopedFindWidgetKey(db, presented);
  if (!found) return null;
  const { key, workspace } = found;
  return {
    apiKeyId: key.id,
    workspaceId: key.workspaceId,
    scopes: [],
    expiresAt: null,
    key: { name: key.name, prefix: key.key.slice(0, WIDGET_KEY_PREFIX.length + 6) },
    workspace: { name: workspace.name, createdAt: workspace.createdAt, sourceSyncInterval: workspace.sourceSyncInterval },
    widget: { agentId: key.agentId, allowedOrigins: key.allowedOrigins, visitorRateLimit: key.visitorRateLimit },
  };
}

/** Whether some widget key (of any workspace) allows pages of `origin`: a CORS preflight's question. */
export function isWidgetOrigin(db: Db, origin: string): Promise<boolean> {
  return unscopedOriginAllowed(db, origin);
}
