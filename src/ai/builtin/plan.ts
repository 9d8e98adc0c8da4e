import type { PlanInput, PlanOutput } from '../contracts/plan.js';
import { terms } from '../../text/terms.js';
import { personRequest } from '../../text/person-request.js';
import { scoreSentiment } from './sentiment.js';

/**
 * The built-in engine's `plan_answer` method (docs/conversations.md): small talk, a request for a
 * person, or a question to search the knowledge base for, with the message's sentiment and whether
 * the customer is angry enough for a person to take over (the default planning prompt's "hand over
 * when the customer ... is angry").
 * Deterministic, offline, derived from its inputs alone.
 */

const GREETINGS = new Set(['hi', 'hello', 'hey', 'hiya', 'howdy', 'morning', 'afternoon', 'evening', 'greetings', 'yo']);
const THANKS = new Set(['thanks', 'thank', 'thx', 'ty', 'cheers', 'appreciated', 'appreciate']);
const FAREWELLS = new Set(['bye', 'goodbye', 'later', 'farewell']);
/** Words a greeting, thanks or goodbye may hold besides its own. */
const FILLER = new Set([
  'good', 'you', 'so', 'much', 'very', 'a', 'lot', 'there', 'all', 'ok', 'okay', 'great', 'again', 'see', 'ya', 'have', 'nice', 'day',
  'and', 'the', 'for', 'your', 'help', 'that', 'was', 'helpful', 'perfect', 'awesome', 'cool', 'many', 'team', 'folks', 'guys', 'oh', 'ah',
  'well', 'yes', 'no', 'sure', 'fine', 'got', 'it', 'i', 'everyone', 'everybody', 'hope', 'doing', 'are', 'how', 'me', 'for',
]);
/**
 * Planning instructions the built-in engine follows (a model reads the whole prompt): a line
 * "Always search the knowledge base when the customer mentions: a, b, c" makes a message holding
 * any of those words a question, even one that looks like small talk.
 */
const SEARCH_INSTRUCTION = /always search the knowledge base\b[^:\n]*:\s*([^\n]+)/gi;

export function searchTopics(planningPrompt: string): string[][] {
  const topics: string[][] = [];
  for (const match of planningPrompt.matchAll(SEARCH_INSTRUCTION)) {
    for (const part of match[1]!.split(/,|;|\bor\b/i)) {
      const stems = terms(part);
      if (stems.length) topics.push(stems);
    }
  }
  return topics;
}

/**
 * The planning instruction to hand an angry customer over ("Hand the conversation to a human agent
 * when the customer ... is angry"): without it, anger is reported but hands nothing over.
 */
const ANGER_INSTRUCTION = /\b(?:hand|escalate|transfer|pass)\b[^.\n]{0,120}\b(?:angry|abusive|furious|upset|rude|swears?)\b/i;

export function planMessage(input: PlanInput): PlanOutput {
  const scored = scoreSentiment(input.message);
  const { sentiment, score, anger } = scored;
  const angry = scored.angry && ANGER_INSTRUCTION.test(input.planningPrompt);
  const mood = `sentiment ${sentiment} (${score}, anger ${anger})${angry ? ': the customer is angry, a person takes over after the answer' : scored.angry ? ': angry, but the planning instructions do not say to hand over' : ''}`;
  const plan = (reasoning: string, intent: PlanOutput['intent'], performKnowledgeSearch: boolean, smallTalkReply: string | null = null): PlanOutput => ({
    reasoning: `${reasoning} ${mood}.`,
    performKnowledgeSearch,
    intent,
    smallTalkReply,
    sentiment,
    angry,
  });
  const person = personRequest(input.message);
  const said = new Set(terms(input.message));
  const topic = searchTopics(input.planningPrompt).find((stems) => stems.every((t) => said.has(t)));
  if (topic && person !== 'now') return plan(`The planning instructions say to search the knowledge base for "${topic.join(' ')}": search.`, 'question', true);
  if (person === 'now') return plan('The customer asks for a person; hand over without searching.', 'human_request', false);
  if (person === 'question') return plan('The customer asks a person a question: answer it from the knowledge base if it can, else hand over.', 'human_request', true);
  const small = angry ? null : smallTalk(input.message);
  if (small) return plan(`The message is ${small.kind} and asks nothing: no knowledge search.`, 'small_talk', false, small.reply);
  return plan('The message asks for information or help: search the knowledge base.', 'question', true);
}

function smallTalk(message: string): { kind: string; reply: string } | null {
  if (message.length > 160) return null;
  const tokens = message.toLowerCase().match(/[\p{L}']+/gu) ?? [];
  if (tokens.length === 0 || tokens.length > 12) return null;
  let kind: 'a greeting' | 'thanks' | 'a goodbye' | null = null;
  for (const token of tokens) {
    if (THANKS.has(token)) kind = 'thanks';
    else if (FAREWELLS.has(token)) kind ??= 'a goodbye';
    else if (GREETINGS.has(token)) kind ??= 'a greeting';
    else if (!FILLER.has(token)) return null;
  }
  if (!kind) return null;
  const reply =
    kind === 'thanks'
      ? "You're welcome! Is there anything else I can help you with?"
      : kind === 'a goodbye'
        ? 'Goodbye, and thank you for reaching out!'
        : 'Hello! How can I help you today?';
  return { kind, reply };
}
