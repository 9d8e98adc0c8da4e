import { createHash } from 'node:crypto';

/**
 * When a refreshed source "changed": the rule of docs/sources.md, in code. Paragraphs are compared
 * after normalisation, so that only a difference a reader would notice counts:
 * - case, whitespace and punctuation are ignored (currency, %, +, -, <, >, = are kept: "10%" and
 *   "10€" differ);
 * - dates ("March 3, 2026", "2026-03-03", "03/03/2026", "2026-W10"), a time that belongs to a
 *   date ("March 3, 2026 at 10:42") and relative times ("3 days ago", "2 hrs ago") are masked, so a
 *   "last updated" stamp is not a change; a time on its own ("open 9:00 to 17:00") is content;
 * - meta lines are dropped: copyright lines, and short "last updated / published / posted on"
 *   lines that carried a date;
 * - short paragraphs (fewer than SHORT_WORDS words: navigation items, labels, buttons) are
 *   compared as a sorted multiset, so reordered navigation is not a change; longer paragraphs are
 *   compared in order, so moving a step of instructions is.
 * Any other difference of a single word or number is a change: "30 days" becoming "14 days" matters.
 */

const SHORT_WORDS = 4;
/** Stands for a masked date while the paragraph is normalised. */
const DATE = '\u0001';

// Month names match in either case, except "May", which must be capitalised ("may" is a verb).
const MONTHS =
  '[Jj]an(?:uary)?|[Ff]eb(?:ruary)?|[Mm]ar(?:ch)?|[Aa]pr(?:il)?|May|[Jj]une?|[Jj]uly?|[Aa]ug(?:ust)?|[Ss]ep(?:t(?:ember)?)?|[Oo]ct(?:ober)?|[Nn]ov(?:ember)?|[Dd]ec(?:ember)?';
const WEEKDAYS = '[Mm]on(?:day)?|[Tt]ue(?:s(?:day)?)?|[Ww]ed(?:nesday)?|[Tt]hu(?:rs(?:day)?)?|[Ff]ri(?:day)?|[Ss]at(?:urday)?|[Ss]un(?:day)?';
const UNITS = 's|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?|mos?|months?|y|yrs?|years?';

const DATE_PATTERNS: RegExp[] = [
  /\b\d{4}-\d{1,2}-\d{1,2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2})?)?\b/g,
  /\b\d{4}[./]\d{1,2}[./]\d{1,2}\b/g,
  /\b\d{4}-W\d{2}\b/g,
  // d/m/y with a four-digit year, or a two-digit year with slashes only ("2.1.10" is a version).
  /\b\d{1,2}([./-])\d{1,2}\1\d{4}\b/g,
  /\b\d{1,2}\/\d{1,2}\/\d{2}\b/g,
  new RegExp(`\\b(?:(?:${WEEKDAYS}),?\\s+)?(?:${MONTHS})\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?(?:\\s+\\d{4})?\\b`, 'g'),
  new RegExp(`\\b(?:(?:${WEEKDAYS}),?\\s+)?\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?(?:${MONTHS})\\.?,?(?:\\s+\\d{4})?\\b`, 'g'),
  new RegExp(`\\b(?:${MONTHS})\\.?,?\\s+\\d{4}\\b`, 'g'),
  new RegExp(`\\b(?:\\d+|an?|one)\\s*(?:${UNITS})\\s+ago\\b`, 'gi'),
  /\b(?:today|yesterday)\b/gi,
];
/** A time right after a masked date: "<date>, 10:42 am", "<date> at 10:42 UTC". */
const TIME_AFTER_DATE = new RegExp(`${DATE}\\s*(?:,|at)?\\s*\\d{1,2}(?::\\d{2}){1,2}\\s*(?:[ap]\\.?m\\.?)?(?:\\s*(?:UTC|GMT|[A-Z]{2,4}T))?`, 'gi');

const COPYRIGHT = /^(?:©|\(c\)|copyright\b|all rights reserved)/;
const STAMP = /^(?:last (?:updated|modified|edited|reviewed)|(?:updated|modified|published|posted|edited)(?: on| at)?|\d+ ?min(?:ute)?s? read|reading time)\b/;

/** One paragraph as the rule compares it: '' when it carries nothing to compare. */
export function normalizeParagraph(paragraph: string): string {
  let text = paragraph.normalize('NFKC');
  for (const pattern of DATE_PATTERNS) text = text.replace(pattern, DATE);
  text = text.replace(TIME_AFTER_DATE, DATE);
  const hadDate = text.includes(DATE);
  text = text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{Sc}%+\-<>=©]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const words = text ? text.split(' ').length : 0;
  if (COPYRIGHT.test(text) && words <= 15) return '';
  if (hadDate && STAMP.test(text) && words <= 12) return '';
  // Nothing left but the dates that were masked.
  if (hadDate && !/[\p{L}\p{N}]/u.test(text)) return '';
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

export interface ChangeState {
  paragraphs: string[];
  oldParagraphs: string[];
  changed: boolean;
  /** Fingerprint of `paragraphs`; null before the first successful run. */
  fingerprint: string | null;
  linked: boolean;
}

/**
 * The change fields after a run that extracted `paragraphs`. While a linked source is flagged, the
 * comparison is against `oldParagraphs`, the content its knowledge was made from: a page that
 * changes again stays flagged with the same `oldParagraphs`, and one that returns to that content
 * is no longer flagged. Otherwise the comparison is against the previous run.
 */
export function compareContent(
  before: ChangeState,
  paragraphs: string[],
  fingerprint: string,
): { oldParagraphs: string[]; changed: boolean } {
  if (before.changed && before.linked) {
    if (contentFingerprint(before.oldParagraphs) === fingerprint) return { oldParagraphs: before.paragraphs, changed: false };
    return { oldParagraphs: before.oldParagraphs, changed: true };
  }
  const differs = before.fingerprint !== null && before.fingerprint !== fingerprint;
  if (!differs) return { oldParagraphs: before.oldParagraphs, changed: false };
  return { oldParagraphs: before.paragraphs, changed: before.linked };
}
