// The console at scale (npm run bench:console; bench/console/README.md): seeds a workspace with
// BENCH_CONVERSATIONS conversations (10,000) and BENCH_ARTICLES articles (5,000) on a real
// `parley serve` (PGlite), then drives headless Chromium through the console and measures, per
// page, the time from navigation start to its first row (BENCH_RUNS loads, default 20, after 2
// warm-ups) and the API calls it makes to render. Prints the table; raw numbers in bench/results/.
import { chromium, type Page, type Request } from '@playwright/test';
import os from 'node:os';
import { CHROMIUM_FLAGS } from '../../e2e/playwright.config.js';
import { exitOnSignals, positiveIntEnv, type RunningServer, tempDataDir, writeResults } from '../support.js';
import { seedConsoleWorkspace, type Seeded } from './seed.js';

interface PageCase {
  name: string;
  path: string;
  /** The element that shows the page's data (its first row), as CSS. */
  firstRow: string;
}

interface PageResult {
  name: string;
  path: string;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** API requests (paths under /v2/) of one load, in the order sent. */
  calls: string[];
  /** Each call of the page alone, from Node (no browser): p50 ms of 20 requests, the server's time and the loopback's. */
  callMs: number[];
  times: number[];
  /** Of the last load: the document, then each resource's start and end (ms since navigation start). */
  timeline: string[];
}

const SERVER_ENV = { PARLEY_LOG_LEVEL: 'warn', PARLEY_RATE_LIMIT_MAX: '100000000', PARLEY_JOB_POLL_SECONDS: '0.5' };
const API_CALL_AIM = 5;
const FIRST_PAGE_AIM_MS = 300;

function cases(s: Seeded): PageCase[] {
  return [
    { name: 'Inbox', path: '/console/conversations', firstRow: 'table[aria-label="Conversations"] tbody tr' },
    { name: 'Article list (one folder)', path: `/console/knowledge/folders/${s.busiestFolderId}`, firstRow: 'section[aria-label="Live articles"] tbody tr' },
    { name: 'Knowledge (folder tree)', path: '/console/knowledge', firstRow: 'nav[aria-label="Folder tree"] a' },
    { name: 'Conversation', path: `/console/conversations/${s.conversationId}`, firstRow: 'section[aria-label="Transcript"] article' },
    { name: 'Article', path: `/console/knowledge/articles/${s.articleId}`, firstRow: '[role="tabpanel"]' },
    { name: 'Knowledge search', path: '/console/knowledge/search', firstRow: 'form[aria-label="Knowledge search"]' },
    { name: `Refine with AI (an iteration: ${s.refine.iteration})`, path: `/console/refine/${s.refine.conversationId}/${s.refine.eventId}`, firstRow: 'section[aria-label="Iteration 1"]' },
    { name: 'Sources', path: '/console/sources', firstRow: 'table[aria-label="Sources"] tbody tr' },
    { name: 'A source', path: `/console/sources/${s.sourceId}`, firstRow: 'section[aria-label="Extracted text"]' },
    { name: 'Agents', path: '/console/agents', firstRow: 'table[aria-label="Agents"] tbody tr' },
    { name: 'Agent (folders)', path: `/console/agents/${s.agentIds[0]}`, firstRow: 'fieldset input[type="checkbox"]' },
    { name: 'Try the agent', path: '/console/try', firstRow: 'form[aria-label="Message to the agent"]' },
  ];
}

/**
 * Runs in every document of the tab (a script: bench/ has no DOM types): once an element matching
 * the selector kept in sessionStorage is in the page, `benchFirstRow` is the time of the next frame
 * (when it is painted) since navigation start.
 */
const WATCH_FIRST_ROW = `(() => {
  const selector = sessionStorage.getItem('bench.firstRow');
  if (!selector) return;
  const observer = new MutationObserver(() => {
    if (window.benchFirstRow !== undefined || !document.querySelector(selector)) return;
    window.benchFirstRow = -1;
    observer.disconnect();
    requestAnimationFrame(() => { window.benchFirstRow = performance.now(); });
  });
  observer.observe(document, { childList: true, subtree: true });
})();`;

