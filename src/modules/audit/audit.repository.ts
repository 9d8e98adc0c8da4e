import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { auditLog } from '../../db/schema/index.js';

export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditRow = typeof auditLog.$inferInsert;

/**
 * Writes one entry of a workspace (null: the operator's, outside any); `keyName` null with a `keyId`
 * takes the key's name as it is now (a job acting on behalf of a key knows only its id).
 */
export async function insertAuditEntry(db: Db, workspaceId: string | null, row: Omit<NewAuditRow, 'id' | 'seq' | 'workspaceId'>): Promise<void> {
  await db.insert(auditLog).values({
    ...row,
    workspaceId,
    keyName: row.keyName ?? (row.keyId ? sql`(SELECT name FROM api_keys WHERE id = ${row.keyId})` : null),
  });
}

export interface AuditFilter {
  limit: number;
  cursor?: string | undefined;
  direction: 'next' | 'previous';
  /** A key: its own actions and the jobs acting on its behalf. */
  keyId?: string | undefined;
  actorKind?: string | undefined;
  resourceType?: string | undefined;
  resourceId?: string | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
}

function conditions(f: AuditFilter): (SQL | undefined)[] {
  return [
    f.keyId ? eq(auditLog.keyId, f.keyId) : undefined,
    f.actorKind ? eq(auditLog.actorKind, f.actorKind) : undefined,
    f.resourceType ? eq(auditLog.resourceType, f.resourceType) : undefined,
    f.resourceId ? eq(auditLog.resourceId, f.resourceId) : undefined,
    f.since ? gte(auditLog.occurredAt, f.since) : undefined,
    f.until ? lt(auditLog.occurredAt, f.until) : undefined,
  ];
}

/**
 * One page of entries, newest first (`next` walks to older ones, `previous` back to newer ones):
 * `workspaceId` one workspace's, or with `null` the operator's entries outside any workspace;
 * `undefined` is every entry (the operator's export, `unscoped` by name below).
 */
async function page(db: Db, workspace: SQL | undefined, f: AuditFilter): Promise<{ rows: AuditRow[]; hasMore: boolean } | null> {
  const previous = f.direction === 'previous';
  let at: number | undefined;
  if (f.cursor) {
    const [found] = await db.select({ seq: auditLog.seq }).from(auditLog).where(and(workspace, eq(auditLog.id, f.cursor)));
    if (!found) return null;
    at = found.seq;
  }
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(workspace, ...conditions(f), at === undefined ? undefined : previous ? gt(auditLog.seq, at) : lt(auditLog.seq, at)))
    .orderBy(previous ? asc(auditLog.seq) : desc(auditLog.seq))
    .limit(f.limit + 1);
  const hasMore = rows.length > f.limit;
  const kept = rows.slice(0, f.limit);
  return { rows: previous ? kept.reverse() : kept, hasMore };
}

/** A page of one workspace's entries; null when the cursor is not one of its entries. */
export function listAuditEntries(db: Db, workspaceId: string, f: AuditFilter): Promise<{ rows: AuditRow[]; hasMore: boolean } | null> {
  return page(db, eq(auditLog.workspaceId, workspaceId), f);
}

/**
 * The operator's page: one workspace's entries, or (`workspaceId` null) those of no workspace, or
 * (undefined) every entry of the deployment.
 */
export function unscopedListAuditEntries(db: Db, workspaceId: string | null | undefined, f: AuditFilter): Promise<{ rows: AuditRow[]; hasMore: boolean } | null> {
  return page(db, workspaceId === undefined ? undefined : workspaceId === null ? isNull(auditLog.workspaceId) : eq(auditLog.workspaceId, workspaceId), f);
}

/** Deletes up to `limit` entries older than `before`, of every workspace (the hourly purge): how many. */
export async function unscopedPurgeAuditEntries(db: Db, before: Date, limit: number): Promise<number> {
  const rows = await db
    .delete(auditLog)
    .where(inArray(auditLog.id, db.select({ id: auditLog.id }).from(auditLog).where(lte(auditLog.occurredAt, before)).orderBy(asc(auditLog.seq)).limit(limit)))
    .returning({ id: auditLog.id });
  return rows.length;
}

