// Runs every test/**/*.test.ts with node's test runner through tsx (Node 20's --test has no globs).
// Extra arguments are passed to node, --test-name-pattern=... to the runner; files may be named too.
//
// Files run PARLEY_TEST_CONCURRENCY at a time (default 2, one per core of the 2-core machines this
// runs on; 3 measured slower there under load), the slowest first, by the durations the last run
// recorded (files without a record go first, largest first), so that one long file does not start
// last and hold the whole run. test/support/run-tests.mjs runs them (node --test would sort them).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
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

const timingsFile = path.join(os.tmpdir(), `parley-test-timings-${createHash('sha256').update(root).digest('hex').slice(0, 12)}.json`);
function lastDurations() {
  try {
    return JSON.parse(readFileSync(timingsFile, 'utf8'));
  } catch {
    return {};
  }
}

/** Slowest first: files the last run did not time (new ones) by size, then the timed ones by time. */
function slowestFirst(files) {
  const seconds = lastDurations();
  const known = (file) => seconds[path.join(root, file)];
  const unknown = files.filter((f) => known(f) === undefined).sort((a, b) => statSync(b).size - statSync(a).size);
  const timed = files.filter((f) => known(f) !== undefined).sort((a, b) => known(b) - known(a));
  return [...unknown, ...timed];
}

const args = process.argv.slice(2);
const named = args.filter((a) => a.endsWith('.ts'));
const pattern = args.find((a) => a.startsWith('--test-name-pattern='))?.slice('--test-name-pattern='.length) ?? '';
const flags = args.filter((a) => !a.endsWith('.ts') && !a.startsWith('--test-name-pattern='));
const files = slowestFirst(named.length ? named : find(path.join(root, 'test'))).map((f) => path.join(root, f));
const concurrency = process.env.PARLEY_TEST_CONCURRENCY ?? '2';
// Every test file's process runs under the network guard (test/support/network-guard.ts).
const guard = pathToFileURL(path.join(root, 'test', 'support', 'network-guard.ts')).href;
const runner = path.join(root, 'test', 'support', 'run-tests.mjs');
// PARLEY_TEST_VALIDATE_RESPONSES=1: each test app checks its answers against its /openapi.json
// (test/support/response-validation.ts); each test process adds its counts to this file.
const validating = process.env.PARLEY_TEST_VALIDATE_RESPONSES === '1';
const report = path.join(os.tmpdir(), `parley-test-validation-${process.pid}.txt`);
const result = spawnSync(process.execPath, ['--import', 'tsx', '--import', guard, ...flags, runner, concurrency, pattern, ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PARLEY_TEST_RUNNER: '1', PARLEY_TEST_TIMINGS_FILE: timingsFile, ...(validating ? { PARLEY_TEST_VALIDATION_REPORT: report } : {}) },
});
if (validating) {
  const lines = existsSync(report) ? readFileSync(report, 'utf8').trim().split('\n').filter(Boolean) : [];
  const [validated, skipped, compared] = lines.reduce((sums, line) => line.split(' ').map((n, i) => Number(n || 0) + sums[i]), [0, 0, 0]);
  process.stdout.write(`# answers validated against /openapi.json: ${validated} (${skipped} of routes it leaves out skipped); compared with zod's parse: ${compared}\n`);
  rmSync(report, { force: true });
}
process.exit(result.status ?? 1);
