// Webhook delivery throughput and lag (npm run bench:webhooks): per backend, a real `parley serve`
// with its embedded worker and one endpoint subscribed to `conversation.created`, pointing at a
// receiver in this process on 127.0.0.1. The bench starts 1,000 conversations through the API
// (8 clients at once); each commit queues one delivery. The receiver verifies every signature with
// the `standardwebhooks` library and notes when each message arrived. Printed: messages delivered,
// duplicates and bad signatures, the delivery throughput (messages per second from the first commit
// to the last receipt), and the lag from commit to receipt (the payload's `timestamp`, stamped just
// after the commit by the same machine's clock, to the receiver's clock on arrival).
//
//   npm run bench:webhooks
// Then 50 more, one at a time, each awaited at the receiver: the lag of a message on an idle server.
//
//   BENCH_EVENTS=n                 conversations started (default 1000)
//   BENCH_CLIENTS=n                API requests at once (default 8)
//   BENCH_WORKER_CONCURRENCY=n     PARLEY_WORKER_CONCURRENCY of the server (default: Parley's, 4)
//   BENCH_BACKENDS=pglite|postgres one backend (default: PGlite and, when reachable, PostgreSQL)
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as Verifier } from 'standardwebhooks';
import { abortRun, availableBackends, exitOnSignals, LOOPBACK, onServer, positiveIntEnv, type RunningServer, sleep, workspaceCall as api, writeResults } from './support.js';

const EVENTS = positiveIntEnv('BENCH_EVENTS', 1000);
const CLIENTS = positiveIntEnv('BENCH_CLIENTS', 8);
const SINGLES = 50;
const WORKER_CONCURRENCY = process.env.BENCH_WORKER_CONCURRENCY ? String(positiveIntEnv('BENCH_WORKER_CONCURRENCY', 4)) : undefined;
/** A run gives up when no message arrived for this long. */
const STALL_MS = 60_000;

interface Report {
  backend: string;
  events: number;
  delivered: number;
  duplicates: number;
  badSignatures: number;
  /** Time to start every conversation through the API. */
  postSeconds: number;
  /** Messages per second from the first commit to the last receipt. */
  deliveriesPerSecond: number;
  lagMs: { p50: number; p95: number; p99: number; max: number };
  /** Lag of a lone message on an idle server, one conversation at a time. */
  idleLagMs: { p50: number; max: number };
  error?: string;
}

/** What the receiver saw of one run. */
interface Received {
  firstCommit: number;
  lastReceipt: number;
  lags: number[];
  ids: Set<string>;
  duplicates: number;
  badSignatures: number;
}

const fresh = (): Received => ({ firstCommit: Infinity, lastReceipt: 0, lags: [], ids: new Set(), duplicates: 0, badSignatures: 0 });
let received = fresh();
let verifier: Verifier | undefined;

function receive(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const arrived = Date.now();
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(req.headers[h] ?? '')]));
    let message: { timestamp: string };
    try {
      message = verifier!.verify(body, headers) as { timestamp: string };
    } catch {
      received.badSignatures += 1;
      res.writeHead(400).end();
      return;
    }
    const id = headers['webhook-id']!;
    if (received.ids.has(id)) received.duplicates += 1;
    else {
      received.ids.add(id);
      const committed = Date.parse(message.timestamp);
      received.firstCommit = Math.min(received.firstCommit, committed);
      received.lastReceipt = Math.max(received.lastReceipt, arrived);
      received.lags.push(arrived - committed);
    }
    res.writeHead(204).end();
  });
}

function percentile(sorted: number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0;
}

