import { systemClock } from '../clock.js';
import type { Config } from '../config/config.js';
import type { AuditDetails } from '../context.js';
import { type Database, type Db, openDatabase, pgliteFolder, transaction } from '../db/database.js';
import { acquireDataDirLock, readLock } from '../db/lock.js';
import { migrateDatabase } from '../db/migrate.js';
import type { ErrorBody } from '../http/errors.js';
import {
  createApiKey,
  listApiKeys,
  presentApiKey,
  presentCreatedApiKey,
  revokeApiKey,
} from '../modules/api-keys/index.js';
import { adminListAuditQuerySchema, type AdminListAuditQuery, listDeploymentAuditLog, presentAdminAuditEntry, presentAuditPage, recordAudit } from '../modules/audit/index.js';
import { createWorkspace, listWorkspaces, presentWorkspace } from '../modules/workspaces/index.js';
import { readEmbeddedAdminToken } from '../runtime.js';

export type WorkspaceView = ReturnType<typeof presentWorkspace>;
export type ApiKeyView = ReturnType<typeof presentApiKey>;
export type CreatedApiKeyView = ReturnType<typeof presentCreatedApiKey>;
export type AuditPageView = ReturnType<typeof presentAuditPage<ReturnType<typeof presentAdminAuditEntry>>>;
/** A page of the deployment's audit log: the admin route's query (`workspaceId`: an id, `none`, or all). */
export type AuditQuery = Partial<Record<keyof AdminListAuditQuery, string>>;

export interface NewKey {
  name?: string | undefined;
  scopes: ('read' | 'write')[];
  expiresAt?: string | undefined;
}

/** The operator's operations, answered the same way whether done over HTTP or on the database. */
export interface OperatorClient {
  createWorkspace(name: string): Promise<WorkspaceView>;
  listWorkspaces(): Promise<WorkspaceView[]>;
  createKey(workspaceId: string, key: NewKey): Promise<CreatedApiKeyView>;
  listKeys(workspaceId: string): Promise<ApiKeyView[]>;
  revokeKey(id: string): Promise<ApiKeyView>;
  auditPage(query: AuditQuery): Promise<AuditPageView>;
  close(): Promise<void>;
}

const OPERATOR_ACTOR = { actor: { kind: 'operator', id: 'operator' } } as const;

/** A CLI write on the database, in one transaction with its audit entry (`cli <command>`). */
function audited<T>(db: Db, details: Omit<AuditDetails, 'fields'> & { fields?: string[] }, write: (tx: Db) => Promise<T>): Promise<T> {
  return transaction(db, async (tx) => {
    const result = await write(tx);
    await recordAudit(tx, { fields: [], ...details }, OPERATOR_ACTOR, result);
    return result;
  });
}

export class OperatorError extends Error {}

/** Direct database access: PostgreSQL, or an embedded folder no server holds. */
function directClient(database: Database, onClose: () => void): OperatorClient {
  const db = database.db;
  const ctx = { db, clock: systemClock };
  return {
    createWorkspace: async (name) =>
      presentWorkspace(await audited(db, { action: 'cli workspace create', resourceType: 'workspaces', resourceId: null, fields: ['name'] }, (tx) => createWorkspace({ ...ctx, db: tx }, name))),
    listWorkspaces: async () => (await listWorkspaces(ctx)).map(presentWorkspace),
    createKey: async (workspaceId, key) => {
      const created = await audited(
        db,
        { action: 'cli key create', resourceType: 'api-keys', resourceId: null, workspaceId, fields: Object.keys(key).filter((k) => key[k as keyof NewKey] !== undefined) },
        async (tx) => {
          const made = await createApiKey({ ...ctx, db: tx }, workspaceId, {
            name: key.name,
            scopes: key.scopes,
            expiresAt: key.expiresAt ? new Date(key.expiresAt) : undefined,
          });
          return Object.assign(made, { id: made.row.id });
        },
      );
      return presentCreatedApiKey(created.row, created.key);
    },
    listKeys: async (workspaceId) => (await listApiKeys(ctx, workspaceId)).map(presentApiKey),
    revokeKey: async (id) => presentApiKey(await audited(db, { action: 'cli key revoke', resourceType: 'api-keys', resourceId: id }, (tx) => revokeApiKey({ ...ctx, db: tx }, id))),
    auditPage: async (query) => {
      const parsed = adminListAuditQuerySchema.parse(query);
      return presentAuditPage(await listDeploymentAuditLog(ctx, parsed.workspaceId === 'none' ? null : parsed.workspaceId, parsed), parsed, presentAdminAuditEntry);
    },
    close: async () => {
      await database.close();
      onClose();
    },
  };
}

/** The running embedded server's admin API (the data folder is locked by that process). */
function httpClient(baseUrl: string, token: string): OperatorClient {
  const call = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${baseUrl}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const payload = (await response.json()) as unknown;
    if (!response.ok) throw new OperatorError((payload as ErrorBody).message ?? `HTTP ${response.status}`);
    return payload as T;
  };
  return {
    createWorkspace: (name) => call('POST', '/v2/admin/workspaces', { name }),
    listWorkspaces: () => call('GET', '/v2/admin/workspaces'),
    createKey: (workspaceId, key) =>
      call('POST', `/v2/admin/workspaces/${encodeURIComponent(workspaceId)}/api-keys`, key),
    listKeys: (workspaceId) => call('GET', `/v2/admin/workspaces/${encodeURIComponent(workspaceId)}/api-keys`),
    revokeKey: (id) => call('DELETE', `/v2/admin/api-keys/${encodeURIComponent(id)}`),
    auditPage: (query) => call('GET', `/v2/admin/audit-log?${new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined))}`),
    close: async () => undefined,
  };
}

/** Picks how to reach the data: PostgreSQL directly, the running server's admin API, or the folder. */
export async function connectOperator(config: Config): Promise<OperatorClient> {
  if (config.databaseUrl) {
    const database = await openDatabase({ kind: 'postgres', url: config.databaseUrl, poolMax: 2 });
    await migrateDatabase(database);
    return directClient(database, () => undefined);
  }
  const running = readLock(config.dataDir);
  if (running) {
    if (!running.url) throw new OperatorError(`the Parley server (pid ${running.pid}) is still starting; retry in a moment`);
    const token = readEmbeddedAdminToken(config);
    if (!token) throw new OperatorError('no admin token: set PARLEY_ADMIN_TOKEN to the running server\'s token');
    return httpClient(running.url, token);
  }
  const lock = acquireDataDirLock(config.dataDir);
  try {
    const database = await openDatabase({ kind: 'pglite', dataDir: pgliteFolder(config.dataDir) });
    await migrateDatabase(database);
    return directClient(database, () => lock.release());
  } catch (error) {
    lock.release();
    throw error;
  }
}
