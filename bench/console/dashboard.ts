// The Analytics dashboard at scale (npm run bench:dashboard; bench/console/README.md): the analytics
// bench's data set (bench/analytics-data.ts: BENCH_CONVERSATIONS conversations, default 100,000,
// over 90 days, one agent) on PGlite, then headless Chromium opens the agent's dashboard for a
// 90-day window BENCH_RUNS times (default 15, after 2 warm-ups) and times navigation start to the
// frame after every chart is drawn; the route alone is timed from Node in the same run. With
// BENCH_DATA_DIR the data folder is kept there and reused by the next run (generating it takes minutes).
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type AnalyticsIds, seedAnalyticsServer } from '../analytics-data.js';
import { exitOnSignals, positiveIntEnv, type RunningServer, startServer, tempDataDir, writeResults } from '../support.js';
import { type PageCase, percentile, signedInTab, timePage } from './browser.js';

const AIM_MS = 1500;
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const p50 = (values: number[]) => percentile(sorted(values), 50);
const p95 = (values: number[]) => percentile(sorted(values), 95);
const DAY = 86_400_000;
// Three lines (resolution rate, response time, CSAT) and the volume chart's three bar series.
const ALL_CHARTS = { selector: '.recharts-line-curve, .recharts-bar-rectangles', count: 6 };

interface Kept {
  apiKey: string;
  ids: AnalyticsIds;
  end: string;
  conversations: number;
}

/** The data folder's server: reused when BENCH_DATA_DIR holds a generated set of the same size, else generated. */
async function serve(dataDir: string, conversations: number): Promise<{ server: RunningServer; kept: Kept; generateMs?: number }> {
  const env = { PARLEY_DATA_DIR: dataDir, PARLEY_LOG_LEVEL: 'warn', PARLEY_RATE_LIMIT_MAX: '100000000' };
  const file = path.join(dataDir, 'bench-dashboard.json');
  if (existsSync(file)) {
    const kept = JSON.parse(await readFile(file, 'utf8')) as Kept;
    if (kept.conversations !== conversations) throw new Error(`${dataDir} holds ${kept.conversations} conversations, not ${conversations}: use another BENCH_DATA_DIR`);
    process.stderr.write(`bench: dashboard: reusing the data of ${kept.end} in ${dataDir}\n`);
    return { server: await startServer({ env, apiKey: kept.apiKey }), kept };
  }
  process.stderr.write(`bench: dashboard: generating ${conversations} conversations over 90 days in ${dataDir}\n`);
  const { server, ids, end, generateMs } = await seedAnalyticsServer({ env, dataDir, conversations, days: 90 });
  const kept = { apiKey: server.apiKey, ids, end: end.toISOString(), conversations };
  await writeFile(file, JSON.stringify(kept, null, 2));
  return { server, kept, generateMs };
}

/** The route alone from Node, as the page asked for it: `runs` requests after 2 warm-ups (ms). */
async function timeRoute(server: RunningServer, call: string, runs: number): Promise<{ times: number[]; total: number }> {
  const route = call.replace(/^GET /, '');
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < runs + 2; i += 1) {
    const started = performance.now();
    const response = await fetch(`${server.url}${route}`, { headers: { authorization: `Bearer ${server.apiKey}` } });
    const body = (await response.json()) as { summary: { totalConversations: number } };
    if (!response.ok) throw new Error(`${route} answered ${response.status}`);
    if (i >= 2) times.push(performance.now() - started);
    total = body.summary.totalConversations;
  }
  return { times, total };
}

