// Extraction benchmark: Parley's extractHtml against the Readability-on-linkedom baseline on the
// Scrapinghub article benchmark (AEB), the WCXB documentation pages and the WCXB mixed page types
// (per type), quality and speed side by side.
// Usage: npm run bench:extraction [-- --debug[=N]] [--only=aeb|wcxb|mixed] [--no-baseline]
//   --debug      print Parley's N worst pages per data set (default 15) with their scores
//   --only       run a single data set
//   --no-baseline  skip the Readability baseline (faster iteration)
// Env: PARLEY_BENCH_DATA overrides the bench-data folder.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { extractHtml } from '../../src/ingest/extract/index.js';
import { type AebCase, REPO_ROOT, type WcxbCase, benchDataDir, loadAeb, loadAebReferences, loadWcxb } from './data.js';
import {
  type AebPage, type AebSummary, type WcxbPage, type WcxbSummary,
  aebPage, aebPageF1, aebSummary, wcxbPage, wcxbSummary,
} from './scorers.js';

type Extractor = (html: string, url: string) => string;

const EXTRACTORS: Record<string, Extractor> = {
  'readability+linkedom': (html, url) => {
    const { document } = parseHTML(html);
    // Readability types expect a DOM Document; linkedom's is structurally compatible at runtime.
    const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse();
    void url;
    return article?.textContent ?? '';
  },
  'parley extractHtml': (html, url) => extractHtml(html, url).paragraphs.join('\n'),
};

interface Timing { p50: number; p99: number; mean: number }
interface SystemRun<S> { system: string; summary: S; timing: Timing }

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? 0;
}

/** One untimed warm-up pass (JIT, lazy module init), then a timed pass around the whole call. A page the extractor throws on gives no text. */
function runExtractor(extract: Extractor, pages: { html: string; url: string }[]): { texts: string[]; timing: Timing } {
  const safe = (html: string, url: string) => {
    try {
      return extract(html, url);
    } catch {
      return '';
    }
  };
  for (const page of pages) safe(page.html, page.url);
  const times: number[] = [];
  const texts = pages.map((page) => {
    const start = performance.now();
    const text = safe(page.html, page.url);
    times.push(performance.now() - start);
    return text;
  });
  times.sort((a, b) => a - b);
  return { texts, timing: { p50: percentile(times, 50), p99: percentile(times, 99), mean: times.reduce((a, b) => a + b, 0) / times.length } };
}

const f3 = (n: number) => n.toFixed(3);
const ms = (n: number) => n.toFixed(1).padStart(7);

