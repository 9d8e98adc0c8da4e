// The chat widget under 200 visitors at once (npm run bench:widget): per backend, a real `parley
// serve` with its embedded worker, an agent with a small help center (bench/widget-content.ts) and
// one widget key for http://shop.bench.test. Every visitor starts a conversation, opens its
// Server-Sent Events stream (fetch, with the page's Origin) and sends its messages one after
// another, each POST awaited: questions the articles answer (with customers' typos) and questions
// they do not (the built-in engine hands those over). Printed: the reply latency (the POST's round
// trip) and the time from each POST's answer to the agent's reply arriving on the visitor's
// stream, p50/p95/p99/max (the stream is watched in the background: the next message follows the
// POST's answer, so its timing is not tied to the stream's poll). Then a person of the team answers 50 visitors whose conversations were
// handed over (those not handed over first ask for a person), spread over 10 s, through Generate
// Answer (role `agent`), and the bench measures the time from each POST's answer to the reply arriving on
// the visitor's stream (a write to this server wakes its streams at once; the server's poller looks
// for other processes' writes every PARLEY_WIDGET_STREAM_POLL_MS). Errors
// (any non-2xx), the server's stream polls and reads (its /metrics) and the load average at the
// start and the end are printed too.
//
// The rate limits are raised out of the way (the key's visitorRateLimit, PARLEY_RATE_LIMIT_MAX and
// PARLEY_RATE_LIMIT_ANSWER_MAX): the bench measures latency, not throttling.
//
//   npm run bench:widget
//   BENCH_VISITORS=n               visitors at once (default 200)
//   BENCH_MESSAGES=n               messages per visitor, each awaited (default 5)
//   BENCH_HUMANS=n                 conversations a person answers (default 50, at most the visitors)
//   BENCH_POLL_MS=n                PARLEY_WIDGET_STREAM_POLL_MS of the server (default: Parley's, 1000)
//   BENCH_BACKENDS=pglite|postgres one backend (default: PGlite and, when reachable, PostgreSQL)
import os from 'node:os';
import { ARTICLES, ASK_FOR_PERSON, PERSON_REPLY, VISITOR_MESSAGES } from './widget-content.js';
import { type VisitorEvent, visitorCall, VisitorStream, type WidgetPage } from './widget-stream.js';
import { abortRun, availableBackends, exitOnSignals, HttpError, onServer, positiveIntEnv, type RunningServer, sleep, workspaceCall, writeResults } from './support.js';

const VISITORS = positiveIntEnv('BENCH_VISITORS', 200);
const MESSAGES = positiveIntEnv('BENCH_MESSAGES', 5);
const HUMANS = Math.min(positiveIntEnv('BENCH_HUMANS', 50), VISITORS);
const POLL_MS = process.env.BENCH_POLL_MS ? String(positiveIntEnv('BENCH_POLL_MS', 1000)) : undefined;
const ORIGIN = 'http://shop.bench.test';
/** The widget key's own limit per visitor: the highest a key may have. */
const VISITOR_RATE_LIMIT = 100_000;
const UNLIMITED = '100000000';
/** The person's replies are spread at random over this long, as a team answers, so they meet the streams' polls at any phase. */
const HUMAN_SPREAD_MS = 10_000;
/** How long an event may take to reach its stream before the bench counts it missing. */
const ARRIVAL_TIMEOUT_MS = 60_000;

interface Stats { n: number; p50: number; p95: number; p99: number; max: number }

interface Report {
  backend: string;
  visitors: number;
  /** Messages sent by the visitors (each POST, answered or not). */
  messages: number;
  /** Agent replies that answered, that handed over, and messages the agent stayed silent on (the team held the conversation). */
  answered: number;
  handedOver: number;
  silent: number;
  /** Non-2xx answers (and failed requests), by status. */
  errors: number;
  errorsByStatus: Record<string, number>;
  errorSamples: string[];
  /** Replies that never reached their stream within ARRIVAL_TIMEOUT_MS. */
  missing: number;
  /** Replies that were on the stream before their POST's answer reached the client (counted as 0 ms). */
  beforeAnswer: number;
  visitorSeconds: number;
  replyMs: Stats;
  streamMs: Stats;
  human: { conversations: number; askedForPerson: number; postMs: Stats; streamMs: Stats };
  pollMs: string;
  /** The server's stream polls and reads (its /metrics) over the run; null where it has none. */
  streamPolls: number | null;
  streamReads: number | null;
  loadStart: number[];
  loadEnd: number[];
  serverWarnings: number;
  /** The first warnings the server logged (or wrote to stderr), cut short. */
  warningSamples: string[];
  error?: string;
}

