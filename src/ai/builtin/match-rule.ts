import { similarity } from '../../text/similarity.js';
import { terms } from '../../text/terms.js';
import { RULE_MATCH_THRESHOLD } from '../contracts/match-rule.js';
import { round } from './round.js';

/** The built-in engine's `match_rules` method (docs/rules.md): a cosine of stemmed terms, with counter-examples. */

// ---------------------------------------------------------------------------------------------
// Matching

/**
 * Counter-examples in a rule's description: `Not for messages like: "...".` (Refine with AI adds
 * one when a rule answered a message it should not have). A message this similar to one of them
 * does not trigger the rule, and their words do not count towards the match.
 */
const COUNTER_EXAMPLES = /not for messages like:\s*"([^"]*)"\.?/gi;
export const COUNTER_EXAMPLE_SIMILARITY = 0.6;
/** A message triggers a rule only when it shares at least this many distinct terms with it (or all of its terms, when it has fewer). */
export const MIN_SHARED_TERMS = 2;
/** The highest score of a message sharing fewer terms: under the match threshold. */
const ONE_WORD_CEILING = RULE_MATCH_THRESHOLD / 2;

export function counterExamples(description: string): string[] {
  return [...description.matchAll(COUNTER_EXAMPLES)].map((m) => m[1]!);
}

/** How well a message matches each rule's name and description, best first, with the shared terms. */
export function matchRules(input: { message: string; rules: readonly { id: string; name: string; description: string }[] }): {
  matches: { ruleId: string; score: number; reason: string }[];
} {
  const messageTerms = new Set(terms(input.message));
  const matches = input.rules.map((rule) => {
    const excluded = counterExamples(rule.description).find((example) => similarity(input.message, example) >= COUNTER_EXAMPLE_SIMILARITY);
    if (excluded !== undefined) return { ruleId: rule.id, score: 0, reason: `the rule is not for messages like "${excluded}"` };
    const text = `${rule.name}. ${rule.description.replace(COUNTER_EXAMPLES, ' ')}`;
    const shared = [...new Set(terms(text))].filter((t) => messageTerms.has(t));
    // One shared word of several is not an intent ("Can I pay by invoice?" is not the invoice-request rule):
    // below the threshold. A message of one word ("Where is my order?") can only share that one.
    const cosine = similarity(input.message, text);
    const required = Math.min(MIN_SHARED_TERMS, messageTerms.size);
    const score = round(shared.length >= required ? cosine : Math.min(cosine, ONE_WORD_CEILING));
    const reason = shared.length
      ? `the message shares ${shared.map((t) => `"${t}"`).join(', ')} with the rule's name and description`
      : "the message shares no terms with the rule's name and description";
    return { ruleId: rule.id, score, reason };
  });
  matches.sort((a, b) => b.score - a.score || a.ruleId.localeCompare(b.ruleId));
  return { matches };
}
