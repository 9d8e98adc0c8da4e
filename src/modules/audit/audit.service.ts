import { AppError } from '../../http/errors.js';
import { isUuid } from '../../http/schemas.js';
import type { AuditActor, AuditDetails, AuditLog, AuditScope, ProcessContext, WorkspaceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import { deleteInBatches, transactionWrote } from '../../db/sql.js';
import {
  type AuditFilter,
  type AuditRow,
  insertAuditEntry,
  listAuditEntries,
  unscopedListAuditEntries,
  unscopedPurgeAuditEntries,
} from './audit.repository.js';

/** The id of what a write made, when the action's details name none: the result's `id`. */
function resultId(result: unknown): string | null {
  if (!(result instanceof Object) || !('id' in result)) return null;
  const id = (result as { id: unknown }).id;
  return typeof id === 'string' && isUuid(id) ? id.toLowerCase() : null;
}

/** Who acted, as an entry names them: the key (its name as the request's lookup read it), the job and its key, or the operator. */
function who(actor: AuditActor['actor']): { actorKind: string; actorId: string; keyId: string | null; keyName: string | null } {
  switch (actor.kind) {
    case 'key':
    case 'visitor':
      return { actorKind: actor.kind, actorId: actor.id, keyId: actor.id, keyName: actor.principal.key.name };
    case 'job':
      return { actorKind: 'job', actorId: actor.id, keyId: actor.onBehalfOf, keyName: null };
    case 'operator':
      return { actorKind: 'operator', actorId: 'operator', keyId: null, keyName: null };
  }
}

/** The workspace an operator's write names: the route's, a created workspace, or the written record's. */
function operatorWorkspace(details: AuditDetails, resourceId: string | null, result: unknown): string | null {
  if (details.workspaceId) return details.workspaceId;
  if (details.resourceType === 'workspaces') return resourceId;
  const id = result instanceof Object && 'workspaceId' in result ? (result as { workspaceId: unknown }).workspaceId : null;
  return typeof id === 'string' && isUuid(id) ? id.toLowerCase() : null;
}

/** The workspace an entry belongs to: the actor's, else the one an operator's write names. */
function workspaceOf(details: AuditDetails, at: AuditActor, result: unknown): string | null {
  return at.workspaceId ?? operatorWorkspace(details, details.resourceId ?? resultId(result), result);
}

function entryOf(details: AuditDetails, at: AuditActor, result: unknown) {
  const resourceId = details.resourceId ?? resultId(result);
  return {
    occurredAt: at.clock?.now() ?? new Date(),
    ...who(at.actor),
    action: details.action,
    resourceType: details.resourceType,
    resourceId,
    changes: { fields: [...details.fields] },
    requestId: at.requestId ?? null,
  };
}

/**
 * One action's entry. The first transaction that writes records it before committing; `settle`
 * learns whether it committed (a rollback takes the entry with it, and the next writing
 * transaction records it instead).
 */
class Scope implements AuditScope {
  recorded = false;
  private pending = false;

  constructor(private readonly details: AuditDetails) {}

  async flush(db: Db, at: AuditActor, result: unknown): Promise<void> {
    if (this.recorded || this.pending || !(await transactionWrote(db))) return;
    await insertAuditEntry(db, workspaceOf(this.details, at, result), entryOf(this.details, at, result));
    this.pending = true;
  }

  settle(committed: boolean): void {
    if (!this.pending) return;
    this.pending = false;
    this.recorded = committed;
  }

  async recordAfter(db: Db, at: AuditActor, result: unknown): Promise<void> {
    if (this.recorded) return;
    await insertAuditEntry(db, workspaceOf(this.details, at, result), entryOf(this.details, at, result));
    this.recorded = true;
  }
}

/** The `audit` port of every process (runtime.ts createPorts). */
export const auditLog: AuditLog = { begin: (details) => new Scope(details) };

/**
 * Records one action at once on `db` (a transaction of the caller's): the operator's CLI acting
 * directly on the database, whose writes are its own transactions.
 */
export async function recordAudit(db: Db, details: AuditDetails, at: AuditActor, result: unknown): Promise<void> {
  await insertAuditEntry(db, workspaceOf(details, at, result), entryOf(details, at, result));
}

const unknownCursor = () => new AppError('bad_request', 'cursor: not an entry of this audit log');

/** A page of the workspace's audit log, newest first. */
export async function listAuditLog(ctx: WorkspaceContext, filter: AuditFilter): Promise<{ rows: AuditRow[]; hasMore: boolean }> {
  const found = await listAuditEntries(ctx.db, ctx.workspaceId, filter);
  if (!found) throw unknownCursor();
  return found;
}

/** The operator's page: a workspace's entries, those outside any workspace (null), or all (undefined). */
export async function listDeploymentAuditLog(ctx: Pick<ProcessContext, 'db'>, workspaceId: string | null | undefined, filter: AuditFilter): Promise<{ rows: AuditRow[]; hasMore: boolean }> {
  const found = await unscopedListAuditEntries(ctx.db, workspaceId, filter);
  if (!found) throw unknownCursor();
  return found;
}

/** The hourly purge: entries older than PARLEY_AUDIT_RETENTION_DAYS, of every workspace. */
export async function purgeAuditLog(ctx: Pick<ProcessContext, 'db' | 'clock' | 'config'>): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - ctx.config.auditRetentionDays * 24 * 3600 * 1000);
  return deleteInBatches((limit) => unscopedPurgeAuditEntries(ctx.db, before, limit), 1000);
}
