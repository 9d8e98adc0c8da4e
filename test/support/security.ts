import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Scope } from '../../src/context.js';
import { AUTH_MESSAGES } from '../../src/http/errors.js';
import type { TestApp } from './app.js';
import { makeKey, makeTenant, type Tenant } from './factories.js';

export interface SecuredRoute {
  method: string;
  scope: Scope;
  /** The path (and body) a legitimate caller of `tenant` would use; may create what it needs. */
  request: (t: TestApp, tenant: Tenant) => Promise<{ path: string; body?: unknown }>;
  /**
   * A request from `caller` addressing a resource created in `owner`'s workspace; must answer
   * `status` (404 unless the specification says 406).
   */
  otherWorkspace?: {
    request: (t: TestApp, owner: Tenant) => Promise<{ path: string; body?: unknown }>;
    status?: number;
  };
}

/** Sends a request with `key`, asserts the status (showing the answer when it differs), returns the body. */
export async function expectStatus<T>(t: TestApp, status: number, method: string, path: string, key: string, body?: unknown): Promise<T> {
  const res = await t.request<T>(method, path, { key, body });
  assert.equal(res.status, status, `${method} ${path}: ${res.text}`);
  return res.body;
}

export function assertError(res: { status: number; body: unknown }, status: number, message?: string | RegExp): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  const body = res.body as { statusCode: unknown; message: unknown; error: unknown };
  assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'statusCode']);
  assert.equal(body.statusCode, status);
  assert.equal(typeof body.message, 'string');
  assert.equal(typeof body.error, 'string');
  if (typeof message === 'string') assert.equal(body.message, message);
  else if (message) assert.match(body.message as string, message);
}

/**
 * The shared security suite every workspace route runs: no key, malformed, unknown, revoked and
 * expired keys answer 401; a key without the scope answers 403; another workspace's resource 404.
 */
export function securitySuite(getApp: () => TestApp, route: SecuredRoute): void {
  describe(`security: ${route.method} (${route.scope})`, () => {
    let tenant: Tenant;
    let req: { path: string; body?: unknown };
    before(async () => {
      tenant = await makeTenant(getApp());
      req = await route.request(getApp(), tenant);
    });
    const call = (key?: string) => getApp().request(route.method, req.path, { key, body: req.body });

    it('answers 401 without a key', async () => {
      assertError(await call(), 401, AUTH_MESSAGES.missing);
    });
    it('answers 401 for a malformed key', async () => {
      assertError(await call('not-a-parley-key'), 401, AUTH_MESSAGES.malformed);
      const res = await getApp().request(route.method, req.path, {
        body: req.body,
        headers: { authorization: `Basic ${tenant.key}` },
      });
      assertError(res, 401, AUTH_MESSAGES.malformed);
    });
    it('answers 401 for an unknown key', async () => {
      assertError(await call(`parley_${'A'.repeat(43)}`), 401, AUTH_MESSAGES.invalid);
    });
    it('answers 401 for a revoked key', async () => {
      const revoked = await makeKey(getApp(), tenant.workspaceId, { revoked: true });
      assertError(await call(revoked.key), 401, AUTH_MESSAGES.invalid);
    });
    it('answers 401 for an expired key', async () => {
      const expired = await makeKey(getApp(), tenant.workspaceId, { expired: true });
      assertError(await call(expired.key), 401, AUTH_MESSAGES.expired);
    });
    it(`answers 403 for a key without the ${route.scope} scope`, async () => {
      const other: Scope = route.scope === 'read' ? 'write' : 'read';
      const key = await makeKey(getApp(), tenant.workspaceId, { scopes: [other] });
      assertError(await call(key.key), 403, AUTH_MESSAGES.scope);
    });
    if (route.otherWorkspace) {
      const cross = route.otherWorkspace;
      it(`answers ${cross.status ?? 404} for a resource of another workspace`, async () => {
        const owner = await makeTenant(getApp());
        const target = await cross.request(getApp(), owner);
        const res = await getApp().request(route.method, target.path, { key: tenant.key, body: target.body });
        assertError(res, cross.status ?? 404);
      });
    }
  });
}

/** One row of a route table for `securitySuites`: label, method, scope, request builder, cross-workspace status. */
export type SecuredRouteRow = [
  label: string,
  method: string,
  scope: Scope,
  request: SecuredRoute['request'],
  otherWorkspaceStatus: number | undefined,
];

/**
 * The shared security suite for each route of a table; a route with a status in the last column
 * is also called with another workspace's resource and must answer that status.
 */
export function securitySuites(getApp: () => TestApp, routes: SecuredRouteRow[]): void {
  for (const [label, method, scope, request, cross] of routes) {
    describe(label, () =>
      securitySuite(getApp, { method, scope, request, otherWorkspace: cross ? { request, status: cross } : undefined }),
    );
  }
}
