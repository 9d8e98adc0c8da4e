import { iso } from '../../http/schemas.js';
import { pageCursors } from '../../http/keyset.js';
import type { AuditRow } from './audit.repository.js';
import type { AUDIT_ACTOR_KINDS } from './audit.schemas.js';

export function presentAuditEntry(row: AuditRow) {
  const changes = row.changes as { fields?: unknown };
  return {
    id: row.id,
    occurredAt: iso(row.occurredAt),
    actor: { kind: row.actorKind as (typeof AUDIT_ACTOR_KINDS)[number], id: row.actorId, keyId: row.keyId, keyName: row.keyName },
    action: row.action,
    resource: { type: row.resourceType, id: row.resourceId },
    changes: { fields: Array.isArray(changes.fields) ? changes.fields.map(String) : [] },
    requestId: row.requestId,
  };
}

export function presentAdminAuditEntry(row: AuditRow) {
  return { ...presentAuditEntry(row), workspaceId: row.workspaceId };
}

/** A page with its cursors (src/http/keyset.ts). */
export function presentAuditPage<T>(page: { rows: AuditRow[]; hasMore: boolean }, query: { cursor?: string | undefined; direction: 'next' | 'previous' }, present: (row: AuditRow) => T) {
  return { entries: page.rows.map(present), hasMore: page.hasMore, ...pageCursors(page.rows, { hasMore: page.hasMore, direction: query.direction, fromCursor: query.cursor !== undefined }) };
}
