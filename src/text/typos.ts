/**
 * Typo tolerance for short word lists: customers write "contcat", "speek", "agnet". A word matches
 * a listed one when it is that word, or, from five letters on, one edit away from it (a letter
 * added, dropped, changed, or two neighbours swapped). Shorter words must be exact: "ask" and "ash"
 * are different words.
 */

/** Whether a and b differ by at most one edit (insertion, deletion, substitution or adjacent swap). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** The listed word a lower-cased token stands for, typos allowed from five letters on; null when none. */
export function nearWord(token: string, list: ReadonlySet<string>): string | null {
  if (list.has(token)) return token;
  if (token.length < 5) return null;
  for (const word of list) if (word.length >= 5 && withinOneEdit(token, word)) return word;
  return null;
}
