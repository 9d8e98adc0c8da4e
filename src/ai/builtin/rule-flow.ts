import type { ConditionGroup, Predicate } from '../../rules/conditions.js';
import type { CollectDataType, FlowNode } from '../../rules/flow.js';
import type { DraftingAction, DraftingTag } from '../contracts/draft-rule.js';
import { capitalize, splitSentences, squash, truncateAtWord } from '../../text/sentences.js';
import { similarity } from '../../text/similarity.js';
import { terms } from '../../text/terms.js';

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

export interface DraftedRule {
  name: string;
  description: string;
  /** Null when the instructions hold no step to walk (guidance only). */
  flowConfig: FlowNode | null;
}

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

const LIST_MARK = /^\s*(?:(?:step\s+)?\d{1,3}[.):]|[-*•+]|\(\w\))\s+/i;

/**
 * The instructions' preamble (trigger description), their steps and their quoted texts: a step's
 * `⟦n⟧` stands for `quotes[n]`.
 */
export function splitSteps(instructions: string): { preamble: string | null; steps: string[]; quotes: string[] } {
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
    bodies = lines.flatMap((l) => splitSentences(l));
    if (bodies.length > 1 && /:$/.test(bodies[0]!)) preamble = bodies.shift()!.replace(/:$/, '');
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
  return { preamble: preamble ? restore(preamble) : null, steps, quotes };
}

const quotesIn = (text: string, quotes: readonly string[]) => [...text.matchAll(/⟦(\d+)⟧/g)].map((m) => quotes[Number(m[1])]!);

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
  if (/\b(?:date|birthday|day of|when)\b/.test(lower)) return 'date';
  if (/\b(?:amount|quantity|how many|number of|count|price|total|cost|age|sum)\b/.test(lower)) return 'number';
  return 'string';
}

/** Second person for a question put to the customer. */
function toSecondPerson(text: string): string {
  return text
    .replace(/\b(?:the customer's|the user's|their|his|her)\b/gi, 'your')
    .replace(/\b(?:the customer|the user|they|he|she)\b/gi, 'you')
    .replace(/\byou (?:has|does)\b/gi, (m) => (m.toLowerCase().endsWith('has') ? 'you have' : 'you do'))
    .replace(/\byou is\b/gi, 'you are')
    .replace(/\byou was\b/gi, 'you were');
}

function questionFor(phrase: string, type: CollectDataType, whether: boolean): string {
  if (whether) {
    const clause = toSecondPerson(phrase).replace(/^(?:if|whether)\s+/i, '');
    return `Could you tell me whether ${clause}?`;
  }
  const noun = toSecondPerson(phrase).replace(/^(?:your|the|a|an)\s+/i, '');
  if (type === 'email') return 'What is your email address?';
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
function knownField(text: string, fields: readonly { field: string; phrase: string }[]): { field: string; phrase: string } | undefined {
  const lower = text.toLowerCase();
  let best: { field: string; phrase: string } | undefined;
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
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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

function contentWords(text: string): string[] {
  const out: string[] = [];
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (CONDITION_NOISE.has(word) || terms(word).length === 0 || out.includes(word)) continue;
    out.push(word);
  }
  return out.slice(0, 6);
}

// ---------------------------------------------------------------------------------------------
// One step -> nodes

interface Scope {
  tags: readonly DraftingTag[];
  actions: readonly DraftingAction[];
  fields: { field: string; phrase: string }[];
  ids: Set<string>;
}

function nodeId(scope: Scope, base: string): string {
  const clean = base.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40) || 'step';
  let id = clean;
  for (let k = 2; scope.ids.has(id); k += 1) id = `${clean}_${k}`;
  scope.ids.add(id);
  return id;
}

const restoreQuotes = (text: string, quotes: readonly string[]) => text.replace(/⟦(\d+)⟧/g, (_m, i: string) => `"${quotes[Number(i)] ?? ''}"`);

/** Interpolates collected fields a reply speaks of ("the order number" -> `${rule.orderNumber}`) only when quoted with {}. */
function messageText(text: string): string {
  return squash(text).slice(0, 4000);
}

