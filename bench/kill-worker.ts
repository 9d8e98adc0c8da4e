// The kill -9 test as a benchmark (issue 29): Parley split into API and worker processes on one
// PostgreSQL, as the README runs it, ingesting a generated help-center site served on 127.0.0.1.
//
// Throughput: one `parley serve --no-worker` and one `parley worker`, then the same with two
// workers (a fresh database each), every politeness setting at its default: pages/min from the first
// ingest request to the last record COMPLETED.
// Kill: two APIs and two workers, the pages queued through both APIs; when about a third are
// COMPLETED, `kill -9` one worker and wait until every job has ended. Then it counts records lost,
// stuck and duplicated, the pages the site served twice (and how many belong to the jobs taken over),
// and times the takeover against the lease plus one supervision interval.
//
// npm run bench:kill-worker -- [--pages 1000] [--lease 30] [--supervise 10] [--phase all|throughput|kill]
// (env BENCH_PAGES, BENCH_LEASE_SECONDS, BENCH_SUPERVISE_SECONDS). The lease is set on the worker
// processes only and the supervision interval on all four, where the README says to set them.
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { extractContent } from '../src/ingest/extract/index.js';
import { page, startHelpSite } from './ingest/site.js';
import {
  abortRun,
  exitOnSignals,
  findPostgres,
  positiveIntEnv,
  postgresBackend,
  type RunningServer,
  type RunningWorker,
  sleep,
  startServer,
  startWorker,
  writeResults,
} from './support.js';

const INGEST_JOB = 'sources.ingest';
/** URLs per ingest request: a client queueing a crawl's result in slices, alternating between the APIs. */
const BATCH = 100;
/** How often the database is read while a phase runs. */
const TICK_MS = 250;
const TAKEOVER_MESSAGE = 'job taken over';
/** The survivor's line when it finds the killed worker silent past PARLEY_WORKER_TIMEOUT_SECONDS. */
const DEAD_MESSAGE = 'worker stopped';

interface Settings {
  pages: number;
  leaseSeconds: number;
  superviseSeconds: number;
  heartbeatSeconds: number;
  timeoutSeconds: number;
  phase: 'all' | 'throughput' | 'kill';
}

function readSettings(): Settings {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string' },
      lease: { type: 'string' },
      supervise: { type: 'string' },
      heartbeat: { type: 'string' },
      timeout: { type: 'string' },
      phase: { type: 'string' },
    },
  });
  const positive = (flag: string, raw: string | undefined, env: string, fallback: number): number => {
    if (raw === undefined) return positiveIntEnv(env, fallback);
    const value = Number(raw);
    if (!Number.isInteger(value) || value <= 0) throw new Error(`--${flag} must be a positive integer, got "${raw}"`);
    return value;
  };
  const phase = values.phase ?? 'all';
  if (phase !== 'all' && phase !== 'throughput' && phase !== 'kill') throw new Error(`--phase is all, throughput or kill, got "${phase}"`);
  return {
    pages: positive('pages', values.pages, 'BENCH_PAGES', 1000),
    // Parley's defaults: a dead worker's jobs come back by the fleet's heartbeat, not the lease.
    leaseSeconds: positive('lease', values.lease, 'BENCH_LEASE_SECONDS', 300),
    superviseSeconds: positive('supervise', values.supervise, 'BENCH_SUPERVISE_SECONDS', 30),
    heartbeatSeconds: positive('heartbeat', values.heartbeat, 'BENCH_HEARTBEAT_SECONDS', 10),
    timeoutSeconds: positive('timeout', values.timeout, 'BENCH_WORKER_TIMEOUT_SECONDS', 30),
    phase,
  };
}

/** Every request the site received: path, arrival time and the phase running then. */
class SiteLog {
  phase = 'idle';
  readonly entries: { path: string; at: number; phase: string }[] = [];

  record = (path: string): void => void this.entries.push({ path, at: Date.now(), phase: this.phase });

  /** Article paths fetched more than once during `phase`, with their counts. */
  twice(phase: string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const e of this.entries) if (e.phase === phase && e.path.startsWith('/articles/')) counts.set(e.path, (counts.get(e.path) ?? 0) + 1);
    return new Map([...counts].filter(([, n]) => n > 1));
  }
}

