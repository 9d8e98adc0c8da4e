// Answer-or-hand-over quality and Generate Answer latency (npm run bench:answers).
//
// Quality, on ../shared/bench-data/answers (its README says how to score): each FAQ thread is one
// live article (title = question, body = answers joined by blank lines) in a folder assigned to
// one agent; every query is a new conversation of that agent through POST
// /v2/hc-interactions/events/public. A reply answers when it is no hand-over and cites an article
// (usedArticles); its article is the first cited. correct = answerable queries answered with the
// gold article / answerable; wrong = (answerable answered with another article + unanswerable
// answered) / all. The reference figures (plain BM25 with a threshold, and always answering) are
// computed here from the same documents. The trade-off curve of the hand-over threshold comes from
// the same run: each reply's trace records the engine's confidence and its best article, which is
// what a lower or higher PARLEY_ANSWER_MIN_CONFIDENCE would answer with.
//
// Latency, on a synthetic knowledge base of BENCH_ANSWER_ARTICLES articles (default 5,000): p50 and
// p99 of the route and of each stage of the pipeline (the trace's timings), per backend.
// BENCH_ANSWER_PARTS=quality or latency runs one half.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { plainBm25 } from '../bm25.js';
import { type BackendName, ROOT, availableBackends, exitOnSignals, onServer, positiveIntEnv, writeResults } from '../support.js';

interface Data {
  documents: { id: string; title: string; answers: string[] }[];
  answerable: { query: string; relevant: string }[];
  unanswerable: { query: string }[];
}

interface Outcome {
  kind: 'answerable' | 'unanswerable';
  relevant?: string;
  answeredWith: string | null;
  confidence: number;
  topArticle: string | null;
  handoverReason: string | null;
  ms: number;
}

interface Scores {
  correct: number;
  wrong: number;
  abstainOod: number;
}

interface Report {
  backend: BackendName;
  quality?: Scores;
  curve?: ({ threshold: number } & Scores)[];
  reasons?: Record<string, number>;
  qualityLatency?: { p50: number; p99: number };
  latency?: { articles: number; queries: number; route: { p50: number; p99: number }; stages: Record<string, { p50: number; p99: number }> };
  error?: string;
}

const pct = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]! : 0);
const p50p99 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: pct(sorted, 0.5), p99: pct(sorted, 0.99) };
};

function score(outcomes: Outcome[], pick: (o: Outcome) => string | null): Scores {
  const answerable = outcomes.filter((o) => o.kind === 'answerable');
  const unanswerable = outcomes.filter((o) => o.kind === 'unanswerable');
  const correct = answerable.filter((o) => pick(o) === o.relevant).length;
  const wrongAnswerable = answerable.filter((o) => pick(o) !== null && pick(o) !== o.relevant).length;
  const answeredOod = unanswerable.filter((o) => pick(o) !== null).length;
  return {
    correct: correct / answerable.length,
    wrong: (wrongAnswerable + answeredOod) / outcomes.length,
    abstainOod: unanswerable.length ? (unanswerable.length - answeredOod) / unanswerable.length : 0,
  };
}

/** The README's reference: plain BM25; its top article (ties to the smaller id) and score. */
function bm25(data: Data) {
  const scores = plainBm25(data.documents);
  return (query: string) => {
    let best = { id: null as string | null, score: 0 };
    for (const d of scores(query)) if (d.score > best.score || (d.score === best.score && best.id !== null && d.id < best.id)) best = d;
    return best;
  };
}

function references(data: Data) {
  const top = bm25(data);
  const outcomes = [
    ...data.answerable.map((q) => ({ kind: 'answerable' as const, relevant: q.relevant, ...top(q.query) })),
    ...data.unanswerable.map((q) => ({ kind: 'unanswerable' as const, ...top(q.query) })),
  ];
  const asOutcome = (o: (typeof outcomes)[number]): Outcome => ({ kind: o.kind, relevant: 'relevant' in o ? o.relevant : undefined, answeredWith: o.id, confidence: o.score, topArticle: o.id, handoverReason: null, ms: 0 });
  const all = outcomes.map(asOutcome);
  const always = score(all, (o) => o.topArticle);
  let thresholded: Scores & { threshold: number } = { threshold: Infinity, correct: 0, wrong: 0, abstainOod: 1 };
  for (const t of [...new Set(all.map((o) => o.confidence))].sort((a, b) => a - b)) {
    const s = score(all, (o) => (o.confidence >= t ? o.topArticle : null));
    if (s.wrong <= 0.05 && s.correct > thresholded.correct) thresholded = { threshold: t, ...s };
  }
  return { always, thresholded };
}

async function client(server: { url: string; apiKey: string }) {
  const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
  const call = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json()) as T;
    if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
  return call;
}

