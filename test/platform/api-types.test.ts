// The generated files of @parley/client (packages/client/src/schema.ts, the route types the client and
// the console are typed by, and list-routes.ts, how the client pages each list route) are what
// `npm run api:types` writes from the /openapi.json a running app serves now: a changed route fails
// here until they are regenerated, and then fails the typecheck where it no longer fits.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { OpenAPI3 } from 'openapi-typescript';
import { generatedFiles, LIST_ROUTES_FILE, SCHEMA_FILE } from '../../scripts/api-types.js';
import { repoRoot } from '../support/processes.js';
import { startTestApp } from '../support/app.js';

describe('generated API types', () => {
  it(`${SCHEMA_FILE} and ${LIST_ROUTES_FILE} are generated from the served /openapi.json`, async () => {
    const t = await startTestApp();
    try {
      const served = await t.request<OpenAPI3>('GET', '/openapi.json');
      assert.equal(served.status, 200);
      const files = await generatedFiles(served.body);
      assert.deepEqual(files.map((f) => f.file), [SCHEMA_FILE, LIST_ROUTES_FILE]);
      assert.match(files[0]!.text, /"\/v2\/hc-articles\/public": \{/);
      assert.match(files[1]!.text, /'\/v2\/hc-articles\/public': \{ items: 'articles', cursorParam: 'cursor', nextCursor: 'nextCursor', fromItem: \{\} \},/);
      assert.match(files[1]!.text, /'\/v2\/documents\/public': \{ items: 'documents', cursorParam: 'cursor', fromItem: \{ cursor: 'id', cursorUpdatedAt: 'updatedAt' \} \},/);
      for (const { file, text } of files) {
        const committed = readFileSync(path.join(repoRoot, file), 'utf8');
        assert.ok(committed === text, `${file} is stale: run npm run api:types`);
      }
    } finally {
      await t.close();
    }
  });
});
