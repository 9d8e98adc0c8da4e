import { similarity } from '../../text/similarity.js';
import { terms } from '../../text/terms.js';
import { conceptsOf } from '../../text/thesaurus.js';
import { RULE_MATCH_THRESHOLD } from '../contracts/match-rule.js';
import { round } from './round.js';

/** The built-in engine's `match_rules` method (docs/rules.md): a cosine of stemmed terms and support concepts, with counter-examples. */

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

/**
 * A question asking for information ("How long do exchanges take?", "Do you charge for ...?",
 * "Can I pay by invoice?") rather than for something to be done: it may share a rule's topic word
 * and still be a knowledge question. A request marker ("please", "I want") makes it a request.
 */
const INFORMATION_QUESTION = /^(?:(?:hi|hello|hey)\b[\s,!.]*)?(?:what|which|when|where|who|whom|whose|why|how|do|does|did|is|are|was|were|can|could|may|will|would|should|have|has)\b/i;
const REQUEST = new RegExp(
  [
    String.raw`\b(?:please|pls|plz)\b`,
    // "I need ...", not "What size do I need?"
    String.raw`(?:^|[.!?,;]\s*|\b(?:hi|hello|hey)\s+)(?:i(?:'d| would) like|i want|i need|i wanna|i wish to)\b`,
    String.raw`\b(?:can|could|may) i (?:get|have|receive|request)\b`,
    String.raw`\b(?:can|could|would) you (?:please )?(?:send|give|email|call|cancel|refund|delete|remove|process|issue)\b`,
  ].join('|'),
  'i',
);

/** The terms and support concepts of a text. */
const vocabulary = (text: string) => ({ terms: new Set(terms(text)), concepts: conceptsOf(text) });

/**
 * A message's words as the closed compounds a rule may name them by: "call me back" is a callback,
 * "pick up" a pickup, "log in" a login (two words, next to each other or one word apart).
 */
function withCompounds(message: ReturnType<typeof vocabulary>, text: string): ReturnType<typeof vocabulary> {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  const compounds = new Set(message.terms);
  for (let i = 0; i < words.length; i++) {
    for (const j of [i + 1, i + 2]) if (j < words.length) for (const t of terms(words[i]! + words[j]!)) compounds.add(t);
  }
  return { terms: compounds, concepts: message.concepts };
}

/** What a message shares with a text: its terms, and the concepts it says in other words ("money back" for refund). */
function sharedWith(message: ReturnType<typeof vocabulary>, text: ReturnType<typeof vocabulary>): string[] {
  const shared = [...text.terms].filter((t) => message.terms.has(t));
  for (const group of message.concepts.groups) {
    if (!text.concepts.groups.has(group)) continue;
    const said = [...text.concepts.byStem].filter(([, groups]) => groups.has(group)).map(([stemmed]) => stemmed);
    if (!said.some((t) => shared.includes(t))) shared.push(said[0]!);
  }
  return shared;
}

/** How well a message matches each rule's name and description, best first, with the shared terms. */
export function matchRules(input: { message: string; rules: readonly { id: string; name: string; description: string }[] }): {
  matches: { ruleId: string; score: number; reason: string }[];
} {
  const own = vocabulary(input.message);
  const message = withCompounds(own, input.message);
  const asksForInformation = INFORMATION_QUESTION.test(input.message.trim()) && !REQUEST.test(input.message);
  const matches = input.rules.map((rule) => {
    const excluded = counterExamples(rule.description).find((example) => similarity(input.message, example) >= COUNTER_EXAMPLE_SIMILARITY);
    if (excluded !== undefined) return { ruleId: rule.id, score: 0, reason: `the rule is not for messages like "${excluded}"` };
    const text = `${rule.name}. ${rule.description.replace(COUNTER_EXAMPLES, ' ')}`;
    const shared = sharedWith(message, vocabulary(text));
    const topic = sharedWith(message, vocabulary(rule.name));
    // One shared word of several is not an intent ("Can I pay by invoice?" is not the invoice-request rule):
    // below the threshold. A message of one word ("Where is my order?") can only share that one.
    // A request or a problem that names the rule's topic (its name) is one: "I need to exchange these boots".
    const cosine = similarity(input.message, text);
    // (Counted on the message's own words: the compounds read out of them are not more words.)
    const required = Math.min(MIN_SHARED_TERMS, own.terms.size);
    const onTopic = topic.length > 0 && !asksForInformation;
    const score = round(onTopic ? Math.max(cosine, RULE_MATCH_THRESHOLD) : shared.length >= required ? cosine : Math.min(cosine, ONE_WORD_CEILING));
    const reason = shared.length
      ? `the message shares ${shared.map((t) => `"${t}"`).join(', ')} with the rule's name and description${onTopic && cosine < RULE_MATCH_THRESHOLD ? ", and asks for what the rule's name says" : ''}`
      : "the message shares no terms with the rule's name and description";
    return { ruleId: rule.id, score, reason };
  });
  matches.sort((a, b) => b.score - a.score || a.ruleId.localeCompare(b.ruleId));
  return { matches };
}
