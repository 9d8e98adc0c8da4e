// Answer-or-hand-over quality and Generate Answer latency (npm run bench:answers).
//
// Quality, on two sets of ../shared/bench-data (each README says how to score):
// - answers (answers/answers-dev.json, BENCH_ANSWERS): 125 StackFAQ threads, their paraphrased
//   questions, and out-of-domain COVID questions that must be handed over;
// - helpcenter (helpcenter/helpcenter-dev.json, BENCH_HELPCENTER): a store's 19 help-center
//   articles and Bitext customer utterances (typos, colloquial, rude, indirect, keywords) per intent:
//   answerable, unanswerable (near misses of covered subjects) and person (asks for a human).
// Each document is one live article (title, body = answers joined by blank lines) in a folder
// assigned to one agent, in two shapes: `none` (questions empty, as a team writes a help center) and
// `title` (questions = [title]); each set and shape gets a fresh server. Every query is a new
// conversation of that agent through POST /v2/hc-interactions/events/public. A reply answers when
// it is no hand-over and cites an article (usedArticles); its article is the first cited.
// correct = answerable queries answered with the gold article / answerable; wrong = (answerable
// answered with another article + unanswerable answered) / (answerable + unanswerable);
// abstain-ood = unanswerable handed over / unanswerable; person-handed-over = person queries handed
// over / person queries. The references (plain BM25 over title + body, which reads no questions, so
// one per set: with the threshold chosen on the file for wrong <= 0.05, and always answering its top
// article) are computed here from the same documents. The trade-off curve of the hand-over
// threshold comes from the same run: each reply's trace records the engine's confidence and its
// best article, which is what a lower or higher PARLEY_ANSWER_MIN_CONFIDENCE would answer with.
// For helpcenter the report adds correct (or handed over) per intent and per Bitext flag, and the
// hand-over reasons per kind of query.
//
// Latency, on a synthetic knowledge base of BENCH_ANSWER_ARTICLES articles (default 5,000): p50 and
// p99 of the route and of each stage of the pipeline (the trace's timings), per backend; the
// questions twice (right after the articles were written, when the sentence encoder makes each
// article's vector on first use, and again), and the same with PARLEY_BUILTIN_ENCODER=off, the
// reference in the same run.
// BENCH_ANSWER_PARTS=quality or latency runs one half; BENCH_ANSWER_SETS=answers,helpcenter and
// BENCH_ANSWER_SHAPES=none,title choose the quality runs (default: all); BENCH_BACKENDS=pglite or
// postgres one backend.
import path from 'node:path';
import { plainBm25 } from '../bm25.js';
import { type BackendName, ROOT, availableBackends, exitOnSignals, onServer, positiveIntEnv, writeResults } from '../support.js';
import { type Call, type DataSet, type Document, type Kind, type Query, SETS, SHAPES, type SetName, type Shape, articlesOf, client, loadAgent, loadSet } from './common.js';

/** What each shape puts in an article's questions. */
const SHAPE_LABEL: Record<Shape, string> = { none: 'questions empty', title: 'questions = [title]' };

/** Bitext's linguistic flags, as its READMEs name them. */
const FLAG_NAMES: Record<string, string> = {
  B: 'basic syntactic structure',
  S: 'syntactic structure',
  L: 'lexical variation (synonyms)',
  M: 'morphological variation',
  I: 'interrogative structure',
  C: 'complex / coordinated structure',
  P: 'politeness variation',
  Q: 'colloquial variation',
  W: 'offensive language',
  E: 'expanded abbreviations',
  D: 'indirect speech (ask an agent to ...)',
  Z: 'noise (spelling, punctuation)',
  K: 'keyword only',
};

interface Outcome extends Query {
  answeredWith: string | null;
  handedOver: boolean;
  confidence: number;
  topArticle: string | null;
  handoverReason: string | null;
  ms: number;
}

interface Scores {
  correct: number;
  wrong: number;
  abstainOod: number;
  /** Share of person queries handed over; only for a set that has them. */
  personHandedOver?: number;
}

