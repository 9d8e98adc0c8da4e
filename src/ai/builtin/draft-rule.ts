import type { DraftingAction, DraftingTag } from '../contracts/draft-rule.js';
import { capitalize, squash, truncateAtWord } from '../../text/sentences.js';
import { terms } from '../../text/terms.js';
import { unshownSentences } from './draft-coverage.js';
import { type DraftedRule, type Scope, buildChain, link, warn } from './flow-drafting.js';
import { splitSteps } from './flow-reading.js';

/**
 * The built-in engine's rule drafting (docs/rules.md): plain-language instructions become a rule
 * flow. Deterministic and offline. It reads one step per line (numbered `1.`/`1)`, bulleted `-`,
 * `*`, `•`) or, in prose, one step per sentence (and "..., then ..." within one), and knows these shapes:
 *
 * - "ask (the customer) for X (and Y)", "ask whether X", "ask which/how ..." -> collect nodes
 * - "if/when X(,) (then) Y(, otherwise Z)", "unless", a following "Otherwise Z" step -> condition
 *   nodes (instruction-conditions.ts reads the condition; a value it tests that no step asks for is asked first)
 * - "escalate / hand over / transfer to a human (when X)" -> escalate
 * - "tag (it) (as) X" -> a tag node naming the workspace tag X
 * - quoted text, "say/tell/reply ...", "offer/give ...", "apologise" -> message nodes
 * - "end/close the conversation" -> end; "look up / check / cancel ... " naming an action -> tool
 *
 * A first line or sentence such as "When a customer asks about a refund:", "Refunds:" or "If the
 * customer asks for an invoice, ..." is the rule's trigger. Every other part it cannot read is named
 * in `warnings`.
 */

// ---------------------------------------------------------------------------------------------
// Trigger and name

/** Who writes in: "a customer", "someone", "they", "a company", "one of our members". */
const ASKERS = String.raw`(?:(?:someone|somebody|anyone|they)|(?:a|an|the|one of our|our)\s+(?:[\p{L}-]+\s+)?(?:customer|user|member|shopper|buyer|client|person|company|business|visitor|caller|guest|parent|student|teacher|partner|reseller|seller|organi[sz]ation|team|school|store|shop)s?|(?:customers|users|members|people))`;
const TRIGGER_VERBS = String.raw`(?:asks?|wants?|requests?|contacts?|writes?|mentions?|says?|complains?|reports?|needs?)`;
const TRIGGER = new RegExp(String.raw`^(?:when|if|whenever)\s+${ASKERS}\s+${TRIGGER_VERBS}\b[^,:]*?(?=[,:]|\s+(?:ask|tag|say|tell|reply|escalate|hand|transfer|apologi[sz]e|give|offer)\b)`, 'iu');

const ASKER = new RegExp(String.raw`^(?:when|if|whenever)\s+${ASKERS}\s+`, 'iu');

/** The trigger said at the start of prose ("If the customer asks for an invoice, ask ..."), and the rest. */
function leadingTrigger(step: string): { trigger: string; rest: string } | null {
  const match = TRIGGER.exec(step) ?? /^(?:for|anything (?:about|regarding))\s+[^,:]+?(?=[,:]|\s+[-–—]\s+|\s+(?:ask|tag|say|tell|escalate|hand|transfer)\b)/i.exec(step);
  // "If the customer asks to speak to a human, ...": a condition of the flow, not the rule's topic.
  // ("If someone asks for a student discount" is a topic: who asks is not what they ask for.)
  if (!match || /\b(?:human|person|agent|representative|operator|manager|someone)\b/i.test(match[0].replace(ASKER, ''))) return null;
  const rest = step.slice(match[0].length).replace(/^\s*(?:[,:]|[-–—])?\s*(?:then\s+)?/, '');
  return rest ? { trigger: match[0].trim(), rest } : null;
}

