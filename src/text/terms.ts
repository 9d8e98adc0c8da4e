import { normalizeText } from './sentences.js';

/**
 * Words and terms shared by the built-in engine and the pure evaluators: tokenization, stopwords,
 * the Porter2 (Snowball English) stemmer and word rarity. Everything here is pure and
 * deterministic, and copes with any script: words are runs of Unicode letters, marks and digits;
 * runs of Chinese or Japanese characters (written without spaces) become overlapping character pairs.
 */

/** Snowball's English stopwords, plus a few modal and filler words. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are aren't as at be because been before being below between
both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each few for from
further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself him himself his how
how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most mustn't my myself no nor not of off
on once only or other ought our ours ourselves out over own same shan't she she'd she'll she's should shouldn't so some
such than that that's the their theirs them themselves then there there's these they they'd they'll they're they've
this those through to too under until up very was wasn't we we'd we'll we're we've were weren't what what's when
when's where where's which while who who's whom why why's with won't would wouldn't you you'd you'll you're you've your
yours yourself yourselves will shall may might must also just etc via per yes ok okay us`.split(/\s+/),
);

/**
 * Frequent English words that are not stopwords but say little about a topic; keyword scoring
 * gives them a small weight instead of excluding them.
 */
export const COMMON_WORDS: ReadonlySet<string> = new Set(
  `able above across actually add added again ago allow almost already always another answer anyone anything anyway
anywhere apply area around arrive ask available away back bad based below best better big bit call called case
certain change check choose clear click close come comes common complete contain content continue correct could
course create current day days different directly done easy either else end enough ensure enter even ever every
everything example fact far find fine first follow following found free full further general get gets getting
give given go goes going good got great group hand happen help here high hour hours however idea important
include included including information instead issue item items keep kind know last later learn least left less
let like likely line list little long look looking lot made main make makes making many mean means might mind
minute minutes month months more much need needed needs never new next note nothing now number often old one
ones open option options order others otherwise page pages part people perhaps place please point possible
pretty probably problem provide put question questions quick quickly quite rather read ready real really reason
receive recommend related remember right run said say says section see seen select send sent set several short
show simple simply since small something sometimes soon start step steps still sure take taken tell thing things
think three time times today together top try two type under understand unless upon use used useful user users
uses using usually want way ways week weeks well whether whole within without word work working works would year
years yet`.split(/\s+/),
);

// ---------------------------------------------------------------------------------------------
// Words

