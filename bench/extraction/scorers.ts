// Scorers for the two extraction benchmarks, implemented exactly as the data READMEs describe
// (/work/shared/bench-data/extraction/*/README.md).

/** Unicode word tokens; JS `\w` is ASCII-only even with /u, so spell out the Unicode classes. */
const WORD = /[\p{L}\p{N}_]+/gu;

export function tokenize(text: string): string[] {
  return text.match(WORD) ?? [];
}

// ---------------------------------------------------------------------------------------------
// Scrapinghub Article Extraction Benchmark: word 4-gram shingles, case kept.

export interface AebPage { tp: number; fp: number; fn: number; exact: boolean }
export interface AebSummary { f1: number; precision: number; recall: number; accuracy: number; pages: number }

function shingles(tokens: string[], n = 4): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  if (tokens.length < n) {
    // Short texts count as a single shingle (an empty text gives no shingles at all).
    if (tokens.length > 0) add(tokens.join('\u0001'));
    return counts;
  }
  for (let i = 0; i + n <= tokens.length; i += 1) add(tokens.slice(i, i + n).join('\u0001'));
  return counts;
}

/** Per-page counts, normalised by TP+FP+FN so every page weighs the same. */
export function aebPage(predicted: string, gold: string): AebPage {
  const predTokens = tokenize(predicted);
  const goldTokens = tokenize(gold);
  const pred = shingles(predTokens);
  const truth = shingles(goldTokens);
  let tp = 0;
  let predTotal = 0;
  let goldTotal = 0;
  for (const [key, count] of pred) {
    predTotal += count;
    tp += Math.min(count, truth.get(key) ?? 0);
  }
  for (const count of truth.values()) goldTotal += count;
  const fp = predTotal - tp;
  const fn = goldTotal - tp;
  const all = tp + fp + fn;
  const exact = predTokens.length === goldTokens.length && predTokens.every((t, i) => t === goldTokens[i]);
  if (all === 0) return { tp: 0, fp: 0, fn: 0, exact };
  return { tp: tp / all, fp: fp / all, fn: fn / all, exact };
}

function pageRatio(tp: number, other: number, fp: number, fn: number): number | null {
  if (fp === 0 && fn === 0) return 1;
  if (tp + other === 0) return null; // skipped for this metric
  return tp / (tp + other);
}

export function aebPagePrecision(p: AebPage): number | null { return pageRatio(p.tp, p.fp, p.fp, p.fn); }
export function aebPageRecall(p: AebPage): number | null { return pageRatio(p.tp, p.fn, p.fp, p.fn); }

export function aebPageF1(p: AebPage): number {
  const precision = aebPagePrecision(p) ?? 0;
  const recall = aebPageRecall(p) ?? 0;
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

function mean(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Corpus P and R are means of per-page values; F1 is the harmonic mean of those two means. */
export function aebSummary(pages: AebPage[]): AebSummary {
  const precisions = pages.map(aebPagePrecision).filter((v): v is number => v !== null);
  const recalls = pages.map(aebPageRecall).filter((v): v is number => v !== null);
  const precision = mean(precisions);
  const recall = mean(recalls);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const accuracy = pages.length === 0 ? 0 : pages.filter((p) => p.exact).length / pages.length;
  return { f1, precision, recall, accuracy, pages: pages.length };
}

// ---------------------------------------------------------------------------------------------
// WCXB: lower-cased bag of words, macro averages, plus with/without snippet shares.

export interface WcxbPage {
  precision: number;
  recall: number;
  f1: number;
  withFound: number;
  withTotal: number;
  withoutFound: number;
  withoutTotal: number;
}
export interface WcxbSummary {
  f1: number; precision: number; recall: number;
  /** Share of `with` snippets found (higher is better). */
  withShare: number;
  /** Share of `without` snippets found (lower is better). */
  withoutShare: number;
  pages: number;
}

function bag(tokens: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** Snippet containment on lower-cased, whitespace-collapsed text (the README leaves matching unspecified). */
function normaliseForSnippet(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

export function wcxbPage(predicted: string, gold: string, withSnippets: string[], withoutSnippets: string[]): WcxbPage {
  const predTokens = tokenize(predicted.toLowerCase());
  const goldTokens = tokenize(gold.toLowerCase());
  let precision: number;
  let recall: number;
  let f1: number;
  if (goldTokens.length === 0) {
    precision = recall = f1 = predTokens.length === 0 ? 1 : 0;
  } else {
    const goldBag = bag(goldTokens);
    let overlap = 0;
    for (const [token, count] of bag(predTokens)) overlap += Math.min(count, goldBag.get(token) ?? 0);
    precision = predTokens.length === 0 ? 0 : overlap / predTokens.length;
    recall = overlap / goldTokens.length;
    f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  }
  const haystack = normaliseForSnippet(predicted);
  const found = (snippets: string[]) => snippets.filter((s) => haystack.includes(normaliseForSnippet(s))).length;
  return {
    precision, recall, f1,
    withFound: found(withSnippets), withTotal: withSnippets.length,
    withoutFound: found(withoutSnippets), withoutTotal: withoutSnippets.length,
  };
}

export function wcxbSummary(pages: WcxbPage[]): WcxbSummary {
  const sum = (pick: (p: WcxbPage) => number) => pages.reduce((a, p) => a + pick(p), 0);
  const withTotal = sum((p) => p.withTotal);
  const withoutTotal = sum((p) => p.withoutTotal);
  return {
    f1: mean(pages.map((p) => p.f1)),
    precision: mean(pages.map((p) => p.precision)),
    recall: mean(pages.map((p) => p.recall)),
    withShare: withTotal === 0 ? 0 : sum((p) => p.withFound) / withTotal,
    withoutShare: withoutTotal === 0 ? 0 : sum((p) => p.withoutFound) / withoutTotal,
    pages: pages.length,
  };
}
