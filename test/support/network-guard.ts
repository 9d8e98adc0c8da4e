// Fails a test that makes an outbound connection to anything but a fake of this test run.
//
// Installed once per process: scripts/test.mjs passes `--import` of this file to every test file's
// process, the support modules import it too (for a file run by hand), and spawnScript passes it to
// the Parley processes a test starts. It wraps `net.Socket.prototype.connect` (which net.connect,
// tls.connect, http, undici/fetch and pg all go through) and `dns.lookup` (callback and promise).
//
// Allowed destinations:
// - a loopback address (127.0.0.0/8, ::1, `localhost`) on a port that a server of this process
//   listens or has listened on (fakes, test apps; recorded by wrapping `net.Server.prototype.listen`,
//   kept after the server closes so "connection refused" stays testable), or on a port reserved with
//   `allowPort` (freePort does it for the Parley processes a test spawns);
// - the test database's PostgreSQL host and port (DATABASE_URL, or 127.0.0.1:5432 on `test:pg`);
// - ports listed in PARLEY_TEST_ALLOWED_PORTS (how a spawned process learns its parent's fakes);
// - Unix sockets and pipes (local by nature).
// Name lookups are allowed for `localhost` and IP literals only. A name with its own `lookup`
// (safeFetch's pinning Agent) is checked on the addresses that lookup returns.
//
// Anything else throws (or fails the lookup) before a packet is sent, with a message naming the
// destination, and is recorded: an `afterEach` hook fails the test that made it even when the code
// under test swallowed the error, and an `after` hook fails the file for one made outside a test.
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const MESSAGE = 'unexpected outbound connection in a test';
const GUARD = Symbol.for('parley.test.network-guard');

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;
type LookupFunction = (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => void;

interface GuardState {
  ports: Set<number>;
  /** `host:port` pairs allowed whatever the host (the test database). */
  exact: Set<string>;
  violations: string[];
  installed?: boolean;
}

/** Marks a line a spawned process writes when its guard trips (its parent records it). */
export const VIOLATION_MARKER = `${MESSAGE}:`;

function state(): GuardState {
  const holder = globalThis as { [GUARD]?: GuardState };
  holder[GUARD] ??= { ports: new Set(), exact: new Set(), violations: [] };
  return holder[GUARD];
}

/** Allows loopback connections to a port this process does not listen on (a spawned process's server). */
export function allowPort(port: number): void {
  state().ports.add(port);
}

/** Ports a spawned process may connect to: what this process may, passed as PARLEY_TEST_ALLOWED_PORTS. */
export function allowedPortsEnv(): string {
  return [...state().ports].join(',');
}

/** Removes and returns the violations not yet reported (a test of the guard itself takes its own). */
export function takeViolations(): string[] {
  return state().violations.splice(0);
}

/** Records a violation seen elsewhere (a spawned process's output) so the current test fails. */
export function recordViolation(description: string): void {
  state().violations.push(description);
}

function violation(destination: string): Error {
  const message = `${MESSAGE}: ${destination} (allowed: ports of this process's servers on loopback, the test database; lookups of localhost only)`;
  recordViolation(message);
  // A spawned process tells its parent (spawnScript reads its output); a test process's hooks report it.
  if (process.env.PARLEY_TEST_GUARD_CHILD) process.stderr.write(`${message}\n`);
  return Object.assign(new Error(message), { code: 'ETESTNETWORK' });
}

function isLoopback(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  const v4 = bare.startsWith('::ffff:') ? bare.slice(7) : bare;
  return net.isIPv4(v4) && v4.startsWith('127.');
}

function allowed(host: string, port: number): boolean {
  const { ports, exact } = state();
  if (exact.has(`${host.replace(/^\[|\]$/g, '').toLowerCase()}:${port}`)) return true;
  return isLoopback(host) && ports.has(port);
}

/** Resolving these sends nothing over the network. */
function isLocalName(hostname: string): boolean {
  return net.isIP(hostname) !== 0 || isLoopback(hostname);
}

function testDatabaseAddress(): string | undefined {
  const url = process.env.DATABASE_URL ?? (process.env.PARLEY_TEST_DATABASE === 'postgres' ? 'postgres://127.0.0.1:5432/' : undefined);
  if (!url) return undefined;
  const parsed = new URL(url);
  return `${parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase()}:${parsed.port || '5432'}`;
}

/** Wraps a lookup so that it answers only with addresses the guard allows for this port. */
function guardedLookup(lookup: LookupFunction, port: number): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family);
      const addresses = typeof address === 'string' ? [address] : address.map((a) => a.address);
      const refused = addresses.find((a) => !allowed(a, port));
      if (refused !== undefined) return callback(violation(`${hostname} (${refused}) port ${port}`), address, family);
      callback(null, address, family);
    });
  };
}

