// Fits the built-in engine's confidence model (src/ai/builtin/confidence.ts, CONFIDENCE_MODEL, or
// with FIT_LEXICAL=1 LEXICAL_CONFIDENCE_MODEL, the weights without the sentence encoder) on the
// development sets of bench/answers, in both article shapes:
//
//   node --import tsx bench/answers/fit-confidence.ts
//
// 1. Dump. For each set (answers-dev, helpcenter-dev) and shape (`none`: questions empty, `title`:
//    questions = [title]) the articles are loaded into a real Parley (an in-process runtime on a
//    fresh PGlite, through the API, as run.ts loads them), and each query goes through the answer
//    pipeline's own stages up to the engine: planning (planReply, replySource), the knowledge
//    search (searchArticles: same query, synonym expansion and limit as every answer) and the
//    articles given to the engine (answerArticles, with the encoder's similarities). decideReply
//    says whether an answer from the engine would reach the customer (an angry message hands over
//    whatever the engine says). The
//    dump (candidates with their scores, the articles once) is cached in
//    bench/results/confidence-<set>-<shape>.json; FIT_REFRESH=1 rebuilds it (do so after any change
//    to the search, the thesaurus or planning: the cache holds their output).
// 2. Features. rankCandidates re-ranks each query's candidates and CONFIDENCE_INPUTS reads its
//    features, so a feature added there is fitted here without a new dump. Label: the re-ranked
//    first article is the gold one (answerable queries); an unanswerable query is never right.
// 3. Fit. All four set x shape dumps pooled, each weighted to the same total: an L2 logistic
//    regression for each cost of a wrong answer in FIT_COSTS (negatives weighted by it), its
//    intercept then set so that the default threshold (0.6) keeps wrong <= FIT_MAX_WRONG (0.05) in
//    every set x shape, and, of these, the one with the largest sum of correct over the four; then
//    a coordinate search on the weights (steps halving from FIT_STEP) that raises that sum and
//    keeps every constraint.
// 4. Honesty. The same procedure, whole, in FIT_FOLDS (5) folds by query, stratified by set, shape
//    and kind: each fold's queries are scored by the model fitted on the other folds. Both the
//    in-sample and the cross-validated correct / wrong per set x shape are printed, and the fitted
//    weights as the model's source.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AnswerArticle } from '../../src/ai/contracts/answer.js';
import { CONFIDENCE_INPUTS, CONFIDENCE_MODEL, type ConfidenceInput, LEXICAL_CONFIDENCE_MODEL, rankCandidates } from '../../src/ai/builtin/confidence.js';
import { loadConfig } from '../../src/config/config.js';
import { contextForOperator, inTransaction, type WorkspaceContext } from '../../src/context.js';
import { serializeSections, workspaceDefaultPrompts } from '../../src/modules/agents/index.js';
import { createApiKey } from '../../src/modules/api-keys/index.js';
import { decideReply, replySource } from '../../src/modules/conversations/answer/decide-reply.js';
import { planReply } from '../../src/modules/conversations/answer/planning.stage.js';
import { answerArticles, searchArticles } from '../../src/modules/conversations/answer/search.stage.js';
import { StageTrace } from '../../src/modules/conversations/answer/trace.js';
import { createWorkspace } from '../../src/modules/workspaces/index.js';
import { startRuntime } from '../../src/runtime.js';
import { ROOT, tempDataDir } from '../support.js';
import { type DataSet, type Kind, SETS, SHAPES, type SetName, type Shape, articlesOf, client, loadAgent, loadSet } from './common.js';

