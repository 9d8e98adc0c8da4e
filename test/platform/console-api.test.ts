// The console's generated API types (console/src/api/schema.ts) are what `npm run console:api`
// writes from the /openapi.json a running app serves now: a changed route fails here until the
// types are regenerated, and then fails the console's typecheck where it no longer fits.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { OpenAPI3 } from 'openapi-typescript';
import { CONSOLE_API_FILE, renderConsoleApi } from '../../scripts/console-api.js';
import { repoRoot } from '../support/processes.js';
import { startTestApp } from '../support/app.js';

describe('console API types', () => {
  it(`${CONSOLE_API_FILE} is generated from the served /openapi.json`, async () => {
    const t = await startTestApp();
    try {
      const served = await t.request<OpenAPI3>('GET', '/openapi.json');
      assert.equal(served.status, 200);
      const generated = await renderConsoleApi(served.body);
      assert.match(generated, /"\/v2\/hc-articles\/public": \{/);
      const committed = readFileSync(path.join(repoRoot, CONSOLE_API_FILE), 'utf8');
      assert.ok(committed === generated, `${CONSOLE_API_FILE} is stale: run npm run console:api`);
    } finally {
      await t.close();
    }
  });
});