/** A visitor after its messages: its conversation, its open stream, whether the agent handed it over. */
interface Visitor {
  conversationId: string;
  visitorToken: string;
  stream: VisitorStream;
  handedOver: boolean;
}

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => (sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!) : 0);
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: Math.round(sorted.at(-1) ?? 0) };
}

function noteError(report: Report, error: unknown): void {
  report.errors += 1;
  const status = error instanceof HttpError ? String(error.status) : 'failed';
  report.errorsByStatus[status] = (report.errorsByStatus[status] ?? 0) + 1;
  if (report.errorSamples.length < 5) report.errorSamples.push(error instanceof Error ? error.message : String(error));
}

/** The agent, its help center and the widget key: the page the visitors are on. */
async function setUp(server: RunningServer): Promise<WidgetPage> {
  const agent = await workspaceCall<{ id: string }>(server, 'POST', '/v2/bots/public', { name: 'Shop assistant' });
  const folder = await workspaceCall<{ id: string }>(server, 'POST', '/v2/hc-folders/public', { title: 'Help center', description: '' });
  await workspaceCall(server, 'POST', '/v2/hc-bot-folder-junctions/public', { junctions: [{ folderId: folder.id, botId: agent.id, action: 'ADD' }] });
  for (const article of ARTICLES) {
    await workspaceCall(server, 'POST', '/v2/hc-articles/public', {
      title: article.title, mainKnowledge: article.body, agentInstruction: '', questions: article.questions, keywords: [], escalation: false, parentFolderId: folder.id,
    });
  }
  const key = await workspaceCall<{ key: string }>(server, 'POST', `/v2/bots/${agent.id}/widget-keys/public`, {
    name: 'Shop', allowedOrigins: [ORIGIN], visitorRateLimit: VISITOR_RATE_LIMIT,
  });
  return { url: server.url, widgetKey: key.key, origin: ORIGIN };
}

/** What the visitors measured: round trips, times to the stream, and the arrivals still awaited. */
interface Samples { reply: number[]; stream: number[]; arrivals: Promise<void>[] }

/**
 * Sends one message (awaited) and notes its round trip; the agent's reply is awaited on the stream
 * in the background, so the next message follows the POST's answer, not the stream's poll.
 */
async function send(page: WidgetPage, visitor: Visitor, content: string, report: Report, samples: Samples): Promise<void> {
  const sent = performance.now();
  report.messages += 1;
  let events: VisitorEvent[];
  try {
    events = await visitorCall<VisitorEvent[]>(page, `/v2/widget/conversations/${visitor.conversationId}/messages`, { content }, visitor.visitorToken);
  } catch (error) {
    noteError(report, error);
    return;
  }
  const answered = performance.now();
  samples.reply.push(answered - sent);
  const reply = events.find((event) => event.role === 'parleybot');
  if (!reply) {
    report.silent += 1;
    return;
  }
  if (reply.handover) {
    report.handedOver += 1;
    visitor.handedOver = true;
  } else report.answered += 1;
  samples.arrivals.push(
    visitor.stream.arrival(reply.id, ARRIVAL_TIMEOUT_MS).then(
      (arrived) => {
        if (arrived < answered) report.beforeAnswer += 1;
        samples.stream.push(Math.max(0, arrived - answered));
      },
      () => {
        report.missing += 1;
      },
    ),
  );
}

/** One visitor: starts, opens the stream, sends its messages one after another. */
async function visit(page: WidgetPage, index: number, report: Report, samples: Samples): Promise<Visitor | undefined> {
  let visitor: Visitor;
  try {
    const started = await visitorCall<{ conversationId: string; visitorToken: string }>(page, '/v2/widget/conversations', {
      userAttributes: { email: `visitor${index}@bench.test` },
      locale: 'en-GB',
    });
    visitor = { ...started, stream: new VisitorStream(), handedOver: false };
    await visitor.stream.open(page, started.conversationId, started.visitorToken);
  } catch (error) {
    noteError(report, error);
    return undefined;
  }
  for (let m = 0; m < MESSAGES; m += 1) {
    await send(page, visitor, VISITOR_MESSAGES[(index * 5 + m) % VISITOR_MESSAGES.length]!, report, samples);
  }
  return visitor;
}

