// @parley/client as npm would publish it: its package.json (version of the repository, exports and
// types into dist/, only dist and the README packed) and its build, imported from dist/ as a user's
// code would and called against a running app.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type * as ClientModule from '../../packages/client/src/index.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant } from '../support/factories.js';
import { repoRoot } from '../support/processes.js';

const packageRoot = path.join(repoRoot, 'packages', 'client');
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

describe('@parley/client: the package', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('is a workspace of the repository with its version, publishing dist/ and the README', () => {
    const root = readJson(path.join(repoRoot, 'package.json'));
    const pkg = readJson(path.join(packageRoot, 'package.json'));
    assert.ok((root.workspaces as string[]).includes('packages/client'));
    assert.equal(pkg.name, '@parley/client');
    assert.equal(pkg.version, root.version);
    assert.equal(pkg.private, undefined, 'publishable');
    assert.deepEqual(pkg.files, ['dist', 'README.md']);
    assert.deepEqual(pkg.exports, { '.': { types: './dist/index.d.ts', import: './dist/index.js', default: './dist/index.js' }, './package.json': './package.json' });
    assert.equal(pkg.types, './dist/index.d.ts');
    assert.deepEqual(Object.keys(pkg.dependencies as object), ['openapi-fetch']);
    assert.equal((pkg.dependencies as Record<string, string>)['openapi-fetch'], (readJson(path.join(repoRoot, 'console', 'package.json')).dependencies as Record<string, string>)['openapi-fetch']);
  });

  it('builds to dist/, and the built client calls a running Parley', async () => {
    const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    const build = spawnSync(process.execPath, [tsc, '-p', path.join(packageRoot, 'tsconfig.json')], { cwd: packageRoot, encoding: 'utf8' });
    assert.equal(build.status, 0, build.stdout + build.stderr);
    for (const file of ['index.js', 'index.d.ts', 'client.js', 'schema.d.ts', 'list-routes.js']) assert.ok(existsSync(path.join(packageRoot, 'dist', file)), `dist/${file}`);

    const built = (await import(pathToFileURL(path.join(packageRoot, 'dist', 'index.js')).href)) as typeof ClientModule;
    const { key } = await makeTenant(t);
    const parley = built.createParleyClient({ baseUrl: t.url, apiKey: key });
    const workspace = await parley.unwrap(parley.GET('/v2/workspace/public'));
    assert.match(workspace.id, /^[0-9a-f-]{36}$/);
    const missing = await parley.unwrap(parley.GET('/v2/documents/public/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } })).catch((e: unknown) => e);
    assert.ok(missing instanceof built.ParleyApiError);
    assert.equal(missing.statusCode, 404);
  });
});
