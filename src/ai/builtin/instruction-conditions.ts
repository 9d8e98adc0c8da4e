import type { ConditionGroup, Predicate } from '../../evaluators/conditions.js';
import type { CollectDataType } from '../../evaluators/flow.js';
import { stem } from '../../text/terms.js';
import { conceptsOf, SYNONYM_GROUPS } from '../../text/thesaurus.js';
import { CURRENCY, readNumber } from '../../text/values.js';
import { conditionFor, escapeRegex, fieldName, knownField, toSecondPerson } from './flow-reading.js';

/**
 * How the built-in engine reads the condition of an instruction's "if / when / unless" (docs/rules.md):
 * comparisons on a collected value (with days and money: "older than 30 days", "over $100"), yes/no
 * answers, text tests ("ends in .edu"), two of them joined by and / or, what the customer mentions
 * and asks for. Anything else is NOT read: the caller names it in the draft's warnings instead of
 * guessing a condition that could send a customer down the wrong path.
 */

export interface KnownField {
  field: string;
  phrase: string;
  dataType: CollectDataType;
}

/** A value the condition tests that no step collects yet: the caller asks for it first. */
export interface NeededField extends KnownField {
  question: string;
}

export type ReadCondition =
  | { read: true; conditions: ConditionGroup[]; customerAsksForHuman: boolean; needs: NeededField[] }
  | { read: false };

export const UNDERSTOOD_CONDITIONS =
  'understood conditions: a comparison on a value the flow asks for ("the amount is over $100", "the order is older than 30 days", "in the last 7 days"), a yes/no answer ("if yes", "if it has been used"), a text test ("the email ends in .edu"), two of these joined by and/or, what the customer mentions, and the customer asking for a person';

