import type { DraftingAction, DraftingTag } from '../contracts/draft-rule.js';
import { capitalize, squash, truncateAtWord } from '../../text/sentences.js';
import { type DraftedRule, type Scope, buildChain, link } from './flow-drafting.js';
import { splitSteps } from './flow-reading.js';

/**
 * The built-in engine's rule drafting (docs/rules.md): plain-language instructions become a rule
 * flow. Deterministic and offline. It reads one step per line (numbered `1.`/`1)`, bulleted `-`,
 * `*`, `•`) or, in prose, one step per sentence, and knows these shapes:
 *
 * - "ask (the customer) for X (and Y)", "collect/get/request X", "ask whether X" -> collect nodes
 * - "if/when X, (then) Y (, otherwise Z)", and a following "Otherwise Z" step -> condition nodes
 * - "escalate / hand over / transfer to a human (when X)" -> escalate (inside a condition)
 * - "tag (it) as X" -> a tag node naming the workspace tag X (skipped when there is none)
 * - quoted text ("..." or “...”) and "say/tell/reply/respond ..." -> message nodes
 * - "end/close the conversation" -> end; "look up / check / cancel ... " naming an action -> tool
 *
 * A first line such as "When a customer asks about a refund:" is the rule's trigger description.
 */

// ---------------------------------------------------------------------------------------------
// Drafting

function nameFrom(preamble: string | null, steps: readonly string[], quotes: readonly string[]): string {
  const source = squash((preamble ?? steps[0] ?? 'Rule').replace(/⟦\d+⟧\.?|"[^"]*"/g, ' '));
  const topic = /\b(?:about|regarding)\s+(?:(?:a|an|the|their|his|her|your)\s+)?(.+)$/i.exec(source)?.[1];
  const base = topic ?? source.replace(/^(?:when|if)\s+(?:a|the)?\s*(?:customer|user)?\s*/i, '');
  const name = capitalize(truncateAtWord(squash(base.replace(/[:.,]+$/, '')), 60));
  // A step that is only a quote ("Say \"Hello!\"") is named by its text.
  if (!topic && name.split(' ').length < 2 && quotes.length) return capitalize(truncateAtWord(squash(quotes[0]!.replace(/[.!?]+$/, '')), 60));
  return name || 'Rule';
}

function descriptionFrom(preamble: string | null, instructions: string): string {
  if (preamble) return capitalize(squash(preamble.replace(/^(?:when|if)\s+/i, '').replace(/:$/, '')));
  return truncateAtWord(squash(instructions.replace(/^\s*(?:\d+[.)]|[-*•])\s+/gm, '')), 300);
}

/** Drafts a rule (name, trigger description, flow) from instructions. */
export function draftRuleFlow(input: { behaviorInstructions: string; tags: readonly DraftingTag[]; actions: readonly DraftingAction[] }): DraftedRule {
  const { preamble, steps, quotes } = splitSteps(input.behaviorInstructions);
  const scope: Scope = { tags: input.tags, actions: input.actions, fields: [], ids: new Set() };
  const nodes = buildChain(steps, quotes, scope);
  // Nothing to do step by step ("Always be polite"): a rule without a flow, its description guides the agent.
  return { name: nameFrom(preamble, steps, quotes), description: descriptionFrom(preamble, input.behaviorInstructions), flowConfig: nodes.length ? link(nodes) : null };
}

