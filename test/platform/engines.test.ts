// package.json's `engines` is true: every package the lockfile installs declares a Node.js range
// that the lowest version Parley claims satisfies, so `npm install` on that Node prints no
// EBADENGINE warning (issue 18: pg-boss, cookie and content-disposition declared Node >= 22).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>;

describe('engines', () => {
  const pkg = read('package.json') as { engines: { node: string } };
  const lowest = semver.minVersion(pkg.engines.node)!;

  it('declares a Node.js range that the running Node satisfies', () => {
    assert.ok(semver.satisfies(process.version, pkg.engines.node), `${process.version} is outside ${pkg.engines.node}`);
  });

  it('every installed package accepts the lowest Node.js version of that range', () => {
    const lock = read('package-lock.json') as { packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> };
    const refusing = Object.entries(lock.packages)
      .filter(([name, info]) => name !== '' && info.engines && !Array.isArray(info.engines) && info.engines.node)
      .filter(([, info]) => !semver.satisfies(lowest, (info.engines as { node: string }).node, { includePrerelease: true }))
      .map(([name, info]) => `${name.replace(/^.*node_modules\//, '')}@${info.version} wants node ${(info.engines as { node: string }).node}`);
    assert.deepEqual(refusing, [], `Parley declares node ${pkg.engines.node}`);
  });
});
