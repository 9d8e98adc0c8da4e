// The limits a PostgreSQL deployment keeps for all its processes (docs/operations.md "Limits across
// processes"), measured on real `parley serve` processes:
//   1. what the shared rate-limit count costs a request: the authenticated trivial route
//      (GET /v2/workspace/public, answered from the verified key with no query of its own) on a
//      server counting in PostgreSQL and on one counting in its memory (PARLEY_RATE_LIMIT_SCOPE=
//      process), alternated in this run: BENCH_REQUESTS requests one after another, each timed
//      (latency alone, to the microsecond), then autocannon at BENCH_CONNECTIONS (under load);
//   2. politeness with two processes: both ingest BENCH_PAGES pages of one local site answering in
//      BENCH_PAGE_MS, under the default PARLEY_INGEST_PER_HOST (2) and PARLEY_INGEST_HOST_DELAY_MS
//      (100); the site records each request's arrival and the requests in flight.
// Env: BENCH_DURATION (seconds per case, default 10), BENCH_CONNECTIONS (default 50), BENCH_REQUESTS
// (default 5000), BENCH_ROUNDS
// (alternations of the two counters, default 2), BENCH_PAGES (default 40), BENCH_PAGE_MS (default
// 300). Needs PostgreSQL (DATABASE_URL, else 127.0.0.1:5432).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { Client } from 'undici';
import {
  abortRun,
  createScratchDatabase,
  exitOnSignals,
  findPostgres,
  positiveIntEnv,
  type RunningServer,
  sleep,
  startServer,
  tempDataDir,
  waitForIngestion,
  withTimeout,
  writeResults,
} from './support.js';
import { generateSecretKey } from '../src/secrets.js';

const ROUTE = '/v2/workspace/public';
const PER_HOST = 2;
const DELAY_MS = 100;