type Call = Awaited<ReturnType<typeof client>>;
interface Reply {
  id: string;
  role: string;
  handover: boolean;
  escalationReason: string | null;
  usedArticles: { id: string }[];
}
interface Trace {
  confidence: number | null;
  bestArticleId: string | null;
  knowledgeSearch: { articles: { id: string }[] } | null;
  timings: Record<string, number>;
}

async function loadAgent(call: Call, articles: { title: string; body: string }[], concurrency = 4): Promise<{ agentId: string; articleIds: string[] }> {
  const agent = await call<{ id: string }>('POST', '/v2/bots/public', { name: 'Bench agent' });
  const folder = await call<{ id: string }>('POST', '/v2/hc-folders/public', { title: 'Knowledge', description: '' });
  await call('POST', '/v2/hc-bot-folder-junctions/public', { junctions: [{ folderId: folder.id, botId: agent.id, action: 'ADD' }] });
  const ids: string[] = new Array(articles.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < articles.length) {
        const i = next++;
        const a = articles[i]!;
        const created = await call<{ id: string }>('POST', '/v2/hc-articles/public', {
          title: a.title, mainKnowledge: a.body, agentInstruction: '', questions: [], keywords: [], escalation: false, parentFolderId: folder.id,
        });
        ids[i] = created.id;
      }
    }),
  );
  return { agentId: agent.id, articleIds: ids };
}

async function ask(call: Call, agentId: string, query: string): Promise<{ reply: Reply; trace: Trace; ms: number }> {
  const started = performance.now();
  const events = await call<Reply[]>('POST', '/v2/hc-interactions/events/public', { content: query, botId: agentId });
  const ms = performance.now() - started;
  const reply = events.find((e) => e.role === 'parleybot');
  if (!reply) throw new Error(`no agent reply to "${query}"`);
  const trace = await call<Trace>('GET', `/v2/hc-events/${reply.id}/metadata`);
  return { reply, trace, ms };
}

async function measureQuality(call: Call, data: Data, report: Report): Promise<void> {
  const { agentId, articleIds } = await loadAgent(call, data.documents.map((d) => ({ title: d.title, body: d.answers.join('\n\n') })));
  const docOf = new Map(articleIds.map((id, i) => [id, data.documents[i]!.id]));
  const outcomes: Outcome[] = [];
  const queries = [...data.answerable.map((q) => ({ ...q, kind: 'answerable' as const })), ...data.unanswerable.map((q) => ({ ...q, relevant: undefined, kind: 'unanswerable' as const }))];
  for (const q of queries) {
    const { reply, trace, ms } = await ask(call, agentId, q.query);
    const cited = reply.usedArticles[0]?.id;
    const top = trace.bestArticleId ?? undefined;
    outcomes.push({
      kind: q.kind,
      relevant: q.relevant,
      answeredWith: !reply.handover && cited ? (docOf.get(cited) ?? null) : null,
      confidence: trace.confidence ?? 0,
      topArticle: top ? (docOf.get(top) ?? null) : null,
      handoverReason: reply.handover ? reply.escalationReason : null,
      ms,
    });
  }
  report.quality = score(outcomes, (o) => o.answeredWith);
  report.curve = [0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 0.9].map((threshold) => ({ threshold, ...score(outcomes, (o) => (o.confidence >= threshold ? o.topArticle : null)) }));
  report.reasons = {};
  for (const o of outcomes) if (o.handoverReason) report.reasons[o.handoverReason] = (report.reasons[o.handoverReason] ?? 0) + 1;
  report.qualityLatency = p50p99(outcomes.map((o) => o.ms));
}

/** A synthetic knowledge base: titles and bodies from a product vocabulary, each article about one feature and action. */
function syntheticArticles(n: number): { title: string; body: string }[] {
  const features = ['invoice', 'password', 'workspace', 'project', 'report', 'dashboard', 'webhook', 'integration', 'subscription', 'export', 'import', 'calendar', 'notification', 'team', 'role', 'label', 'template', 'comment', 'attachment', 'backup'];
  const actions = ['create', 'delete', 'rename', 'share', 'archive', 'restore', 'download', 'schedule', 'configure', 'disable', 'enable', 'move', 'copy', 'filter', 'sort'];
  const places = ['the web app', 'the mobile app', 'the desktop app', 'the admin console', 'the API', 'the settings page'];
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
  return Array.from({ length: n }, (_, i) => {
    const feature = pick(features);
    const action = pick(actions);
    const place = pick(places);
    const title = `How do I ${action} a ${feature} in ${place}? (${i})`;
    const body =
      `You can ${action} a ${feature} from ${place}.\n\n` +
      `1. Open ${place} and go to ${feature} settings.\n2. Choose the ${feature} you want to ${action}.\n3. Click ${action} and confirm.\n\n` +
      `Only owners and admins can ${action} a ${feature}. A ${feature} that is ${pick(actions)}d cannot be ${pick(actions)}d until it is ${pick(actions)}d again.`;
    return { title, body };
  });
}