/** A person answers HUMANS handed-over conversations, spread over HUMAN_SPREAD_MS; the time to each visitor's stream. */
async function personReplies(server: RunningServer, page: WidgetPage, visitors: Visitor[], report: Report): Promise<void> {
  const chosen = visitors.filter((v) => v.handedOver).slice(0, HUMANS);
  const unused: Samples = { reply: [], stream: [], arrivals: [] };
  for (const visitor of visitors.filter((v) => !v.handedOver)) {
    if (chosen.length >= HUMANS) break;
    report.human.askedForPerson += 1;
    await send(page, visitor, ASK_FOR_PERSON, report, unused);
    await Promise.all(unused.arrivals);
    if (visitor.handedOver) chosen.push(visitor);
  }
  const post: number[] = [];
  const stream: number[] = [];
  await Promise.all(
    chosen.map(async (visitor) => {
      await sleep(Math.random() * HUMAN_SPREAD_MS);
      const sent = performance.now();
      try {
        const events = await workspaceCall<{ id: string; role: string }[]>(server, 'POST', '/v2/hc-interactions/events/public', {
          content: PERSON_REPLY, role: 'agent', interactionId: visitor.conversationId,
        });
        const answered = performance.now();
        post.push(answered - sent);
        const reply = events.find((event) => event.role === 'agent');
        if (!reply) throw new Error(`the person's reply is not among the created events: ${JSON.stringify(events).slice(0, 200)}`);
        stream.push(Math.max(0, (await visitor.stream.arrival(reply.id, ARRIVAL_TIMEOUT_MS)) - answered));
      } catch (error) {
        if (error instanceof HttpError) noteError(report, error);
        else report.missing += 1;
      }
    }),
  );
  report.human = { ...report.human, conversations: chosen.length, postMs: stats(post), streamMs: stats(stream) };
}

async function run(server: RunningServer, report: Report): Promise<void> {
  const page = await setUp(server);
  const samples: Samples = { reply: [], stream: [], arrivals: [] };
  report.loadStart = os.loadavg().map((l) => Math.round(l * 100) / 100);
  const started = performance.now();
  const visitors = (await Promise.all(Array.from({ length: VISITORS }, (_, i) => visit(page, i, report, samples)))).filter((v): v is Visitor => v !== undefined);
  report.visitorSeconds = Math.round((performance.now() - started) / 100) / 10;
  await Promise.all(samples.arrivals);
  report.replyMs = stats(samples.reply);
  report.streamMs = stats(samples.stream);
  process.stderr.write(`bench: ${report.backend}: ${report.messages} messages in ${report.visitorSeconds} s; a person answers ${HUMANS}\n`);
  await personReplies(server, page, visitors, report);
  report.loadEnd = os.loadavg().map((l) => Math.round(l * 100) / 100);
  const metrics = await (await fetch(`${server.url}/metrics`)).text();
  const metric = (name: string) => {
    const line = metrics.split('\n').find((l) => l.startsWith(`${name} `));
    return line ? Number(line.split(' ')[1]) : null;
  };
  report.streamPolls = metric('parley_widget_stream_polls_total');
  report.streamReads = metric('parley_widget_stream_reads_total');
  for (const visitor of visitors) if (visitor.stream.failure) noteError(report, new Error(`stream: ${visitor.stream.failure}`));
  await Promise.all(visitors.map((visitor) => visitor.stream.close()));
  const warnings = [...server.problems.logs, ...server.problems.stderr];
  report.serverWarnings = warnings.length;
  report.warningSamples = warnings.slice(0, 3).map((line) => line.slice(0, 300));
}

