// The actions engine's overhead per external API call step against a loopback API: a chain of 1
// and of 5 steps (interpolation, a sealed header opened, JSON parsed, responses mapped, records
// written) next to the same requests sent with plain undici, so the engine's own time shows apart
// from the network. In-process, no database.
//
//   npm run bench:actions          (PARLEY_BENCH_ITERATIONS to change the 2,000 measured runs)
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { loadConfig } from '../src/config/config.js';
import type { DataStepRow } from '../src/modules/tools/index.js';
import { runChain } from '../src/modules/tools/engine.service.js';
import { createSafeFetch } from '../src/ingest/fetch/safe-fetch.js';
import { createSecretBox, generateSecretKey, parseSecretKey } from '../src/secrets.js';
import { positiveIntEnv, writeResults } from './support.js';

const ITERATIONS = positiveIntEnv('PARLEY_BENCH_ITERATIONS', 2_000);
const WARMUP = Math.min(200, ITERATIONS);

const ORDER = JSON.stringify({ data: { id: 'A-1001', status: 'shipped', customerId: 'c_42', items: [{ sku: 'A-1' }, { sku: 'B-2' }, { sku: 'C-3' }] } });
const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(ORDER));
server.keepAliveTimeout = 10_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const config = loadConfig({ PARLEY_FETCH_ALLOW_PRIVATE: 'true', PARLEY_LOG_LEVEL: 'silent' });
const fetch = createSafeFetch({ allowPrivate: true, userAgent: 'parley-bench', timeoutMs: 10_000, maxBytes: 10 * 1024 * 1024, maxRedirects: 3 });
const secrets = createSecretBox(parseSecretKey(generateSecretKey()) as Buffer);
const ctx = { outbound: { fetch } as never, secrets, config, signal: undefined };

const now = new Date();
const stepRow = (i: number): DataStepRow => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  workspaceId: '00000000-0000-4000-8000-000000000000',
  toolId: null,
  name: `s${i}`,
  stepNumber: i,
  requestMethod: 'GET',
  requestUrl: i === 1 ? `${origin}/orders/\${orderNumber}?q=\${note}` : `${origin}/customers/\${s${i - 1}.customerId}/orders/\${orderNumber}`,
  requestHeaders: { Authorization: { hide: true, sealed: secrets.seal('Bearer sk_live_bench_secret') }, 'X-Trace': '${orderNumber}' },
  requestBody: null,
  responseMapping: { status: 'data.status', customerId: 'data.customerId', skus: 'data.items[*].sku', first: 'data.items[0].sku' },
  createdAt: now,
  updatedAt: now,
  createdBy: null,
  updatedBy: null,
});
const chain = (n: number) => Array.from({ length: n }, (_, i) => stepRow(i + 1));
const tool = { inputFields: [{ name: 'orderNumber', type: 'string' as const, required: true, description: '' }], outputFields: [{ name: 'status', type: 'string' as const }] };

async function plain(n: number): Promise<void> {
  for (let i = 0; i < n; i += 1) {
    const res = await request(`${origin}/orders/A-1001`, { headers: { authorization: 'Bearer x', accept: 'application/json' } });
    JSON.parse(await res.body.text());
  }
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p99: at(0.99) };
}

async function measure(run: () => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i += 1) await run();
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i += 1) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return stats(samples);
}

const startedAt = new Date();
const rows: { steps: number; engine: { p50: number; p99: number }; plain: { p50: number; p99: number } }[] = [];
for (const n of [1, 5]) {
  const steps = chain(n);
  const engine = await measure(async () => {
    const result = await runChain(ctx, tool, steps, { orderNumber: 'A-1001', note: 'bench run' });
    if (!result.success) throw new Error(JSON.stringify(result.error));
  });
  const reference = await measure(() => plain(n));
  rows.push({ steps: n, engine, plain: reference });
}

const header = ['chain', 'engine p50 ms', 'engine p99 ms', 'plain undici p50 ms', 'plain p99 ms', 'overhead p50 ms/step'];
const body = rows.map((r) => [
  `${r.steps} step${r.steps > 1 ? 's' : ''}`,
  r.engine.p50.toFixed(3),
  r.engine.p99.toFixed(3),
  r.plain.p50.toFixed(3),
  r.plain.p99.toFixed(3),
  ((r.engine.p50 - r.plain.p50) / r.steps).toFixed(3),
]);
const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
console.log(`\nActions engine against a loopback JSON API (${ITERATIONS} runs after ${WARMUP} warm-up, Node ${process.version})`);
console.log(line(header));
for (const row of body) console.log(line(row));
await writeResults('actions', startedAt, { iterations: ITERATIONS, rows });
await fetch.close();
server.closeAllConnections();
server.close();