/** What the page functions below use of the browser's window (bench/ is typed without the DOM). */
interface BenchWindow {
  benchFirstRow?: number;
  sessionStorage: { setItem(key: string, value: string): void };
  performance: { getEntriesByType(type: string): { name: string; startTime: number; responseEnd: number; encodedBodySize: number; domContentLoadedEventEnd: number }[] };
}

/** The body of each POST a page sent, by its call, to send it again when timing the calls alone. */
const bodies = new Map<string, string | undefined>();

/** One full load of `path` (the key restored from sessionStorage, assets from the HTTP cache): ms to the first row, and the API calls. */
async function load(page: Page, origin: string, c: PageCase): Promise<{ ms: number; calls: string[]; timeline: string[] }> {
  await page.evaluate((selector) => (globalThis as unknown as BenchWindow).sessionStorage.setItem('bench.firstRow', selector), c.firstRow);
  const calls: string[] = [];
  const onRequest = (request: Request) => {
    const url = new URL(request.url());
    if (url.origin === origin && url.pathname.startsWith('/v2/')) {
      calls.push(`${request.method()} ${url.pathname}${url.search}`);
      bodies.set(`${request.method()} ${url.pathname}${url.search}`, request.postData() ?? undefined);
    }
  };
  page.on('request', onRequest);
  try {
    await page.goto(`${origin}${c.path}`);
    // Functions, not strings: the console's Content-Security-Policy forbids eval.
    await page.waitForFunction(() => ((globalThis as unknown as BenchWindow).benchFirstRow ?? -1) > 0, undefined, { timeout: 30_000 });
    const ms = await page.evaluate(() => (globalThis as unknown as BenchWindow).benchFirstRow ?? -1);
    // Whatever else the page asks for to finish rendering counts too.
    await page.waitForLoadState('networkidle');
    const timeline = await page.evaluate(() => {
      const perf = (globalThis as unknown as BenchWindow).performance;
      const [navigation] = perf.getEntriesByType('navigation');
      return [
        ...(navigation ? [`document ${navigation.responseEnd.toFixed(0)}, DOMContentLoaded ${navigation.domContentLoadedEventEnd.toFixed(0)}`] : []),
        ...perf
          .getEntriesByType('resource')
          .map((r) => `${new URL(r.name).pathname} ${r.startTime.toFixed(0)}-${r.responseEnd.toFixed(0)}${r.encodedBodySize > 50_000 ? ` (${Math.round(r.encodedBodySize / 1024)} KB)` : ''}`),
      ];
    });
    return { ms, calls, timeline };
  } catch (error) {
    throw new Error(`${c.name} (${c.path}): ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    page.off('request', onRequest);
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** Times each call of the pages alone (20 sequential requests, p50), sent from Node with the key. */
async function timeCalls(server: RunningServer, results: PageResult[]): Promise<void> {
  for (const result of results) {
    for (const call of result.calls) {
      const [method, route] = call.split(' ') as [string, string];
      const body = bodies.get(call);
      const times: number[] = [];
      for (let i = 0; i < 22; i += 1) {
        const started = performance.now();
        const response = await fetch(`${server.url}${route}`, {
          method,
          headers: { authorization: `Bearer ${server.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          body,
        });
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`${call} answered ${response.status}`);
        if (i >= 2) times.push(performance.now() - started);
      }
      result.callMs.push(percentile(times.sort((a, b) => a - b), 50));
    }
  }
}

