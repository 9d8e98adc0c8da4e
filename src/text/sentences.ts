/**
 * Text utilities shared by the built-in engine and the pure evaluators: normalization, markdown
 * stripping, truncation and sentence splitting. Pure and deterministic.
 */

/** NFKC, one kind of apostrophe, no zero-width or non-breaking spaces, `\n` line ends. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\r\n?/g, '\n')
    .replace(/[\u200b-\u200d\u2060\ufeff\u00ad]/g, '')
    .replace(/[\u00a0\u2000-\u200a\u202f\u205f\u3000\t\f\v]/g, ' ')
    .replace(/[’‘ʼ]/g, "'");
}

/** Collapses all whitespace runs to one space and trims. */
export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Markdown emphasis, code marks and links reduced to their text, whitespace squashed. */
export function stripMarkdown(text: string): string {
  return squash(text.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/(\*\*|__|`)/g, ''));
}

/** Upper-cases the first character, unless the word is written like "iPhone" or "eBay". */
export function capitalize(text: string): string {
  return /^\p{Ll}\p{Lu}/u.test(text) ? text : text.charAt(0).toUpperCase() + text.slice(1);
}

/** At most `max` characters, cut at a word boundary when there is one in the last third. */
export function truncateAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max + 1);
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.66 ? cut.slice(0, space) : text.slice(0, max)).trim();
}

// ---------------------------------------------------------------------------------------------
// Sentences

/** Abbreviations after which a period never ends a sentence ("Dr. Smith", "e.g. Visa", "No. 5"). */
const ABBREVIATIONS = new Set(
  `mr mrs ms dr prof sr jr st mt rev gen col capt lt sgt hon e.g i.e vs cf approx appt apt dept est fig figs no nos
vol vols op ca incl excl resp tel ph ext mins hrs min max avg ref refs pp p.s ed eds`.split(/\s+/),
);
const TERMINATOR = /[.!?…]+["'”»)\]]*(?=\s+(\S)|\s*$)|[。！？]+/g;

/**
 * Sentences of a text, in order. Line breaks always end a sentence. A `.`, `!`, `?` or `…`
 * followed by white space ends one unless the next word starts in lower case, or the period
 * closes an abbreviation ("e.g.", "Dr."), an initial ("J. Smith"), a dotted acronym ("U.S.") or
 * a list number at the start of a line ("1. Open"). Periods inside decimals ("2.5") and URLs
 * are not followed by white space, so they never split. CJK full stops always split.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const line of text.split(/\n/)) {
    let start = 0;
    for (const match of line.matchAll(TERMINATOR)) {
      const at = match.index;
      const end = at + match[0].length;
      if (match[0][0] === '.' && match[0].length === 1 && !endsSentence(line, start, at, match[1])) continue;
      if (match[1] !== undefined && /^\p{Ll}/u.test(match[1])) continue;
      pushTrimmed(sentences, line.slice(start, end));
      start = end;
    }
    pushTrimmed(sentences, line.slice(start));
  }
  return sentences;
}

function endsSentence(line: string, start: number, at: number, next: string | undefined): boolean {
  if (next === undefined) return true;
  let from = at;
  while (from > start && !/\s/.test(line.charAt(from - 1))) from--;
  const word = line.slice(from, at).replace(/^["'(\[]+/, '');
  const lower = word.toLowerCase();
  if (ABBREVIATIONS.has(lower)) return false;
  if (/^\p{Lu}$/u.test(word) || /^(?:\p{L}\.)+\p{L}$/u.test(word)) return false;
  if (/^\d{1,3}$/.test(word) && !line.slice(start, from).trim()) return false;
  return true;
}

function pushTrimmed(into: string[], text: string): void {
  const trimmed = text.trim();
  if (trimmed) into.push(trimmed);
}

