import { and, asc, count, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { pastCursor } from '../../db/sql.js';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema/index.js';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type NewDelivery = Omit<typeof webhookDeliveries.$inferInsert, 'workspaceId'>;
type EndpointChanges = Partial<Omit<EndpointRow, 'id' | 'workspaceId' | 'createdAt' | 'createdBy'>>;

const endpointOf = (workspaceId: string, id: string) => and(eq(webhookEndpoints.workspaceId, workspaceId), eq(webhookEndpoints.id, id));
const deliveryOf = (workspaceId: string, id: string) => and(eq(webhookDeliveries.workspaceId, workspaceId), eq(webhookDeliveries.id, id));

/** Endpoints of the workspace in creation order. */
export async function listEndpoints(db: Db, workspaceId: string): Promise<EndpointRow[]> {
  return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.workspaceId, workspaceId)).orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
}

export async function countEndpoints(db: Db, workspaceId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.workspaceId, workspaceId));
  return row?.n ?? 0;
}

/** The enabled endpoints subscribed to an event type. */
export async function listSubscribedEndpoints(db: Db, workspaceId: string, eventType: string): Promise<EndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.workspaceId, workspaceId), eq(webhookEndpoints.enabled, true), sql`${eventType} = any(${webhookEndpoints.events})`));
}

export async function findEndpoint(db: Db, workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<EndpointRow | undefined> {
  const query = db.select().from(webhookEndpoints).where(endpointOf(workspaceId, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function insertEndpoint(
  db: Db,
  workspaceId: string,
  values: Pick<EndpointRow, 'url' | 'description' | 'events' | 'secretSealed'>,
  by: string | null,
  now: Date,
): Promise<EndpointRow> {
  const [row] = await db
    .insert(webhookEndpoints)
    .values({ ...values, workspaceId, enabled: true, createdBy: by, updatedBy: by, createdAt: now, updatedAt: now })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function updateEndpoint(db: Db, workspaceId: string, id: string, changes: EndpointChanges): Promise<EndpointRow | undefined> {
  const [row] = await db.update(webhookEndpoints).set(changes).where(endpointOf(workspaceId, id)).returning();
  return row;
}

/** Deletes an endpoint; its deliveries go with it (foreign key cascade). */
export async function deleteEndpoint(db: Db, workspaceId: string, id: string): Promise<void> {
  await db.delete(webhookEndpoints).where(endpointOf(workspaceId, id));
}

export async function insertDeliveries(db: Db, workspaceId: string, values: readonly NewDelivery[]): Promise<DeliveryRow[]> {
  if (values.length === 0) return [];
  return db
    .insert(webhookDeliveries)
    .values(values.map((v) => ({ ...v, workspaceId })))
    .returning();
}

/** A delivery of the workspace, of one endpoint when `endpointId` is given. */
export async function findDelivery(db: Db, workspaceId: string, id: string, options: { endpointId?: string; lock?: boolean } = {}): Promise<DeliveryRow | undefined> {
  const query = db
    .select()
    .from(webhookDeliveries)
    .where(and(deliveryOf(workspaceId, id), options.endpointId ? eq(webhookDeliveries.endpointId, options.endpointId) : undefined));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/** A delivery with its endpoint, in one query (the delivery job's first read). */
export async function findDeliveryWithEndpoint(db: Db, workspaceId: string, id: string): Promise<{ delivery: DeliveryRow; endpoint: EndpointRow } | undefined> {
  const [row] = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, and(eq(webhookEndpoints.workspaceId, webhookDeliveries.workspaceId), eq(webhookEndpoints.id, webhookDeliveries.endpointId)))
    .where(deliveryOf(workspaceId, id));
  return row;
}

/**
 * Records attempt `attempt` of a pending delivery, only if no other run recorded it first (the
 * delivery is still pending, after `attempt - 1` attempts): whether it did.
 */
export async function recordPendingAttempt(db: Db, workspaceId: string, id: string, attempt: number, changes: Partial<NewDelivery>): Promise<boolean> {
  const rows = await db
    .update(webhookDeliveries)
    .set({ ...changes, attempts: attempt })
    .where(and(deliveryOf(workspaceId, id), eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.attempts, attempt - 1)))
    .returning({ id: webhookDeliveries.id });
  return rows.length > 0;
}

export async function updateDelivery(db: Db, workspaceId: string, id: string, changes: Partial<NewDelivery>): Promise<DeliveryRow | undefined> {
  const [row] = await db.update(webhookDeliveries).set(changes).where(deliveryOf(workspaceId, id)).returning();
  return row;
}

/**
 * Deletes up to `limit` finished deliveries (delivered or failed) created before `before`, of every
 * workspace (the hourly purge): how many it deleted. Pending ones wait for their attempts.
 */
export async function unscopedPurgeFinishedDeliveries(db: Db, before: Date, limit: number): Promise<number> {
  const rows = await db
    .delete(webhookDeliveries)
    .where(
      inArray(
        webhookDeliveries.id,
        db
          .select({ id: webhookDeliveries.id })
          .from(webhookDeliveries)
          .where(and(inArray(webhookDeliveries.status, ['delivered', 'failed']), lt(webhookDeliveries.createdAt, before)))
          .limit(limit),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}

export interface DeliveryFilter {
  limit: number;
  cursor?: { createdAt: Date; id: string };
  direction: 'next' | 'previous';
  status?: string;
}

/**
 * One page of an endpoint's deliveries, newest first (createdAt, then id). `next` reads after the
 * cursor, `previous` before it; `hasMore` says whether the same direction has more.
 */
export async function listDeliveries(db: Db, workspaceId: string, endpointId: string, f: DeliveryFilter): Promise<{ rows: DeliveryRow[]; hasMore: boolean }> {
  const previous = f.direction === 'previous';
  const at = f.cursor;
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.workspaceId, workspaceId),
        eq(webhookDeliveries.endpointId, endpointId),
        f.status ? eq(webhookDeliveries.status, f.status) : undefined,
        at
          ? pastCursor(webhookDeliveries.createdAt, webhookDeliveries.id, at, previous ? 'after' : 'before')
          : undefined,
      ),
    )
    .orderBy(...(previous ? [asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id)] : [desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id)]))
    .limit(f.limit + 1);
  const hasMore = rows.length > f.limit;
  const page = rows.slice(0, f.limit);
  return { rows: previous ? page.reverse() : page, hasMore };
}