/** A pino line of a worker, the fields this bench reads. */
interface WorkerLine {
  worker: number;
  level: number;
  time: number;
  msg: string;
  jobId?: string;
  record?: { sourceId?: string };
}

interface Cluster {
  apis: RunningServer[];
  workers: RunningWorker[];
  /** The scratch database, read directly to follow the records and the queue. */
  db: pg.Client;
  lines: WorkerLine[];
  stop(): Promise<void>;
}

/**
 * `apis` × `parley serve --no-worker` and `workers` × `parley worker` on a fresh scratch database.
 * The first API starts alone (it migrates, creates the workspace, and the CLI makes the key), so
 * the workers, started last, are the ones that write the queues' policy.
 */
async function startCluster(adminUrl: string, shape: { apis: number; workers: number }, apiEnv: Record<string, string>, workerEnv: Record<string, string>): Promise<Cluster> {
  const { env, cleanup } = await postgresBackend(adminUrl, {}).prepare();
  const apis: RunningServer[] = [];
  const workers: RunningWorker[] = [];
  const lines: WorkerLine[] = [];
  const db = new pg.Client({ connectionString: env.DATABASE_URL });
  const stop = async () => {
    await Promise.all([...workers, ...apis].map((p) => p.stop()));
    await db.end().catch(() => undefined);
    await cleanup();
  };
  try {
    apis.push(await startServer({ env: { ...env, ...apiEnv }, args: ['--no-worker'] }));
    for (let i = 1; i < shape.apis; i += 1) apis.push(await startServer({ env: { ...env, ...apiEnv }, args: ['--no-worker'], apiKey: apis[0]!.apiKey }));
    for (let i = 0; i < shape.workers; i += 1) {
      const worker = i;
      workers.push(await startWorker({ env: { ...env, ...workerEnv }, onLog: (line) => keepLine(lines, worker, line) }));
    }
    await db.connect();
  } catch (error) {
    await stop();
    throw error;
  }
  return { apis, workers, db, lines, stop };
}

/** Keeps the lines about jobs (completions, takeovers, warnings); the rest of the log is not needed. */
function keepLine(lines: WorkerLine[], worker: number, line: string): void {
  if (!line.startsWith('{')) return;
  const parsed = JSON.parse(line) as Omit<WorkerLine, 'worker'>;
  if (parsed.level >= 40 || parsed.msg === 'job completed') lines.push({ ...parsed, worker });
}

