import { createHash } from 'node:crypto';

/**
 * When a refreshed source "changed": the rule of docs/sources.md, in code. Paragraphs are compared
 * after normalisation, so that only a difference a reader would notice counts:
 * - case, whitespace and punctuation are ignored;
 * - dates, times and relative times ("3 days ago") are masked, so a "last updated" stamp or a
 *   date in a footer is not a change;
 * - meta lines (copyright, "last updated", "posted on", reading time) are dropped;
 * - short paragraphs (fewer than SHORT_WORDS words: navigation items, labels, buttons) are
 *   compared as a sorted multiset, so reordered navigation is not a change; longer paragraphs are
 *   compared in order, so moving a step of instructions is.
 * Any other difference of a single word is a change: "30 days" becoming "14 days" matters.
 */

const SHORT_WORDS = 4;

const MONTHS =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const WEEKDAYS = 'mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?';

const DATE_PATTERNS: RegExp[] = [
  /\b\d{4}-\d{2}-\d{2}(?:[t ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?)?\b/g,
  /\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b/g,
  new RegExp(`\\b(?:(?:${WEEKDAYS}),?\\s+)?(?:${MONTHS})\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?(?:\\s+\\d{4})?\\b`, 'g'),
  new RegExp(`\\b(?:(?:${WEEKDAYS}),?\\s+)?\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?(?:${MONTHS})\\.?,?(?:\\s+\\d{4})?\\b`, 'g'),
  new RegExp(`\\b(?:${MONTHS})\\.?\\s+\\d{4}\\b`, 'g'),
  /\b\d{1,2}:\d{2}(?::\d{2})?\s*(?:am|pm)?(?:\s*(?:utc|gmt|[a-z]{2,4}t))?\b/g,
  /\b(?:\d+|an?|one)\s+(?:second|minute|hour|day|week|month|year)s?\s+ago\b/g,
  /\b(?:today|yesterday)\b/g,
];

const META_LINE =
  /^(?:©|\(c\)|copyright\b|all rights reserved|last (?:updated|modified|edited|reviewed)\b|(?:updated|modified|published|posted|edited)(?: on| at)?\b|\d+\s*min(?:ute)?s?\s+read\b|reading time\b)/;

/** One paragraph as the rule compares it: '' when it carries nothing to compare. */
export function normalizeParagraph(paragraph: string): string {
  let text = paragraph.normalize('NFKC').toLowerCase();
  for (const pattern of DATE_PATTERNS) text = text.replace(pattern, ' ');
  text = text
    .replace(/[^\p{L}\p{N}©]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (META_LINE.test(text) && text.split(' ').length <= 15) return '';
  // A paragraph left with nothing but numbers was a date or a counter.
  if (!/\p{L}/u.test(text)) return '';
  return text;
}

/** The canonical form of a page's content under the rule. */
export function canonicalContent(paragraphs: readonly string[]): string {
  const ordered: string[] = [];
  const short: string[] = [];
  for (const paragraph of paragraphs) {
    const text = normalizeParagraph(paragraph);
    if (!text) continue;
    if (text.split(' ').length < SHORT_WORDS) short.push(text);
    else ordered.push(text);
  }
  short.sort();
  return `${ordered.join('\n')}\n--\n${short.join('\n')}`;
}

/** A fingerprint of the content: equal fingerprints mean no meaningful change. */
export function contentFingerprint(paragraphs: readonly string[]): string {
  return createHash('sha256').update(canonicalContent(paragraphs)).digest('hex');
}
