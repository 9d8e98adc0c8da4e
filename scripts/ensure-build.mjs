// Builds dist/ with tsc, the console (console/, an npm workspace) into console/dist/ and the chat
// widget (widget/, another) into widget/dist/widget.js with Vite, each when it is missing or older
// than any of its source files, so `npm start` and `npx parley` work on a fresh clone without a
// separate build step. A deployment runs it once as an
// install step (`npm run build`); processes started at once on a stale folder build it once: the
// first takes a lock (dist/.build-lock, holding its pid) and the others wait for it.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const lockFile = path.join(root, 'dist', '.build-lock');
const consoleRoot = path.join(root, 'console');
const consoleStamp = path.join(consoleRoot, 'dist', '.build-stamp');
const widgetRoot = path.join(root, 'widget');

function newest(entry) {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const child of readdirSync(entry)) latest = Math.max(latest, newest(path.join(entry, child)));
  return latest;
}

/** True unless `stampFile` is newer than every one of `sources`. */
function isStale(sources, stampFile) {
  const sourceTime = Math.max(...sources.filter(existsSync).map(newest));
  return !existsSync(stampFile) || statSync(stampFile).mtimeMs < sourceTime;
}

/** Runs `args` with node in `cwd` unless `stampFile` is newer than every one of `sources`. */
function buildWhenStale(what, sources, stampFile, args, cwd) {
  if (!isStale(sources, stampFile)) return;
  const started = Date.now();
  process.stderr.write(`parley: building ${what} (once per change of its sources; \`npm run build\` does it ahead) ...\n`);
  // The build's output goes to stderr, like these notices: stdout may be a protocol's (`parley mcp`).
  const result = spawnSync(process.execPath, args, { cwd, stdio: ['ignore', process.stderr.fd, 'inherit'] });
  if (result.status !== 0) {
    process.stderr.write(`parley: the build of ${what} failed\n`);
    process.exit(result.status ?? 1);
  }
  writeFileSync(stampFile, new Date().toISOString());
  process.stderr.write(`parley: built ${what} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Runs `build` holding the folder's build lock; waits while another live process holds it. */
function withBuildLock(build) {
  mkdirSync(path.dirname(lockFile), { recursive: true });
  let announced = false;
  for (;;) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    const holder = Number(existsSync(lockFile) ? readFileSync(lockFile, 'utf8') : '');
    // An empty lock is being written by its holder; a dead holder's lock (killed mid-build) is taken over.
    if (holder > 0 && !isAlive(holder)) {
      rmSync(lockFile, { force: true });
      continue;
    }
    if (!announced && holder > 0) {
      process.stderr.write(`parley: another process (pid ${holder}) is building this installation; waiting for it ...\n`);
      announced = true;
    }
    sleep(250);
  }
  try {
    build();
  } finally {
    rmSync(lockFile, { force: true });
  }
}

export function ensureBuild() {
  const server = {
    what: 'dist/',
    sources: ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json'].map((p) => path.join(root, p)),
    stamp,
    args: [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'tsconfig.build.json')],
    cwd: root,
  };
  const vite = path.join(path.dirname(createRequire(path.join(consoleRoot, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');
  const consoleBuild = {
    what: 'console/dist/',
    // The console bundles @parley/client from its source (console/src/api/client.ts imports it).
    sources: [...['src', 'index.html', 'package.json', 'vite.config.ts', 'tsconfig.json'].map((p) => path.join(consoleRoot, p)), path.join(root, 'packages', 'client', 'src')],
    stamp: consoleStamp,
    args: [vite, 'build', '--logLevel', 'warn'],
    cwd: consoleRoot,
  };
  const widgetVite = path.join(path.dirname(createRequire(path.join(widgetRoot, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');
  const widgetBuild = {
    what: 'widget/dist/',
    sources: ['src', 'package.json', 'vite.config.ts', 'tsconfig.json'].map((p) => path.join(widgetRoot, p)),
    stamp: path.join(widgetRoot, 'dist', '.build-stamp'),
    args: [widgetVite, 'build', '--logLevel', 'warn'],
    cwd: widgetRoot,
  };
  const builds = [server, consoleBuild, widgetBuild];
  if (!builds.some((b) => isStale(b.sources, b.stamp))) return;
  // Looked at again under the lock: the process that held it may have built everything meanwhile.
  withBuildLock(() => {
    for (const b of builds) buildWhenStale(b.what, b.sources, b.stamp, b.args, b.cwd);
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureBuild();