const ASK = /^(?:please\s+)?(?:ask|request|collect|get|obtain|find out|gather|confirm)\b\s*(?:the customer|the user|them|him|her|for it)?\s*(?:for|about|to (?:give|provide|share|send)(?: us| you)?|to confirm)?\s*(.+)$/i;
const ESCALATE = /\b(?:escalate|hand(?:\s+it)?\s*(?:over|off)|handoff|transfer|pass(?:\s+it)?\s+(?:on\s+)?to|forward(?:\s+it)?\s+to|route(?:\s+it)?\s+to|connect (?:them|the customer) (?:to|with))\b/i;
const TAG = /\btag(?:\s+(?:it|this|the conversation|the ticket|the chat))?\s+(?:as|with)\s+["“]?([^"”⟦,;]+?)["”]?\s*$/i;
const END = /\b(?:end|close|finish|conclude)\s+(?:the\s+)?(?:conversation|chat|ticket|flow)\b/i;
const SAY = /^(?:please\s+)?(?:say|tell|reply|respond|answer|inform|explain|let (?:them|the customer|the user) know|send|write)\b(?:\s+(?:to\s+)?(?:them|the customer|the user))?(?:\s+(?:that|with))?\s*(.*)$/i;
const TOOL = /^(?:please\s+)?(?:look up|lookup|check|fetch|retrieve|find|call|cancel|create|update|verify|refund|issue|reset|search)\b/i;
const CONNECTOR = /^(?:and\s+then|then|and|next|after that|afterwards|finally|also|additionally|lastly)[,:]?\s+/i;
const THEN_SPLIT = /[,;]\s*(?:and\s+)?then\s+|\s+and\s+then\s+/i;
const CONDITIONAL = /^(?:if|when|in case|whenever|should)\s+(.+?)(?:,\s*(?:then\s+)?|\s+then\s+)(.+)$/i;
const OTHERWISE = /^(?:otherwise|else|if not|in all other cases)[,:]?\s+(.+)$/i;
const SPLIT_ELSE = /^(.*?)[,;]?\s+(?:otherwise|else|if not)[,:]?\s+(.+)$/i;

/** Nodes for one step, chained through `next` (the last one open). */
function stepNodes(text: string, quotes: readonly string[], scope: Scope): FlowNode[] {
  const plain = text.trim().replace(CONNECTOR, '').replace(/[.;]+$/, '');
  if (!plain) return [];
  const otherwise = OTHERWISE.exec(plain);
  if (otherwise) return stepNodes(otherwise[1]!, quotes, scope); // attached as `else` by the caller

  const conditional = CONDITIONAL.exec(plain);
  if (conditional) {
    const [, cond, rest] = conditional as unknown as [string, string, string];
    const split = SPLIT_ELSE.exec(rest);
    const thenText = split ? split[1]! : rest;
    const elseText = split ? split[2]! : null;
    const { conditions, customerAsksForHuman } = conditionFor(cond, scope.fields, quotes.filter((_q, i) => cond.includes(`⟦${i}⟧`)));
    const thenNodes = stepNodes(thenText, quotes, scope);
    if (customerAsksForHuman) for (const n of thenNodes) if (n.type === 'escalate') n.reason = 'customer_request';
    const elseNodes = elseText ? stepNodes(elseText, quotes, scope) : [];
    return [
      {
        id: nodeId(scope, `check_${contentWords(cond).slice(0, 3).join('_') || 'condition'}`),
        type: 'condition',
        conditions,
        ...(thenNodes.length ? { then: link(thenNodes) } : {}),
        ...(elseNodes.length ? { else: link(elseNodes) } : {}),
      },
    ];
  }

  // "Ask for X, then hand over": several actions in one step.
  const parts = plain.split(THEN_SPLIT).filter((p) => p.trim());
  if (parts.length > 1) return parts.flatMap((part) => stepNodes(part, quotes, scope));

  // "Escalate to a human when X" / "Hand over if X".
  const escalateWhen = /^(.*?\b(?:escalate|hand(?:\s+it)?\s*(?:over|off)|transfer|pass|forward|route)\b.*?)\s+(?:when|if|whenever|in case)\s+(.+)$/i.exec(plain);
  if (escalateWhen && ESCALATE.test(escalateWhen[1]!)) {
    return stepNodes(`if ${escalateWhen[2]!}, ${escalateWhen[1]!}`, quotes, scope);
  }

  if (ESCALATE.test(plain)) {
    const message = quotes.find((_q, i) => plain.includes(`⟦${i}⟧`));
    return [{ id: nodeId(scope, 'hand_over'), type: 'escalate', reason: 'rule_escalation', ...(message ? { message } : {}) }];
  }

  const tag = TAG.exec(plain);
  if (tag) {
    const wanted = restoreQuotes(tag[1]!, quotes).replace(/["“”]/g, '').trim().toLowerCase();
    const found = scope.tags.find((t) => t.tagName.toLowerCase() === wanted) ?? scope.tags.find((t) => `${t.groupTitle}: ${t.tagName}`.toLowerCase() === wanted);
    return found ? [{ id: nodeId(scope, `tag_${found.tagName}`), type: 'tag', tagIds: [found.id] }] : [];
  }

  if (END.test(plain)) {
    const message = quotes.find((_q, i) => plain.includes(`⟦${i}⟧`));
    return [{ id: nodeId(scope, 'end'), type: 'end', ...(message ? { message } : {}) }];
  }

  const ask = ASK.exec(plain);
  if (ask && !SAY.test(plain)) {
    const object = restoreQuotes(ask[1]!, quotes).replace(/[.?!]+$/, '').trim();
    const whether = /^(?:if|whether)\b/i.test(object);
    const parts = whether ? [object] : object.split(/\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s+as well as\s+)\s*/i).filter(Boolean);
    if (parts.length && parts.every((p) => p.split(/\s+/).length <= 6)) {
      return parts.map((phrase) => {
        const field = fieldName(whether ? phrase.replace(/^(?:if|whether)\s+(?:they|he|she|the customer|the user)?\s*/i, '') : phrase);
        const dataType = whether ? 'boolean' : fieldType(phrase);
        const unique = scope.fields.some((f) => f.field === field) ? `${field}${scope.fields.length + 1}` : field;
        scope.fields.push({ field: unique, phrase: whether ? phrase.replace(/^(?:if|whether)\s+/i, '') : phrase });
        return {
          id: nodeId(scope, `ask_${unique.replace(/([A-Z])/g, '_$1')}`),
          type: 'collect',
          field: unique,
          question: questionFor(phrase, dataType, whether),
          dataType,
          required: true,
        } as FlowNode;
      });
    }
  }

  const tool = TOOL.test(plain) ? matchAction(plain, scope.actions) : undefined;
  if (tool) {
    const inputs: Record<string, string> = {};
    for (const name of tool.inputNames ?? []) {
      const field = scope.fields.find((f) => f.field.toLowerCase() === name.toLowerCase()) ?? knownField(name.replace(/([A-Z])/g, ' $1'), scope.fields);
      if (field) inputs[name] = `\${rule.${field.field}}`;
    }
    return [{ id: nodeId(scope, `call_${tool.name}`), type: 'tool', toolId: tool.id, inputs }];
  }

  if (quotes.some((_q, i) => plain.includes(`⟦${i}⟧`))) {
    return quotes
      .filter((_q, i) => plain.includes(`⟦${i}⟧`))
      .map((q) => ({ id: nodeId(scope, `say_${contentWords(q).slice(0, 3).join('_') || 'message'}`), type: 'message', message: messageText(q) }) as FlowNode);
  }
  const say = SAY.exec(plain);
  if (say && say[1]!.trim()) {
    const content = capitalize(toSecondPerson(restoreQuotes(say[1]!, quotes)).trim());
    const sentence = /[.!?]$/.test(content) ? content : `${content}.`;
    return [{ id: nodeId(scope, `say_${contentWords(content).slice(0, 3).join('_') || 'message'}`), type: 'message', message: messageText(sentence) }];
  }
  return [];
}

function matchAction(text: string, actions: readonly DraftingAction[]): DraftingAction | undefined {
  let best: DraftingAction | undefined;
  let bestScore = 0;
  for (const action of actions) {
    const score = similarity(text, `${action.name} ${action.name} ${action.description}`);
    if (score > bestScore) {
      best = action;
      bestScore = score;
    }
  }
  return bestScore >= 0.25 ? best : undefined;
}

/** Chains nodes through `next`; a node that ends the flow (escalate, end) ends the chain. */
function link(nodes: FlowNode[]): FlowNode {
  const chain = nodes.slice(0, nodes.findIndex((n) => n.type === 'escalate' || n.type === 'end') + 1 || nodes.length);
  for (let i = chain.length - 2; i >= 0; i -= 1) (chain[i] as { next?: FlowNode }).next = chain[i + 1];
  return chain[0]!;
}

/** Steps -> one chain, attaching "Otherwise ..." steps as the `else` of the condition before them. */
function buildChain(steps: readonly string[], quotes: readonly string[], scope: Scope): FlowNode[] {
  const nodes: FlowNode[] = [];
  for (const step of steps) {
    const produced = stepNodes(step, quotes, scope);
    const previous = nodes[nodes.length - 1];
    if (OTHERWISE.test(step.trim()) && previous?.type === 'condition' && !previous.else && produced.length) {
      previous.else = link(produced);
      continue;
    }
    nodes.push(...produced);
    if (nodes.some((n) => n.type === 'escalate' || n.type === 'end')) break;
  }
  return nodes;
}

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

// ---------------------------------------------------------------------------------------------
// Refining

/** The main chain of a flow: the root and its `next` successors. */
function mainChain(root: FlowNode): FlowNode[] {
  const out: FlowNode[] = [];
  for (let node: FlowNode | undefined = root; node; node = 'next' in node ? node.next : undefined) out.push(node);
  return out;
}

function relink(chain: FlowNode[]): FlowNode {
  for (const node of chain) if ('next' in node) delete (node as { next?: FlowNode }).next;
  return link(chain);
}

function allIds(root: FlowNode, into = new Set<string>()): Set<string> {
  if (root.id) into.add(root.id);
  for (const key of ['then', 'else', 'onSuccess', 'onFailure', 'next'] as const) {
    const child = (root as Partial<Record<typeof key, FlowNode>>)[key];
    if (child) allIds(child, into);
  }
  return into;
}

function collectedFields(root: FlowNode): { field: string; phrase: string }[] {
  const out: { field: string; phrase: string }[] = [];
  const visit = (node: FlowNode) => {
    if (node.type === 'collect') out.push({ field: node.field, phrase: node.field.replace(/([A-Z])/g, ' $1').toLowerCase() });
    for (const key of ['then', 'else', 'onSuccess', 'onFailure', 'next'] as const) {
      const child = (node as Partial<Record<typeof key, FlowNode>>)[key];
      if (child) visit(child);
    }
  };
  visit(root);
  return out;
}

/** Removes the collect nodes of a field anywhere in the tree (their `next` takes their place). */
function removeField(node: FlowNode | undefined, field: string): FlowNode | undefined {
  if (!node) return undefined;
  if (node.type === 'collect' && node.field === field) return removeField(node.next, field);
  const copy = { ...node } as FlowNode & Partial<Record<'then' | 'else' | 'onSuccess' | 'onFailure' | 'next', FlowNode>>;
  for (const key of ['then', 'else', 'onSuccess', 'onFailure', 'next'] as const) {
    if (copy[key]) {
      const replaced = removeField(copy[key], field);
      if (replaced) copy[key] = replaced;
      else delete copy[key];
    }
  }
  return copy;
}

const isTerminal = (n: FlowNode) => n.type === 'escalate' || n.type === 'end';

/** Applies refinement instructions to a rule's flow (docs/rules.md lists the edits it understands). */
export function refineRuleFlow(input: {
  rule: { name: string; description: string; flowConfig: FlowNode | null };
  refinementInstructions: string;
  tags: readonly DraftingTag[];
  actions: readonly DraftingAction[];
}): DraftedRule {
  if (!input.rule.flowConfig) {
    // A rule without a flow gets the one its refinement describes.
    const drafted = draftRuleFlow({ behaviorInstructions: input.refinementInstructions, tags: input.tags, actions: input.actions });
    return { name: input.rule.name, description: input.rule.description, flowConfig: drafted.flowConfig };
  }
  const original: FlowNode = structuredClone(input.rule.flowConfig);
  let root: FlowNode = original;
  const scope: Scope = { tags: input.tags, actions: input.actions, fields: collectedFields(original), ids: allIds(original) };
  const { steps, quotes } = splitSteps(input.refinementInstructions);
  for (const step of steps) {
    const text = step.trim();
    const stepQuotes = quotesIn(text, quotes);
    // "Don't ask for X" / "Remove the question about X" / "No need to ask for X".
    const remove = /^(?:don't|do not|no need to|stop|never)\s+(?:ask(?:ing)?|collect(?:ing)?|request(?:ing)?)\s+(?:for|about)?\s*(.+)$|^(?:remove|drop|delete|skip)\s+(?:the\s+)?(?:question|step|collect(?:ion)?)?\s*(?:about|for|asking for)?\s*(.+)$/i.exec(text);
    if (remove) {
      const phrase = (remove[1] ?? remove[2] ?? '').trim();
      const field = scope.fields.find((f) => f.field === fieldName(phrase)) ?? knownField(phrase, scope.fields);
      if (field) {
        root = removeField(root, field.field) ?? { id: nodeId(scope, 'end'), type: 'end' };
        scope.fields = scope.fields.filter((f) => f.field !== field.field);
        continue;
      }
    }
    // "Change the message/reply to '...'" / "Say '...' instead".
    const change = /^(?:change|replace|update|set)\s+(?:the\s+)?(?:final\s+|last\s+|closing\s+)?(?:message|reply|answer|text|response)\s+(?:to|with)\b/i.test(text) || /\binstead\b/i.test(text);
    if (change && stepQuotes.length) {
      const chain = mainChain(root);
      const target = [...chain].reverse().find((n) => n.type === 'message' || ((n.type === 'end' || n.type === 'escalate') && n.message));
      if (target && (target.type === 'message' || target.type === 'end' || target.type === 'escalate')) {
        target.message = messageText(stepQuotes[0]!);
        continue;
      }
    }
    const produced = stepNodes(text, quotes, scope);
    if (produced.length === 0) continue;
    const chain = mainChain(root);
    const position = /\b(?:first|at the (?:start|beginning)|before anything)\b/i.test(text)
      ? 0
      : /\bbefore\s+(?:asking for\s+|the\s+)?(.+)$/i.exec(text)
        ? Math.max(0, chain.findIndex((n) => n.type === 'collect' && knownField(/\bbefore\s+(?:asking for\s+|the\s+)?(.+)$/i.exec(text)![1]!, [{ field: n.field, phrase: n.field.replace(/([A-Z])/g, ' $1').toLowerCase() }]) !== undefined))
        : produced[0]!.type === 'collect'
          ? chain.reduce((at, n, i) => (n.type === 'collect' ? i + 1 : at), 0)
          : produced[0]!.type === 'condition' && scope.fields.length
            ? refersToField(produced[0]!, chain)
            : chain.length - (chain.length && isTerminal(chain[chain.length - 1]!) ? 1 : 0);
    const terminalBefore = chain.slice(0, position).some(isTerminal);
    const at = terminalBefore ? chain.findIndex(isTerminal) : position;
    chain.splice(at, 0, ...produced.filter((n, i) => i === 0 || !isTerminal(produced[i - 1]!)));
    root = relink(chain.slice(0, chain.findIndex(isTerminal) + 1 || chain.length));
  }
  return { name: input.rule.name, description: input.rule.description, flowConfig: root };
}

/** Where a new condition goes: right after the collect node of the field it tests, else at the end. */
function refersToField(condition: FlowNode, chain: FlowNode[]): number {
  const path = condition.type === 'condition' ? condition.conditions[0]?.predicate[0]?.left.path : undefined;
  const field = path?.startsWith('rule.') ? path.slice(5) : undefined;
  const index = field ? chain.findIndex((n) => n.type === 'collect' && n.field === field) : -1;
  if (index >= 0) return index + 1;
  return chain.length - (chain.length && isTerminal(chain[chain.length - 1]!) ? 1 : 0);
}

// ---------------------------------------------------------------------------------------------
// Matching

/**
 * Counter-examples in a rule's description: `Not for messages like: "...".` (Refine with AI adds
 * one when a rule answered a message it should not have). A message this similar to one of them
 * does not trigger the rule, and their words do not count towards the match.
 */
const COUNTER_EXAMPLES = /not for messages like:\s*"([^"]*)"\.?/gi;
export const COUNTER_EXAMPLE_SIMILARITY = 0.6;

export function counterExamples(description: string): string[] {
  return [...description.matchAll(COUNTER_EXAMPLES)].map((m) => m[1]!);
}

/** Score at or above which a message triggers a rule (the built-in engine's cosine of stemmed terms). */
export const RULE_MATCH_THRESHOLD = 0.2;

/** How well a message matches each rule's name and description, best first, with the shared terms. */
export function matchRules(input: { message: string; rules: readonly { id: string; name: string; description: string }[] }): {
  matches: { ruleId: string; score: number; reason: string }[];
} {
  const messageTerms = new Set(terms(input.message));
  const matches = input.rules.map((rule) => {
    const excluded = counterExamples(rule.description).find((example) => similarity(input.message, example) >= COUNTER_EXAMPLE_SIMILARITY);
    if (excluded !== undefined) return { ruleId: rule.id, score: 0, reason: `the rule is not for messages like "${excluded}"` };
    const text = `${rule.name}. ${rule.description.replace(COUNTER_EXAMPLES, ' ')}`;
    const score = Math.round(similarity(input.message, text) * 1000) / 1000;
    const shared = [...new Set(terms(text))].filter((t) => messageTerms.has(t));
    const reason = shared.length
      ? `the message shares ${shared.map((t) => `"${t}"`).join(', ')} with the rule's name and description`
      : "the message shares no terms with the rule's name and description";
    return { ruleId: rule.id, score, reason };
  });
  matches.sort((a, b) => b.score - a.score || a.ruleId.localeCompare(b.ruleId));
  return { matches };
}
