import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A thread's node flags: the process's, less preloaded TypeScript files (`--import x.ts`, the test
 * network guard): a thread registers the tsx loader asynchronously, so a .ts preload after it fails
 * to load and the thread never starts. The tsx loader itself (`--import tsx`) is kept.
 */
export function threadExecArgv(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i += 1) {
    const arg = execArgv[i]!;
    if (arg === '--import' && /\.[cm]?ts$/.test(execArgv[i + 1] ?? '')) {
      i += 1;
      continue;
    }
    if (/^--import=.*\.[cm]?ts$/.test(arg)) continue;
    kept.push(arg);
  }
  return kept;
}

/**
 * A thread's entry file beside the module at `moduleUrl` (its `import.meta.url`): `<name>.ts` under
 * tsx (tests, benches), `<name>.js` in dist/.
 */
export function threadEntryBeside(moduleUrl: string, name: string): string {
  const here = fileURLToPath(moduleUrl);
  return path.join(path.dirname(here), `${name}${path.extname(here)}`);
}

/** The main module of a thread of Parley's own: thread-bootstrap.cjs, which loads `workerData.entry`. */
export function threadBootstrap(): string {
  return path.join(path.dirname(fileURLToPath(import.meta.url)), 'thread-bootstrap.cjs');
}
