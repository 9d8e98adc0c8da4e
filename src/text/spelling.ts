import { stem } from './terms.js';

/**
 * Typos, one edit at a time (an insertion, a deletion, a substitution or two letters swapped):
 * spelling repair against a known vocabulary, where a person's typed note becomes text others read
 * (Refine with AI's note reader), and typo-tolerant lookup in short word lists ("contcat",
 * "speek", "agnet": the request for a person).
 */

/** Whether `a` and `b` are one edit apart (Damerau: insertion, deletion, substitution, transposition). */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  if (a.length === b.length) {
    const diff: number[] = [];
    for (let i = 0; i < a.length && diff.length <= 2; i++) if (a[i] !== b[i]) diff.push(i);
    if (diff.length === 1) return true;
    return diff.length === 2 && diff[1] === diff[0]! + 1 && a[diff[0]!] === b[diff[1]!] && a[diff[1]!] === b[diff[0]!];
  }
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  return short.slice(i) === long.slice(i + 1);
}

/** Whether the only edit from `typed` to `known` swaps two neighbouring letters or adds/drops one (no substitution). */
export function swapOrGap(typed: string, known: string): boolean {
  if (!oneEditApart(typed, known)) return false;
  if (typed.length !== known.length) return true;
  return [...typed].sort().join('') === [...known].sort().join('');
}

const VOWEL = /[aeiou]/;

/** The inflected forms of a word a writer may mean (wrap -> wraps, wrapped, wrapping; bake -> baked, baking). */
export function inflections(word: string): string[] {
  const out = [word, `${word}s`, `${word}es`];
  if (word.endsWith('e')) out.push(`${word}d`, `${word.slice(0, -1)}ing`);
  else {
    // A short word ending consonant-vowel-consonant doubles its last letter: wrap -> wrapping.
    const n = word.length;
    const doubles = n >= 3 && n <= 5 && !VOWEL.test(word[n - 1]!) && !/[wxy]/.test(word[n - 1]!) && VOWEL.test(word[n - 2]!) && !VOWEL.test(word[n - 3]!);
    const stem = doubles ? `${word}${word[n - 1]}` : word;
    out.push(`${stem}ed`, `${stem}ing`);
  }
  return out;
}

/**
 * The known word a typed word stands for: itself when known, else the one known word (or
 * inflection of one) a single edit away, when there is exactly one; null otherwise. Words shorter
 * than `minLength` are left alone (too many short words are one edit apart).
 */
export function repairWord(typed: string, known: ReadonlySet<string>, minLength = 5): string | null {
  const word = typed.toLowerCase();
  if (known.has(word) || word.length < minLength || !/^[a-z]+$/.test(word)) return null;
  // Another inflection of a known word ("switched" beside "switches") is a word, not a typo.
  const base = stem(word);
  for (const k of known) if (stem(k) === base) return null;
  const candidates = new Set<string>();
  for (const k of known) {
    for (const form of inflections(k)) {
      // An inflection of a known word is a word, not a typo.
      if (form === word) return null;
      if (oneEditApart(word, form)) candidates.add(form);
    }
  }
  if (candidates.size !== 1) return null;
  for (const form of candidates) return form;
  return null;
}

/**
 * The listed word a lower-cased token stands for: itself, or from five letters on one edit away
 * from a listed word of five letters or more; null when none. Shorter words must be exact: "ask"
 * and "ash" are different words.
 */
export function nearWord(token: string, list: ReadonlySet<string>): string | null {
  if (list.has(token)) return token;
  if (token.length < 5) return null;
  for (const word of list) if (word.length >= 5 && oneEditApart(token, word)) return word;
  return null;
}
