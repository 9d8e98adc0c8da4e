import { randomBytes } from 'node:crypto';
import { systemClock } from '../../src/clock.js';
import type { Scope } from '../../src/context.js';
import { createApiKey, revokeApiKey } from '../../src/modules/api-keys/index.js';
import { createWorkspace } from '../../src/modules/workspaces/index.js';
import { apiKeys } from '../../src/db/schema/index.js';
import { eq } from 'drizzle-orm';
import type { TestApp } from './app.js';

export interface TestKey {
  id: string;
  key: string;
}

export interface Tenant {
  workspaceId: string;
  name: string;
  /** read + write */
  key: string;
  readKey: string;
  writeKey: string;
}

/** A workspace of its own for one test. */
export async function makeWorkspace(t: TestApp, name = `ws-${randomBytes(3).toString('hex')}`) {
  return createWorkspace({ db: t.database.db }, name);
}

/** A key with the given scopes; `expired` backdates its expiry, `revoked` revokes it. */
export async function makeKey(
  t: TestApp,
  workspaceId: string,
  options: { scopes?: Scope[]; expired?: boolean; revoked?: boolean } = {},
): Promise<TestKey> {
  const ctx = { db: t.database.db, clock: systemClock };
  const { row, key } = await createApiKey(ctx, workspaceId, { scopes: options.scopes ?? ['read', 'write'] });
  if (options.expired) {
    await t.database.db.update(apiKeys).set({ expiresAt: new Date(Date.now() - 60_000) }).where(eq(apiKeys.id, row.id));
  }
  if (options.revoked) await revokeApiKey(ctx, row.id);
  return { id: row.id, key };
}

/** A workspace with a read+write key, a read-only key and a write-only key. */
export async function makeTenant(t: TestApp, name?: string): Promise<Tenant> {
  const workspace = await makeWorkspace(t, name);
  const [key, readKey, writeKey] = await Promise.all([
    makeKey(t, workspace.id),
    makeKey(t, workspace.id, { scopes: ['read'] }),
    makeKey(t, workspace.id, { scopes: ['write'] }),
  ]);
  return { workspaceId: workspace.id, name: workspace.name, key: key.key, readKey: readKey.key, writeKey: writeKey.key };
}