async function main(): Promise<number> {
  exitOnSignals();
  const startedAt = new Date();
  const conversations = positiveIntEnv('BENCH_CONVERSATIONS', 100_000);
  const runs = positiveIntEnv('BENCH_RUNS', 15);
  const temp = process.env.BENCH_DATA_DIR ? undefined : await tempDataDir('parley-bench-dashboard-');
  const dataDir = process.env.BENCH_DATA_DIR ?? temp!.path;
  try {
    const { server, kept, generateMs } = await serve(dataDir, conversations);
    try {
      // The 90 days (UTC) ending with the day the data was generated: all of it but the first day's early hours.
      const last = kept.end.slice(0, 10);
      const first = new Date(Date.parse(last) - 89 * DAY).toISOString().slice(0, 10);
      const c: PageCase = { name: 'Analytics, 90 days', path: `/console/analytics/${kept.ids.agentId}?from=${first}&to=${last}&tz=UTC`, firstRow: ALL_CHARTS.selector, count: ALL_CHARTS.count };
      const loadBefore = os.loadavg()[0] ?? 0;
      const { browser, page } = await signedInTab(server);
      // Per load: when the route's answer had arrived (its resource timing), and so the drawing after it.
      const answered: number[] = [];
      const drawing: number[] = [];
      let result;
      try {
        result = await timePage(page, server.url, c, runs, (run) => {
          const entry = run.timeline.find((line) => line.includes('/hc-analytics/public'));
          const end = Number(/-(\d+)/.exec(entry?.split(' ').at(-1) ?? '')?.[1] ?? NaN);
          answered.push(end);
          drawing.push(run.ms - end);
        });
      } finally {
        await browser.close();
      }
      const call = result.calls.find((x) => x.includes('/hc-analytics/public'));
      if (!call) throw new Error(`the dashboard did not call the analytics route: ${result.calls.join(', ')}`);
      const route = await timeRoute(server, call, runs);
      const loadAfter = os.loadavg()[0] ?? 0;
      const routeSorted = [...route.times].sort((a, b) => a - b);
      const routeP50 = percentile(routeSorted, 50);
      const routeP95 = percentile(routeSorted, 95);
      const lines = [
        `Analytics dashboard on PGlite: ${conversations} conversations over 90 days (${route.total} in the window with the default source, api)` +
          `${generateMs ? `, generated in ${(generateMs / 1000).toFixed(0)} s` : ', data reused'}; ${runs} loads after 2 warm-ups.`,
        `Load average of the ${os.availableParallelism()}-core machine: ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after.`,
        '',
        '| What | p50 ms | p95 ms | max ms |',
        '| - | -: | -: | -: |',
        `| Dashboard, navigation start to every chart drawn (route included) | ${result.p50Ms.toFixed(0)} | ${result.p95Ms.toFixed(0)} | ${result.maxMs.toFixed(0)} |`,
        `| of which navigation start to the route's answer received | ${p50(answered).toFixed(0)} | ${p95(answered).toFixed(0)} | ${(sorted(answered).at(-1) ?? 0).toFixed(0)} |`,
        `| of which drawing after the answer | ${p50(drawing).toFixed(0)} | ${p95(drawing).toFixed(0)} | ${(sorted(drawing).at(-1) ?? 0).toFixed(0)} |`,
        `| The route alone from Node (${call.replace(/\?.*/, '?…').replace(/[0-9a-f-]{36}/, '{id}')}) | ${routeP50.toFixed(0)} | ${routeP95.toFixed(0)} | ${(routeSorted.at(-1) ?? 0).toFixed(0)} |`,
        '',
        `API calls of one load: ${result.calls.length} (${result.calls.map((x) => x.replace(/\?.*/, '').replace(/[0-9a-f-]{36}/, '{id}')).join(', ')}).`,
        `Aim: under ${AIM_MS} ms: ${result.p95Ms < AIM_MS ? 'met at p95' : result.p50Ms < AIM_MS ? 'met at p50 only' : 'NOT met'}.`,
      ];
      process.stdout.write(`\n${lines.join('\n')}\n`);
      process.stderr.write(`bench: dashboard: last load: ${result.timeline.join(', ')}\n`);
      await writeResults('dashboard', startedAt, { conversations, runs, generateMs, window: { first, last }, loadAverage: { before: loadBefore, after: loadAfter }, result, answered, drawing, route: { ...route, p50: routeP50, p95: routeP95 } });
      return 0;
    } finally {
      await server.stop();
    }
  } finally {
    await temp?.remove();
  }
}

process.exitCode = await main();