exitOnSignals();
const startedAt = new Date();
const serverEnv: Record<string, string> = {
  PARLEY_LOG_LEVEL: 'warn',
  PARLEY_RATE_LIMIT_MAX: UNLIMITED,
  PARLEY_RATE_LIMIT_ANSWER_MAX: UNLIMITED,
  ...(POLL_MS ? { PARLEY_WIDGET_STREAM_POLL_MS: POLL_MS } : {}),
};
const empty: Stats = { n: 0, p50: 0, p95: 0, p99: 0, max: 0 };
const reports: Report[] = [];
try {
  for (const backend of await availableBackends(serverEnv)) {
    const report: Report = {
      backend: backend.name, visitors: VISITORS, messages: 0, answered: 0, handedOver: 0, silent: 0, errors: 0, errorsByStatus: {}, errorSamples: [],
      missing: 0, beforeAnswer: 0, visitorSeconds: 0, replyMs: empty, streamMs: empty, human: { conversations: 0, askedForPerson: 0, postMs: empty, streamMs: empty },
      pollMs: POLL_MS ?? '1000 (default)', streamPolls: null, streamReads: null, loadStart: [], loadEnd: [], serverWarnings: 0, warningSamples: [],
    };
    process.stderr.write(`bench: ${backend.name}: ${VISITORS} visitors x ${MESSAGES} messages\n`);
    reports.push(await onServer(backend, report, (server) => run(server, report)));
  }
} catch (error) {
  await abortRun(error instanceof Error ? error.message : String(error), 1);
}

const ms = (s: Stats) => `${s.p50} / ${s.p95} / ${s.p99} / ${s.max}`;
const rows: [string, (r: Report) => string][] = [
  ['visitors at once, messages each', (r) => `${r.visitors}, ${MESSAGES}`],
  ['messages sent (answered / handed over / silent)', (r) => `${r.messages} (${r.answered} / ${r.handedOver} / ${r.silent})`],
  ['wall time of the visitors, s', (r) => r.visitorSeconds.toFixed(1)],
  ['reply latency (POST round trip) p50 / p95 / p99 / max, ms', (r) => ms(r.replyMs)],
  ["POST's answer to the reply on the stream p50 / p95 / p99 / max, ms", (r) => ms(r.streamMs)],
  ['replies on the stream before the POST answered (counted 0)', (r) => String(r.beforeAnswer)],
  ['person replies (visitors who first asked for a person)', (r) => `${r.human.conversations} (${r.human.askedForPerson})`],
  ["person's POST round trip p50 / p99, ms", (r) => `${r.human.postMs.p50} / ${r.human.postMs.p99}`],
  ["person's POST answer to the visitor's stream p50 / p99 / max, ms", (r) => `${r.human.streamMs.p50} / ${r.human.streamMs.p99} / ${r.human.streamMs.max}`],
  ['PARLEY_WIDGET_STREAM_POLL_MS', (r) => r.pollMs],
  ["the server's stream polls / stream reads (/metrics)", (r) => `${r.streamPolls ?? '-'} / ${r.streamReads ?? '-'}`],
  ['errors (non-2xx), events missing from the stream', (r) => `${r.errors}${r.errors ? ` ${JSON.stringify(r.errorsByStatus)}` : ''}, ${r.missing}`],
  ['warnings the server logged', (r) => String(r.serverWarnings)],
  ['load average (1, 5, 15 min) at start / end', (r) => `${r.loadStart.join(', ')} / ${r.loadEnd.join(', ')}`],
];
console.log(`\nWidget: ${VISITORS} visitors at once, ${MESSAGES} messages each, from ${ORIGIN}; rate limits raised out of the way (visitorRateLimit ${VISITOR_RATE_LIMIT}, PARLEY_RATE_LIMIT_MAX and PARLEY_RATE_LIMIT_ANSWER_MAX ${UNLIMITED}): latency, not throttling (Node ${process.version}, ${os.availableParallelism()} CPUs)`);
for (const report of reports) {
  console.log(`\n### ${report.backend}\n`);
  if (report.error) {
    console.log(`error: ${report.error}`);
    continue;
  }
  console.log('| | |\n| - | -: |');
  for (const [label, value] of rows) console.log(`| ${label} | ${value(report)} |`);
  for (const sample of [...report.errorSamples, ...report.warningSamples]) console.log(`\n- ${sample}`);
}
await writeResults('widget', startedAt, { visitors: VISITORS, messagesEach: MESSAGES, humans: HUMANS, origin: ORIGIN, reports });
