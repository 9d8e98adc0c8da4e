// The test runner process that scripts/test.mjs starts (with --import tsx and the network guard, which
// every test file's process inherits): node:test's run() over the files in the order given, since
// `node --test` sorts its files by name. Prints the tap (or, on a terminal, spec) report, records how
// long each file's top-level tests took in PARLEY_TEST_TIMINGS_FILE, and exits 1 on any failure.
// Failed tests are listed once more after the report (file, test and error), so that the tail of a
// long CI log says what failed.
//
// Usage: run-tests.mjs <concurrency> <name pattern or ""> <file>...
import { readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';

const [concurrency, pattern, ...files] = process.argv.slice(2);
// Read by the network guard of this process only (it registers no test hooks here), not inherited.
delete process.env.PARLEY_TEST_RUNNER;
const stream = run({
  files,
  concurrency: Number(concurrency),
  ...(pattern ? { testNamePatterns: [pattern] } : {}),
});

const seconds = new Map();
const record = (data) => {
  if (data.nesting === 0 && data.file) seconds.set(data.file, (seconds.get(data.file) ?? 0) + (data.details?.duration_ms ?? 0) / 1000);
};
stream.on('test:pass', record);
const failures = [];
stream.on('test:fail', (data) => {
  record(data);
  process.exitCode = 1;
  const error = data.details?.error;
  // A suite fails with its failing subtests; list the tests whose own code failed.
  if (error?.failureType === 'subtestsFailed') return;
  const cause = error?.cause ?? error;
  const message = String(cause?.stack ?? cause?.message ?? cause ?? 'failed').split('\n').slice(0, 12).join('\n');
  failures.push(`${data.file ?? '?'}:${data.line ?? '?'}\n  ${data.name}\n  ${message.replace(/\n/g, '\n  ')}`);
});
process.on('exit', () => {
  if (failures.length) writeSync(1, `\n# ${failures.length} failed:\n${failures.map((f) => `# ${f.replace(/\n/g, '\n# ')}`).join('\n')}\n`);
});
stream.on('end', () => {
  const target = process.env.PARLEY_TEST_TIMINGS_FILE;
  if (!target || seconds.size === 0) return;
  let previous = {};
  try {
    previous = JSON.parse(readFileSync(target, 'utf8'));
  } catch {
    // first run, or an unreadable file: start afresh
  }
  const partial = `${target}.${process.pid}`;
  writeFileSync(partial, JSON.stringify({ ...previous, ...Object.fromEntries(seconds) }, null, 1));
  renameSync(partial, target);
});
stream.compose(process.stdout.isTTY ? new spec() : tap).pipe(process.stdout);