interface Reference {
  always: Scores;
  thresholded: Scores & { threshold: number };
}

/** One set in one shape on one backend. */
interface Run {
  set: SetName;
  shape: Shape;
  quality?: Scores;
  curve?: ({ threshold: number } & Scores)[];
  /** Hand-over reasons per kind of query; `(no hand-over, no article)` counts replies that did neither. */
  reasons?: Partial<Record<Kind, Record<string, number>>>;
  qualityLatency?: { p50: number; p99: number };
  outcomes?: Outcome[];
  error?: string;
}

interface Report {
  backend: BackendName;
  runs: Run[];
  latency?: Latency;
  /** The same with PARLEY_BUILTIN_ENCODER=off: the engine on words alone (the reference of the latency, in the same run). */
  latencyWithoutEncoder?: Latency;
  error?: string;
}

interface Latency {
  articles: number;
  queries: number;
  /** The first pass: the questions right after the articles were written (the encoder makes an article's vector on first use). */
  route: { p50: number; p99: number };
  stages: Record<string, { p50: number; p99: number }>;
  /** The same questions again: every article found has its vector. */
  warm: { route: { p50: number; p99: number }; stages: Record<string, { p50: number; p99: number }> };
}

const pct = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]! : 0);
const p50p99 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: pct(sorted, 0.5), p99: pct(sorted, 0.99) };
};

type Pick = (o: Outcome) => string | null;
type HandedOver = (o: Outcome) => boolean;
const answered: Pick = (o) => o.answeredWith;
const handedOver: HandedOver = (o) => o.handedOver;

/** The READMEs' scores; `over` says whether a query was handed over (by default: not answered). */
function score(outcomes: Outcome[], pick: Pick, over: HandedOver = (o) => pick(o) === null): Scores {
  const answerable = outcomes.filter((o) => o.kind === 'answerable');
  const unanswerable = outcomes.filter((o) => o.kind === 'unanswerable');
  const person = outcomes.filter((o) => o.kind === 'person');
  const correct = answerable.filter((o) => pick(o) === o.relevant).length;
  const wrongAnswerable = answerable.filter((o) => pick(o) !== null && pick(o) !== o.relevant).length;
  const answeredOod = unanswerable.filter((o) => pick(o) !== null).length;
  return {
    correct: correct / answerable.length,
    wrong: (wrongAnswerable + answeredOod) / (answerable.length + unanswerable.length),
    abstainOod: unanswerable.length ? unanswerable.filter(over).length / unanswerable.length : 0,
    ...(person.length ? { personHandedOver: person.filter(over).length / person.length } : {}),
  };
}

/** The README's reference: plain BM25; its top article (ties to the smaller id) and score. */
function bm25(documents: Document[]) {
  const scores = plainBm25(documents);
  return (query: string) => {
    let best = { id: null as string | null, score: 0 };
    for (const d of scores(query)) if (d.score > best.score || (d.score === best.score && best.id !== null && d.id < best.id)) best = d;
    return best;
  };
}

/** BM25's top article per query, as outcomes: confidence = its score. */
function referenceOutcomes(set: DataSet): Outcome[] {
  const top = bm25(set.documents);
  return set.queries.map((q) => {
    const best = top(q.query);
    return { ...q, answeredWith: best.id, handedOver: best.id === null, confidence: best.score, topArticle: best.id, handoverReason: null, ms: 0 };
  });
}

/** Answers with the top article when its score clears `threshold`. */
const atThreshold = (threshold: number): Pick => (o) => (o.confidence >= threshold ? o.topArticle : null);

/** Always answering, and the threshold (over answerable and unanswerable scores) with the most correct at wrong <= 0.05. */
function references(outcomes: Outcome[]): Reference {
  const always = score(outcomes, (o) => o.topArticle);
  let thresholded: Reference['thresholded'] = { threshold: Infinity, ...score(outcomes, () => null) };
  const candidates = outcomes.filter((o) => o.kind !== 'person').map((o) => o.confidence);
  for (const t of [...new Set(candidates)].sort((a, b) => a - b)) {
    const s = score(outcomes, atThreshold(t));
    if (s.wrong <= 0.05 && s.correct > thresholded.correct) thresholded = { threshold: t, ...s };
  }
  return { always, thresholded };
}

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

