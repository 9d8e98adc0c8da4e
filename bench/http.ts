// HTTP throughput benchmark: a real `parley serve` child process per backend (PGlite, and PostgreSQL
// when one is reachable), loaded with autocannon on an unauthenticated and an authenticated route.
// Env: BENCH_DURATION (seconds per case, default 10; e.g. 3 for a quick run while iterating),
// BENCH_CONNECTIONS (default 50). Prints one table: per backend both routes and their ratio, and
// the server's CPU time per request of each (Linux): on a machine shared with other work the
// throughput swings with the load, what a request costs the server much less.
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import {
  type Backend,
  type BackendName,
  ROOT,
  abortRun,
  availableBackends,
  type RunningServer,
  type ServerExit,
  type ServerProblems,
  exitOnSignals,
  positiveIntEnv,
  startServer,
  withTimeout,
} from './support.js';

interface Route {
  readonly name: string;
  readonly path: string;
  readonly authenticated: boolean;
}

interface Settings {
  readonly durationS: number;
  readonly warmupS: number;
  readonly connections: number;
}

interface CaseResult {
  backend: BackendName;
  route: string;
  path: string;
  reqPerSecMean: number;
  /** The server process's CPU time (user + system, all threads) per request of the measured run, in µs; null where /proc is not there. */
  serverCpuUsPerRequest: number | null;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  durationS: number;
}

interface BackendReport {
  backend: BackendName;
  cases: CaseResult[];
  serverExit: ServerExit | undefined;
  problems: ServerProblems | undefined;
  error: string | undefined;
}

const ROUTES: readonly Route[] = [
  { name: 'healthz (no auth)', path: '/healthz', authenticated: false },
  { name: 'workspace (auth)', path: '/v2/workspace/public', authenticated: true },
];

const SERVER_ENV = { PARLEY_LOG_LEVEL: 'warn', PARLEY_RATE_LIMIT_MAX: '100000000' } as const;

/** Reads the benchmark settings from the environment. */
function readSettings(): Settings {
  return {
    durationS: positiveIntEnv('BENCH_DURATION', 10),
    warmupS: 2,
    connections: positiveIntEnv('BENCH_CONNECTIONS', 50),
  };
}

/** Request headers for a route (the bearer key for authenticated ones). */
function headersFor(route: Route, server: RunningServer): Record<string, string> {
  return route.authenticated ? { authorization: `Bearer ${server.apiKey}` } : {};
}