const THRESHOLD = 0.6;
const MAX_WRONG = Number(process.env.FIT_MAX_WRONG ?? 0.05);
const FOLDS = Number(process.env.FIT_FOLDS ?? 5);
const COSTS = (process.env.FIT_COSTS ?? '1,2,4,8').split(',').map(Number);
const STEP = Number(process.env.FIT_STEP ?? 0.5);
const L2 = Number(process.env.FIT_L2 ?? 0.01);
const CUT = Math.log(THRESHOLD / (1 - THRESHOLD));
const ALL_INPUTS = Object.keys(CONFIDENCE_INPUTS) as ConfidenceInput[];
/** FIT_LEXICAL=1 fits LEXICAL_CONFIDENCE_MODEL: the candidates' similarities are dropped, as without the encoder. */
const LEXICAL = Boolean(process.env.FIT_LEXICAL);
const SEMANTIC_INPUTS: readonly ConfidenceInput[] = ['similarity', 'similarityLead'];
/** FIT_INPUTS=a,b fits only these inputs (the others weigh 0); all of CONFIDENCE_INPUTS by default (less the encoder's with FIT_LEXICAL). */
const NAMES = (process.env.FIT_INPUTS ? ALL_INPUTS.filter((n) => process.env.FIT_INPUTS!.split(',').includes(n)) : ALL_INPUTS).filter((n) => !LEXICAL || !SEMANTIC_INPUTS.includes(n));
const CURRENT = LEXICAL ? LEXICAL_CONFIDENCE_MODEL : CONFIDENCE_MODEL;
const MODEL_NAME = LEXICAL ? 'LEXICAL_CONFIDENCE_MODEL' : 'CONFIDENCE_MODEL';

// ---------------------------------------------------------------------------------------------
// 1. The dump

interface DumpQuery {
  query: string;
  kind: Kind;
  /** The gold document's id (answerable queries). */
  relevant?: string;
  /** An engine's answer would reach the customer: the pipeline asks the engine and nothing else hands over. */
  answerable: boolean;
  /** The engine's candidates, best first: article id, search score and the encoder's similarity (when it ran). */
  candidates: [string, number, number?][];
}

interface Dump {
  set: SetName;
  shape: Shape;
  /** Article id -> the article as the engine receives it (without the score), and its document id. */
  articles: Record<string, Omit<AnswerArticle, 'score'> & { doc: string }>;
  queries: DumpQuery[];
}

const dumpFile = (set: SetName, shape: Shape) => path.join(ROOT, 'bench', 'results', `confidence-${set}-${shape}.json`);

async function collect(set: DataSet, shape: Shape): Promise<Dump> {
  const dir = await tempDataDir('parley-fit-');
  const config = loadConfig({ PARLEY_DATA_DIR: dir.path, PARLEY_LOG_LEVEL: 'warn', PARLEY_RATE_LIMIT_MAX: '100000000', HOST: '127.0.0.1', PORT: '0' });
  const runtime = await startRuntime(config, { http: true, worker: true });
  try {
    const { ports } = runtime;
    const { workspaceId, key } = await inTransaction(contextForOperator(ports), async (tx) => {
      const workspace = await createWorkspace(tx, 'fit');
      return { workspaceId: workspace.id, key: (await createApiKey(tx, workspace.id, { name: 'fit', scopes: ['read', 'write'] })).key };
    });
    const address = runtime.app!.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const { agentId, articleIds } = await loadAgent(client({ url, apiKey: key }), articlesOf(set, shape));
    const docOf = new Map(articleIds.map((id, i) => [id, set.documents[i]!.id]));
    const ctx: WorkspaceContext = { ...contextForOperator(ports), workspaceId };
    const planningPrompt = serializeSections(workspaceDefaultPrompts().hcPlanningPrompt);
    const dump: Dump = { set: set.name, shape, articles: {}, queries: [] };
    for (const [i, q] of set.queries.entries()) {
      if (q.kind === 'person') continue;
      const trace = new StageTrace(ctx);
      const planning = await planReply(ctx, trace, { message: q.query, history: [], planningPrompt, intentRules: [], waiting: null, overlayRuleIds: [] });
      const { plan } = planning;
      const source = replySource({ flowRan: false, intent: plan.intent, inputBlocked: false, performKnowledgeSearch: planning.performKnowledgeSearch, smallTalkReply: plan.smallTalkReply });
      const hits = source === 'generated' ? await searchArticles(ctx, trace, q.query, agentId, undefined) : [];
      const articles = answerArticles(hits);
      for (const a of articles) dump.articles[a.id] ??= { id: a.id, title: a.title, body: a.body, questions: a.questions, keywords: a.keywords, escalation: a.escalation, doc: docOf.get(a.id)! };
      const ids = articles.map((a) => a.id);
      const reply = decideReply({
        source, wording: { channel: 'chat', customerName: null }, walk: null, smallTalkReply: plan.smallTalkReply,
        generated: { answer: 'answer', handover: false, reason: null, usedArticleIds: ids.slice(0, 1) },
        articleIds: ids, inputEscalate: false, negativeStreak: false, angry: plan.angry, personAsked: plan.intent === 'human_request', outputGuards: [],
      });
      dump.queries.push({
        query: q.query, kind: q.kind, ...(q.relevant ? { relevant: q.relevant } : {}),
        answerable: source === 'generated' && !reply.handover, candidates: articles.map((a) => (a.similarity === undefined ? [a.id, a.score] : [a.id, a.score, a.similarity])),
      });
      if ((i + 1) % 100 === 0) process.stderr.write(`fit: ${set.name}, ${shape}: ${i + 1} of ${set.queries.length}\n`);
    }
    return dump;
  } finally {
    await runtime.stop();
    await dir.remove();
  }
}