const COMPARISONS: [RegExp, Predicate['operator']][] = [
  [/\b(?:is\s+|was\s+|it'?s\s+)?(?:over|above|more than|greater than|higher than|exceeds?|bigger than|older than|longer than|later than)\s+/i, '>'],
  [/\b(?:is\s+|was\s+|it'?s\s+)?(?:under|below|less than|lower than|smaller than|younger than|newer than|fewer than|within)\s+/i, '<'],
  [/\b(?:is\s+|was\s+)?(?:in|within) the (?:last|past)\s+/i, '<='],
  [/\b(?:is\s+|was\s+)?at least\s+/i, '>='],
  [/\b(?:is\s+|was\s+)?at most\s+/i, '<='],
];
const UNIT_DAYS: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };
const SUBJECT_NOISE = /^(?:if|when|whenever|unless|and|or|the|it|it's|its|they|they're|that|this)\s+|\s+(?:is|was|are|were|has been|it's)$/gi;

const group = (...predicate: Predicate[]): ConditionGroup[] => [{ scope: 'SCALAR', predicate }];

/** The subject of a comparison: "the order is older than" -> "order". */
function subjectOf(text: string): string {
  let s = text.trim().replace(/[,;]$/, '');
  for (let i = 0; i < 4; i += 1) s = s.replace(SUBJECT_NOISE, '').trim();
  return /^(?:it|they|this|that|its|there)$/i.test(s) ? '' : s;
}

function questionForDays(noun: string, late: boolean): string {
  const yours = toSecondPerson(noun ? `the ${noun}` : 'it').replace(/^the\s+/i, 'your ');
  return late ? `How many days late is ${yours}?` : `When was ${yours}? (a date, or how many days ago)`;
}

function questionForAmount(noun: string): string {
  return noun ? `How much was ${toSecondPerson(`the ${noun}`).replace(/^the\s+/i, 'your ')}?` : 'How much was it?';
}

/** One comparison on a number, an amount or a count of days. */
function comparison(text: string, fields: readonly KnownField[]): Exclude<ReadCondition, { read: false }> | null {
  for (const [pattern, operator] of COMPARISONS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const after = text.slice(match.index + match[0].length);
    const amount = /^([$€£]\s*)?(\d[\d,.']*)(?:\s*([$€£]|dollars?|euros?|pounds?))?(?:\s+(day|week|month|year)s?\b)?(?:\s+(late|old|ago|away|from (?:now|today)))?/i.exec(after);
    if (!amount) continue;
    const value = readNumber(amount[0]);
    if (value === undefined) continue;
    const unit = amount[4]?.toLowerCase();
    const money = Boolean(amount[1] || amount[3]) || CURRENCY.test(after.slice(0, 12));
    const kind: 'days' | 'number' = unit ? 'days' : 'number';
    const threshold = unit ? value * UNIT_DAYS[unit]! : value;
    const counted = unit ? undefined : /^\s+([\p{L}]{3,})/u.exec(after.slice(amount[0].length))?.[1];
    const said = subjectOf(text.slice(0, match.index));
    // "there are more than 10 items": the counted noun is the subject.
    const subject = (!said || /^there(?:\s+(?:are|is))?$/i.test(said)) && counted ? counted : said;
    // ("how many days late" is asked as a number, and counts days.)
    const countsDays = (f: KnownField) => f.dataType === 'number' && /\bdays?\b/i.test(f.phrase);
    const compatible = fields.filter((f) => (kind === 'days' ? f.dataType === 'days' || f.dataType === 'date' || countsDays(f) : f.dataType === 'number'));
    const found = subject ? knownField(subject, compatible) : compatible.length === 1 ? compatible[0] : undefined;
    const late = /\blate\b/i.test(amount[5] ?? '');
    const needs: NeededField[] = [];
    let field = found?.field;
    if (!field) {
      const noun = subject.replace(/^(?:the|a|an|their|your)\s+/i, '');
      const base = fieldName(noun || (money ? 'amount' : 'value'));
      field = kind === 'days' ? `${base}${late ? 'DaysLate' : 'AgeDays'}` : money && !/amount|total|price|cost/i.test(base) ? `${base}Amount` : base;
      if (!noun && kind === 'number' && !money) return null;
      needs.push({ field, phrase: noun || field, dataType: kind === 'days' ? 'days' : 'number', question: kind === 'days' ? questionForDays(noun, late) : questionForAmount(noun) });
    }
    const effective = kind === 'days' && found?.dataType === 'date' ? null : field;
    if (!effective) return null;
    return { read: true, conditions: group({ left: { path: `rule.${effective}`, dataType: 'number' }, operator, right: { value: threshold } }), customerAsksForHuman: false, needs };
  }
  return null;
}

const YES = /^(?:if\s+)?(?:yes|so|they do|they say yes|it is|they agree)$/i;
const NO = /^(?:if\s+)?(?:no|not|they don't|they do not|they say no)$/i;

/** A yes/no answer: "if yes", "if it has (not) been used" (a boolean field named by its words). */
function yesNo(text: string, fields: readonly KnownField[]): Exclude<ReadCondition, { read: false }> | null {
  const booleans = fields.filter((f) => f.dataType === 'boolean');
  if (booleans.length === 0) return null;
  const plain = text.replace(/^(?:if|when)\s+/i, '').trim();
  const last = booleans[booleans.length - 1]!;
  const answer = (field: KnownField, value: boolean) => ({ read: true as const, conditions: group({ left: { path: `rule.${field.field}`, dataType: 'boolean' }, operator: '==', right: { value } }), customerAsksForHuman: false, needs: [] });
  if (YES.test(plain)) return answer(last, true);
  if (NO.test(plain)) return answer(last, false);
  const field = knownField(plain.replace(/\b(?:not|never|hasn't|has not|haven't|have not|isn't|doesn't|don't)\b/gi, ' '), booleans);
  if (!field) return null;
  return answer(field, !/\b(?:not|never|hasn't|haven't|isn't|doesn't|don't|no)\b/i.test(plain));
}

/** A text test on a collected string: "the email ends in .edu", "the reason is price". */
function textTest(text: string, fields: readonly KnownField[]): Exclude<ReadCondition, { read: false }> | null {
  const test = /^(.*?)\s+(ends? (?:in|with)|starts? with|begins? with|contains|includes|mentions|is|equals)\s+["“]?([^"”]+?)["”]?$/i.exec(text.replace(/^(?:if|when)\s+/i, '').trim());
  if (!test) return null;
  const strings = fields.filter((f) => f.dataType === 'string' || f.dataType === 'email' || f.dataType === 'identifier');
  const subject = subjectOf(test[1]!);
  // "the reason" is what "ask why ..." collected; "the answer" the last text asked for.
  const field =
    knownField(subject, strings) ??
    (/^reasons?$/i.test(subject) ? strings.find((f) => /^why\b|\breasons?\b/i.test(f.phrase)) : /^(?:answer|reply|response)$/i.test(subject) ? strings.at(-1) : undefined);
  if (!field) return null;
  const verb = test[2]!.toLowerCase();
  const value = test[3]!.trim();
  const operator: Predicate['operator'] = verb.startsWith('end') ? 'ends_with' : /^(?:start|begin)/.test(verb) ? 'starts_with' : 'contains';
  // "the reason is price": an answer in the customer's words ("too expensive") says it too.
  const words = operator === 'contains' ? wordsFor(value) : null;
  if (words) return { read: true, conditions: group({ left: { path: `rule.${field.field}`, dataType: 'string' }, operator: 'matches', right: { value: words } }), customerAsksForHuman: false, needs: [] };
  return { read: true, conditions: group({ left: { path: `rule.${field.field}`, dataType: 'string' }, operator, right: { value } }), customerAsksForHuman: false, needs: [] };
}

/** The word's start that its inflections share: "delivery" (stem "deliveri") -> "deliver". */
function commonStart(word: string, stemmed: string): string {
  let n = 0;
  while (n < word.length && word[n] === stemmed[n]) n += 1;
  return word.slice(0, Math.max(n, 3));
}

/**
 * A pattern for a value that the support thesaurus knows, with the other words of its group: each
 * word by the start its forms share ("shipments" says "shipment"), each phrase as written. Null for other values.
 */
function wordsFor(value: string): string | null {
  const { groups } = conceptsOf(value);
  if (groups.size !== 1 || value.split(/\s+/).length > 3) return null;
  const entries = SYNONYM_GROUPS[[...groups][0]!]!;
  const forms = [...new Set([value.toLowerCase(), ...entries].map((e) => (e.includes(' ') ? e : commonStart(e, stem(e)))))];
  return `\\b(?:${forms.map(escapeRegex).join('|')})`;
}

const ABOUT_THE_CUSTOMER = /\b(?:customer|user|someone|they|member|buyer|he|she)\b.*\b(?:mentions?|says?|writes?|asks?|talks?|complains?|reports?|wants?|requests?|demands?|insists?)\b/i;
const ATTRIBUTE = /\b(?:customer|user)(?:'s|s')?\s+[\p{L}\s]{1,40}?\s+is\s+/iu;

/** One condition, not joined. */
function single(text: string, fields: readonly KnownField[], quotes: readonly string[]): ReadCondition {
  const exists = /^(.*?)\s+(?:exists|is (?:given|provided|known|set)|was (?:given|provided))$/i.exec(text.replace(/^(?:if|when)\s+/i, '').trim());
  const present = exists ? knownField(subjectOf(exists[1]!), fields) : undefined;
  if (present) return { read: true, conditions: group({ left: { path: `rule.${present.field}`, dataType: 'string' }, operator: 'exists' }), customerAsksForHuman: false, needs: [] };
  const read = comparison(text, fields) ?? yesNo(text, fields) ?? textTest(text, fields);
  if (read) return read;
  if (ABOUT_THE_CUSTOMER.test(text) || ATTRIBUTE.test(text)) {
    const legacy = conditionFor(text, fields, quotes);
    return { read: true, ...legacy, needs: [] };
  }
  return { read: false };
}

/** Reads a condition text; `{ read: false }` when any part of it is not understood. */
export function readCondition(text: string, fields: readonly KnownField[], quotes: readonly string[] = []): ReadCondition {
  const plain = text.trim().replace(/^(?:if|when|whenever|in case|should|for)\s+/i, '');
  for (const joiner of ['and', 'or'] as const) {
    const parts = plain.split(new RegExp(`\\s*,?\\s+${joiner}\\s+(?=(?:if\\s+)?(?:the|it|it's|they|their|its|there|[\\p{L}]+\\s+(?:is|was|are|has))\\b)`, 'iu'));
    if (parts.length < 2) continue;
    const read = parts.map((p) => single(p, fields, quotes));
    if (read.some((r) => !r.read)) return { read: false };
    const ok = read as Exclude<ReadCondition, { read: false }>[];
    const needs = ok.flatMap((r) => r.needs);
    if (joiner === 'and') return { read: true, conditions: group(...ok.flatMap((r) => r.conditions.flatMap((g) => g.predicate))), customerAsksForHuman: false, needs };
    return { read: true, conditions: ok.flatMap((r) => r.conditions), customerAsksForHuman: false, needs };
  }
  return single(plain, fields, quotes);
}
