// docs/routes.md and docs/glossary.md are what `npm run docs:routes` writes now, and the route map
// has exactly the routes a running app documents in /openapi.json, with the same scope.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { findRoutes, renderRouteDocs } from '../../scripts/docs-routes.js';
import { type TestApp, startTestApp } from '../support/app.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The first line where the committed file and the generated one differ, to say what is stale. */
function firstDifference(committed: string, generated: string): string {
  const a = committed.split('\n');
  const b = generated.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `line ${i + 1}: committed ${JSON.stringify(a[i] ?? null)}, generated ${JSON.stringify(b[i] ?? null)}`;
  }
  return 'no line differs';
}

interface OpenApiOperation {
  security?: Record<string, string[]>[];
  description?: string;
}

/** The scope an OpenAPI operation documents: its security scheme, and for a key the scope route.ts writes. */
function scopeOf(operation: OpenApiOperation): string {
  const schemes = (operation.security ?? []).flatMap((s) => Object.keys(s));
  if (schemes.includes('adminToken')) return 'admin';
  if (schemes.includes('widgetKey')) return 'visitor';
  if (!schemes.includes('apiKey')) return 'none';
  return /Scope: `(read|write)`/.exec(operation.description ?? '')?.[1] ?? 'unknown';
}

describe('route map', () => {
  for (const [file, key] of [
    ['docs/routes.md', 'routes'],
    ['docs/glossary.md', 'glossary'],
  ] as const) {
    it(`${file} is what npm run docs:routes writes`, async () => {
      const generated = (await renderRouteDocs())[key];
      const committed = readFileSync(path.join(ROOT, file), 'utf8');
      assert.ok(committed === generated, `${file} is stale: run npm run docs:routes (${firstDifference(committed, generated)})`);
    });
  }

  describe('against the served OpenAPI document', () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp();
    });
    after(() => t.close());

    it('has one row per documented operation, with its scope, and no other', async () => {
      const response = await t.request<{ paths: Record<string, Record<string, OpenApiOperation>> }>('GET', '/openapi.json');
      assert.equal(response.status, 200);
      const served = Object.entries(response.body.paths)
        .flatMap(([docsPath, operations]) =>
          Object.entries(operations)
            .filter(([method]) => method !== 'head')
            .map(([method, operation]) => `${method.toUpperCase()} ${docsPath} ${scopeOf(operation)}`),
        )
        .sort();
      const mapped = findRoutes()
        .map((r) => `${r.method} ${r.docsPath} ${r.auth}`)
        .sort();
      assert.deepEqual(
        mapped.filter((row) => !served.includes(row)),
        [],
        'rows of docs/routes.md that /openapi.json does not document (or documents with another scope)',
      );
      assert.deepEqual(
        served.filter((row) => !mapped.includes(row)),
        [],
        'operations of /openapi.json missing from docs/routes.md (declared other than with a literal defineRoute?)',
      );
    });
  });
});