interface LatencyCase {
  counter: 'postgres' | 'process';
  round: number;
  connections: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

interface PolitenessResult {
  pages: number;
  pageMs: number;
  byProcess: Record<string, number>;
  maxInFlight: number;
  minGapMs: number;
  medianGapMs: number;
  seconds: number;
}

/** A fresh scratch database with the environment of a server on it. */
async function preparePostgres(adminUrl: string, extra: Record<string, string>) {
  const scratch = await createScratchDatabase(adminUrl);
  const dir = await tempDataDir();
  const env = { PARLEY_SECRET_KEY: generateSecretKey(), PARLEY_LOG_LEVEL: 'warn', DATABASE_URL: scratch.url, PARLEY_DATA_DIR: dir.path, ...extra };
  return {
    env,
    cleanup: async () => {
      await scratch.drop();
      await dir.remove();
    },
  };
}

/** autocannon on the trivial authenticated route: throughput and latency percentiles. */
async function load(server: RunningServer, connections: number, seconds: number) {
  const run = autocannon({ url: `${server.url}${ROUTE}`, headers: { authorization: `Bearer ${server.apiKey}` }, connections, duration: seconds, timeout: 10 });
  return withTimeout(run, (seconds + 30) * 1000, `autocannon on ${ROUTE} did not finish`);
}

/** `count` requests one after another on one connection, each timed: throughput and percentiles in ms. */
async function sequential(server: RunningServer, count: number): Promise<Omit<LatencyCase, 'counter' | 'round' | 'connections'>> {
  const client = new Client(server.url);
  const headers = { authorization: `Bearer ${server.apiKey}` };
  const times: number[] = [];
  let non2xx = 0;
  try {
    const started = performance.now();
    for (let i = 0; i < count; i += 1) {
      const t = performance.now();
      const res = await client.request({ method: 'GET', path: ROUTE, headers });
      await res.body.dump();
      times.push(performance.now() - t);
      if (res.statusCode !== 200) non2xx += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    return { reqPerSec: count / seconds, p50Ms: at(0.5), p99Ms: at(0.99), non2xx };
  } finally {
    await client.close();
  }
}

/** Part 1: both counters, each on its own server and database, alternated `rounds` times. */
async function measureCounters(adminUrl: string): Promise<LatencyCase[]> {
  const seconds = positiveIntEnv('BENCH_DURATION', 10);
  const rounds = positiveIntEnv('BENCH_ROUNDS', 2);
  const connections = positiveIntEnv('BENCH_CONNECTIONS', 50);
  const requests = positiveIntEnv('BENCH_REQUESTS', 5000);
  // A limit no run reaches: every request is counted, none refused.
  const limit = { PARLEY_RATE_LIMIT_MAX: '100000000' };
  const cases: LatencyCase[] = [];
  const servers: { counter: LatencyCase['counter']; server: RunningServer; cleanup: () => Promise<void> }[] = [];
  try {
    for (const counter of ['postgres', 'process'] as const) {
      const prepared = await preparePostgres(adminUrl, { ...limit, PARLEY_RATE_LIMIT_SCOPE: counter === 'postgres' ? 'deployment' : 'process' });
      process.stderr.write(`bench: starting the server counting in ${counter}\n`);
      servers.push({ counter, server: await startServer({ env: prepared.env }), cleanup: prepared.cleanup });
    }
    for (let round = 1; round <= rounds; round += 1) {
      for (const { counter, server } of servers) {
        process.stderr.write(`bench: round ${round}, ${counter} counter: ${requests} requests one after another, then ${connections} connections for ${seconds} s\n`);
        await sequential(server, 500);
        cases.push({ counter, round, connections: 1, ...(await sequential(server, requests)) });
        await load(server, connections, 2);
        const result = await load(server, connections, seconds);
        cases.push({ counter, round, connections, reqPerSec: result.requests.mean, p50Ms: result.latency.p50, p99Ms: result.latency.p99, non2xx: result.non2xx });
      }
    }
  } finally {
    for (const { server, cleanup } of servers) {
      await server.stop();
      await cleanup();
    }
  }
  return cases;
}

/** Part 2: two processes on one database ingest the pages of one site; what the site saw. */
async function measurePoliteness(adminUrl: string): Promise<PolitenessResult> {
  const pages = positiveIntEnv('BENCH_PAGES', 40);
  const pageMs = positiveIntEnv('BENCH_PAGE_MS', 300);
  const arrivals: { at: number; agent: string }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const site = createServer((req, res) => {
    if (!/^\/pages\/\d+$/.test(req.url ?? '')) return void res.writeHead(404).end();
    arrivals.push({ at: performance.now(), agent: String(req.headers['user-agent']) });
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    setTimeout(() => {
      inFlight -= 1;
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><h1>Page ${req.url}</h1><p>Measured politely by two processes.</p></body></html>`);
    }, pageMs);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const politeness = {
    PARLEY_FETCH_ALLOW_PRIVATE: 'true',
    PARLEY_INGEST_PER_HOST: String(PER_HOST),
    PARLEY_INGEST_HOST_DELAY_MS: String(DELAY_MS),
    PARLEY_JOB_POLL_SECONDS: '0.5',
  };
  const prepared = await preparePostgres(adminUrl, politeness);
  const servers: RunningServer[] = [];
  try {
    servers.push(await startServer({ env: { ...prepared.env, PARLEY_FETCH_USER_AGENT: 'ParleyBench-A' } }));
    servers.push(await startServer({ env: { ...prepared.env, PARLEY_FETCH_USER_AGENT: 'ParleyBench-B' }, apiKey: servers[0]!.apiKey }));
    const started = performance.now();
    const links = Array.from({ length: pages }, (_, i) => `${origin}/pages/${i}`);
    const res = await fetch(`${servers[0]!.url}/v2/documents/public`, {
      method: 'POST',
      headers: { authorization: `Bearer ${servers[0]!.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ documentIdsToAdd: links }),
    });
    if (res.status !== 202) throw new Error(`adding the pages answered ${res.status}: ${await res.text()}`);
    const failed = await waitForIngestion(servers[0]!, started, 'two processes');
    if (failed) throw new Error(`${failed} pages failed to ingest`);
    const seconds = (performance.now() - started) / 1000;
    const starts = arrivals.map((a) => a.at).sort((a, b) => a - b);
    const gaps = starts.slice(1).map((s, i) => s - starts[i]!).sort((a, b) => a - b);
    const byProcess: Record<string, number> = {};
    for (const { agent } of arrivals) byProcess[agent] = (byProcess[agent] ?? 0) + 1;
    return { pages, pageMs, byProcess, maxInFlight, minGapMs: gaps[0] ?? 0, medianGapMs: gaps[Math.floor(gaps.length / 2)] ?? 0, seconds };
  } finally {
    for (const server of servers) await server.stop();
    await prepared.cleanup();
    site.close();
  }
}

function renderCounters(cases: readonly LatencyCase[]): string {
  const lines = ['| counter | connections | round | req/s | p50 ms | p99 ms | non-2xx |', '|---|---:|---:|---:|---:|---:|---:|'];
  const sorted = [...cases].sort((a, b) => a.connections - b.connections || a.counter.localeCompare(b.counter) || a.round - b.round);
  for (const c of sorted) {
    // autocannon gives whole milliseconds; the one-connection runs are timed here to the microsecond.
    const ms = (v: number) => (c.connections === 1 ? v.toFixed(3) : v.toFixed(0));
    lines.push(`| ${c.counter} | ${c.connections} | ${c.round} | ${c.reqPerSec.toFixed(0)} | ${ms(c.p50Ms)} | ${ms(c.p99Ms)} | ${c.non2xx} |`);
  }
  return lines.join('\n');
}

function renderPoliteness(r: PolitenessResult): string {
  return [
    '| pages | page ms | per process | max in flight (limit) | min gap ms (limit) | median gap ms | seconds |',
    '|---:|---:|---|---:|---:|---:|---:|',
    `| ${r.pages} | ${r.pageMs} | ${Object.entries(r.byProcess).map(([agent, n]) => `${agent} ${n}`).join(', ')} | ${r.maxInFlight} (${PER_HOST}) | ${r.minGapMs.toFixed(1)} (${DELAY_MS}) | ${r.medianGapMs.toFixed(1)} | ${r.seconds.toFixed(1)} |`,
  ].join('\n');
}

async function main(): Promise<number> {
  const startedAt = new Date();
  const adminUrl = await findPostgres();
  if (!adminUrl) throw new Error('no PostgreSQL reachable (set DATABASE_URL): the shared limits live there');
  const counters = await measureCounters(adminUrl);
  await sleep(500);
  const politeness = await measurePoliteness(adminUrl);
  process.stdout.write(`\nRate-limit count per request, GET ${ROUTE}:\n\n${renderCounters(counters)}\n`);
  process.stdout.write(`\nPoliteness of two processes towards one site:\n\n${renderPoliteness(politeness)}\n`);
  await writeResults('limits', startedAt, { counters, politeness });
  return counters.some((c) => c.non2xx > 0) ? 1 : 0;
}

exitOnSignals();
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    void abortRun(error instanceof Error ? (error.stack ?? error.message) : String(error), 1);
  },
);
