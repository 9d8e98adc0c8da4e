import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import dns from 'node:dns';
import { once } from 'node:events';
import net from 'node:net';
import path from 'node:path';
import { describe, it } from 'node:test';
import { takeViolations } from '../support/network-guard.js';
import { repoRoot, spawnScript } from '../support/processes.js';

/**
 * The network guard (test/support/network-guard.ts) refuses, before any packet is sent, every
 * connection a test makes to something that is not one of its fakes, and fails the test even when
 * the code under test swallows the error. 127.0.0.2 stands for "outside": it is loopback, so even a
 * broken guard sends nothing off this machine.
 */

const REFUSED = /unexpected outbound connection in a test: 127\.0\.0\.2 port \d+/;

/** A TCP server in another process (so the guard here does not know its port) counting connections. */
async function outsideServer(): Promise<{ port: number; accepted(): Promise<number>; close(): void }> {
  const script = `
    const server = require('node:net').createServer((socket) => { accepted += 1; socket.destroy(); });
    let accepted = 0;
    server.listen(0, '127.0.0.2', () => console.log(server.address().port));
    process.stdin.on('data', () => console.log('accepted ' + accepted));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const next = async (): Promise<string> => {
    while (lines.length === 0) await once(child.stdout, 'data').then(([chunk]) => lines.push(...String(chunk).trim().split('\n')));
    return lines.shift()!;
  };
  const port = Number(await next());
  return {
    port,
    accepted: async () => {
      child.stdin.write('?\n');
      return Number((await next()).replace('accepted ', ''));
    },
    close: () => child.kill(),
  };
}

describe('network guard', () => {
  it('refuses a connection to an unregistered address before connecting, naming it', async () => {
    const outside = await outsideServer();
    try {
      assert.throws(() => net.connect(outside.port, '127.0.0.2'), REFUSED);
      await assert.rejects(fetch(`http://127.0.0.2:${outside.port}/`), (error: Error) => REFUSED.test(String(error.cause)));
      assert.equal(await outside.accepted(), 0);
      const recorded = takeViolations();
      assert.equal(recorded.length, 2);
      for (const line of recorded) assert.match(line, REFUSED);
    } finally {
      outside.close();
    }
  });

  it('allows loopback servers of this process', async () => {
    const server = net.createServer((socket) => socket.end('hello'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    const [chunk] = (await once(socket, 'data')) as [Buffer];
    assert.equal(chunk.toString(), 'hello');
    socket.destroy();
    server.close();
    assert.deepEqual(takeViolations(), []);
  });

  it('refuses a name lookup of an outside host', async () => {
    await assert.rejects(dns.promises.lookup('outside.invalid'), /unexpected outbound connection in a test: name lookup of outside\.invalid/);
    const [error] = await new Promise<[NodeJS.ErrnoException | null]>((resolve) => dns.lookup('outside.invalid', (e) => resolve([e])));
    assert.match(String(error?.message), /name lookup of outside\.invalid/);
    assert.equal(takeViolations().length, 2);
  });

  it('fails the test that made the connection even when the error was swallowed', async () => {
    const file = path.join(repoRoot, 'test', 'fixtures', 'swallowed-connection.ts');
    const env: Record<string, string | undefined> = { ...process.env, NODE_TEST_CONTEXT: undefined };
    const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number];
    assert.equal(code, 1, output);
    assert.match(output, /not ok 1 - swallows the guard's error/);
    assert.match(output, /ok 2 - connects to nothing/);
    assert.match(output, /# fail 1/);
    assert.match(output, REFUSED);
  });

  it('applies in the Parley processes a test spawns, and fails the test here', async () => {
    const proc = spawnScript('test/fixtures/swallowed-connection.ts', ['--plain'], {});
    assert.equal(await proc.exited, 0, proc.output());
    const recorded = takeViolations();
    assert.equal(recorded.length, 1, proc.output());
    assert.match(recorded[0]!, /^in test\/fixtures\/swallowed-connection\.ts: unexpected outbound connection in a test: 127\.0\.0\.2 port 9/);
  });
});
