// Builds dist/ with tsc, and the console (console/, an npm workspace) into console/dist/ with
// Vite, each when it is missing or older than any of its source files, so `npm start` and
// `npx parley` work on a fresh clone without a separate build step.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const consoleRoot = path.join(root, 'console');
const consoleStamp = path.join(consoleRoot, 'dist', '.build-stamp');

function newest(entry) {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const child of readdirSync(entry)) latest = Math.max(latest, newest(path.join(entry, child)));
  return latest;
}

/** Runs `args` with node in `cwd` unless `stampFile` is newer than every one of `sources`. */
function buildWhenStale(what, sources, stampFile, args, cwd) {
  const sourceTime = Math.max(...sources.filter(existsSync).map(newest));
  if (existsSync(stampFile) && statSync(stampFile).mtimeMs >= sourceTime) return;
  process.stderr.write(`parley: building ${what} ...\n`);
  const result = spawnSync(process.execPath, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) {
    process.stderr.write(`parley: the build of ${what} failed\n`);
    process.exit(result.status ?? 1);
  }
  writeFileSync(stampFile, new Date().toISOString());
}

export function ensureBuild() {
  buildWhenStale(
    'dist/',
    ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json'].map((p) => path.join(root, p)),
    stamp,
    [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'tsconfig.build.json')],
    root,
  );
  const vite = path.join(path.dirname(createRequire(path.join(consoleRoot, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');
  buildWhenStale(
    'console/dist/',
    ['src', 'index.html', 'package.json', 'vite.config.ts', 'tsconfig.json'].map((p) => path.join(consoleRoot, p)),
    consoleStamp,
    [vite, 'build', '--logLevel', 'warn'],
    consoleRoot,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureBuild();