async function ask(call: Call, agentId: string, query: string): Promise<{ reply: Reply; trace: Trace; ms: number }> {
  const started = performance.now();
  const events = await call<Reply[]>('POST', '/v2/hc-interactions/events/public', { content: query, botId: agentId });
  const ms = performance.now() - started;
  const reply = events.find((e) => e.role === 'parleybot');
  if (!reply) throw new Error(`no agent reply to "${query}"`);
  const trace = await call<Trace>('GET', `/v2/hc-events/${reply.id}/metadata`);
  return { reply, trace, ms };
}

const CURVE = [0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 0.9];

async function measureQuality(call: Call, set: DataSet, run: Run): Promise<void> {
  const { agentId, articleIds } = await loadAgent(call, articlesOf(set, run.shape));
  const docOf = new Map(articleIds.map((id, i) => [id, set.documents[i]!.id]));
  const outcomes: Outcome[] = [];
  for (const q of set.queries) {
    const { reply, trace, ms } = await ask(call, agentId, q.query);
    const cited = reply.usedArticles[0]?.id;
    const top = trace.bestArticleId ?? undefined;
    outcomes.push({
      ...q,
      answeredWith: !reply.handover && cited ? (docOf.get(cited) ?? null) : null,
      handedOver: reply.handover,
      confidence: trace.confidence ?? 0,
      topArticle: top ? (docOf.get(top) ?? null) : null,
      handoverReason: reply.handover ? reply.escalationReason : null,
      ms,
    });
  }
  run.outcomes = outcomes;
  run.quality = score(outcomes, answered, handedOver);
  run.curve = CURVE.map((threshold) => ({ threshold, ...score(outcomes, atThreshold(threshold)) }));
  run.reasons = {};
  for (const o of outcomes) {
    const reason = o.handedOver ? (o.handoverReason ?? 'none given') : o.answeredWith === null ? '(no hand-over, no article)' : null;
    if (!reason) continue;
    const counts = (run.reasons[o.kind] ??= {});
    counts[reason] = (counts[reason] ?? 0) + 1;
  }
  run.qualityLatency = p50p99(outcomes.map((o) => o.ms));
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

async function measureLatency(call: Call, articles: number, queries: number, report: Report, key: 'latency' | 'latencyWithoutEncoder'): Promise<void> {
  const kb = syntheticArticles(articles);
  const { agentId } = await loadAgent(call, kb);
  const questions = Array.from({ length: queries }, (_, i) => kb[(i * 7919) % kb.length]!.title.replace(/ \(\d+\)$/, '').replace(/^How do I/, 'How can I'));
  const pass = async () => {
    const route: number[] = [];
    const stages: Record<string, number[]> = {};
    for (const q of questions) {
      const { trace, ms } = await ask(call, agentId, q);
      route.push(ms);
      for (const [stage, value] of Object.entries(trace.timings)) (stages[stage] ??= []).push(value);
    }
    return { route: p50p99(route), stages: Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, p50p99(v)])) };
  };
  const first = await pass();
  report[key] = { articles, queries, ...first, warm: await pass() };
}

/** A comma-separated list from `name`, each item one of `allowed`; all of them when unset. */
function listEnv<T extends string>(name: string, allowed: readonly T[]): T[] {
  const raw = process.env[name];
  if (!raw) return [...allowed];
  const items = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = items.filter((s) => !(allowed as readonly string[]).includes(s));
  if (bad.length || !items.length) throw new Error(`${name} lists ${allowed.join(', ')}, got "${raw}"`);
  return allowed.filter((a) => items.includes(a));
}

const f = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(3));
const ms = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(1));
const share = (part: number, all: number) => (all ? (part / all).toFixed(2) : '-');
const counts = (record: Record<string, number> | undefined) =>
  Object.entries(record ?? {}).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ') || '-';

