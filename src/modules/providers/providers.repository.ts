import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { providerConnections, type ProviderConnectionRow } from '../../db/schema/index.js';

export type { ProviderConnectionRow };

export async function findConnection(db: Db, workspaceId: string, provider: string): Promise<ProviderConnectionRow | undefined> {
  const [row] = await db
    .select()
    .from(providerConnections)
    .where(and(eq(providerConnections.workspaceId, workspaceId), eq(providerConnections.provider, provider)));
  return row;
}

/** Creates or replaces the workspace's connection to the provider (one statement: concurrent PUTs end with one row). */
export async function upsertConnection(
  db: Db,
  workspaceId: string,
  values: { provider: string; sealedCredentials: string; baseUrl: string; account: string },
  now: Date,
): Promise<ProviderConnectionRow> {
  const [row] = await db
    .insert(providerConnections)
    .values({ ...values, workspaceId, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [providerConnections.workspaceId, providerConnections.provider],
      set: { sealedCredentials: values.sealedCredentials, baseUrl: values.baseUrl, account: values.account, updatedAt: now },
    })
    .returning();
  if (!row) throw new Error('upsert returned no row');
  return row;
}

/** Deletes the connection; answers what it was (undefined when there was none). */
export async function deleteConnection(db: Db, workspaceId: string, provider: string): Promise<ProviderConnectionRow | undefined> {
  const [row] = await db
    .delete(providerConnections)
    .where(and(eq(providerConnections.workspaceId, workspaceId), eq(providerConnections.provider, provider)))
    .returning();
  return row;
}

/** Sets the re-sync recurrence of the provider's sources (null: they follow the workspace's). */
export async function setConnectionSyncInterval(
  db: Db,
  workspaceId: string,
  provider: string,
  syncInterval: string | null,
  now: Date,
): Promise<ProviderConnectionRow | undefined> {
  const [row] = await db
    .update(providerConnections)
    .set({ syncInterval, updatedAt: now })
    .where(and(eq(providerConnections.workspaceId, workspaceId), eq(providerConnections.provider, provider)))
    .returning();
  return row;
}

/** Each connected provider's re-sync recurrence (no credentials read). */
export async function connectionSyncIntervals(db: Db, workspaceId: string): Promise<{ provider: string; syncInterval: string | null }[]> {
  return db
    .select({ provider: providerConnections.provider, syncInterval: providerConnections.syncInterval })
    .from(providerConnections)
    .where(eq(providerConnections.workspaceId, workspaceId));
}

/** Every workspace's connections, for key rotation only (`parley secrets rotate`): crosses workspaces on purpose. */
export async function unscopedConnections(db: Db): Promise<ProviderConnectionRow[]> {
  return db.select().from(providerConnections).for('update');
}

export async function resealConnection(db: Db, workspaceId: string, provider: string, sealedCredentials: string): Promise<void> {
  await db
    .update(providerConnections)
    .set({ sealedCredentials })
    .where(and(eq(providerConnections.workspaceId, workspaceId), eq(providerConnections.provider, provider)));
}
