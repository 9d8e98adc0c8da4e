import type { PlanInput, PlanOutput } from '../contracts/plan.js';
import { terms } from '../../text/terms.js';
import { scoreSentiment } from './sentiment.js';

/**
 * The built-in engine's `plan_answer` method (docs/conversations.md): small talk, a request for a
 * person, or a question to search the knowledge base for, with the message's sentiment.
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
const HUMAN_REQUEST =
  /\b(?:speak|talk|chat|connect|transfer|escalate|put)\b[^.?!]{0,40}\b(?:human|person|people|agent|representative|rep|someone|somebody|manager|supervisor|operator|staff)\b|\b(?:real|live|actual)\s+(?:human|person|agent)\b|\bhuman\s+(?:agent|being|please)\b|^\s*(?:human|agent|operator|representative)\s*[.!?]*\s*$/i;

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

export function planMessage(input: PlanInput): PlanOutput {
  const { sentiment, score } = scoreSentiment(input.message);
  const mood = `sentiment ${sentiment} (${score})`;
  const said = new Set(terms(input.message));
  const topic = searchTopics(input.planningPrompt).find((stems) => stems.every((t) => said.has(t)));
  if (topic && !HUMAN_REQUEST.test(input.message)) {
    return {
      reasoning: `The planning instructions say to search the knowledge base for "${topic.join(' ')}": search. ${mood}.`,
      performKnowledgeSearch: true,
      intent: 'question',
      smallTalkReply: null,
      sentiment,
    };
  }
  if (HUMAN_REQUEST.test(input.message)) {
    return {
      reasoning: `The customer asks for a person; hand over without searching. ${mood}.`,
      performKnowledgeSearch: false,
      intent: 'human_request',
      smallTalkReply: null,
      sentiment,
    };
  }
  const small = smallTalk(input.message);
  if (small) {
    return {
      reasoning: `The message is ${small.kind} and asks nothing: no knowledge search. ${mood}.`,
      performKnowledgeSearch: false,
      intent: 'small_talk',
      smallTalkReply: small.reply,
      sentiment,
    };
  }
  return {
    reasoning: `The message asks for information or help: search the knowledge base. ${mood}.`,
    performKnowledgeSearch: true,
    intent: 'question',
    smallTalkReply: null,
    sentiment,
  };
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