interface Destination {
  host: string;
  port: number;
  lookup?: LookupFunction;
}

/** What a `socket.connect(...)` call connects to; undefined for a Unix socket or pipe. */
function destinationOf(args: unknown[]): { destination?: Destination; options?: Record<string, unknown> } {
  const first = args[0];
  if (Array.isArray(first)) return destinationOf(first as unknown[]); // net.connect's normalized arguments
  if (first !== null && typeof first === 'object') {
    const options = first as Record<string, unknown>;
    if (typeof options.path === 'string') return {};
    const lookup = typeof options.lookup === 'function' ? (options.lookup as LookupFunction) : undefined;
    return { options, destination: { host: typeof options.host === 'string' ? options.host : 'localhost', port: Number(options.port), lookup } };
  }
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    return { destination: { host: typeof args[1] === 'string' ? args[1] : 'localhost', port: Number(first) } };
  }
  return {};
}

async function install(): Promise<void> {
  const current = state();
  if (current.installed) return;
  current.installed = true;

  const database = testDatabaseAddress();
  if (database) current.exact.add(database);
  for (const port of (process.env.PARLEY_TEST_ALLOWED_PORTS ?? '').split(',')) if (/^\d+$/.test(port)) allowPort(Number(port));

  const listen = net.Server.prototype.listen;
  net.Server.prototype.listen = function guardedListen(this: net.Server, ...args: unknown[]) {
    this.once('listening', () => {
      const address = this.address();
      if (address && typeof address === 'object') allowPort(address.port);
    });
    return listen.apply(this, args as Parameters<typeof listen>);
  } as typeof listen;

  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    const { destination, options } = destinationOf(args);
    if (destination) {
      const { host, port } = destination;
      if (net.isIP(host.replace(/^\[|\]$/g, '')) !== 0 || isLoopback(host) || !options) {
        if (!allowed(host, port)) throw violation(`${host} port ${port}`);
      } else if (!state().exact.has(`${host.toLowerCase()}:${port}`)) {
        // A name: vet the addresses it resolves to (through its own lookup, or the guarded dns.lookup).
        options.lookup = guardedLookup(destination.lookup ?? (dns.lookup as unknown as LookupFunction), port);
      }
    }
    return connect.apply(this, args as Parameters<typeof connect>);
  } as typeof connect;

  const lookup = dns.lookup;
  dns.lookup = function guardedDnsLookup(hostname: string, ...rest: unknown[]) {
    if (!isLocalName(hostname)) {
      const callback = rest[rest.length - 1] as LookupCallback;
      const error = violation(`name lookup of ${hostname}`);
      process.nextTick(() => callback(error, ''));
      return;
    }
    return (lookup as (...args: unknown[]) => void)(hostname, ...rest);
  } as typeof dns.lookup;
  const promiseLookup = dns.promises.lookup;
  dns.promises.lookup = async function guardedPromiseLookup(hostname: string, options?: dns.LookupOptions) {
    if (!isLocalName(hostname)) throw violation(`name lookup of ${hostname}`);
    return promiseLookup(hostname, options ?? {});
  } as typeof dns.promises.lookup;
  syncBuiltinESMExports();

  // The test runner's own process (test/support/run-tests.mjs, or one given --test) runs no tests;
  // hooks belong to test files, whose processes the runner marks with NODE_TEST_CONTEXT.
  const isRunner = (process.env.PARLEY_TEST_RUNNER === '1' || process.execArgv.includes('--test')) && !process.env.NODE_TEST_CONTEXT;
  if (process.env.PARLEY_TEST_GUARD_CHILD || isRunner) return;
  // Loaded only here: node:test imported in a plain process would print a test report at exit.
  const { after, afterEach } = await import('node:test');
  afterEach(() => {
    const fresh = takeViolations();
    if (fresh.length) throw new Error(fresh.join('\n'));
  });
  after(() => {
    const fresh = takeViolations();
    if (fresh.length) throw new Error(`outside any test:\n${fresh.join('\n')}`);
  });
}

await install();