const NAME_NOISE = /^(?:(?:when|if|whenever|for|anything)\s+)?(?:(?:a|an|the|one of our)\s+)?(?:(?:customer|user|someone|somebody|member|shopper|buyer|client|person)s?\s+)?(?:(?:asks?|wants?|requests?|contacts?|writes?|mentions?|says?|reports?|needs?)\s+)?(?:(?:about|regarding|for|to)\s+)?(?:(?:a|an|the|their|his|her|your|some)\s+)?/i;
const INSTRUCTION_VOCABULARY = new Set(
  'ask asks say tell reply otherwise else then if when unless escalate hand over transfer human agent team customer customers order orders number days day older more less than tag them they their say offer give code please the and or with for of to a an you we our us will your it is are was be'.split(' '),
);

/** A short title from the instructions' most said word, with its neighbour when they go together. */
function keywordName(text: string): string | null {
  const words = (text.toLowerCase().match(/[\p{L}][\p{L}'-]+/gu) ?? []).filter((w) => w.length > 2);
  const counts = new Map<string, number>();
  for (const w of words) if (!INSTRUCTION_VOCABULARY.has(w) && terms(w).length) counts.set(w, (counts.get(w) ?? 0) + 1);
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1] || words.indexOf(a[0]) - words.indexOf(b[0]))[0]?.[0];
  if (!top) return null;
  const i = words.indexOf(top);
  const next = words[i + 1];
  const prev = words[i - 1];
  const pair = next && counts.has(next) ? `${top} ${next}` : prev && counts.has(prev) ? `${prev} ${top}` : top;
  return capitalize(pair);
}

function nameFrom(trigger: string | null, instructions: string): string {
  if (trigger) {
    const complaint = /\bcomplains?\b/i.test(trigger);
    let base = squash(trigger.replace(/\([^)]*\)/g, ' ').replace(/"[^"]*"/g, ' ').replace(/[:.,]+$/, ''));
    base = base.replace(NAME_NOISE, '').replace(/\b(?:their|his|her)\s+/gi, '');
    base = base.replace(/^(?:complains?\s+)?(?:about\s+)?/i, '');
    if (complaint) base = `Complaint about ${base}`;
    const name = capitalize(truncateAtWord(base, 50));
    if (name && name.split(/\s+/).length <= 8) return name;
  }
  return keywordName(instructions.replace(/"[^"]*"|'[^']*'/g, (q) => ` ${q} `)) ?? 'Rule';
}

/** Drafts a rule (name, trigger description, flow, warnings) from instructions. */
export function draftRuleFlow(input: { behaviorInstructions: string; tags: readonly DraftingTag[]; actions: readonly DraftingAction[] }): DraftedRule {
  const split = splitSteps(input.behaviorInstructions);
  let preamble = split.preamble;
  const steps = [...split.steps];
  if (!preamble && steps.length) {
    const lead = leadingTrigger(steps[0]!);
    if (lead) {
      preamble = lead.trigger;
      steps[0] = lead.rest;
    }
  }
  const scope: Scope = { tags: input.tags, actions: input.actions, fields: [], ids: new Set(), warnings: [] };
  const nodes = buildChain(steps, split.quotes, scope);
  let flowConfig = nodes.length ? link(nodes) : null;
  // A sentence that asks for something the flow does not show is named, never dropped in silence;
  // and the flow, which would decide without it (hand over where a reply was asked, or answer
  // where a hand-over was), is not offered: the lead rewrites those sentences.
  const unshown = flowConfig ? unshownSentences(split.text, split.quotes, flowConfig, scope.warnings) : [];
  for (const sentence of unshown) warn(scope, sentence, split.quotes, 'part');
  if (unshown.length) flowConfig = null;
  const restored = preamble?.replace(/⟦(\d+)⟧/g, (_m, i: string) => `"${split.quotes[Number(i)]}"`) ?? null;
  const description = restored
    ? capitalize(squash(restored.replace(/^(?:when|if|whenever)\s+/i, '').replace(/:$/, '')))
    : truncateAtWord(squash(input.behaviorInstructions.replace(/^\s*(?:\d+[.)]|[-*•])\s+/gm, '')), 300);
  // Nothing to do step by step ("Always be polite"): a rule without a flow, its description guides the agent.
  return { name: nameFrom(restored, input.behaviorInstructions), description, flowConfig, warnings: scope.warnings };
}
