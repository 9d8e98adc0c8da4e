import { and, asc, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { apiKeys, workspaces } from '../../db/schema/index.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export interface NewApiKey {
  name: string;
  prefix: string;
  keyHash: string;
  scopes: string[];
  expiresAt: Date | null;
}

export async function insertApiKey(db: Db, workspaceId: string, key: NewApiKey): Promise<ApiKeyRow> {
  const [row] = await db
    .insert(apiKeys)
    .values({ workspaceId, ...key })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function listApiKeys(db: Db, workspaceId: string): Promise<ApiKeyRow[]> {
  return db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.workspaceId, workspaceId))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
}

/**
 * Authentication's lookup: the hash of a presented secret is the only thing known before the
 * workspace is, so this is the one query not scoped by a workspace id.
 */
export async function unscopedFindApiKeyByHash(
  db: Db,
  keyHash: string,
): Promise<{ key: ApiKeyRow; workspace: typeof workspaces.$inferSelect } | undefined> {
  const [row] = await db
    .select({ key: apiKeys, workspace: workspaces })
    .from(apiKeys)
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .where(eq(apiKeys.keyHash, keyHash));
  return row;
}

export async function touchApiKey(db: Db, workspaceId: string, id: string, at: Date): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: at })
    .where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.id, id)));
}

/** Operator revocation by key id (the admin API names keys without their workspace). */
export async function unscopedRevokeApiKey(db: Db, id: string, at: Date): Promise<ApiKeyRow | undefined> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning();
  if (row) return row;
  const [already] = await db.select().from(apiKeys).where(eq(apiKeys.id, id));
  return already;
}

/** Housekeeping across workspaces: deletes keys expired or revoked before `before`. */
export async function unscopedDeleteDeadApiKeys(db: Db, before: Date): Promise<number> {
  const deleted = await db
    .delete(apiKeys)
    .where(
      or(
        and(isNotNull(apiKeys.expiresAt), lt(apiKeys.expiresAt, before)),
        and(isNotNull(apiKeys.revokedAt), lt(apiKeys.revokedAt, before)),
      ),
    )
    .returning({ id: apiKeys.id });
  return deleted.length;
}