/** Per intent: correct (answerable) or handed over (unanswerable, person), Parley per shape next to BM25; and what the first shape did instead. */
function intentTable(set: DataSet, runs: Run[], ref: Outcome[], threshold: number): string[] {
  const intents = [...new Set(set.queries.map((q) => q.intent ?? '?'))];
  const ok = (o: Outcome, pick: Pick, over: HandedOver) => (o.kind === 'answerable' ? pick(o) === o.relevant : over(o));
  const shareOf = (outcomes: Outcome[], intent: string, pick: Pick, over: HandedOver) => {
    const of = outcomes.filter((o) => (o.intent ?? '?') === intent);
    return share(of.filter((o) => ok(o, pick, over)).length, of.length);
  };
  const first = runs[0]!;
  const lines = [
    `Per intent: correct for answerable intents, handed over for unanswerable and person ones; missed = what Parley did instead with ${SHAPE_LABEL[first.shape]} (hand-over reason or the article it answered with):`,
    '',
    `| intent | kind | n | ${runs.map((r) => `Parley, ${SHAPE_LABEL[r.shape]}`).join(' | ')} | BM25 threshold | BM25 top-1 | missed, ${SHAPE_LABEL[first.shape]} |`,
    `|---|---|---:|${runs.map(() => '---:|').join('')}---:|---:|---|`,
  ];
  for (const intent of intents) {
    const of = set.queries.filter((q) => (q.intent ?? '?') === intent);
    const kind = of[0]!.kind;
    const missed: Record<string, number> = {};
    for (const o of first.outcomes!.filter((o) => (o.intent ?? '?') === intent && !ok(o, answered, handedOver))) {
      const what = o.answeredWith ?? (o.handedOver ? `hand-over (${o.handoverReason ?? '?'})` : 'no article');
      missed[what] = (missed[what] ?? 0) + 1;
    }
    lines.push(
      `| ${intent} | ${kind === 'answerable' ? `answerable: ${of[0]!.relevant}` : kind} | ${of.length} | ` +
        `${runs.map((r) => shareOf(r.outcomes!, intent, answered, handedOver)).join(' | ')} | ` +
        `${shareOf(ref, intent, atThreshold(threshold), (o) => atThreshold(threshold)(o) === null)} | ` +
        `${kind === 'answerable' ? shareOf(ref, intent, (o) => o.topArticle, () => false) : '-'} | ${counts(missed)} |`,
    );
  }
  return lines;
}

/** Per Bitext flag: correct of the answerable queries that carry it, handed over of the others. */
function flagTable(set: DataSet, runs: Run[], ref: Outcome[], threshold: number): string[] {
  const flags = [...new Set(set.queries.flatMap((q) => [...(q.flags ?? '')]))].sort((a, b) => Object.keys(FLAG_NAMES).indexOf(a) - Object.keys(FLAG_NAMES).indexOf(b));
  const bm25At = atThreshold(threshold);
  const lines = [
    'Per Bitext flag (a query has several): correct of the answerable queries with the flag; handed over of the unanswerable and person queries with it:',
    '',
    `| flag | answerable | ${runs.map((r) => `correct, ${SHAPE_LABEL[r.shape]}`).join(' | ')} | BM25 threshold | BM25 top-1 | others | ${runs.map((r) => `handed over, ${SHAPE_LABEL[r.shape]}`).join(' | ')} | BM25 threshold |`,
    `|---|---:|${runs.map(() => '---:|').join('')}---:|---:|---:|${runs.map(() => '---:|').join('')}---:|`,
  ];
  for (const flag of flags) {
    const has = (o: Outcome) => (o.flags ?? '').includes(flag);
    const correctShare = (outcomes: Outcome[], pick: Pick) => {
      const of = outcomes.filter((o) => has(o) && o.kind === 'answerable');
      return share(of.filter((o) => pick(o) === o.relevant).length, of.length);
    };
    const overShare = (outcomes: Outcome[], over: HandedOver) => {
      const of = outcomes.filter((o) => has(o) && o.kind !== 'answerable');
      return share(of.filter(over).length, of.length);
    };
    const answerable = set.queries.filter((q) => (q.flags ?? '').includes(flag) && q.kind === 'answerable').length;
    const others = set.queries.filter((q) => (q.flags ?? '').includes(flag) && q.kind !== 'answerable').length;
    lines.push(
      `| ${flag} ${FLAG_NAMES[flag] ?? ''} | ${answerable} | ${runs.map((r) => correctShare(r.outcomes!, answered)).join(' | ')} | ` +
        `${correctShare(ref, bm25At)} | ${correctShare(ref, (o) => o.topArticle)} | ${others} | ` +
        `${runs.map((r) => overShare(r.outcomes!, handedOver)).join(' | ')} | ${overShare(ref, (o) => bm25At(o) === null)} |`,
    );
  }
  return lines;
}