async function measureLatency(call: Call, articles: number, queries: number, report: Report): Promise<void> {
  const kb = syntheticArticles(articles);
  const { agentId } = await loadAgent(call, kb);
  const questions = Array.from({ length: queries }, (_, i) => kb[(i * 7919) % kb.length]!.title.replace(/ \(\d+\)$/, '').replace(/^How do I/, 'How can I'));
  const route: number[] = [];
  const stages: Record<string, number[]> = {};
  for (const q of questions) {
    const { trace, ms } = await ask(call, agentId, q);
    route.push(ms);
    for (const [stage, value] of Object.entries(trace.timings)) (stages[stage] ??= []).push(value);
  }
  report.latency = {
    articles,
    queries,
    route: p50p99(route),
    stages: Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, p50p99(v)])),
  };
}

async function main(): Promise<number> {
  exitOnSignals();
  const startedAt = new Date();
  const file = process.env.BENCH_ANSWERS ?? path.resolve(ROOT, '..', 'shared', 'bench-data', 'answers', 'answers-dev.json');
  const data = JSON.parse(await readFile(file, 'utf8')) as Data;
  const articles = positiveIntEnv('BENCH_ANSWER_ARTICLES', 5000);
  const queries = positiveIntEnv('BENCH_ANSWER_QUERIES', 200);
  const parts = process.env.BENCH_ANSWER_PARTS ?? 'all';
  if (!['all', 'quality', 'latency'].includes(parts)) throw new Error(`BENCH_ANSWER_PARTS must be all, quality or latency, got "${parts}"`);
  const ref = references(data);
  const env = { PARLEY_LOG_LEVEL: 'warn', PARLEY_RATE_LIMIT_MAX: '100000000' };
  const reports: Report[] = [];
  for (const backend of await availableBackends({})) {
    const report: Report = { backend: backend.name };
    reports.push(report);
    if (parts !== 'latency') await onServer(backend, report, async (server) => measureQuality(await client(server), data, report), env);
    if (parts !== 'quality') await onServer(backend, report, async (server) => measureLatency(await client(server), articles, queries, report), env);
  }
  const f = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(3));
  const ms = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(1));
  const lines = [
    `Answers, development split: ${data.documents.length} articles, ${data.answerable.length} answerable and ${data.unanswerable.length} unanswerable queries.`,
    '',
    '| system | correct | wrong | abstain-ood | route p50 / p99 ms |',
    '|---|---:|---:|---:|---:|',
    `| plain BM25, threshold for wrong <= 0.05 (reference, in this process) | ${f(ref.thresholded.correct)} | ${f(ref.thresholded.wrong)} | ${f(ref.thresholded.abstainOod)} | |`,
    `| plain BM25, always answers (reference) | ${f(ref.always.correct)} | ${f(ref.always.wrong)} | ${f(ref.always.abstainOod)} | |`,
  ];
  for (const r of reports) {
    lines.push(
      r.quality
        ? `| Parley built-in engine, ${r.backend} | ${f(r.quality.correct)} | ${f(r.quality.wrong)} | ${f(r.quality.abstainOod)} | ${ms(r.qualityLatency?.p50)} / ${ms(r.qualityLatency?.p99)} |`
        : `| Parley, ${r.backend} | FAILED: ${r.error} | | | |`,
    );
  }
  const curveOf = reports.find((r) => r.curve);
  if (curveOf?.curve) {
    lines.push('', `Hand-over threshold (PARLEY_ANSWER_MIN_CONFIDENCE, default 0.6), from the traces of the ${curveOf.backend} run:`, '', '| threshold | correct | wrong | abstain-ood |', '|---:|---:|---:|---:|');
    for (const c of curveOf.curve) lines.push(`| ${c.threshold} | ${f(c.correct)} | ${f(c.wrong)} | ${f(c.abstainOod)} |`);
    lines.push('', `Hand-over reasons: ${Object.entries(curveOf.reasons ?? {}).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  }
  for (const r of reports) {
    if (!r.latency) continue;
    lines.push('', `Generate Answer latency, ${r.backend}: ${r.latency.articles} articles, ${r.latency.queries} questions (ms)`, '', '| stage | p50 | p99 |', '|---|---:|---:|');
    lines.push(`| route (client) | ${ms(r.latency.route.p50)} | ${ms(r.latency.route.p99)} |`);
    for (const [stage, v] of Object.entries(r.latency.stages)) lines.push(`| ${stage} | ${ms(v.p50)} | ${ms(v.p99)} |`);
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
  await writeResults('answers', startedAt, { dataset: file, references: ref, reports });
  return reports.some((r) => r.error) ? 1 : 0;
}

process.exitCode = await main();