async function run(server: RunningServer, receiverUrl: string, report: Report): Promise<void> {
  const agent = await api<{ id: string }>(server, 'POST', '/v2/bots/public', { name: 'Bench' });
  const hook = await api<{ secret: string }>(server, 'POST', '/v2/webhooks/public', { url: receiverUrl, events: ['conversation.created'] });
  verifier = new Verifier(hook.secret);
  received = fresh();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < EVENTS) {
        next += 1;
        await api(server, 'POST', '/v2/hc-interactions/events/public', { content: `Conversation ${next}`, role: 'agent', botId: agent.id });
      }
    }),
  );
  report.postSeconds = Math.round((performance.now() - started) / 10) / 100;
  let seen = received.ids.size;
  let lastProgress = Date.now();
  while (received.ids.size < EVENTS) {
    if (!server.running()) throw new Error('the server exited during the run');
    if (received.ids.size !== seen) {
      seen = received.ids.size;
      lastProgress = Date.now();
    } else if (Date.now() - lastProgress > STALL_MS) {
      throw new Error(`no message for ${STALL_MS / 1000} s after ${seen} of ${EVENTS}`);
    }
    await sleep(50);
  }
  // A moment for late duplicates to show up.
  await sleep(1000);
  const lags = [...received.lags].sort((a, b) => a - b);
  report.delivered = received.ids.size;
  report.duplicates = received.duplicates;
  report.badSignatures = received.badSignatures;
  report.deliveriesPerSecond = Math.round((received.ids.size / ((received.lastReceipt - received.firstCommit) / 1000)) * 10) / 10;
  report.lagMs = { p50: percentile(lags, 0.5), p95: percentile(lags, 0.95), p99: percentile(lags, 0.99), max: lags.at(-1) ?? 0 };

  // One at a time on the now idle server.
  const before = received.lags.length;
  for (let i = 0; i < SINGLES; i += 1) {
    const count = received.ids.size;
    await api(server, 'POST', '/v2/hc-interactions/events/public', { content: `Alone ${i}`, role: 'agent', botId: agent.id });
    const deadline = Date.now() + STALL_MS;
    while (received.ids.size === count) {
      if (Date.now() > deadline) throw new Error(`a lone message did not arrive within ${STALL_MS / 1000} s`);
      await sleep(2);
    }
  }
  const idle = received.lags.slice(before).sort((a, b) => a - b);
  report.idleLagMs = { p50: percentile(idle, 0.5), max: idle.at(-1) ?? 0 };
}

exitOnSignals();
const startedAt = new Date();
const receiver = createServer(receive);
receiver.keepAliveTimeout = 10_000;
await new Promise<void>((resolve) => receiver.listen(0, LOOPBACK, resolve));
const receiverUrl = `http://${LOOPBACK}:${(receiver.address() as AddressInfo).port}/hooks`;

const serverEnv: Record<string, string> = {
  PARLEY_LOG_LEVEL: 'warn',
  PARLEY_RATE_LIMIT_MAX: '100000000',
  PARLEY_FETCH_ALLOW_PRIVATE: 'true',
  ...(WORKER_CONCURRENCY ? { PARLEY_WORKER_CONCURRENCY: WORKER_CONCURRENCY } : {}),
};
const reports: Report[] = [];
try {
  for (const backend of await availableBackends(serverEnv)) {
    const report: Report = { backend: backend.name, events: EVENTS, delivered: 0, duplicates: 0, badSignatures: 0, postSeconds: 0, deliveriesPerSecond: 0, lagMs: { p50: 0, p95: 0, p99: 0, max: 0 }, idleLagMs: { p50: 0, max: 0 } };
    process.stderr.write(`bench: ${backend.name}: ${EVENTS} conversations, ${CLIENTS} clients\n`);
    reports.push(await onServer(backend, report, (server) => run(server, receiverUrl, report)));
  }
} catch (error) {
  await abortRun(error instanceof Error ? error.message : String(error), 1);
}

const header = ['backend', 'delivered', 'duplicates', 'bad signatures', 'API s', 'deliveries/s', 'lag p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'idle lag p50 ms', 'idle max ms'];
const body = reports.map((r) =>
  r.error
    ? [r.backend, `error: ${r.error}`, '', '', '', '', '', '', '', '', '', '']
    : [
        r.backend,
        `${r.delivered}/${r.events}`,
        String(r.duplicates),
        String(r.badSignatures),
        r.postSeconds.toFixed(2),
        r.deliveriesPerSecond.toFixed(1),
        String(r.lagMs.p50),
        String(r.lagMs.p95),
        String(r.lagMs.p99),
        String(r.lagMs.max),
        String(r.idleLagMs.p50),
        String(r.idleLagMs.max),
      ],
);
const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
console.log(`\nWebhook delivery: ${EVENTS} conversation.created messages to a receiver on 127.0.0.1 (${CLIENTS} API clients, worker concurrency ${WORKER_CONCURRENCY ?? 'default'}, Node ${process.version})`);
console.log(line(header));
for (const row of body) console.log(line(row));
await writeResults('webhooks', startedAt, { events: EVENTS, clients: CLIENTS, workerConcurrency: WORKER_CONCURRENCY ?? null, reports });
receiver.closeAllConnections();
receiver.close();
