import { stem, terms } from '../../text/terms.js';

/**
 * The values a statement states, and whether another statement says the same thing with other
 * values: "Refunds are processed within 3 business days." and "We process refunds within 5
 * business days." are one fact, revised. Used where the built-in engine merges a changed page into
 * an article (generation) and where it corrects an article from feedback (Refine with AI).
 *
 * Values: figures with their unit (durations, counts, sizes, percentages), amounts with a currency,
 * number words with a unit ("two weeks"), dates (a month with a day, a weekday) and plan names
 * ("the Pro plan").
 */

const UNIT =
  '(?:%|percent|business days?|working days?|days?|weeks?|months?|years?|hours?|minutes?|seconds?|seats?|users?|members?|projects?|' +
  'gb|mb|tb|kb|usd|eur|gbp|chf|dollars?|euros?|pounds?|cents?|times|requests?|items?|orders?|licen[cs]es?)';
const NUMBER_WORD = '(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety|a hundred)';
const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const WEEKDAY = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?';

const VALUE = new RegExp(
  [
    `[$€£]\\s?\\d+(?:[.,]\\d+)*`,
    `\\b${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?\\b`,
    `\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}\\b`,
    `\\b\\d+(?:[.,]\\d+)*\\s*${UNIT}?(?![\\w])`,
    `\\b${NUMBER_WORD}\\s+${UNIT}\\b`,
    `\\b${WEEKDAY}\\b`,
    `\\b(?:the\\s+)?(?!(?:your|my|our|their|his|her|its|every|each|any|this|that|a|an|current|new|same|one|which|what|paid|free trial)\\b)[A-Z][A-Za-z]+\\s+plan\\b`,
  ].join('|'),
  'gi',
);

/** The values of a statement, normalised (lower case, single spaces, "the" dropped). */
export function factValues(sentence: string): string[] {
  return [...sentence.matchAll(VALUE)].map((m) => normalise(m[0]));
}

const normalise = (value: string) => value.toLowerCase().replace(/^the\s+/, '').replace(/\s+/g, ' ').trim();

/** How `sentence` writes one of its values (`value` as factValues gives it): "200 GB" for "200 gb". */
export function valueAsWritten(sentence: string, value: string): string {
  const match = [...sentence.matchAll(VALUE)].find((m) => normalise(m[0]) === value);
  return match ? match[0].replace(/^the\s+/i, '').trim() : value;
}

/** A statement with its values taken out, but for those in `keep` (values both statements share are part of their subject). */
export function withoutValues(sentence: string, keep: ReadonlySet<string> = new Set()): string {
  return sentence.replace(VALUE, (value) => (keep.has(normalise(value)) ? value : ' '));
}

/** Words that mark a change in time, not a subject ("from now on", "currently", "as of today"). */
const TIME_MARKERS = new Set(
  'now currently today tomorrow also still new newly anymore longer starting effective immediately henceforth forward onwards since'.split(' ').map(stem),
);

/** The stemmed content terms of a statement, its values (but those in `keep`) and time markers left out. */
export function subjectTerms(sentence: string, keep: ReadonlySet<string> = new Set()): string[] {
  return [...new Set(terms(withoutValues(sentence, keep)).filter((t) => !TIME_MARKERS.has(t)))];
}

const DURATION = /(?:business days?|working days?|days?|weeks?|months?|years?|hours?|minutes?|seconds?)$/;
const CURRENCY = /^[$€£]|(?:usd|eur|gbp|chf|dollars?|euros?|pounds?|cents?)$/;

/** What a value measures: a duration, an amount, a date, a plan, a count of some unit, or a bare number. */
export function valueKind(value: string): string {
  if (CURRENCY.test(value)) return 'amount';
  if (new RegExp(`^${MONTH}\\b|\\b${MONTH}$|^${WEEKDAY}$`).test(value)) return 'date';
  if (DURATION.test(value)) return 'duration';
  if (/plan$/.test(value)) return 'plan';
  const unit = /^[\d.,]+\s*(\D+)$/.exec(value)?.[1] ?? (/^[a-z]+ (\D+)$/.exec(value)?.[1] ?? '');
  return unit ? unit.replace(/s$/, '') : 'number';
}

/** Whether `after` changes a value of `before` into another value of the same kind (30 days -> 14 days, not 30 days -> 5 projects). */
export function changesValue(before: readonly string[], after: readonly string[]): boolean {
  const gone = new Set(before.filter((v) => !after.includes(v)).map(valueKind));
  return after.some((v) => !before.includes(v) && gone.has(valueKind(v)));
}

/** Jaccard similarity of two statements' subjects at or above which they are one fact. */
export const SAME_SUBJECT = 0.8;

/**
 * Whether `next` restates `old` with other values: both state values, they are not the same
 * values, and their subjects (the content terms besides the values) are nearly the same words.
 */
export function isRevision(old: string, next: string): boolean {
  const before = factValues(old);
  const after = factValues(next);
  if (before.length === 0 || after.length === 0) return false;
  if (!changesValue(before, after)) return false;
  const shared = new Set(before.filter((v) => after.includes(v)));
  const a = subjectTerms(old, shared);
  const b = new Set(subjectTerms(next, shared));
  if (a.length === 0 || b.size === 0) return false;
  const common = a.filter((t) => b.has(t)).length;
  return common / (a.length + b.size - common) >= SAME_SUBJECT;
}
