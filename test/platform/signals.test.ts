// Stopping Parley the way an operator does: SIGTERM to the pid that `npm start` or `npx parley serve`
// returned (a process manager's child, a container's PID 1). npm runs Parley in `sh -c` and passes a
// signal only to that shell; Parley must still stop, and leave nothing of its process group behind.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { poll } from '../support/poll.js';
import { freePort, processTestEnv, repoRoot } from '../support/processes.js';

function groupIsGone(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return true;
  } catch {
    return false;
  }
}

describe('stopping what npm started', { timeout: 600_000 }, () => {
  let env: Record<string, string | undefined>;
  let cleanup: () => Promise<void>;
  before(async () => {
    ({ env, cleanup } = await processTestEnv('parley-signals-'));
  });
  after(() => cleanup());

  // `npm start` execs Parley (npm signals it directly); `npx` leaves `sh -c` between them, and Parley
  // stops when npm ends. Either way the group npm leads is empty afterwards.
  for (const [label, command, args] of [
    ['npm start', 'npm', ['start', '--']],
    ['npx parley serve', 'npx', ['--no-install', '--offline', 'parley', 'serve']],
  ] as const) {
    it(`SIGTERM to the pid of ${label} closes the port and ends the process group`, async () => {
      const port = await freePort();
      // detached: npm leads a process group of its own, as under a process manager.
      const child = spawn(command, [...args, '--port', String(port)], {
        cwd: repoRoot,
        detached: true,
        env: { ...process.env, ...env, NPM_CONFIG_UPDATE_NOTIFIER: 'false', NPM_CONFIG_FUND: 'false' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      const pid = child.pid ?? 0;
      try {
        // The first start may build dist/ and the console (bin/parley.js), and on a busy machine take minutes.
        await poll(() => /Server listening/.test(output), (ready) => ready || child.exitCode !== null, {
          what: () => `${label} listening; output:\n${output}`,
          timeoutMs: 420_000,
        });
        assert.ok(await answers(`http://127.0.0.1:${port}/readyz`), `${label} answers before the signal; output:\n${output}`);

        process.kill(pid, 'SIGTERM');
        const stopped = await poll(
          async () => groupIsGone(pid) && !(await answers(`http://127.0.0.1:${port}/readyz`)),
          (done) => done,
          { what: () => `the process group of ${label} gone and its port closed; output:\n${output}`, timeoutMs: 60_000 },
        );
        assert.equal(stopped, true, `${label}: nothing of its group left, the port closed`);
        assert.match(output, /"msg":"stopped"/, `${label}: Parley stopped gracefully (its shutdown log line)`);
      } finally {
        if (!groupIsGone(pid)) process.kill(-pid, 'SIGKILL');
      }
    });
  }
});
