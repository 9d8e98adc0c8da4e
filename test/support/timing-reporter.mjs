// A node:test reporter that writes nothing to the output: it records how long each test file's
// top-level tests took (in PARLEY_TEST_TIMINGS_FILE), so that scripts/test.mjs can start the
// slowest files first next time. Plain JavaScript: the runner loads reporters without tsx.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

/** @param {AsyncIterable<{ type: string, data: { nesting?: number, file?: string, details?: { duration_ms?: number } } }>} source */
export default async function* timingReporter(source) {
  const seconds = new Map();
  for await (const event of source) {
    const { nesting, file, details } = event.data;
    if ((event.type === 'test:pass' || event.type === 'test:fail') && nesting === 0 && file) {
      seconds.set(file, (seconds.get(file) ?? 0) + (details?.duration_ms ?? 0) / 1000);
    }
  }
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
  yield '';
}
