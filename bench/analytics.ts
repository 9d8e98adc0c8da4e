// Agent analytics at volume (npm run bench:analytics): per backend (PGlite, and PostgreSQL when
// reachable), a real `parley serve` bootstraps a workspace with one agent, 20 folders and 10 rules;
// then BENCH_CONVERSATIONS conversations (default 100,000) with 5 events each over 90 days are
// generated directly in the database (a realistic mix of statuses, channels, sources, tags,
// ratings, rules and folders), and GET /v2/bots/{id}/hc-analytics/public is timed for 7, 30 and
// 90-day windows, without and with filters: p50 and p99 over BENCH_ITERATIONS requests (default 20).
import { type AnalyticsIds, api, createAnalyticsIds, generate } from './analytics-data.js';
import { type Backend, type BackendName, availableBackends, exitOnSignals, positiveIntEnv, startServer, writeResults } from './support.js';

interface CaseResult {
  name: string;
  p50: number;
  p99: number;
  total: number;
}

interface Report {
  backend: BackendName;
  generateMs?: number;
  cases: CaseResult[];
  error?: string;
}

async function measure(backend: Backend, conversations: number, iterations: number): Promise<Report> {
  const report: Report = { backend: backend.name, cases: [] };
  const { env, cleanup } = await backend.prepare();
  const serverEnv = { ...env, PARLEY_LOG_LEVEL: 'warn', PARLEY_RATE_LIMIT_MAX: '100000000' };
  try {
    const first = await startServer({ env: serverEnv });
    let ids: AnalyticsIds;
    try {
      ids = await createAnalyticsIds(first);
    } finally {
      await first.stop();
    }
    const end = new Date();
    const started = performance.now();
    await generate(env.DATABASE_URL ? { kind: 'postgres', url: env.DATABASE_URL } : { kind: 'pglite', dir: env.PARLEY_DATA_DIR! }, ids, conversations, end);
    report.generateMs = performance.now() - started;
    const server = await startServer({ env: serverEnv, apiKey: first.apiKey });
    try {
      const endEpoch = Math.floor(end.getTime() / 1000);
      const window = (days: number) => `startEpoch=${endEpoch - days * 86_400}&endEpoch=${endEpoch}`;
      const cases: [string, string][] = [];
      for (const days of [7, 30, 90]) {
        cases.push([`${days} days`, window(days)]);
        cases.push([`${days} days, channel + status`, `${window(days)}&channel=chat&latestStatus=Resolved%20by%20AI`]);
        cases.push([`${days} days, tag + folder, Europe/Berlin`, `${window(days)}&tagIds=${ids.tags[0]}&usedSubfolderIds=${ids.folders[0]}&timezone=Europe/Berlin`]);
      }
      for (const [name, query] of cases) {
        const times: number[] = [];
        let total = 0;
        for (let i = 0; i < iterations + 2; i++) {
          const t0 = performance.now();
          const body = await api(server, 'GET', `/v2/bots/${ids.agentId}/hc-analytics/public?${query}`);
          if (i >= 2) times.push(performance.now() - t0);
          total = (body.summary as { totalConversations: number }).totalConversations;
        }
        times.sort((a, b) => a - b);
        report.cases.push({ name, p50: times[Math.floor(times.length / 2)]!, p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))]!, total });
      }
    } finally {
      await server.stop();
    }
  } catch (error) {
    report.error = error instanceof Error ? error.message : String(error);
    process.stderr.write(`bench: ${backend.name} failed: ${report.error}\n`);
  } finally {
    await cleanup().catch(() => undefined);
  }
  return report;
}

async function main(): Promise<number> {
  exitOnSignals();
  const startedAt = new Date();
  const conversations = positiveIntEnv('BENCH_CONVERSATIONS', 100_000);
  const iterations = positiveIntEnv('BENCH_ITERATIONS', 20);
  const reports: Report[] = [];
  for (const backend of await availableBackends({})) reports.push(await measure(backend, conversations, iterations));
  const lines = [`Agent analytics: ${conversations} conversations with ${conversations * 5} events over 90 days, one agent; ${iterations} requests per case (ms).`];
  for (const r of reports) {
    lines.push('', `${r.backend}${r.generateMs ? ` (data generated in ${(r.generateMs / 1000).toFixed(1)} s)` : ''}`, '', '| case | conversations counted | p50 | p99 |', '|---|---:|---:|---:|');
    if (r.error) lines.push(`| FAILED: ${r.error} | | | |`);
    for (const c of r.cases) lines.push(`| ${c.name} | ${c.total} | ${c.p50.toFixed(1)} | ${c.p99.toFixed(1)} |`);
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
  await writeResults('analytics', startedAt, { conversations, iterations, reports });
  return reports.some((r) => r.error) ? 1 : 0;
}

process.exitCode = await main();
