import { normalizeText } from './sentences.js';
import { rawWords } from './terms.js';
import { nearWord } from './spelling.js';

/**
 * A request for a person in the words customers use: a verb of reaching someone ("talk", "speak",
 * "contact", typos allowed: "contcat") followed closely by a person ("a human", "someone", "an
 * agent"); "a real person"; a bare "human please" or "Agent!"; "is there a person I can call". An
 * indirect "can you ask an agent how/if/where ..." is a question put to a person: `question`, which
 * the agent answers when its knowledge does and else hands over. Not a request: a person in another
 * role ("add someone to my account", "someone stole my password", "my agent picks it up").
 */
export type PersonRequest = 'now' | 'question' | null;

const VERBS = new Set(['talk', 'talking', 'speak', 'speaking', 'chat', 'chatting', 'contact', 'contacting', 'connect', 'transfer', 'escalate', 'reach', 'call', 'phone', 'get', 'put', 'want', 'need', 'see']);
/** Verbs that need "me" or a determiner right after them to mean a person is wanted ("get me a manager", "I need a human"). */
const WEAK_VERBS = new Set(['get', 'put', 'want', 'need', 'see']);
const PEOPLE = new Set(['human', 'humans', 'person', 'people', 'agent', 'agents', 'representative', 'rep', 'someone', 'somebody', 'anyone', 'anybody', 'manager', 'supervisor', 'operator', 'staff', 'employee', 'advisor', 'adviser', 'colleague']);
/** Words that may stand between the verb and the person. */
const BETWEEN = new Set(['to', 'with', 'me', 'a', 'an', 'the', 'some', 'real', 'live', 'actual', 'human', 'your', 'ur', 'one', 'of', 'through', 'directly', 'please', 'customer', 'service', 'support', 'bloody', 'fucking', 'damn']);
const BARE = /^\s*(?:(?:a|an|the)\s+)?(?:real\s+|live\s+)?(?:human|agent|operator|representative|person|someone|manager)\s*(?:please|pls|plz|now|asap)?\s*[.!?]*\s*$/i;
const REAL = /\b(?:real|live|actual)\s+(?:human|person|agent|people)\b|\bhuman\s+(?:agent|being|please|pls)\b/i;
const PERSON_I_CAN = /\b(?:human|person|someone|somebody|anyone|agent)\s+(?:i|we)\s+(?:can|could|may)\s+(?:talk|speak|call|contact|chat|phone|reach)\b/i;
/** "ask an agent how ...": a question for a person; "ask an agent to call me": a request. */
const ASK = /\bask\s+(?:an?|the|some|your|ur)?\s*(?:human|agent|person|someone|somebody|representative|rep|staff|operator)\b\s*(\w+)?(?:\s+(\w+))?/i;
const ASK_NOW = new Set(['call', 'contact', 'phone', 'reach', 'ring', 'email', 'get', 'help', 'talk', 'speak', 'chat', 'come']);

/** Whether a customer message asks for a person now, puts a question to a person, or neither. */
export function personRequest(message: string): PersonRequest {
  const text = normalizeText(message);
  const ask = text.match(ASK);
  if (ask) {
    const next = ask[1]?.toLowerCase();
    const after = ask[2]?.toLowerCase();
    if (!next || (next === 'to' && after && ASK_NOW.has(after))) return 'now';
    return 'question';
  }
  if (BARE.test(text) || REAL.test(text) || PERSON_I_CAN.test(text)) return 'now';
  const tokens = rawWords(text).map((w) => w.toLowerCase());
  for (let i = 0; i < tokens.length; i++) {
    const verb = nearWord(tokens[i]!, VERBS);
    if (!verb) continue;
    if (WEAK_VERBS.has(verb) && !['me', 'a', 'an', 'to', 'with'].includes(tokens[i + 1] ?? '')) continue;
    for (let j = i + 1; j < Math.min(tokens.length, i + 6); j++) {
      const token = tokens[j]!;
      if (nearWord(token, PEOPLE)) return 'now';
      if (!BETWEEN.has(token)) break;
    }
  }
  return null;
}