/** The URLs a user would find by crawling the site from its home page (the deep-crawl route). */
async function crawl(api: RunningServer, origin: string, pages: number): Promise<string[]> {
  const res = await fetch(`${api.url}/v2/documents/public/deep-crawl/links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ links: [`${origin}/`], limit: pages, maxDepth: 2, include: ['/articles/*'] }),
  });
  const body = (await res.json()) as { data: string[]; message: string };
  if (res.status !== 200) throw new Error(`the crawl answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  if (body.data.length !== pages) throw new Error(`the crawl found ${body.data.length} of ${pages} pages: ${body.message}`);
  return body.data;
}

/** Queues `urls` in slices of BATCH, the slices dealt round-robin to the APIs: the ids of the records created. */
async function ingest(apis: RunningServer[], urls: string[]): Promise<string[]> {
  const slices: string[][] = [];
  for (let i = 0; i < urls.length; i += BATCH) slices.push(urls.slice(i, i + BATCH));
  const ids: string[] = [];
  await Promise.all(
    apis.map(async (api, a) => {
      for (let s = a; s < slices.length; s += apis.length) {
        const res = await fetch(`${api.url}/v2/documents/public`, {
          method: 'POST',
          headers: { authorization: `Bearer ${api.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ documentIdsToAdd: slices[s] }),
        });
        const text = await res.text();
        if (res.status !== 202) throw new Error(`ingest answered ${res.status}: ${text.slice(0, 300)}`);
        ids.push(...(JSON.parse(text) as { addedDocumentIds: string[] }).addedDocumentIds);
      }
    }),
  );
  return ids;
}

interface Progress {
  byStatus: Record<string, number>;
  /** Ingestion jobs the queue still holds (created, retry or active). */
  liveJobs: number;
}

/**
 * Records by status and the ingestion jobs still live. The bench reads pg-boss's table itself (in
 * Parley only the queue does): it has to see a job that no process holds any more.
 */
async function progress(db: pg.Client): Promise<Progress> {
  const statuses = await db.query<{ status: string; n: number }>('SELECT linked_job_status AS status, count(*)::int AS n FROM sources GROUP BY 1');
  const live = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active')`, [INGEST_JOB]);
  return { byStatus: Object.fromEntries(statuses.rows.map((r) => [r.status, r.n])), liveJobs: live.rows[0]!.n };
}

const waiting = (p: Progress) => (p.byStatus.PENDING ?? 0) + (p.byStatus.IN_PROGRESS ?? 0);

/** Reads progress every TICK_MS until no job is live and no record waits, or `deadline` passes. */
async function settle(db: pg.Client, label: string, deadline: number, onTick: (p: Progress) => Promise<void> = async () => undefined): Promise<{ progress: Progress; timedOut: boolean }> {
  for (let lastLog = Date.now(); ; await sleep(TICK_MS)) {
    const p = await progress(db);
    await onTick(p);
    if (p.liveJobs === 0 && waiting(p) === 0) return { progress: p, timedOut: false };
    if (Date.now() > deadline) return { progress: p, timedOut: true };
    if (Date.now() - lastLog > 10_000) {
      lastLog = Date.now();
      process.stderr.write(`bench: ${label}: ${JSON.stringify(p.byStatus)}, ${p.liveJobs} jobs live\n`);
    }
  }
}

/** When the last record was written (COMPLETED or FAILED), epoch ms. */
async function lastCompletion(db: pg.Client): Promise<number> {
  const { rows } = await db.query<{ at: Date }>('SELECT max(completed_at) AS at FROM source_jobs');
  return rows[0]!.at.getTime();
}

interface ThroughputReport {
  workers: number;
  seconds: number;
  pagesPerMinute: number;
  completed: number;
  failed: number;
  fetchedTwice: number;
}

/** Phase A: one API and `workers` workers, default politeness, pages/min to the last COMPLETED. */
async function throughput(adminUrl: string, site: SiteLog, urls: string[], workers: number, env: Record<string, string>): Promise<ThroughputReport> {
  const cluster = await startCluster(adminUrl, { apis: 1, workers }, env, env);
  try {
    site.phase = `throughput-${workers}`;
    const started = Date.now();
    await ingest(cluster.apis, urls);
    const { progress: end, timedOut } = await settle(cluster.db, site.phase, started + 30 * 60_000);
    if (timedOut) throw new Error(`${site.phase}: ingestion did not end within 30 minutes`);
    const seconds = ((await lastCompletion(cluster.db)) - started) / 1000;
    site.phase = 'idle';
    return {
      workers,
      seconds,
      pagesPerMinute: (urls.length / seconds) * 60,
      completed: end.byStatus.COMPLETED ?? 0,
      failed: end.byStatus.FAILED ?? 0,
      fetchedTwice: site.twice(`throughput-${workers}`).size,
    };
  } finally {
    await cluster.stop();
  }
}

interface KillReport {
  registered: number;
  lost: number;
  stuck: number;
  failed: number;
  failures: string[];
  duplicated: { records: number; jobs: number; repeatedText: number; wrongText: number; completedTwice: number };
  killedAfter: { completed: number; seconds: number };
  inFlight: number;
  takenOver: number;
  takeoverLines: number;
  fetchedTwice: number;
  fetchedTwiceExplained: number;
  /** Seconds after the kill. */
  firstLeaseEnd?: number;
  declaredDead?: number;
  backInQueue?: number;
  firstTakeoverLine?: number;
  firstTakeoverStart?: number;
  takenOverCompleted?: number;
  retryDelays: number[];
  settledSeconds: number;
  timedOut: boolean;
  pagesPerMinute: number;
  workerWarnings: string[];
}

/** Phase B: two APIs, two workers, one of them killed with SIGKILL once a third of the pages are COMPLETED. */
async function killPhase(adminUrl: string, site: SiteLog, urls: string[], settings: Settings, env: Record<string, string>): Promise<KillReport> {
  const supervise = { PARLEY_JOB_SUPERVISE_SECONDS: String(settings.superviseSeconds) };
  const workerEnv = {
    ...env,
    ...supervise,
    PARLEY_INGEST_LEASE_SECONDS: String(settings.leaseSeconds),
    PARLEY_WORKER_HEARTBEAT_SECONDS: String(settings.heartbeatSeconds),
    PARLEY_WORKER_TIMEOUT_SECONDS: String(settings.timeoutSeconds),
  };
  const cluster = await startCluster(adminUrl, { apis: 2, workers: 2 }, { ...env, ...supervise }, workerEnv);
  const { db } = cluster;
  try {
    site.phase = 'kill';
    const started = Date.now();
    const ids = await ingest(cluster.apis, urls);
    let killedAt = 0;
    let killedAfter = { completed: 0, seconds: 0 };
    // The killed worker's jobs stay active until their lease ends: read right after the kill, the
    // active jobs are its in-flight ones and the survivor's of that moment.
    let activeAtKill: { id: string; started: number }[] = [];
    const backInQueue = new Map<string, number>();
    const deadline = started + 10 * 60_000 + 4 * (settings.leaseSeconds + settings.superviseSeconds) * 1000;
    const { progress: end, timedOut } = await settle(db, 'kill', deadline, async (p) => {
      if (!killedAt && (p.byStatus.COMPLETED ?? 0) >= urls.length / 3) {
        await cluster.workers[0]!.kill('SIGKILL');
        killedAt = Date.now();
        killedAfter = { completed: p.byStatus.COMPLETED ?? 0, seconds: (killedAt - started) / 1000 };
        const active = await db.query<{ id: string; started_on: Date }>(`SELECT id, started_on FROM pgboss.job WHERE name = $1 AND state = 'active'`, [INGEST_JOB]);
        activeAtKill = active.rows.map((r) => ({ id: r.id, started: r.started_on.getTime() }));
        process.stderr.write(`bench: kill -9 worker 1 after ${killedAfter.completed} pages, ${activeAtKill.length} jobs active\n`);
      } else if (killedAt) {
        // When supervision puts the expired jobs back (state retry), to the tick.
        const watched = activeAtKill.map((j) => j.id).filter((id) => !backInQueue.has(id));
        if (watched.length === 0) return;
        const retried = await db.query<{ id: string }>(`SELECT id FROM pgboss.job WHERE id = ANY($1::uuid[]) AND (state = 'retry' OR retry_count > 0)`, [watched]);
        for (const r of retried.rows) backInQueue.set(r.id, Date.now());
      }
    });
    site.phase = 'idle';
    if (!killedAt) throw new Error('the ingestion ended before a third of the pages were COMPLETED; nothing was killed');
    return await killFindings(cluster, site, { ids, urls, started, killedAt, killedAfter, activeAtKill, backInQueue, end, timedOut, settings });
  } finally {
    await cluster.stop();
  }
}

/** What the kill phase left in the database, the site's log and the workers' logs. */
async function killFindings(
  cluster: Cluster,
  site: SiteLog,
  run: {
    ids: string[]; urls: string[]; started: number; killedAt: number; killedAfter: KillReport['killedAfter'];
    activeAtKill: { id: string; started: number }[]; backInQueue: Map<string, number>; end: Progress; timedOut: boolean; settings: Settings;
  },
): Promise<KillReport> {
  const { db } = cluster;
  const after = (at: number) => (at - run.killedAt) / 1000;
  const rows = (await db.query<{ id: string; external_id: string; status: string; error: string; paragraphs: string[] }>(
    'SELECT id, external_id, linked_job_status AS status, error, paragraphs FROM sources',
  )).rows;
  const present = new Set(rows.map((r) => r.id));
  const lost = run.ids.filter((id) => !present.has(id)).length + (run.urls.length - run.ids.length);

  // Duplicates: records sharing a URL, pages with more than one job, text repeated or not the page's.
  const perUrl = new Map<string, number>();
  for (const r of rows) perUrl.set(r.external_id, (perUrl.get(r.external_id) ?? 0) + 1);
  const jobsPerSource = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM (SELECT source_id FROM source_jobs GROUP BY 1 HAVING count(*) > 1) s');
  let repeatedText = 0;
  let wrongText = 0;
  for (const r of rows.filter((row) => row.status === 'COMPLETED')) {
    const index = Number(/\/articles\/(\d+)$/.exec(r.external_id)?.[1]);
    const expected = (await extractContent({ body: Buffer.from(page(index)), contentType: 'text/html', url: r.external_id })).paragraphs;
    if (new Set(r.paragraphs).size !== r.paragraphs.length) repeatedText += 1;
    else if (JSON.stringify(r.paragraphs) !== JSON.stringify(expected)) wrongText += 1;
  }
  const completions = new Map<string, number>();
  for (const line of cluster.lines) if (line.msg === 'job completed' && line.jobId) completions.set(line.jobId, (completions.get(line.jobId) ?? 0) + 1);

  // The takeover: the jobs active at the kill that were retried are the killed worker's in-flight ones.
  const jobs = (await db.query<{ id: string; retry_count: number; started_on: Date; start_after: Date; completed_on: Date | null; source_id: string }>(
    `SELECT id, retry_count, started_on, start_after, completed_on, data->>'sourceId' AS source_id FROM pgboss.job WHERE id = ANY($1::uuid[])`,
    [run.activeAtKill.map((j) => j.id)],
  )).rows;
  const takenOver = jobs.filter((j) => j.retry_count > 0);
  const takenOverIds = new Set(takenOver.map((j) => j.id));
  const takeoverLines = cluster.lines.filter((l) => l.msg.startsWith(TAKEOVER_MESSAGE));
  const urlOf = new Map(rows.map((r) => [r.id, new URL(r.external_id).pathname]));
  const takenOverPaths = new Set(takenOver.map((j) => urlOf.get(j.source_id)));
  const twice = site.twice('kill');
  const min = (values: number[]) => (values.length ? Math.min(...values) : undefined);
  const max = (values: number[]) => (values.length ? Math.max(...values) : undefined);
  const leaseEnds = run.activeAtKill.filter((j) => takenOverIds.has(j.id)).map((j) => j.started + run.settings.leaseSeconds * 1000);
  const backAt = [...run.backInQueue].filter(([id]) => takenOverIds.has(id)).map(([, at]) => at);
  const completedAt = takenOver.map((j) => j.completed_on?.getTime()).filter((t): t is number => t !== undefined);
  const last = await lastCompletion(db);
  return {
    registered: run.ids.length,
    lost,
    stuck: waiting(run.end),
    failed: rows.filter((r) => r.status === 'FAILED').length,
    failures: [...new Set(rows.filter((r) => r.status === 'FAILED').map((r) => r.error))],
    duplicated: {
      records: [...perUrl.values()].filter((n) => n > 1).length,
      jobs: jobsPerSource.rows[0]!.n,
      repeatedText,
      wrongText,
      completedTwice: [...completions.values()].filter((n) => n > 1).length,
    },
    killedAfter: run.killedAfter,
    inFlight: run.activeAtKill.length,
    takenOver: takenOver.length,
    takeoverLines: takeoverLines.length,
    fetchedTwice: twice.size,
    fetchedTwiceExplained: [...twice.keys()].filter((p) => takenOverPaths.has(p)).length,
    firstLeaseEnd: optional(min(leaseEnds), after),
    declaredDead: optional(min(cluster.lines.filter((l) => l.msg.startsWith(DEAD_MESSAGE)).map((l) => l.time)), after),
    backInQueue: optional(min(backAt), after),
    firstTakeoverLine: optional(min(takeoverLines.map((l) => l.time)), after),
    firstTakeoverStart: optional(min(takenOver.map((j) => j.started_on.getTime())), after),
    takenOverCompleted: optional(max(completedAt), after),
    retryDelays: takenOver.map((j) => (j.start_after.getTime() - (run.backInQueue.get(j.id) ?? j.start_after.getTime())) / 1000),
    settledSeconds: (last - run.started) / 1000,
    timedOut: run.timedOut,
    pagesPerMinute: (run.urls.length / (last - run.started)) * 60_000,
    workerWarnings: cluster.lines
      .filter((l) => l.level >= 40 && ![TAKEOVER_MESSAGE, DEAD_MESSAGE, 'job lease lost'].some((m) => l.msg.startsWith(m)))
      .map((l) => `worker ${l.worker + 1}: ${l.msg}`),
  };
}

function optional<T, R>(value: T | undefined, map: (v: T) => R): R | undefined {
  return value === undefined ? undefined : map(value);
}

const seconds = (value: number | undefined) => (value === undefined ? 'none' : `${value.toFixed(1)} s`);
const perMinute = (value: number) => Math.round(value).toLocaleString('en-US');

/** The Markdown table of the run. */
function table(settings: Settings, throughputs: ThroughputReport[], kill: KillReport | undefined, setting: string): string[] {
  // A dead worker's jobs: found at the survivor's first heartbeat after the timeout, put back to start now.
  const bound = Math.min(settings.timeoutSeconds + settings.heartbeatSeconds, settings.leaseSeconds + settings.superviseSeconds);
  const lines = [
    `${settings.pages} generated help-center pages on 127.0.0.1, ${setting}; default politeness (PARLEY_INGEST_PER_HOST 2, ` +
      'PARLEY_INGEST_HOST_DELAY_MS 100, PARLEY_INGEST_CONCURRENCY 8, per worker process). Kill phase: 2 × `parley serve --no-worker` + ' +
      `2 × \`parley worker\`, PARLEY_INGEST_LEASE_SECONDS=${settings.leaseSeconds}, PARLEY_WORKER_HEARTBEAT_SECONDS=${settings.heartbeatSeconds} and ` +
      `PARLEY_WORKER_TIMEOUT_SECONDS=${settings.timeoutSeconds} on the workers, PARLEY_JOB_SUPERVISE_SECONDS=${settings.superviseSeconds} on all four, ` +
      'retry delay at its default (PARLEY_INGEST_RETRY_DELAY_SECONDS 10, with backoff).',
    '',
    '| figure | measured | aim / reference |',
    '|---|---:|---|',
  ];
  // Before the politeness held across processes, two workers sent one site twice its requests
  // (1,124 pages/min); now one site gets 2 requests at once, 100 ms apart, however many workers.
  const reference: Record<number, string> = {
    1: 'before: 595; one site\'s politeness allows 600',
    2: 'before: 1,124 (politeness per process); now one site\'s politeness for the deployment allows 600',
  };
  for (const t of throughputs) {
    lines.push(`| pages/min, 1 API + ${t.workers} worker${t.workers > 1 ? 's' : ''} | ${perMinute(t.pagesPerMinute)} | ${reference[t.workers]} (${t.seconds.toFixed(1)} s, ${t.failed} failed, ${t.fetchedTwice} fetched twice) |`);
  }
  if (!kill) return lines;
  const d = kill.duplicated;
  const duplicated = d.records + d.jobs + d.repeatedText + d.completedTwice;
  const overBy = kill.firstTakeoverLine !== undefined && kill.firstTakeoverLine > bound ? `: over by ${(kill.firstTakeoverLine - bound).toFixed(1)} s` : '';
  const delays = kill.retryDelays.length ? `${Math.min(...kill.retryDelays).toFixed(1)}–${Math.max(...kill.retryDelays).toFixed(1)} s` : 'none';
  lines.push(
    `| records lost | ${kill.lost} | 0 (of ${kill.registered} registered) |`,
    `| records stuck (PENDING/IN_PROGRESS once every job ended${kill.timedOut ? '; the bound was reached' : ''}) | ${kill.stuck} | 0 |`,
    `| records duplicated | ${duplicated} | 0 (records per URL ${d.records}, pages with 2+ jobs ${d.jobs}, repeated paragraphs ${d.repeatedText}, jobs completed twice ${d.completedTwice}) |`,
    `| records FAILED | ${kill.failed} | 0${kill.failures.length ? ` (${kill.failures.join('; ')})` : ''} |`,
    `| records whose text is not the page's | ${d.wrongText} | 0 |`,
    `| killed | after ${kill.killedAfter.completed} COMPLETED, ${kill.killedAfter.seconds.toFixed(1)} s in | about a third |`,
    `| jobs taken over | ${kill.takenOver} (${kill.takeoverLines} "job taken over" lines) | the killed worker's in-flight jobs (${kill.inFlight} active at the kill, both workers) |`,
    `| pages fetched twice | ${kill.fetchedTwice} (${kill.fetchedTwiceExplained} of them pages of taken-over jobs) | only pages of the killed worker's in-flight jobs |`,
    `| kill → first taken-over lease would end | ${seconds(kill.firstLeaseEnd)} | lease ${settings.leaseSeconds} s |`,
    `| kill → the survivor finds the worker dead ("worker stopped" line) | ${seconds(kill.declaredDead)} | worker timeout ${settings.timeoutSeconds} s + ≤ one heartbeat ${settings.heartbeatSeconds} s |`,
    `| kill → its jobs back in the queue | ${seconds(kill.backInQueue)} | |`,
    `| kill → first "job taken over" line | ${seconds(kill.firstTakeoverLine)} | ≤ ${bound} s (worker timeout + one heartbeat)${overBy} |`,
    `| wait of the taken-over jobs in the queue (back in the queue → start allowed) | ${delays} | 0 (put back to start now) |`,
    `| kill → taken-over jobs COMPLETED | ${seconds(kill.takenOverCompleted)} | |`,
    `| kill phase, first request to the last record | ${kill.settledSeconds.toFixed(1)} s | 2 workers, then 1, then the takeover (${perMinute(kill.pagesPerMinute)} pages/min overall) |`,
  );
  return lines;
}

async function main(): Promise<number> {
  const startedAt = new Date();
  const loadAtStart = os.loadavg()[0]!;
  const settings = readSettings();
  const adminUrl = await findPostgres();
  if (!adminUrl) throw new Error('no PostgreSQL reachable (DATABASE_URL, or postgres://postgres@127.0.0.1:5432/postgres)');
  const postgres = await (async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    const { rows } = await client.query<{ v: string }>("SELECT current_setting('server_version') AS v");
    await client.end();
    return `PostgreSQL ${rows[0]!.v.split(' ')[0]}`;
  })();
  const siteLog = new SiteLog();
  const { origin, server: site } = await startHelpSite({ pages: settings.pages, onRequest: siteLog.record });
  // Private addresses allowed (the site is on 127.0.0.1); the crawl of a 1,000-page site at the
  // default politeness takes longer than its default time budget.
  const env = { PARLEY_FETCH_ALLOW_PRIVATE: 'true', PARLEY_CRAWL_TIME_BUDGET_MS: '900000' };

  // The pages a user would register: the crawl's result, found once through an API.
  const finder = await startCluster(adminUrl, { apis: 1, workers: 0 }, env, env);
  let urls: string[];
  try {
    siteLog.phase = 'crawl';
    urls = await crawl(finder.apis[0]!, origin, settings.pages);
    siteLog.phase = 'idle';
  } finally {
    await finder.stop();
  }
  process.stderr.write(`bench: the crawl found ${urls.length} pages\n`);

  const throughputs: ThroughputReport[] = [];
  if (settings.phase !== 'kill') {
    for (const workers of [1, 2]) {
      throughputs.push(await throughput(adminUrl, siteLog, urls, workers, env));
      process.stderr.write(`bench: ${workers} worker(s): ${perMinute(throughputs.at(-1)!.pagesPerMinute)} pages/min\n`);
    }
  }
  const kill = settings.phase === 'throughput' ? undefined : await killPhase(adminUrl, siteLog, urls, settings, env);
  site.close();

  // The machine is shared: its load says how far the throughput figures are the code's own.
  const load = `${os.availableParallelism()} cores, load average ${loadAtStart.toFixed(1)} at the start and ${os.loadavg()[0]!.toFixed(1)} at the end`;
  const lines = table(settings, throughputs, kill, `${postgres}, ${load}`);
  if (kill?.workerWarnings.length) lines.push('', `Other warnings of the workers: ${[...new Set(kill.workerWarnings)].join('; ')}`);
  process.stdout.write(`\n${lines.join('\n')}\n`);
  await writeResults('kill-worker', startedAt, { settings, postgres, throughputs, kill, table: lines.join('\n') });
  const d = kill?.duplicated;
  const bad = kill && (kill.lost || kill.stuck || kill.failed || d!.records || d!.jobs || d!.repeatedText || d!.wrongText || d!.completedTwice);
  return bad || throughputs.some((t) => t.failed) ? 1 : 0;
}

exitOnSignals();
main().then(
  (code) => process.exit(code),
  (error: unknown) => void abortRun(error instanceof Error ? (error.stack ?? error.message) : String(error), 1),
);
