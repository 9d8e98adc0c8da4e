import type { ConditionGroup, Predicate } from '../../evaluators/conditions.js';
import type { CollectDataType } from '../../evaluators/flow.js';
import { splitSentences } from '../../text/sentences.js';
import { similarity } from '../../text/similarity.js';
import { terms } from '../../text/terms.js';

/**
 * How the built-in engine reads a rule's plain-language instructions (docs/rules.md), shared by
 * its `draft_rule` and `refine_rule` methods: the steps and their quoted texts, the fields a
 * collect step asks for (and the question put to the customer), and the condition a step names.
 */

// ---------------------------------------------------------------------------------------------
// Steps

const QUOTE = /["“”„]([^"“”„]{1,2000})["“”]|(?<![\p{L}])'([^']{2,2000})'(?![\p{L}])/gu;

/** Quoted texts are lifted out first so that sentence splitting and patterns never cut them. */
function protectQuotes(text: string): { text: string; quotes: string[] } {
  const quotes: string[] = [];
  const replaced = text.replace(QUOTE, (_m, a: string | undefined, b: string | undefined) => {
    const quote = (a ?? b ?? '').trim();
    quotes.push(quote);
    // A quote that ends a sentence ends the step too ('Say "Done." Close the chat.').
    return `⟦${quotes.length - 1}⟧${/[.!?]$/.test(quote) ? '.' : ''}`;
  });
  return { text: replaced, quotes };
}

// (After a quoted reply only "else" / "otherwise" start a step: 'Say "Free!" unless ...' goes on.)
const LOWER_CASE_STEP = /(?<=[\p{L}\p{N}][.!?])\s+(?=(?:if|else|otherwise|when|unless|then|ask|say|tell|reply|escalate|hand|transfer|tag|offer|give)\b)|(?<=⟧[.!?])\s+(?=(?:else|otherwise)\b)/u;
const LIST_MARK = /^\s*(?:(?:step\s+)?\d{1,3}[.):]|[-*•+]|\(\w\))\s+/i;

/**
 * The instructions' preamble (trigger description), their steps and their quoted texts: a step's
 * `⟦n⟧` stands for `quotes[n]`.
 */
export function splitSteps(instructions: string): { preamble: string | null; steps: string[]; quotes: string[]; text: string } {
  const { text, quotes } = protectQuotes(instructions.replace(/\r\n?/g, '\n'));
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  let preamble: string | null = null;
  let bodies: string[];
  if (lines.some((l) => LIST_MARK.test(l))) {
    const first = lines[0]!;
    if (!LIST_MARK.test(first)) {
      preamble = first.replace(/:$/, '');
      bodies = lines.slice(1).map((l) => l.replace(LIST_MARK, ''));
    } else {
      bodies = lines.map((l) => l.replace(LIST_MARK, ''));
    }
  } else {
    // Leads often go on in lower case after a full stop ("... the total. if it is over $75 say ...").
    bodies = lines.flatMap((l) => splitSentences(l)).flatMap((b) => b.split(LOWER_CASE_STEP));
    if (bodies.length > 1 && /:$/.test(bodies[0]!)) preamble = bodies.shift()!.replace(/:$/, '');
    // "Warranty claims: ask for ...": a short title before a colon is the trigger.
    const titled = preamble === null ? /^([^:⟦]{2,60}):\s+(.+)$/.exec(bodies[0] ?? '') : null;
    if (titled && titled[1]!.trim().split(/\s+/).length <= 5 && !/^(?:when|if|whenever)\b/i.test(titled[1]!)) {
      preamble = titled[1]!.trim();
      bodies[0] = titled[2]!;
    }
  }
  // "When a customer asks about X: ..." opening the prose is a trigger, not a step.
  if (preamble === null && bodies.length > 0 && /^(?:when|if)\b[^:]*\b(?:asks?|wants?|requests?|contacts?|writes?|mentions?)\b[^:]*:\s*/i.test(bodies[0]!)) {
    const match = /^(.*?):\s*(.*)$/.exec(bodies[0]!)!;
    preamble = match[1]!;
    bodies[0] = match[2]!;
    if (!bodies[0]) bodies.shift();
  }
  const restore = (v: string) => v.replace(/⟦(\d+)⟧\.?/g, (_m, i: string) => `"${quotes[Number(i)]}"`);
  const steps = bodies.map((body) => body.trim().replace(/[.;]+$/, '')).filter(Boolean);
  return { preamble: preamble ? restore(preamble) : null, steps, quotes, text };
}

export const quotesIn = (text: string, quotes: readonly string[]) => [...text.matchAll(/⟦(\d+)⟧/g)].map((m) => quotes[Number(m[1])]!);

// ---------------------------------------------------------------------------------------------
// Fields

