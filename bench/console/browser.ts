// The browser timing of the console benches (`npm run bench:console`, `npm run bench:dashboard`):
// a full load of a page in headless Chromium timed from navigation start to the frame after its
// data is in the page, the page's API calls, and each call timed alone from Node.
import { type Browser, chromium, type Page, type Request } from '@playwright/test';
import { CHROMIUM_FLAGS } from '../../e2e/playwright.config.js';
import type { RunningServer } from '../support.js';

export interface PageCase {
  name: string;
  path: string;
  /** The element that shows the page's data (its first row), as CSS. */
  firstRow: string;
  /** How many elements must match `firstRow` (default 1): the dashboard waits for all its charts. */
  count?: number;
}

export interface PageResult {
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

/**
 * Runs in every document of the tab (a script: bench/ has no DOM types): once an element matching
 * the selector kept in sessionStorage is in the page, `benchFirstRow` is the time of the next frame
 * (when it is painted) since navigation start.
 */
export const WATCH_FIRST_ROW = `(() => {
  const selector = sessionStorage.getItem('bench.firstRow');
  if (!selector) return;
  const count = Number(sessionStorage.getItem('bench.count') || 1);
  const observer = new MutationObserver(() => {
    if (window.benchFirstRow !== undefined || document.querySelectorAll(selector).length < count) return;
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
export async function load(page: Page, origin: string, c: PageCase): Promise<{ ms: number; calls: string[]; timeline: string[] }> {
  await page.evaluate(
    ([selector, count]) => {
      const storage = (globalThis as unknown as BenchWindow).sessionStorage;
      storage.setItem('bench.firstRow', selector);
      storage.setItem('bench.count', count);
    },
    [c.firstRow, String(c.count ?? 1)] as const,
  );
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

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** Times each call of the pages alone (20 sequential requests, p50), sent from Node with the key. */
export async function timeCalls(server: RunningServer, results: PageResult[]): Promise<void> {
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


/** Headless Chromium (Debian's, with the e2e tests' flags) with one tab signed in to the console, the timing script installed. */
export async function signedInTab(server: RunningServer): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.launch({ executablePath: process.env.PARLEY_E2E_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage();
    await page.addInitScript({ content: WATCH_FIRST_ROW });
    await page.goto(`${server.url}/console/`);
    await page.getByLabel('API key').fill(server.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    return { browser, page };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** `runs` timed full loads of a page after 2 warm-ups: p50, p95, max, and the calls and timeline of the last load; `onRun` sees each timed load. */
export async function timePage(page: Page, origin: string, c: PageCase, runs: number, onRun?: (run: { ms: number; timeline: string[] }) => void): Promise<PageResult> {
  for (let i = 0; i < 2; i += 1) await load(page, origin, c);
  const times: number[] = [];
  let last = { calls: [] as string[], timeline: [] as string[] };
  for (let i = 0; i < runs; i += 1) {
    const run = await load(page, origin, c);
    times.push(run.ms);
    onRun?.(run);
    last = run;
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { name: c.name, path: c.path, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), maxMs: sorted.at(-1) ?? 0, calls: last.calls, callMs: [], times, timeline: last.timeline };
}