const WORD = /[\p{L}\p{M}\p{N}]+(?:(?:['-]|(?<=\p{N})[.,](?=\p{N}))[\p{L}\p{M}\p{N}]+)*/gu;
/** Kana and CJK ideographs: scripts written without spaces between words. */
const CJK_CHARS = '\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{2fa1f}';
/** Whether a text contains Chinese or Japanese characters. */
export const CJK = new RegExp(`[${CJK_CHARS}]`, 'u');
const CJK_RUNS = new RegExp(`[${CJK_CHARS}]+|[^${CJK_CHARS}]+`, 'gu');

/** Words of a text as written (case kept), CJK runs whole. */
export function rawWords(text: string): string[] {
  return [...normalizeText(text).matchAll(WORD)].map(([word]) => word);
}

/** Words of a text as written (case kept); CJK runs become overlapping character pairs. */
export function words(text: string): string[] {
  const out: string[] = [];
  const normal = normalizeText(text);
  if (!CJK.test(normal)) return rawWords(normal);
  for (const [word] of normal.matchAll(WORD)) {
    if (!CJK.test(word)) {
      out.push(word);
      continue;
    }
    for (const [part] of word.matchAll(CJK_RUNS)) {
      if (!CJK.test(part)) out.push(part);
      else if (part.length === 1) out.push(part);
      else for (let i = 0; i + 1 < part.length; i++) out.push(part.slice(i, i + 2));
    }
  }
  return out;
}

/** Lower-cased words. */
export function tokenize(text: string): string[] {
  return words(text).map((word) => word.toLowerCase());
}

/** Whether a lower-cased token is a stopword. */
export function isStopword(token: string): boolean {
  return STOPWORDS.has(token);
}

/** Stems of the words that are not stopwords: what similarity and salience are computed on. */
export function terms(text: string): string[] {
  return tokenize(text)
    .filter((token) => !STOPWORDS.has(token))
    .map(stem);
}


// ---------------------------------------------------------------------------------------------
// Porter2 (Snowball English) stemmer, as specified at snowballstem.org/algorithms/english.

const EXCEPTIONS: Readonly<Record<string, string>> = {
  skis: 'ski', skies: 'sky', dying: 'die', lying: 'lie', tying: 'tie', idly: 'idl', gently: 'gentl', ugly: 'ugli',
  early: 'earli', only: 'onli', singly: 'singl', sky: 'sky', news: 'news', howe: 'howe', atlas: 'atlas',
  cosmos: 'cosmos', bias: 'bias', andes: 'andes',
};
const AFTER_1A = new Set(['inning', 'outing', 'canning', 'herring', 'earring', 'proceed', 'exceed', 'succeed']);
const STEP2: [string, string][] = [
  ['ization', 'ize'], ['ational', 'ate'], ['fulness', 'ful'], ['ousness', 'ous'], ['iveness', 'ive'],
  ['tional', 'tion'], ['biliti', 'ble'], ['lessli', 'less'], ['entli', 'ent'], ['ation', 'ate'], ['alism', 'al'],
  ['aliti', 'al'], ['ousli', 'ous'], ['iviti', 'ive'], ['fulli', 'ful'], ['enci', 'ence'], ['anci', 'ance'],
  ['abli', 'able'], ['izer', 'ize'], ['ator', 'ate'], ['alli', 'al'], ['bli', 'ble'], ['ogi', 'og'], ['li', ''],
];
const STEP3: [string, string][] = [
  ['ational', 'ate'], ['tional', 'tion'], ['alize', 'al'], ['icate', 'ic'], ['iciti', 'ic'], ['ative', ''],
  ['ical', 'ic'], ['ness', ''], ['ful', ''],
];
const STEP4 = [
  'ement', 'ance', 'ence', 'able', 'ible', 'ment', 'ant', 'ent', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize', 'ion',
  'al', 'er', 'ic',
];

const isVowel = (c: string | undefined): boolean => c !== undefined && 'aeiouy'.includes(c);
const hasVowel = (s: string): boolean => /[aeiouy]/.test(s);

/** Start of the region after the first non-vowel that follows a vowel at or after `from`. */
function regionAfter(word: string, from: number): number {
  for (let i = from + 1; i < word.length; i++) if (isVowel(word[i - 1]) && !isVowel(word[i])) return i + 1;
  return word.length;
}

function endsShortSyllable(word: string): boolean {
  const n = word.length;
  if (n === 2) return isVowel(word[0]) && !isVowel(word[1]);
  return n > 2 && !isVowel(word[n - 3]) && isVowel(word[n - 2]) && !isVowel(word[n - 1]) && !'wxY'.includes(word.charAt(n - 1));
}

const longest = (word: string, suffixes: readonly string[]): string | undefined => suffixes.find((s) => word.endsWith(s));

const STEM_CACHE = new Map<string, string>();
const STEM_CACHE_SIZE = 50_000;

/**
 * Porter2 stem of a word ("resetting" → "reset", "passwords" → "password", "generously" →
 * "generous"). Words with characters outside a–z (accents, digits, other scripts) are only
 * lower-cased. Results are memoised: texts repeat their words.
 */
export function stem(input: string): string {
  let cached = STEM_CACHE.get(input);
  if (cached === undefined) {
    if (STEM_CACHE.size >= STEM_CACHE_SIZE) STEM_CACHE.clear();
    cached = porter2(input);
    STEM_CACHE.set(input, cached);
  }
  return cached;
}

function porter2(input: string): string {
  let w = input.toLowerCase();
  if (!/^[a-z'-]+$/.test(w) || w.length <= 2) return w;
  const exception = EXCEPTIONS[w];
  if (exception !== undefined) return exception;
  w = w.replace(/^'/, '').replace(/^y/, 'Y').replace(/([aeiouy])y/g, '$1Y');
  const prefix = /^(?:gener|commun|arsen)/.exec(w);
  const r1 = prefix ? prefix[0].length : regionAfter(w, 0);
  const r2 = regionAfter(w, r1);
  const inR1 = (suffix: string): boolean => w.length - suffix.length >= r1;
  const inR2 = (suffix: string): boolean => w.length - suffix.length >= r2;

  // Step 0 and 1a: possessives and plurals.
  w = w.replace(/'(?:s'?)?$/, '');
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ied') || w.endsWith('ies')) w = w.slice(0, w.length > 4 ? -2 : -1);
  else if (w.endsWith('s') && !w.endsWith('us') && !w.endsWith('ss') && hasVowel(w.slice(0, -2))) w = w.slice(0, -1);
  if (AFTER_1A.has(w)) return w;

  // Step 1b: -eed, -ed, -ing.
  const s1b = longest(w, ['eedly', 'ingly', 'edly', 'eed', 'ing', 'ed']);
  if (s1b === 'eed' || s1b === 'eedly') {
    if (inR1(s1b)) w = `${w.slice(0, -s1b.length)}ee`;
  } else if (s1b && hasVowel(w.slice(0, -s1b.length))) {
    w = w.slice(0, -s1b.length);
    if (/(?:at|bl|iz)$/.test(w)) w += 'e';
    else if (/(?:bb|dd|ff|gg|mm|nn|pp|rr|tt)$/.test(w)) w = w.slice(0, -1);
    else if (endsShortSyllable(w) && r1 >= w.length) w += 'e';
  }

  // Step 1c: a final y after a consonant (not the first letter) becomes i.
  if (/[yY]$/.test(w) && w.length > 2 && !isVowel(w[w.length - 2])) w = `${w.slice(0, -1)}i`;

  // Steps 2 and 3: derivational suffixes in R1.
  const s2 = STEP2.find(([suffix]) => w.endsWith(suffix));
  if (s2 && inR1(s2[0])) {
    const [suffix, replacement] = s2;
    const before = w.charAt(w.length - suffix.length - 1);
    if (suffix === 'ogi' ? before === 'l' : suffix === 'li' ? 'cdeghkmnrt'.includes(before) && before !== '' : true) {
      w = w.slice(0, -suffix.length) + replacement;
    }
  }
  const s3 = STEP3.find(([suffix]) => w.endsWith(suffix));
  if (s3 && inR1(s3[0]) && (s3[0] !== 'ative' || inR2(s3[0]))) w = w.slice(0, -s3[0].length) + s3[1];

  // Step 4: suffixes in R2.
  const s4 = longest(w, STEP4);
  if (s4 && inR2(s4) && (s4 !== 'ion' || /[st]$/.test(w.slice(0, -3)))) w = w.slice(0, -s4.length);

  // Step 5: a final e or double l.
  if (w.endsWith('e') && (inR2('e') || (inR1('e') && !endsShortSyllable(w.slice(0, -1))))) w = w.slice(0, -1);
  else if (w.endsWith('ll') && inR2('l')) w = w.slice(0, -1);
  return w.replace(/Y/g, 'y');
}

export const COMMON_STEMS: ReadonlySet<string> = new Set([...COMMON_WORDS].map(stem));

/** How much a word says about the topic, before its frequency is counted. */
export function rarity(term: string): number {
  if (/^\p{N}/u.test(term)) return 0.3;
  if (COMMON_STEMS.has(term)) return 0.3;
  return term.length <= 2 && /^[a-z]+$/.test(term) ? 0.5 : 1;
}