const DROP_WORDS = new Set(['the', 'a', 'an', 'their', 'his', 'her', 'your', 'its', 'customer', "customer's", 'customers', 'user', "user's", 'them', 'him', 'me', 'us', 'of', 'please', 'first', 'also', 'then', 'too', 'again', 'exact', 'full']);

/** camelCase field name of a noun phrase ("order number" -> orderNumber, "e-mail address" -> email). */
export function fieldName(phrase: string): string {
  const lower = phrase.toLowerCase();
  if (/\be-?mail\b/.test(lower)) return 'email';
  if (/\bphone\b|\bmobile\b/.test(lower)) return 'phoneNumber';
  const words = lower
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter((w) => w && !DROP_WORDS.has(w))
    .slice(0, 4);
  const base = words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join('');
  const clean = base.replace(/^[^a-z_]+/, '');
  return (clean || 'answer').slice(0, 64);
}

/** The data type a field's answer is read as. */
export function fieldType(phrase: string): CollectDataType {
  const lower = phrase.toLowerCase();
  if (/\be-?mail\b/.test(lower)) return 'email';
  if (/\b(?:date|birthday|day of|when|how long ago)\b/.test(lower)) return 'days';
  if (/\b(?:amount|quantity|how many|how much|number of|count|price|total|cost|age|sum|units)\b/.test(lower)) return 'number';
  if (/\b(?:number|no|nr|id|reference|ref|code)\b|#/.test(lower) && !/\bphone\b|\bdigits\b/.test(lower)) return 'identifier';
  return 'string';
}

/** Second person for a question put to the customer. */
export function toSecondPerson(text: string): string {
  return text
    .replace(/\b(?:the customer's|the user's|their|his|her)\b/gi, 'your')
    .replace(/\b(?:the customer|the user|they|he|she)\b/gi, 'you')
    .replace(/\byou (?:has|does)\b/gi, (m) => (m.toLowerCase().endsWith('has') ? 'you have' : 'you do'))
    .replace(/\byou is\b/gi, 'you are')
    .replace(/\byou was\b/gi, 'you were');
}

export function questionFor(phrase: string, type: CollectDataType, whether: boolean): string {
  if (whether) {
    const clause = toSecondPerson(phrase).replace(/^(?:if|whether)\s+/i, '');
    return `Could you tell me whether ${clause}?`;
  }
  if (/^(?:what|which|how|when|where|who|why)\b/i.test(phrase.trim())) return `Could you tell me ${toSecondPerson(phrase.trim())}?`;
  const noun = toSecondPerson(phrase).replace(/^(?:your|the|a|an)\s+/i, '');
  if (type === 'email') return /\be-?mail\b/i.test(noun) && noun.split(/\s+/).length > 2 ? `What is the ${noun}?` : 'What is your email address?';
  if (type === 'days') return `When was ${/\bof\b/i.test(noun) ? 'the' : 'your'} ${noun.replace(/\bdate\s+of\s+(?:the\s+)?/i, '').replace(/\s*\bdate\b\s*/i, ' ').trim() || 'it'}? (a date, or how many days ago)`;
  return /\bof\b/i.test(noun) ? `What is the ${noun}?` : `What is your ${noun}?`;
}

// ---------------------------------------------------------------------------------------------
// Conditions

const COMPARATORS: [RegExp, Predicate['operator']][] = [
  [/\b(?:is\s+)?(?:over|above|more than|greater than|higher than|exceeds?|bigger than)\s+/i, '>'],
  [/\b(?:is\s+)?(?:under|below|less than|lower than|smaller than)\s+/i, '<'],
  [/\b(?:is\s+)?at least\s+/i, '>='],
  [/\b(?:is\s+)?at most\s+/i, '<='],
];
const SPEECH_VERBS = /^(?:says?|said|mentions?|writes?|asks?|wants?|tells?|reports?|claims?|thinks?|feels?|complains?|explains?|has|had|is|was)\b/i;
const HUMAN = /\b(?:human|person|people|agent|representative|someone|somebody|operator|manager|staff)\b/i;

/** Which known field a condition text speaks of, by shared words. */
export function knownField<F extends { field: string; phrase: string }>(text: string, fields: readonly F[]): F | undefined {
  const lower = text.toLowerCase();
  let best: F | undefined;
  let bestScore = 0;
  for (const f of fields) {
    const score = similarity(lower, f.phrase) + (lower.includes(f.phrase.toLowerCase()) ? 1 : 0);
    if (score > bestScore) {
      best = f;
      bestScore = score;
    }
  }
  return bestScore > 0.3 ? best : undefined;
}

const group = (...predicate: Predicate[]): ConditionGroup[] => [{ scope: 'SCALAR', predicate }];
export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A condition on the evaluation context that says what the text says, as well as words allow. */
export function conditionFor(text: string, fields: readonly { field: string; phrase: string }[], quotes: readonly string[] = []): { conditions: ConditionGroup[]; customerAsksForHuman: boolean } {
  const plain = text.replace(/⟦\d+⟧/g, '').trim();
  if (/\b(?:asks?|wants?|requests?|demands?|insists?)\b.*\b(?:to (?:talk|speak)|for|a)\b/i.test(plain) && HUMAN.test(plain)) {
    return {
      conditions: group({ left: { path: 'message.content', dataType: 'string' }, operator: 'matches', right: { value: '\\b(human|person|agent|representative|someone|operator|manager)\\b' } }),
      customerAsksForHuman: true,
    };
  }
  for (const [pattern, operator] of COMPARATORS) {
    const match = pattern.exec(plain);
    const number = match ? /-?\d+(?:[.,]\d+)?/.exec(plain.slice(match.index + match[0].length)) : null;
    if (match && number) {
      const subject = plain.slice(0, match.index);
      const field = knownField(subject, fields)?.field ?? fieldName(subject.replace(/^(?:if|when)\s+/i, '').replace(/\bis\b/gi, ''));
      return {
        conditions: group({ left: { path: `rule.${field}`, dataType: 'number' }, operator, right: { value: Number(number[0].replace(',', '.')) } }),
        customerAsksForHuman: false,
      };
    }
  }
  const attribute = /\b(?:customer|user)(?:'s|s')?\s+([\p{L}\s]{1,40}?)\s+is\s+(?:not\s+)?["“]?([\p{L}\p{N}_-]+)/iu.exec(plain);
  if (attribute && !SPEECH_VERBS.test(attribute[1]!)) {
    const negated = /\bis\s+not\b/i.test(plain);
    return {
      conditions: group({ left: { path: `userAttributes.${fieldName(attribute[1]!)}`, dataType: 'string' }, operator: negated ? '!=' : '==', right: { value: attribute[2]!.toLowerCase() } }),
      customerAsksForHuman: false,
    };
  }
  const field = knownField(plain, fields);
  if (field) {
    const yesNo = /\b(?:is\s+)?(yes|no|true|false)\b/i.exec(plain) ?? (/\b(?:doesn't|does not|don't|do not|has no|hasn't|not)\b/i.test(plain) ? ['', 'no'] : null);
    if (yesNo) {
      return { conditions: group({ left: { path: `rule.${field.field}`, dataType: 'boolean' }, operator: '==', right: { value: /yes|true/i.test(yesNo[1]!) } }), customerAsksForHuman: false };
    }
    const value = quotes[0] ?? /\bis\s+["“]?([\p{L}\p{N}_-]+)/iu.exec(plain)?.[1];
    if (value) {
      const numeric = /^-?\d+(?:\.\d+)?$/.test(value);
      return {
        conditions: group({ left: { path: `rule.${field.field}`, dataType: numeric ? 'number' : 'string' }, operator: '==', right: { value: numeric ? Number(value) : value } }),
        customerAsksForHuman: false,
      };
    }
    return { conditions: group({ left: { path: `rule.${field.field}`, dataType: 'string' }, operator: 'exists' }), customerAsksForHuman: false };
  }
  // "the customer mentions X": the message contains one of the topic's words.
  // Quoted texts are alternatives; otherwise every content word must appear (by its stem, so
  // "damaged" also finds "damage"), at most four of them.
  if (quotes.length) {
    const alternatives = quotes.map((q) => escapeRegex(q.toLowerCase())).join('|');
    return { conditions: group({ left: { path: 'message.content', dataType: 'string' }, operator: 'matches', right: { value: `\\b(${alternatives})` } }), customerAsksForHuman: false };
  }
  const stems = [...new Set(contentWords(plain).flatMap((w) => terms(w)))].slice(0, 4);
  if (stems.length === 0) return { conditions: group({ left: { path: 'message.content', dataType: 'string' }, operator: 'exists' }), customerAsksForHuman: false };
  const value = stems.length === 1 ? `\\b${escapeRegex(stems[0]!)}` : `^${stems.map((t) => `(?=[\\s\\S]*\\b${escapeRegex(t)})`).join('')}`;
  return { conditions: group({ left: { path: 'message.content', dataType: 'string' }, operator: 'matches', right: { value } }), customerAsksForHuman: false };
}

const CONDITION_NOISE = new Set(['customer', 'user', 'they', 'says', 'say', 'mentions', 'mention', 'asks', 'ask', 'wants', 'want', 'message', 'writes', 'about', 'is', 'are', 'the', 'if', 'when', 'their', 'a', 'an', 'it', 'that', 'has', 'have']);

export function contentWords(text: string): string[] {
  const out: string[] = [];
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (CONDITION_NOISE.has(word) || terms(word).length === 0 || out.includes(word)) continue;
    out.push(word);
  }
  return out.slice(0, 6);
}