async function dumpOf(set: DataSet, shape: Shape): Promise<Dump> {
  const file = dumpFile(set.name, shape);
  if (!process.env.FIT_REFRESH) {
    try {
      return JSON.parse(await readFile(file, 'utf8')) as Dump;
    } catch {
      // no cache yet
    }
  }
  process.stderr.write(`fit: collecting ${set.name}, ${shape} (${set.queries.length} queries)\n`);
  const dump = await collect(set, shape);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(dump));
  return dump;
}

// ---------------------------------------------------------------------------------------------
// 2. Features and labels

interface Item {
  group: number;
  kind: Kind;
  /** The re-ranked first article is the gold one. */
  right: boolean;
  /** The engine decides (an answer would reach the customer) and it has a candidate. */
  live: boolean;
  x: number[];
}

function items(dump: Dump, group: number, names: readonly ConfidenceInput[] = NAMES): Item[] {
  return dump.queries.map((q) => {
    const articles: AnswerArticle[] = q.candidates.map(([id, score, similarity]) => {
      const a = dump.articles[id]!;
      return { id, title: a.title, body: a.body, questions: a.questions, keywords: a.keywords, escalation: a.escalation, score, ...(similarity !== undefined && !LEXICAL ? { similarity } : {}) };
    });
    const { ranked, features } = rankCandidates(q.query, articles);
    const top = ranked[0];
    return {
      group,
      kind: q.kind,
      right: q.kind === 'answerable' && top !== undefined && dump.articles[top.id]!.doc === q.relevant,
      live: q.answerable && top !== undefined && features.topScore > 0,
      x: names.map((n) => CONFIDENCE_INPUTS[n](features)),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// 3. The fit

interface Model {
  bias: number;
  w: number[];
}

const logit = (m: Model, x: number[]) => m.w.reduce((z, w, i) => z + w * x[i]!, m.bias);

interface Figures {
  correct: number;
  wrong: number;
}

/** Correct and wrong per group, the bench's way, answering the items `answers` says. */
function figuresOf(data: Item[], groups: number, answers: (it: Item, i: number) => boolean): Figures[] {
  const n = Array.from({ length: groups }, () => ({ answerable: 0, asked: 0, correct: 0, wrong: 0 }));
  for (const [i, it] of data.entries()) {
    const g = n[it.group]!;
    g.asked++;
    if (it.kind === 'answerable') g.answerable++;
    if (!it.live || !answers(it, i)) continue;
    if (it.right) g.correct++;
    else g.wrong++;
  }
  return n.map((g) => ({ correct: g.answerable ? g.correct / g.answerable : 0, wrong: g.asked ? g.wrong / g.asked : 0 }));
}

/** The figures of a model at the threshold. */
const figures = (model: Model, data: Item[], groups: number) => figuresOf(data, groups, (it) => logit(model, it.x) >= CUT);

/** The sum of correct when every group keeps wrong <= MAX_WRONG, else minus the excess. */
function objective(model: Model, data: Item[], groups: number): number {
  const f = figures(model, data, groups);
  const excess = f.reduce((sum, g) => sum + Math.max(0, g.wrong - MAX_WRONG), 0);
  return excess > 0 ? -excess : f.reduce((sum, g) => sum + g.correct, 0);
}

/**
 * The largest bias at which every group keeps wrong <= MAX_WRONG (a larger bias answers more, and
 * each group's wrong only grows), halfway between the last item it answers and the first it does
 * not, so that rounding the weights does not move an item across the threshold.
 */
function fitBias(model: Model, data: Item[], groups: number): Model {
  // The bias at which each live item reaches the threshold.
  const cuts = [...new Set(data.filter((it) => it.live).map((it) => CUT - logit({ ...model, bias: 0 }, it.x)))].sort((a, b) => a - b);
  const ok = (bias: number) => figures({ ...model, bias }, data, groups).every((g) => g.wrong <= MAX_WRONG);
  // The first cut that may not be reached: answering items 0 .. lo - 1 breaks a constraint.
  let lo = 0;
  let hi = cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ok(cuts[mid]! - 1e-9)) lo = mid + 1;
    else hi = mid;
  }
  if (lo === cuts.length) return { ...model, bias: (cuts[lo - 1] ?? 0) + 1 };
  // Items below cuts[lo - 1] are answered, cuts[lo - 1] and up are not.
  const upper = cuts[lo - 1] ?? (cuts[0] ?? 0) - 1;
  const lower = lo >= 2 ? cuts[lo - 2]! : upper - 1;
  return { ...model, bias: (lower + upper) / 2 };
}

/** L2 logistic regression (Newton's method on standardised inputs), negatives weighted by `cost`, each group to the same total. */
function logistic(data: Item[], groups: number, cost: number): Model {
  const live = data.filter((it) => it.live);
  const d = NAMES.length;
  const mean = NAMES.map((_, j) => live.reduce((s, it) => s + it.x[j]!, 0) / live.length);
  const sd = NAMES.map((_, j) => Math.sqrt(live.reduce((s, it) => s + (it.x[j]! - mean[j]!) ** 2, 0) / live.length) || 1);
  const perGroup = Array.from({ length: groups }, (_, g) => live.filter((it) => it.group === g).reduce((s, it) => s + (it.right ? 1 : cost), 0));
  const rows = live.map((it) => ({ z: [1, ...it.x.map((v, j) => (v - mean[j]!) / sd[j]!)], y: it.right ? 1 : 0, s: (it.right ? 1 : cost) / perGroup[it.group]! }));
  const total = rows.reduce((s, r) => s + r.s, 0);
  let beta = new Array<number>(d + 1).fill(0);
  for (let iter = 0; iter < 50; iter++) {
    const grad = new Array<number>(d + 1).fill(0);
    const hess = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    for (const r of rows) {
      const p = 1 / (1 + Math.exp(-r.z.reduce((s, v, j) => s + v * beta[j]!, 0)));
      const s = r.s / total;
      for (let j = 0; j <= d; j++) {
        grad[j]! += s * (p - r.y) * r.z[j]!;
        for (let k = 0; k <= d; k++) hess[j]![k]! += s * p * (1 - p) * r.z[j]! * r.z[k]!;
      }
    }
    for (let j = 1; j <= d; j++) {
      grad[j]! += L2 * beta[j]!;
      hess[j]![j]! += L2;
    }
    const step = solve(hess, grad);
    beta = beta.map((b, j) => b - step[j]!);
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  const w = NAMES.map((_, j) => beta[j + 1]! / sd[j]!);
  return { bias: beta[0]! - w.reduce((s, wj, j) => s + wj * mean[j]!, 0), w };
}

/** Solves a x = b (Gaussian elimination with partial pivoting). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) x[r] = (m[r]![n]! - m[r]!.slice(r + 1, n).reduce((s, v, k) => s + v * x[r + 1 + k]!, 0)) / m[r]![r]!;
  return x;
}

/** Coordinate search on the weights (the bias refitted after each move) for a larger objective. */
function refine(start: Model, data: Item[], groups: number): Model {
  let best = start;
  let bestValue = objective(best, data, groups);
  for (let step = STEP; step >= STEP / 8; step /= 2) {
    let improved = true;
    while (improved) {
      improved = false;
      for (let j = 0; j < NAMES.length; j++) {
        for (const delta of [step, -step]) {
          const w = [...best.w];
          w[j] = w[j]! + delta * Math.max(1, Math.abs(w[j]!));
          const candidate = fitBias({ bias: best.bias, w }, data, groups);
          const value = objective(candidate, data, groups);
          if (value > bestValue + 1e-9) {
            best = candidate;
            bestValue = value;
            improved = true;
          }
        }
      }
    }
  }
  return best;
}

function fit(data: Item[], groups: number): Model {
  let best: Model | undefined;
  let bestValue = -Infinity;
  for (const cost of COSTS) {
    const model = fitBias(logistic(data, groups, cost), data, groups);
    const value = objective(model, data, groups);
    if (value > bestValue) {
      best = model;
      bestValue = value;
    }
  }
  return process.env.FIT_REFINE === '0' ? best! : refine(best!, data, groups);
}

// ---------------------------------------------------------------------------------------------
// 4. Cross-validation and the report

/** Fold of each item: by query, stratified by group, kind and label, assigned in turn. */
function folds(data: Item[]): number[] {
  const seen = new Map<string, number>();
  return data.map((it) => {
    const key = `${it.group}/${it.kind}/${it.right}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return n % FOLDS;
  });
}

async function main(): Promise<void> {
  const dumps: Dump[] = [];
  for (const name of SETS) {
    const set = await loadSet(name);
    for (const shape of SHAPES) dumps.push(await dumpOf(set, shape));
  }
  const labels = dumps.map((d) => `${d.set}, ${d.shape === 'none' ? 'questions empty' : 'questions = [title]'}`);
  const groups = dumps.length;
  const data = dumps.flatMap((d, g) => items(d, g));
  const fold = folds(data);

  const currentAll: Model = { bias: CURRENT.bias, w: ALL_INPUTS.map((n) => CURRENT[n]) };
  const allX = dumps.flatMap((d, g) => items(d, g, ALL_INPUTS)).map((it) => it.x);
  const model = fit(data, groups);
  const cvZ = new Array<number>(data.length);
  for (let k = 0; k < FOLDS; k++) {
    const m = fit(data.filter((_, i) => fold[i] !== k), groups);
    for (const [i, it] of data.entries()) if (fold[i] === k) cvZ[i] = logit(m, it.x);
    process.stderr.write(`fit: fold ${k + 1} of ${FOLDS} done\n`);
  }
  // Cross-validated figures: each item answered by the model fitted without its fold.
  const cv = figuresOf(data, groups, (_, i) => cvZ[i]! >= CUT);
  const rounded = fitBias({ bias: model.bias, w: model.w.map((w) => Math.round(w * 1000) / 1000) }, data, groups);
  const final: Model = { bias: Math.floor(rounded.bias * 1000) / 1000, w: rounded.w };
  const inSample = figures(final, data, groups);
  const before = figuresOf(data, groups, (_, i) => logit(currentAll, allX[i]!) >= CUT);
  const top1 = labels.map((_, g) => {
    const ans = data.filter((it) => it.group === g && it.kind === 'answerable');
    return ans.filter((it) => it.right).length / ans.length;
  });
  const f = (n: number) => n.toFixed(3);
  const lines = [
    `Confidence model fit: ${data.length} queries (answerable + unanswerable) over ${groups} set x shape dumps; threshold ${THRESHOLD}, wrong <= ${MAX_WRONG} in each; ${FOLDS}-fold cross-validation by query.`,
    '',
    `| set x shape | queries | re-ranked top-1 right | ${MODEL_NAME} (confidence.ts) correct / wrong | fitted, in-sample correct / wrong | fitted, cross-validated correct / wrong |`,
    '|---|---:|---:|---:|---:|---:|',
    ...labels.map((label, g) =>
      `| ${label} | ${data.filter((it) => it.group === g).length} | ${f(top1[g]!)} | ${f(before[g]!.correct)} / ${f(before[g]!.wrong)} | ${f(inSample[g]!.correct)} / ${f(inSample[g]!.wrong)} | ${f(cv[g]!.correct)} / ${f(cv[g]!.wrong)} |`,
    ),
    '',
    `export const ${MODEL_NAME} = {`,
    `  bias: ${final.bias.toFixed(3)},`,
    ...ALL_INPUTS.map((n) => `  ${n}: ${(final.w[NAMES.indexOf(n)] ?? 0).toFixed(3)},`),
    '} as const;',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
process.exit(0);
