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

export async function deleteConnection(db: Db, workspaceId: string, provider: string): Promise<boolean> {
  const rows = await db
    .delete(providerConnections)
    .where(and(eq(providerConnections.workspaceId, workspaceId), eq(providerConnections.provider, provider)))
    .returning({ provider: providerConnections.provider });
  return rows.length > 0;
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