/** Sends one request to every route and throws unless each answers 200 (fail fast, not after a run). */
async function checkRoutes(server: RunningServer): Promise<void> {
  for (const route of ROUTES) {
    const response = await fetch(`${server.url}${route.path}`, {
      headers: headersFor(route, server),
      signal: AbortSignal.timeout(5000),
    });
    if (response.status !== 200) {
      throw new Error(`${route.path} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    }
  }
}

/** Runs autocannon against one route for `seconds`. */
function load(server: RunningServer, route: Route, seconds: number, connections: number): Promise<autocannon.Result> {
  const run = autocannon({
    url: `${server.url}${route.path}`,
    headers: headersFor(route, server),
    connections,
    duration: seconds,
    timeout: 10,
  });
  return withTimeout(run, (seconds + 30) * 1000, `autocannon on ${route.path} did not finish`);
}

/** CPU time (user + system) a process has used so far, in µs, from /proc (Linux); null elsewhere. */
function cpuTimeUs(pid: number): number | null {
  try {
    // Fields 14 and 15 (utime, stime) after the command in parentheses, in clock ticks of 1/100 s.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return null;
  }
}

/** Warms a route up (result discarded), then measures it. */
async function measure(backend: BackendName, server: RunningServer, route: Route, settings: Settings): Promise<CaseResult> {
  await load(server, route, settings.warmupS, settings.connections);
  const cpuBefore = cpuTimeUs(server.pid);
  const result = await load(server, route, settings.durationS, settings.connections);
  const cpuAfter = cpuTimeUs(server.pid);
  return {
    backend,
    route: route.name,
    path: route.path,
    reqPerSecMean: result.requests.mean,
    serverCpuUsPerRequest: cpuBefore === null || cpuAfter === null || result.requests.total === 0 ? null : (cpuAfter - cpuBefore) / result.requests.total,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    latencyMaxMs: result.latency.max,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    durationS: result.duration,
  };
}

/** Prepares a backend, starts the server, measures every route, stops the server and cleans up. */
async function benchBackend(backend: Backend, settings: Settings): Promise<BackendReport> {
  const report: BackendReport = { backend: backend.name, cases: [], serverExit: undefined, problems: undefined, error: undefined };
  process.stderr.write(`bench: ${backend.name}: starting the server\n`);
  const { env, cleanup } = await backend.prepare();
  try {
    const server = await startServer({ env });
    report.problems = server.problems;
    try {
      await checkRoutes(server);
      for (const route of ROUTES) {
        process.stderr.write(`bench: ${backend.name}: ${route.path} (${settings.warmupS}s warm-up + ${settings.durationS}s)\n`);
        report.cases.push(await measure(backend.name, server, route, settings));
        if (!server.running()) throw new Error(`the server exited during ${route.path}`);
      }
    } finally {
      report.serverExit = await server.stop();
    }
  } catch (error) {
    report.error = error instanceof Error ? error.message : String(error);
    process.stderr.write(`bench: ${backend.name} failed: ${report.error}\n`);
  } finally {
    await cleanup().catch((error: unknown) => process.stderr.write(`bench: ${backend.name} cleanup failed: ${String(error)}\n`));
  }
  return report;
}

/** Formats a number with a fixed count of decimals. */
function fixed(value: number, decimals: number): string {
  return value.toFixed(decimals);
}

/** One row per backend: both routes' throughput, latency and server CPU per request, and their ratio, all from this run. */
function renderMarkdown(reports: readonly BackendReport[]): string {
  const lines = [
    '| backend | healthz req/s | healthz p50 / p99 ms | auth req/s | auth p50 / p99 ms | auth / healthz | server CPU µs/request: healthz / auth | non-2xx |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const report of reports) {
    const plain = caseOf(report, false);
    const authed = caseOf(report, true);
    const cells = [plain, authed].map((c) =>
      c ? `${fixed(c.reqPerSecMean, 0)} | ${fixed(c.latencyP50Ms, 0)} / ${fixed(c.latencyP99Ms, 0)}` : '- | -',
    );
    const non2xx = report.cases.reduce((sum, c) => sum + c.non2xx, 0);
    const cpu = [plain, authed].map((c) => (c?.serverCpuUsPerRequest == null ? '-' : fixed(c.serverCpuUsPerRequest, 1))).join(' / ');
    lines.push(`| ${report.backend} | ${cells.join(' | ')} | ${ratio(report, plain, authed)} | ${cpu} | ${non2xx} |`);
  }
  return lines.join('\n');
}

/** The measured case of the authenticated or the unauthenticated route, if it ran. */
function caseOf(report: BackendReport, authenticated: boolean): CaseResult | undefined {
  return report.cases.find((c) => ROUTES.find((r) => r.path === c.path)?.authenticated === authenticated);
}

/** Authenticated throughput as a percentage of unauthenticated, or why it cannot be computed. */
function ratio(report: BackendReport, plain: CaseResult | undefined, authed: CaseResult | undefined): string {
  if (!plain || !authed || plain.reqPerSecMean === 0) return `no ratio (${report.error ?? 'missing results'})`;
  return `${fixed((authed.reqPerSecMean / plain.reqPerSecMean) * 100, 1)}%`;
}

/** Warnings worth a look: connection errors, server log lines at warn+, stderr, unclean exits. */
function renderProblems(reports: readonly BackendReport[]): string[] {
  const out: string[] = [];
  for (const r of reports) {
    for (const c of r.cases) {
      if (c.errors || c.timeouts) out.push(`${r.backend} ${c.path}: ${c.errors} connection errors, ${c.timeouts} timeouts`);
    }
    if (r.serverExit && (r.serverExit.code !== 0 || r.serverExit.killed)) {
      out.push(`${r.backend}: server exit code ${r.serverExit.code}, signal ${r.serverExit.signal}, killed ${r.serverExit.killed}`);
    }
    for (const line of r.problems?.logs ?? []) out.push(`${r.backend} server log: ${line}`);
    for (const line of r.problems?.stderr ?? []) out.push(`${r.backend} server stderr: ${line}`);
  }
  return out;
}

/** Writes the raw results to bench/results/http-<timestamp>.json and returns the path. */
async function writeResults(startedAt: Date, settings: Settings, reports: readonly BackendReport[], loadAverage: { start: string; end: string }): Promise<string> {
  const folder = path.join(ROOT, 'bench', 'results');
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, `http-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  const machine = { node: process.version, platform: `${os.platform()} ${os.release()}`, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model };
  await writeFile(file, `${JSON.stringify({ startedAt: startedAt.toISOString(), machine, loadAverage, settings, reports }, null, 2)}\n`);
  return file;
}

/** Hard stop: if the whole run exceeds its budget, kill the servers and exit non-zero. */
function armWatchdog(settings: Settings, backends: number): void {
  const perBackendS = 180 + ROUTES.length * (settings.warmupS + settings.durationS + 20) + 60;
  const timer = setTimeout(() => void abortRun('watchdog: the run took too long', 1), backends * perBackendS * 1000);
  timer.unref();
}

/** Runs the whole benchmark and returns the process exit code. */
/** The machine's load averages, as `uptime` prints them. */
function loadAverage(): string {
  return os.loadavg().map((l) => l.toFixed(2)).join(', ');
}

async function main(): Promise<number> {
  const startedAt = new Date();
  const loadAtStart = loadAverage();
  const settings = readSettings();
  const backends = await availableBackends(SERVER_ENV);
  armWatchdog(settings, backends.length);
  const reports: BackendReport[] = [];
  for (const backend of backends) reports.push(await benchBackend(backend, settings));
  const load = { start: loadAtStart, end: loadAverage() };
  process.stdout.write(`\n${renderMarkdown(reports)}\n`);
  process.stdout.write(`\nLoad average (1, 5, 15 min) at the start: ${load.start}; at the end: ${load.end}\n`);
  const problems = renderProblems(reports);
  if (problems.length) process.stdout.write(`\nProblems seen:\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
  process.stdout.write(`\nResults written to ${path.relative(ROOT, await writeResults(startedAt, settings, reports, load))}\n`);
  const failed = reports.some((r) => r.error || r.cases.some((c) => c.non2xx > 0 || c.errors > 0));
  return failed ? 1 : 0;
}

exitOnSignals();
main().then(
  // Exit explicitly so a stray handle (keep-alive socket, timer) can never keep the run alive.
  (code) => process.exit(code),
  (error: unknown) => {
    void abortRun(error instanceof Error ? (error.stack ?? error.message) : String(error), 1);
  },
);