async function main(): Promise<number> {
  exitOnSignals();
  const startedAt = new Date();
  const setNames = listEnv('BENCH_ANSWER_SETS', SETS);
  const shapes = listEnv('BENCH_ANSWER_SHAPES', SHAPES);
  const articles = positiveIntEnv('BENCH_ANSWER_ARTICLES', 5000);
  const queries = positiveIntEnv('BENCH_ANSWER_QUERIES', 200);
  const parts = process.env.BENCH_ANSWER_PARTS ?? 'all';
  if (!['all', 'quality', 'latency'].includes(parts)) throw new Error(`BENCH_ANSWER_PARTS must be all, quality or latency, got "${parts}"`);
  const sets = parts === 'latency' ? [] : await Promise.all(setNames.map(loadSet));
  const refOutcomes = new Map(sets.map((s) => [s.name, referenceOutcomes(s)]));
  const refs = new Map(sets.map((s) => [s.name, references(refOutcomes.get(s.name)!)]));
  const env = { PARLEY_LOG_LEVEL: 'warn', PARLEY_RATE_LIMIT_MAX: '100000000' };
  const reports: Report[] = [];
  for (const backend of await availableBackends({})) {
    const report: Report = { backend: backend.name, runs: [] };
    reports.push(report);
    for (const set of sets) {
      for (const shape of shapes) {
        const run: Run = { set: set.name, shape };
        report.runs.push(run);
        process.stderr.write(`bench: ${backend.name}, ${set.name}, ${SHAPE_LABEL[shape]}: ${set.queries.length} queries\n`);
        await onServer(backend, run, async (server) => measureQuality(await client(server), set, run), env);
      }
    }
    if (parts !== 'quality') {
      await onServer(backend, report, async (server) => measureLatency(await client(server), articles, queries, report, 'latency'), env);
      await onServer(backend, report, async (server) => measureLatency(await client(server), articles, queries, report, 'latencyWithoutEncoder'), { ...env, PARLEY_BUILTIN_ENCODER: 'off' });
    }
  }

  const lines: string[] = [];
  if (sets.length) {
    for (const set of sets) {
      const n = (kind: Kind) => set.queries.filter((q) => q.kind === kind).length;
      lines.push(`${set.name} (${path.relative(ROOT, set.file)}): ${set.documents.length} articles, ${n('answerable')} answerable, ${n('unanswerable')} unanswerable${n('person') ? ` and ${n('person')} person` : ''} queries.`);
    }
    lines.push(
      '',
      'Shapes: "questions empty" loads title and body only; "questions = [title]" also puts the title in the article\'s questions. The BM25 references read title + body, so they are the same for both shapes.',
      '',
      '| set | system | articles | correct | wrong | abstain-ood | person-handed-over | route p50 / p99 ms |',
      '|---|---|---|---:|---:|---:|---:|---:|',
    );
    for (const set of sets) {
      const ref = refs.get(set.name)!;
      lines.push(
        `| ${set.name} | plain BM25, threshold ${ref.thresholded.threshold.toFixed(2)} for wrong <= 0.05 (reference, in this process) | any | ${f(ref.thresholded.correct)} | ${f(ref.thresholded.wrong)} | ${f(ref.thresholded.abstainOod)} | ${f(ref.thresholded.personHandedOver)} | |`,
        `| ${set.name} | plain BM25, always answers (reference) | any | ${f(ref.always.correct)} | ${f(ref.always.wrong)} | ${f(ref.always.abstainOod)} | ${f(ref.always.personHandedOver)} | |`,
      );
      for (const r of reports) {
        for (const run of r.runs.filter((x) => x.set === set.name)) {
          lines.push(
            run.quality
              ? `| ${set.name} | Parley built-in engine, ${r.backend} | ${SHAPE_LABEL[run.shape]} | ${f(run.quality.correct)} | ${f(run.quality.wrong)} | ${f(run.quality.abstainOod)} | ${f(run.quality.personHandedOver)} | ${ms(run.qualityLatency?.p50)} / ${ms(run.qualityLatency?.p99)} |`
              : `| ${set.name} | Parley, ${r.backend} | ${SHAPE_LABEL[run.shape]} | FAILED: ${run.error} | | | | |`,
          );
        }
      }
    }
    const curveOf = reports.find((r) => r.runs.some((x) => x.curve));
    for (const run of curveOf?.runs ?? []) {
      if (!run.curve) continue;
      const person = run.curve[0]?.personHandedOver !== undefined;
      lines.push(
        '',
        `Hand-over threshold (PARLEY_ANSWER_MIN_CONFIDENCE, default 0.6), ${run.set}, ${SHAPE_LABEL[run.shape]}, from the traces of the ${curveOf!.backend} run:`,
        '',
        `| threshold | correct | wrong | abstain-ood |${person ? ' person-handed-over |' : ''}`,
        `|---:|---:|---:|---:|${person ? '---:|' : ''}`,
      );
      for (const c of run.curve) lines.push(`| ${c.threshold} | ${f(c.correct)} | ${f(c.wrong)} | ${f(c.abstainOod)} |${person ? ` ${f(c.personHandedOver)} |` : ''}`);
      lines.push('', `Hand-over reasons: ${(['answerable', 'unanswerable', 'person'] as const).filter((k) => run.reasons?.[k]).map((k) => `${k}: ${counts(run.reasons![k])}`).join('; ') || '-'}`);
    }
    for (const set of sets.filter((s) => s.queries.some((q) => q.intent))) {
      const runs = curveOf?.runs.filter((x) => x.set === set.name && x.outcomes) ?? [];
      if (!runs.length) continue;
      const threshold = refs.get(set.name)!.thresholded.threshold;
      lines.push('', `${set.name}, from the ${curveOf!.backend} run.`, '', ...intentTable(set, runs, refOutcomes.get(set.name)!, threshold));
      lines.push('', ...flagTable(set, runs, refOutcomes.get(set.name)!, threshold));
    }
  }
  for (const r of reports) {
    for (const [l, what] of [[r.latency, 'with the sentence encoder'], [r.latencyWithoutEncoder, 'PARLEY_BUILTIN_ENCODER=off (reference: words alone)']] as const) {
      if (!l) continue;
      lines.push(
        '',
        `Generate Answer latency, ${r.backend}, ${what}: ${l.articles} articles, ${l.queries} questions (ms); first pass right after the articles were written, then the same questions again`,
        '',
        '| stage | first pass p50 | p99 | again p50 | p99 |',
        '|---|---:|---:|---:|---:|',
      );
      lines.push(`| route (client) | ${ms(l.route.p50)} | ${ms(l.route.p99)} | ${ms(l.warm.route.p50)} | ${ms(l.warm.route.p99)} |`);
      for (const [stage, v] of Object.entries(l.stages)) lines.push(`| ${stage} | ${ms(v.p50)} | ${ms(v.p99)} | ${ms(l.warm.stages[stage]?.p50)} | ${ms(l.warm.stages[stage]?.p99)} |`);
    }
  }
  process.stdout.write(`\n${lines.join('\n')}\n`);
  await writeResults('answers', startedAt, {
    datasets: Object.fromEntries(sets.map((s) => [s.name, s.file])),
    shapes,
    references: Object.fromEntries(refs),
    reports,
  });
  return reports.some((r) => r.error || r.runs.some((x) => x.error)) ? 1 : 0;
}

process.exitCode = await main();
