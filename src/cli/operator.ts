import { systemClock } from '../clock.js';
import type { Config } from '../config/config.js';
import { type Database, openDatabase, pgliteFolder } from '../db/database.js';
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
import { createWorkspace, listWorkspaces, presentWorkspace } from '../modules/workspaces/index.js';
import { readEmbeddedAdminToken } from '../runtime.js';

export type WorkspaceView = ReturnType<typeof presentWorkspace>;
export type ApiKeyView = ReturnType<typeof presentApiKey>;
export type CreatedApiKeyView = ReturnType<typeof presentCreatedApiKey>;

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
  close(): Promise<void>;
}

export class OperatorError extends Error {}

/** Direct database access: PostgreSQL, or an embedded folder no server holds. */
function directClient(database: Database, onClose: () => void): OperatorClient {
  const ctx = { db: database.db, clock: systemClock };
  return {
    createWorkspace: async (name) => presentWorkspace(await createWorkspace(ctx, name)),
    listWorkspaces: async () => (await listWorkspaces(ctx)).map(presentWorkspace),
    createKey: async (workspaceId, key) => {
      const created = await createApiKey(ctx, workspaceId, {
        name: key.name,
        scopes: key.scopes,
        expiresAt: key.expiresAt ? new Date(key.expiresAt) : undefined,
      });
      return presentCreatedApiKey(created.row, created.key);
    },
    listKeys: async (workspaceId) => (await listApiKeys(ctx, workspaceId)).map(presentApiKey),
    revokeKey: async (id) => presentApiKey(await revokeApiKey(ctx, id)),
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
