// Builds dist/ with tsc when it is missing or older than any source file, so `npm start` and
// `npx parley` work on a fresh clone without a separate build step.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');

function newest(entry) {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const child of readdirSync(entry)) latest = Math.max(latest, newest(path.join(entry, child)));
  return latest;
}

export function ensureBuild() {
  const sources = ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json'].map((p) => path.join(root, p));
  const sourceTime = Math.max(...sources.filter(existsSync).map(newest));
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= sourceTime) return;
  process.stderr.write('parley: building dist/ ...\n');
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    process.stderr.write('parley: the build failed\n');
    process.exit(result.status ?? 1);
  }
  writeFileSync(stamp, new Date().toISOString());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureBuild();
