import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { threadBootstrap } from '../../src/workers/threads.js';

const run = promisify(execFile);

describe('the main module of Parley’s own threads', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-thread-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  // Playwright's test runner reads TypeScript through a transform of its own, which its threads do
  // not get (the embedded database's thread failed on `import type` in the browser suite's seeding).
  it('loads a TypeScript entry in a process with no TypeScript loader at all', async () => {
    const entry = path.join(dir, 'entry.ts');
    writeFileSync(
      entry,
      `import type { MessagePort } from 'node:worker_threads';
import { parentPort } from 'node:worker_threads';
const port: MessagePort | null = parentPort;
port?.postMessage({ typed: true as boolean });
`,
    );
    const main = path.join(dir, 'main.mjs');
    writeFileSync(
      main,
      `import { Worker } from 'node:worker_threads';
const worker = new Worker(${JSON.stringify(threadBootstrap())}, { workerData: { entry: ${JSON.stringify(entry)} } });
worker.once('message', (message) => { console.log(JSON.stringify(message)); worker.terminate(); });
worker.once('error', (error) => { console.error(error.message); process.exit(1); });
`,
    );
    // Plain node: none of the test runner's flags (its `--import tsx`) reach the child.
    const { stdout } = await run(process.execPath, [main], { cwd: dir, env: { ...process.env, NODE_OPTIONS: '' } });
    assert.deepEqual(JSON.parse(stdout), { typed: true });
  });
});
