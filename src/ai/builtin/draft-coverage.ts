import { type FlowNode, flowNodes } from '../../evaluators/flow.js';
import { terms } from '../../text/terms.js';
import { type DraftWarning, ESCALATE } from './flow-drafting.js';

/**
 * The last check of a drafted rule (docs/rules.md, "what the reader does not understand"): every
 * sentence of the instructions that asks for something must show in the flow, or be named in the
 * warnings. The reader splits steps on the forms it knows; a sentence it took for part of another
 * ("... over 100 dollars. refunds of 100 or less: say ...") would otherwise vanish without a word.
 *
 * A sentence asks for
 * - a reply when it says "say / tell / reply / let them know" or quotes a text: some message in the
 *   flow shares its words;
 * - a hand-over when it says "escalate / hand over / transfer" (not "don't hand over"): the flow has
 *   an escalation;
 * - a question when it says "ask for / ask whether": the flow collects something it names;
 * - a comparison with a number ("over 100 dollars", "30 days or more") before what it says: a
 *   condition of the flow holds that number (or it in days: weeks, months, years).
 *
 * Each sentence that misses one is added to the warnings, whole.
 */

const SAYS = /\b(?:say|tell|reply|respond|let (?:them|the customer|the user|him|her) know|inform|explain)\b|⟦\d+⟧/i;
const NO_HANDOVER = /\b(?:don'?t|do not|never|no need to|without)\s+(?:\w+\s+){0,2}(?:escalate|hand|transfer|pass)/i;
const ASKS = /\b(?:ask|request|collect|get|find out)\s+(?:(?:the customer|the user|them|him|her)\s+)?(?:for|whether|if|which|what|how|when|about)\b/i;
const COMPARISON =
  /\b(?:over|under|above|below|more than|less than|fewer than|at least|at most|older than|newer than|up to|greater than|exceeds?|within)\s+[$€£]?\s?(\d[\d,]*(?:\.\d+)?)|[$€£]?(\d[\d,]*(?:\.\d+)?)\s*(?:[\p{L}]+\s+)?or\s+(?:more|less|fewer|older|newer|under|over|above|below|longer)\b/iu;

interface FlowContents {
  messages: Set<string>[];
  escalates: boolean;
  collected: Set<string>;
  numbers: Set<number>;
}

function contents(flow: FlowNode): FlowContents {
  const out: FlowContents = { messages: [], escalates: false, collected: new Set(), numbers: new Set() };
  for (const { node } of flowNodes(flow)) {
    if (node.type === 'escalate') out.escalates = true;
    if ((node.type === 'message' || node.type === 'escalate' || node.type === 'end') && node.message) out.messages.push(new Set(terms(node.message)));
    if (node.type === 'collect') for (const t of terms(`${node.field.replace(/([a-z])([A-Z])/g, '$1 $2')} ${node.question}`)) out.collected.add(t);
    if (node.type === 'condition') for (const n of JSON.stringify(node.conditions).match(/-?\d+(?:\.\d+)?/g) ?? []) out.numbers.add(Number(n));
  }
  return out;
}

/** The instruction's sentences (quotes kept as ⟦n⟧): a full stop, `;`, `!`, `?` or a line ends one, whatever the case after it. */
function sentencesOf(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?;])\s+/)
    .map((s) => s.replace(/^\s*(?:(?:step\s+)?\d{1,3}[.):]|[-*•+])\s+/i, '').trim())
    .filter((s) => /\p{L}/u.test(s));
}

const inDays = (n: number) => [n, n * 7, n * 30, n * 31, n * 365];

/**
 * Sentences of `instructions` (quotes protected as ⟦n⟧, `quotes` restores them) that the flow does
 * not show and no warning names, as written (with their ⟦n⟧).
 */
export function unshownSentences(instructions: string, quotes: readonly string[], flow: FlowNode, warnings: readonly DraftWarning[]): string[] {
  const restore = (s: string) => s.replace(/⟦(\d+)⟧/g, (_m, i: string) => `"${quotes[Number(i)] ?? ''}"`);
  const flowHas = contents(flow);
  const warned = warnings.map((w) => w.fragment.toLowerCase());
  const missing: string[] = [];
  for (const raw of sentencesOf(instructions)) {
    const sentence = restore(raw).replace(/[.;]+$/, '');
    const lower = sentence.toLowerCase();
    if (warned.some((w) => w.includes(lower) || lower.includes(w))) continue;
    const words = new Set(terms(sentence));
    const shared = (set: Set<string>) => [...set].filter((t) => words.has(t)).length;
    const quoted = [...raw.matchAll(/⟦(\d+)⟧/g)].map((m) => new Set(terms(quotes[Number(m[1])] ?? '')));
    const saysShown = quoted.length
      ? quoted.every((q) => q.size === 0 || flowHas.messages.some((m) => [...q].filter((t) => m.has(t)).length >= Math.ceil(q.size * 0.6)))
      : flowHas.messages.some((m) => shared(m) >= Math.min(2, m.size));
    // A number in what is said ("tell them it arrives within 3 days") is the reply's, not a test.
    const said = SAYS.exec(raw);
    const number = COMPARISON.exec(said ? raw.slice(0, said.index) : raw);
    const value = number ? Number((number[1] ?? number[2] ?? '').replace(/,/g, '')) : NaN;
    const gaps = [
      SAYS.test(raw) && !saysShown,
      ESCALATE.test(raw) && !NO_HANDOVER.test(raw) && !flowHas.escalates,
      ASKS.test(raw) && shared(flowHas.collected) === 0,
      Number.isFinite(value) && !inDays(value).some((v) => flowHas.numbers.has(v)),
    ];
    if (gaps.some(Boolean)) missing.push(raw.replace(/[.;]+$/, ''));
  }
  return missing;
}