function printTable(title: string, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

/** Scorer check: the published systems' outputs must reproduce the published AEB table. */
function validateAebScorer(cases: AebCase[]): { system: string; summary: AebSummary }[] {
  const results = loadAebReferences().map((ref) => ({
    system: ref.name,
    summary: aebSummary(cases.map((c) => aebPage(ref.bodies[c.id] ?? '', c.gold))),
  }));
  printTable('AEB scorer validation (published outputs; should match upstream table: trafilatura 0.958/0.938/0.978/0.293, readability_js 0.947 ...)',
    ['system', 'F1', 'P', 'R', 'acc'],
    results.map((r) => [r.system, f3(r.summary.f1), f3(r.summary.precision), f3(r.summary.recall), f3(r.summary.accuracy)]));
  return results;
}

function debugWorst<T>(label: string, ids: string[], scores: T[], f1: (s: T) => number, describe: (s: T) => string, count: number): void {
  const order = scores.map((s, i) => ({ s, id: ids[i] ?? '' })).sort((a, b) => f1(a.s) - f1(b.s)).slice(0, count);
  console.log(`\nWorst ${count} ${label} pages for parley extractHtml:`);
  for (const { s, id } of order) console.log(`  ${id.slice(0, 16).padEnd(16)}  F1 ${f3(f1(s))}  ${describe(s)}`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const debugArg = args.find((a) => a.startsWith('--debug'));
  const debugCount = debugArg ? Number(debugArg.split('=')[1] ?? 15) || 15 : 0;
  const only = args.find((a) => a.startsWith('--only='))?.split('=')[1];
  const systems = Object.entries(EXTRACTORS).filter(([name]) => !(args.includes('--no-baseline') && name.startsWith('readability')));
  console.log(`bench data: ${benchDataDir()}`);

  const report: Record<string, unknown> = { startedAt: new Date().toISOString(), node: process.version };
  const started = performance.now();

  if (only === undefined || only === 'aeb') {
    const cases = loadAeb();
    report.aebValidation = validateAebScorer(cases);
    const runs: SystemRun<AebSummary>[] = [];
    for (const [system, extract] of systems) {
      const { texts, timing } = runExtractor(extract, cases);
      const pages: AebPage[] = cases.map((c, i) => aebPage(texts[i] ?? '', c.gold));
      runs.push({ system, summary: aebSummary(pages), timing });
      if (debugCount && system.startsWith('parley')) {
        debugWorst('AEB', cases.map((c) => c.id), pages, aebPageF1, (p) => `tp ${f3(p.tp)} fp ${f3(p.fp)} fn ${f3(p.fn)}`, debugCount);
      }
    }
    printTable(`Scrapinghub AEB: ${cases.length} article pages (word 4-gram shingles; targets: parley F1 >= 0.955 at <= baseline p50)`,
      ['system', 'F1', 'P', 'R', 'acc', 'p50 ms', 'p99 ms'],
      runs.map((r) => [r.system, f3(r.summary.f1), f3(r.summary.precision), f3(r.summary.recall), f3(r.summary.accuracy), ms(r.timing.p50), ms(r.timing.p99)]));
    report.aeb = runs;
  }

  if (only === undefined || only === 'wcxb') {
    const cases: WcxbCase[] = loadWcxb();
    const runs: SystemRun<WcxbSummary>[] = [];
    for (const [system, extract] of systems) {
      const { texts, timing } = runExtractor(extract, cases);
      const pages: WcxbPage[] = cases.map((c, i) => wcxbPage(texts[i] ?? '', c.gold, c.with, c.without));
      runs.push({ system, summary: wcxbSummary(pages), timing });
      if (debugCount && system.startsWith('parley')) {
        debugWorst('WCXB', cases.map((c) => c.id), pages, (p) => p.f1,
          (p) => `P ${f3(p.precision)} R ${f3(p.recall)} with ${p.withFound}/${p.withTotal} without ${p.withoutFound}/${p.withoutTotal}`, debugCount);
      }
    }
    printTable(`WCXB dev docs: ${cases.length} documentation pages (lower-cased bag of words, macro; targets: parley F1 >= 0.92 at <= baseline p50)`,
      ['system', 'F1', 'P', 'R', 'with', 'without', 'p50 ms', 'p99 ms'],
      runs.map((r) => [r.system, f3(r.summary.f1), f3(r.summary.precision), f3(r.summary.recall), f3(r.summary.withShare), f3(r.summary.withoutShare), ms(r.timing.p50), ms(r.timing.p99)]));
    report.wcxb = runs;
  }

  if (only === undefined || only === 'mixed') {
    // Unseen page types: word F1 per page type side by side with the baseline, and the pages that came out empty.
    const cases = loadWcxb('wcxb-dev-mixed');
    const types = [...new Set(cases.map((c) => c.pageType))];
    const rows: string[][] = [];
    const runs: { system: string; byType: Record<string, number>; all: number; empty: number; emptyWithGold: number }[] = [];
    for (const [system, extract] of systems) {
      const { texts } = runExtractor(extract, cases);
      const pages: WcxbPage[] = cases.map((c, i) => wcxbPage(texts[i] ?? '', c.gold, c.with, c.without));
      const byType = Object.fromEntries(types.map((t) => [t, wcxbSummary(pages.filter((_, i) => cases[i]!.pageType === t)).f1]));
      const empty = texts.filter((t) => !(t ?? '').trim()).length;
      const emptyWithGold = texts.filter((t, i) => !(t ?? '').trim() && cases[i]!.gold.trim()).length;
      runs.push({ system, byType, all: wcxbSummary(pages).f1, empty, emptyWithGold });
      rows.push([system, ...types.map((t) => f3(byType[t]!)), f3(wcxbSummary(pages).f1), String(emptyWithGold)]);
      if (debugCount && system.startsWith('parley')) {
        debugWorst('WCXB mixed', cases.map((c) => `${c.id} ${c.pageType}`), pages, (p) => p.f1, (p) => `P ${f3(p.precision)} R ${f3(p.recall)}`, debugCount);
      }
    }
    printTable(`WCXB dev mixed: ${cases.length} pages of ${types.length} types (word F1, macro; aim: parley >= 0.88 over all, no page with readable text left empty)`,
      ['system', ...types, 'all', 'empty with text'], rows);
    report.wcxbMixed = runs;
  }

  report.totalSeconds = (performance.now() - started) / 1000;
  const dir = path.join(REPO_ROOT, 'bench/results');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `extraction-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\ntotal ${(report.totalSeconds as number).toFixed(1)} s; results written to ${path.relative(REPO_ROOT, file)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
