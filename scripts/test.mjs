// Runs every test/**/*.test.ts with node's test runner through tsx (Node 20's --test has no globs).
// Extra arguments are passed to node (for example --test-name-pattern=...); files may be named too.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function find(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) return find(file);
      return name.endsWith('.test.ts') ? [path.relative(root, file)] : [];
    });
}

const args = process.argv.slice(2);
const named = args.filter((a) => a.endsWith('.ts'));
const flags = args.filter((a) => !a.endsWith('.ts'));
const files = named.length ? named : find(path.join(root, 'test'));
// Every test file's process runs under the network guard (test/support/network-guard.ts).
const guard = pathToFileURL(path.join(root, 'test', 'support', 'network-guard.ts')).href;
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--import', guard, '--test', '--test-concurrency=2', ...flags, ...files],
  { cwd: root, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
