// The console at scale (npm run bench:console; bench/console/README.md): seeds a workspace with
// BENCH_CONVERSATIONS conversations (10,000) and BENCH_ARTICLES articles (5,000) on a real
// `parley serve` (PGlite), then drives headless Chromium through the console and measures, per
// page, the time from navigation start to its first row (BENCH_RUNS loads, default 20, after 2
// warm-ups) and the API calls it makes to render. Prints the table; raw numbers in bench/results/.
import os from 'node:os';
import { exitOnSignals, positiveIntEnv, type RunningServer, tempDataDir, writeResults } from '../support.js';
import { type PageCase, type PageResult, signedInTab, timeCalls, timePage } from './browser.js';
import { seedConsoleWorkspace, type Seeded } from './seed.js';

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

async function measure(server: RunningServer, seeded: Seeded, runs: number): Promise<PageResult[]> {
  const { browser, page } = await signedInTab(server);
  try {
    const results: PageResult[] = [];
    for (const c of cases(seeded)) {
      const result = await timePage(page, server.url, c, runs);
      results.push(result);
      process.stderr.write(`bench: console: ${c.name}: p50 ${result.p50Ms.toFixed(0)} ms, ${result.calls.length} API call(s); last load: ${result.timeline.join(', ')}\n`);
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
