// The examples of packages/client/README.md compile against the client as it is: their TypeScript
// blocks, joined into one module (with the few names they take as given declared), typechecked by tsc.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../support/processes.js';

const GIVEN = ['baseUrl', 'apiKey', 'webhookId', 'id', 'sourceId', 'articleId'];

describe('@parley/client: the README', () => {
  it('has examples that typecheck', () => {
    const readme = readFileSync(path.join(repoRoot, 'packages', 'client', 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    assert.ok(blocks.length >= 10, `${blocks.length} examples`);
    const lines = blocks.flatMap((b) => b.split('\n'));
    const entry = path.join(repoRoot, 'packages', 'client', 'src', 'index.js');
    const imports = [...new Set(lines.filter((l) => l.startsWith('import ')))].map((l) => l.replace("'@parley/client'", `'${entry}'`));
    const source = [...imports, ...GIVEN.map((name) => `declare const ${name}: string;`), ...lines.filter((l) => !l.startsWith('import ')), 'export {};'].join('\n');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-readme-'));
    try {
      const file = path.join(dir, 'examples.mts');
      writeFileSync(file, source);
      const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
      const args = ['--noEmit', '--strict', '--skipLibCheck', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--target', 'ES2022', '--lib', 'ES2023,DOM'];
      const run = spawnSync(process.execPath, [tsc, ...args, '--types', 'node', '--typeRoots', path.join(repoRoot, 'node_modules', '@types'), file], { cwd: repoRoot, encoding: 'utf8' });
      assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