async function measure(server: RunningServer, seeded: Seeded, runs: number): Promise<PageResult[]> {
  const browser = await chromium.launch({ executablePath: process.env.PARLEY_E2E_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage();
    await page.addInitScript({ content: WATCH_FIRST_ROW });
    await page.goto(`${server.url}/console/`);
    await page.getByLabel('API key').fill(server.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    const results: PageResult[] = [];
    for (const c of cases(seeded)) {
      for (let i = 0; i < 2; i += 1) await load(page, server.url, c);
      const times: number[] = [];
      let last = { calls: [] as string[], timeline: [] as string[] };
      for (let i = 0; i < runs; i += 1) {
        const run = await load(page, server.url, c);
        times.push(run.ms);
        last = run;
      }
      const { calls, timeline } = last;
      const sorted = [...times].sort((a, b) => a - b);
      results.push({ name: c.name, path: c.path, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), maxMs: sorted.at(-1) ?? 0, calls, callMs: [], times, timeline });
      process.stderr.write(`bench: console: ${c.name}: p50 ${percentile(sorted, 50).toFixed(0)} ms, ${calls.length} API call(s); last load: ${timeline.join(', ')}\n`);
    }
    return results;
  } finally {
    await browser.close();
  }
}

/** Requests without ids and queries, for the table: `GET /v2/hc-interactions/{id}/public`. */
function shortCall(call: string): string {
  return call.replace(/\?.*$/, '').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '{id}');
}

async function main(): Promise<number> {
  exitOnSignals();
  const startedAt = new Date();
  const settings = {
    conversations: positiveIntEnv('BENCH_CONVERSATIONS', 10_000),
    articles: positiveIntEnv('BENCH_ARTICLES', 5_000),
    templates: positiveIntEnv('BENCH_TEMPLATES', 200),
  };
  const runs = positiveIntEnv('BENCH_RUNS', 20);
  const data = await tempDataDir('parley-bench-console-');
  try {
    const seedStarted = performance.now();
    const { server, seeded } = await seedConsoleWorkspace({ ...SERVER_ENV, PARLEY_DATA_DIR: data.path }, settings);
    const seedMs = performance.now() - seedStarted;
    let results: PageResult[];
    // The machine's load (1-minute average) when the pages were measured: other work on it slows them.
    let loadBefore = 0;
    let loadAfter = 0;
    try {
      loadBefore = os.loadavg()[0] ?? 0;
      results = await measure(server, seeded, runs);
      await timeCalls(server, results);
      loadAfter = os.loadavg()[0] ?? 0;
    } finally {
      await server.stop();
    }
    const t = seeded.timings;
    const lines = [
      `Console at scale on PGlite: ${seeded.counts.conversations} conversations (${seeded.counts.events} events, ${seeded.counts.templates} held through Generate Answer, the rest cloned over 30 days), ` +
        `${seeded.counts.articles} articles in ${seeded.counts.folders} folders. Seeded in ${(seedMs / 1000).toFixed(0)} s ` +
        `(tree import ${(t.importMs / 1000).toFixed(1)} s, conversations ${(t.templatesMs / 1000).toFixed(1)} s, Refine ${(t.refineMs / 1000).toFixed(1)} s, clones ${(t.cloneMs / 1000).toFixed(1)} s).`,
      `Navigation start to the first row painted, ${runs} full loads per page (the key restored from sessionStorage, assets from the HTTP cache); API calls of one load. ` +
        `Load average of the ${os.availableParallelism()}-core machine: ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after.`,
      '',
      '| Page | p50 ms | p95 ms | max ms | API calls | Calls (each alone from Node, p50 ms) |',
      '| - | -: | -: | -: | -: | - |',
      ...results.map(
        (r) =>
          `| ${r.name} | ${r.p50Ms.toFixed(0)} | ${r.p95Ms.toFixed(0)} | ${r.maxMs.toFixed(0)} | ${r.calls.length} | ` +
          `${r.calls.map((c, i) => `${shortCall(c)} (${(r.callMs[i] ?? 0).toFixed(0)})`).join(', ')} |`,
      ),
    ];
    process.stdout.write(`\n${lines.join('\n')}\n`);
    await writeResults('console', startedAt, { settings, runs, seeded, seedMs, loadAverage: { before: loadBefore, after: loadAfter }, results });
    const over = results.filter((r) => r.calls.length > API_CALL_AIM || r.p50Ms > FIRST_PAGE_AIM_MS);
    for (const r of over) process.stdout.write(`over the aim (${FIRST_PAGE_AIM_MS} ms, ${API_CALL_AIM} calls): ${r.name}\n`);
    return 0;
  } finally {
    await data.remove();
  }
}

process.exitCode = await main();
