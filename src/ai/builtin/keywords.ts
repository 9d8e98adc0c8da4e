import type { Block } from './article.js';
import { CJK, COMMON_STEMS, STOPWORDS, rarity, rawWords, stem } from '../../text/terms.js';

/**
 * Keywords of the built-in engine's articles: RAKE-style phrases (1–3 words between stopwords and
 * punctuation), scored by the salience of their terms, their occurrences and their position.
 */

const MAX_KEYWORDS = 10;
/** A keyword scores at least this share of the best keyword's score. */
const KEYWORD_FLOOR = 0.1;

interface Phrase {
  count: number;
  boost: number;
  first: number;
  stems: string[];
  forms: Map<string, number>;
}

const BREAK = /[.,;:!?()[\]{}"“”«»|/\\…–—•·<>=+*#@~^]+|\s-\s/;

/** Up to MAX_KEYWORDS salient phrases, lower-case, best first. */
export function extractKeywords(blocks: Block[], title: string, weights: Map<string, number>, asked: Set<string>): string[] {
  const withoutLinks = (text: string): string => text.replace(/\b(?:https?:\/\/|www\.)\S+|[\w.+-]{1,64}@[\w-]+(?:\.[\w-]+)+/g, ' ');
  const segments: [string, number][] = title ? [[withoutLinks(title), 1.5]] : [];
  for (const block of blocks) segments.push([withoutLinks(block.text), block.kind === 'heading' ? 1.25 : 1]);
  const phrases = new Map<string, Phrase>();
  let position = 0;
  const total = segments.reduce((sum, [text]) => sum + text.length, 0) || 1;
  for (const [text, boost] of segments) {
    for (const chunk of text.split(BREAK)) {
      for (const run of runs(rawWords(chunk))) addGrams(phrases, run, boost, position / total);
    }
    position += text.length;
  }
  const ranked = [...phrases.values()]
    .filter((p) => (p.stems.length === 1 || p.count >= 2 || p.boost > 1) && p.stems.some((s) => !COMMON_STEMS.has(s)))
    .map((p) => {
      const sum = p.stems.reduce((acc, s) => acc + (weights.get(s) ?? rarity(s)), 0);
      return { p, score: sum * p.boost * Math.sqrt(p.count) * (1 + 0.3 * (1 - p.first)), wanted: p.stems.some((s) => asked.has(s)) };
    })
    .sort((a, b) => Number(b.wanted) - Number(a.wanted) || b.score - a.score || a.p.first - b.p.first);
  const floor = (ranked.find((r) => !r.wanted)?.score ?? 0) * KEYWORD_FLOOR;
  const keywords: string[] = [];
  const keys = new Set<string>();
  const covered = new Set<string>();
  for (const { p, score, wanted } of ranked) {
    if (keywords.length >= MAX_KEYWORDS) break;
    if (score < floor && !wanted) continue;
    const key = [...p.stems].sort().join(' ');
    if (keys.has(key) || (p.stems.length === 1 && covered.has(key))) continue;
    keys.add(key);
    for (const s of p.stems) covered.add(s);
    keywords.push(bestForm(p.forms));
  }
  return keywords;
}

/** Function words of French, Spanish, German, Italian and Portuguese: they never make a keyword. */
const FOREIGN_FUNCTION_WORDS = new Set(
  `de la le les des du et en un une au aux dès pour par sur dans avec est sont el los las y del con por para que es
der die das und ein eine zu mit von für ist den dem il di da per che e o em os na no do`.split(/\s+/),
);

/** Runs of content words between stopwords, numbers, single letters and over-long words. */
function runs(list: string[]): string[][] {
  const out: string[][] = [[]];
  for (const word of list) {
    const lower = word.toLowerCase();
    const breaks = STOPWORDS.has(lower) || FOREIGN_FUNCTION_WORDS.has(lower) || /^\p{N}[\p{N}.,]*$/u.test(word) ||
      word.length < 2 || word.length > 24 || (CJK.test(word) && word.length > 8);
    if (breaks) out.push([]);
    else out[out.length - 1]?.push(lower);
  }
  return out.filter((run) => run.length > 0);
}

function addGrams(phrases: Map<string, Phrase>, run: string[], boost: number, at: number): void {
  for (let n = 1; n <= 3; n++) {
    for (let i = 0; i + n <= run.length; i++) {
      const gram = run.slice(i, i + n);
      const stems = gram.map(stem);
      // A phrase neither starts with a common word nor ends with one, unless that is a plural ("delivery times").
      if (n > 1 && (COMMON_STEMS.has(stems[0] ?? '') || (COMMON_STEMS.has(stems[n - 1] ?? '') && !/s$/.test(gram[n - 1] ?? '')))) continue;
      if (gram[0]?.length === 2 || gram[n - 1]?.length === 2) continue;
      const key = stems.join(' ');
      const form = gram.join(' ');
      const phrase = phrases.get(key) ?? { count: 0, boost, first: at, stems, forms: new Map<string, number>() };
      phrase.count++;
      phrase.boost = Math.max(phrase.boost, boost);
      phrase.forms.set(form, (phrase.forms.get(form) ?? 0) + 1);
      phrases.set(key, phrase);
    }
  }
}

function bestForm(forms: Map<string, number>): string {
  let best = '';
  let most = 0;
  for (const [form, count] of forms) if (count > most) [best, most] = [form, count];
  return best;
}
