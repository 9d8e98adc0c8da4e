import type { FlowNode } from '../../evaluators/flow.js';
import type { DraftingAction, DraftingTag } from '../contracts/draft-rule.js';
import { capitalize, squash } from '../../text/sentences.js';
import { similarity } from '../../text/similarity.js';
import { contentWords, fieldName, fieldType, knownField, questionFor, toSecondPerson } from './flow-reading.js';
import { type KnownField, readCondition, UNDERSTOOD_CONDITIONS } from './instruction-conditions.js';

/**
 * The nodes of one instruction step, and steps chained into a flow: the built-in engine's rule
 * drafting (draft-rule.ts) and refinement (refine-rule.ts) share it. The shapes it knows are
 * listed in draft-rule.ts.
 */

export interface DraftedRule {
  name: string;
  description: string;
  /** Null when the instructions hold no step to walk (guidance only). */
  flowConfig: FlowNode | null;
  /** Parts of the instructions not turned into the flow: the exact fragment and what is understood. */
  warnings: DraftWarning[];
}

export interface DraftWarning {
  fragment: string;
  message: string;
}

// ---------------------------------------------------------------------------------------------
// One step -> nodes

export interface Scope {
  tags: readonly DraftingTag[];
  actions: readonly DraftingAction[];
  fields: KnownField[];
  ids: Set<string>;
  warnings: DraftWarning[];
}

const UNDERSTOOD_STEPS =
  'understood steps: ask for a value, if / when / unless ... otherwise, say or reply with a text, offer or give something, escalate / hand over / transfer to an agent, tag as an existing tag, end the conversation, and calling one of the workspace\'s actions';

/** Names a part of the instructions that is not in the flow (docs/rules.md, warnings). */
export function warn(scope: Scope, fragment: string, quotes: readonly string[], what: 'step' | 'condition' | 'tag' | 'part'): void {
  const text = restoreQuotes(fragment, quotes).trim();
  if (!text || scope.warnings.some((w) => w.fragment === text)) return;
  const message =
    what === 'condition'
      ? `Not understood: the condition "${text}", so neither of its branches is in the flow; ${UNDERSTOOD_CONDITIONS}.`
      : what === 'tag'
        ? `Not understood: "${text}" names no tag of this workspace; create the tag, then refine the draft.`
        : what === 'part'
          ? `Not understood: the flow would not do all that "${text}" asks for (a reply, a hand-over, a question or a comparison with a number in it), so the draft has no flow; ${UNDERSTOOD_STEPS}.`
          : `Not understood: "${text}" is not in the flow; ${UNDERSTOOD_STEPS}.`;
  scope.warnings.push({ fragment: text, message });
}

export function nodeId(scope: Scope, base: string): string {
  const clean = base.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40) || 'step';
  let id = clean;
  for (let k = 2; scope.ids.has(id); k += 1) id = `${clean}_${k}`;
  scope.ids.add(id);
  return id;
}

const restoreQuotes = (text: string, quotes: readonly string[]) => text.replace(/⟦(\d+)⟧/g, (_m, i: string) => `"${quotes[Number(i)] ?? ''}"`);

/** Interpolates collected fields a reply speaks of ("the order number" -> `${rule.orderNumber}`) only when quoted with {}. */
export function messageText(text: string): string {
  return squash(text).slice(0, 4000);
}

const ACTION = String.raw`(?:escalate|hand(?:\s+(?:it|them))?\s*(?:over|off)|transfer|pass(?:\s+it)?\s+(?:on\s+)?to|forward|route|connect|say|tell|reply|respond|answer|give|offer|send|let (?:them|the customer|the user) know|ask|tag|end|close|apologi[sz]e|inform|explain|provide|direct|point)`;
const ASK = /^(?:please\s+)?(?:ask|request|collect|get|obtain|find out|gather|confirm)\b\s*(?:the customer|the user|them|him|her|for it)?\s*(?:for|about|to (?:give|provide|share|send)(?: us| you)?|to confirm)?\s*(.+)$/i;
export const ESCALATE = /\b(?:escalate|hand(?:\s+(?:it|them))?\s*(?:over|off)|handoff|transfer|pass(?:\s+it)?\s+(?:on\s+)?to|forward(?:\s+it)?\s+to|route(?:\s+it)?\s+to|connect (?:them|the customer) (?:to|with))\b/i;
const TAG = /^(?:please\s+)?tag(?:\s+(?:it|this|them|the conversation|the ticket|the chat))?\s+(?:as\s+|with\s+)?["“]?([^"”⟦,;]+?)["”]?\s*$/i;
const END = /\b(?:end|close|finish|conclude)\s+(?:the\s+)?(?:conversation|chat|ticket|flow)\b/i;
const SAY = /^(?:please\s+)?(?:say|tell|reply|respond|answer|inform|explain|let (?:them|the customer|the user) know)\b(?:\s+(?:to\s+)?(?:them|the customer|the user|him|her))?(?:\s+(?:that|with))?\s*(.*)$/i;
const OFFER = /^(?:please\s+)?(offer|give|provide)\s+(?:(?:to\s+)?(?:them|the customer|the user|him|her)\s+)?(.+)$/i;
const APOLOGISE = /^(?:please\s+)?apologi[sz]e\b(.*)$/i;
const SAY_ONLY =
  /^\s*(?:please\s+)?(?:(?:say|tell|reply|respond|answer|write|inform|let (?:them|the customer|the user) know)(?:\s+(?:to\s+)?(?:them|the customer|the user|him|her))?(?:\s+(?:that|with|back))?)?[\s:.!]*$/i;
const GUIDANCE = /^(?:don't|do not|never|always|be\b|make sure|remember|try to|avoid|no need)\b/i;
const TOOL = /^(?:please\s+)?(?:look up|lookup|check|fetch|retrieve|find|call|cancel|create|update|verify|refund|issue|reset|search)\b/i;
const CONNECTOR = /^(?:and\s+then|then|and|next|after that|afterwards|finally|also|additionally|lastly)[,:]?\s+/i;
const THEN_SPLIT = /[,;]\s*(?:and\s+)?then\s+|\s+and\s+then\s+|,?\s+then\s+(?=(?:if|when|unless)\b)/i;
const ACTION_SPLIT = new RegExp(String.raw`\s*(?:,\s*(?:and\s+)?|\s+and\s+)(?=${ACTION}\b)`, 'i');
export const OTHERWISE = /^(?:otherwise|else|if not|if no|if it (?:is|was)n't|in all other cases|in any other case|if (?:it'?s|it is|it was) (?:older|newer|more|less|longer|later|higher|lower|bigger)(?!\s+than\b))[,:]?\s+(.+)$/i;
const SPLIT_ELSE = /^(.*?)[,;]?\s+(?:otherwise|else|if not)[,:]?\s+(.+)$/i;
const IN_THAT_CASE = /[,;]?\s+(?:in (?:that|which|this) case|if so)[,:]?\s+/i;
const SUBJECTS = /\b(?:customer|customers|user|they|he|she|someone|somebody|member|it|who|to|they're|you|we|i|buyer|person)\s*$/i;

/** "if X(,) (then) Y": the condition and what follows, split where the first instruction verb begins. */
function splitConditional(text: string): { cond: string; rest: string } | null {
  const lead = /^(?:if|when|whenever|in case|should|for)\s+/i.exec(text);
  if (!lead) return null;
  const body = text.slice(lead[0].length);
  const verbAt = new RegExp(String.raw`(?:^|[,;]\s*(?:then\s+)?|\s+then\s+|\s+)(${ACTION})\b`, 'gi');
  for (const m of body.matchAll(verbAt)) {
    const before = body.slice(0, m.index);
    if (before.trim().split(/\s+/).length < 1 || !before.trim()) continue;
    const separated = /[,;]/.test(m[0]) || /\bthen\b/i.test(m[0]);
    if (!separated && SUBJECTS.test(before)) continue;
    return { cond: `${lead[0]}${before}`.trim(), rest: body.slice(m.index + m[0].length - m[1]!.length).trim() };
  }
  const comma = /^(.+?)(?:,\s*(?:then\s+)?|\s+then\s+)(.+)$/i.exec(body);
  return comma ? { cond: `${lead[0]}${comma[1]!}`.trim(), rest: comma[2]!.trim() } : null;
}

/** A condition node over `thenNodes` / `elseNodes`, with the collect steps the condition needs first. */
function conditionNodes(cond: string, thenText: string | null, elseText: string | null, fragment: string, quotes: readonly string[], scope: Scope): FlowNode[] {
  const read = readCondition(cond, scope.fields, quotes.filter((_q, i) => cond.includes(`⟦${i}⟧`)));
  if (!read.read) {
    warn(scope, fragment, quotes, 'condition');
    return [];
  }
  const asks: FlowNode[] = [];
  for (const need of read.needs) {
    if (scope.fields.some((f) => f.field === need.field)) continue;
    scope.fields.push({ field: need.field, phrase: need.phrase, dataType: need.dataType });
    asks.push({ id: nodeId(scope, `ask_${need.field.replace(/([A-Z])/g, '_$1')}`), type: 'collect', field: need.field, question: need.question, dataType: need.dataType, required: true } as FlowNode);
  }
  const thenNodes = thenText ? stepNodes(thenText, quotes, scope) : [];
  if (read.customerAsksForHuman) for (const n of thenNodes) if (n.type === 'escalate') n.reason = 'customer_request';
  const elseNodes = elseText ? stepNodes(elseText, quotes, scope) : [];
  return [
    ...asks,
    {
      id: nodeId(scope, `check_${contentWords(cond).slice(0, 3).join('_') || 'condition'}`),
      type: 'condition',
      conditions: read.conditions,
      ...(thenNodes.length ? { then: link(thenNodes) } : {}),
      ...(elseNodes.length ? { else: link(elseNodes) } : {}),
    },
  ];
}

function sentence(text: string): string {
  const content = capitalize(squash(text)).replace(/[,;:]+$/, '');
  return /[.!?]$/.test(content) ? content : `${content}.`;
}

/**
 * "Don't hand over", "do not escalate", "no need to transfer": the flow keeps the conversation,
 * which a flow does by not handing over. The clause is dropped from its step (never read as a
 * hand-over); with a condition ("don't hand over unless ...") it is not understood.
 */
const NO_HANDOVER = new RegExp(
  String.raw`(?:^|[,;]?\s+(?:and\s+|but\s+)?)(?:please\s+)?(?:don't|do not|never|no need to|there(?:'s| is) no need to)\s+(?:escalate|hand|transfer|pass|forward|route|connect)\b([^.;]*)$`,
  'i',
);

/** Nodes for one step, chained through `next` (the last one open); what it cannot read is warned about. */
export function stepNodes(text: string, quotes: readonly string[], scope: Scope): FlowNode[] {
  let plain = text.trim().replace(CONNECTOR, '').replace(/[.;]+$/, '').trim();
  const keep = NO_HANDOVER.exec(plain);
  if (keep) {
    if (/\b(?:unless|if|when|until|except)\b/i.test(keep[1]!)) {
      warn(scope, plain, quotes, 'step');
      return [];
    }
    plain = plain.slice(0, keep.index).trim();
  }
  if (!plain) return [];
  const otherwise = OTHERWISE.exec(plain);
  if (otherwise) return stepNodes(otherwise[1]!, quotes, scope); // attached as `else` by the caller

  // "Ask for X, then if ...": several steps in one sentence.
  const parts = plain.split(THEN_SPLIT).filter((p) => p.trim());
  if (parts.length > 1 && !/^(?:if|when|unless)\b/i.test(plain)) return chainParts(parts, quotes, scope);

  // "Unless X, Y" and "Y unless X(, in that case Z)".
  const unlessFirst = /^unless\s+(.+?),\s*(.+)$/i.exec(plain);
  if (unlessFirst) return conditionNodes(unlessFirst[1]!, null, unlessFirst[2]!, plain, quotes, scope);
  const unless = /^(.+?),?\s+unless\s+(.+)$/i.exec(plain);
  if (unless) {
    const [cond, inThatCase] = unless[2]!.split(IN_THAT_CASE);
    return conditionNodes(cond!, inThatCase ?? null, unless[1]!, plain, quotes, scope);
  }

  const conditional = splitConditional(plain);
  if (conditional) {
    const split = SPLIT_ELSE.exec(conditional.rest);
    return conditionNodes(conditional.cond, split ? split[1]! : conditional.rest, split ? split[2]! : null, plain, quotes, scope);
  }

  // "Escalate to a human when X" / "Hand over if X".
  const escalateWhen = /^(.*?\b(?:escalate|hand(?:\s+it)?\s*(?:over|off)|transfer|pass|forward|route)\b.*?)\s+(?:when|if|whenever|in case)\s+(.+)$/i.exec(plain);
  if (escalateWhen && ESCALATE.test(escalateWhen[1]!)) return conditionNodes(`if ${escalateWhen[2]!}`, escalateWhen[1]!, null, plain, quotes, scope);

  // "Tag as Loyalty and hand over", "apologise, tag as Complaint, ask ...": one action each.
  const actions = plain.split(ACTION_SPLIT).filter((p) => p.trim());
  if (actions.length > 1) return chainParts(actions, quotes, scope);
  return actionNodes(plain, quotes, scope);
}

function chainParts(parts: readonly string[], quotes: readonly string[], scope: Scope): FlowNode[] {
  const nodes: FlowNode[] = [];
  for (const part of parts) {
    const produced = stepNodes(part, quotes, scope);
    const previous = nodes[nodes.length - 1];
    if (OTHERWISE.test(part.trim()) && previous?.type === 'condition' && !previous.else && produced.length) previous.else = link(produced);
    else nodes.push(...produced);
  }
  return nodes;
}

/** One action: hand over, tag, end, ask, call an action, say. */
function actionNodes(plain: string, quotes: readonly string[], scope: Scope): FlowNode[] {
  const quoted = quotes.filter((_q, i) => plain.includes(`⟦${i}⟧`));
  if (ESCALATE.test(plain)) {
    return [{ id: nodeId(scope, 'hand_over'), type: 'escalate', reason: 'rule_escalation', ...(quoted[0] ? { message: quoted[0] } : {}) }];
  }
  const tag = TAG.exec(plain);
  if (tag) {
    const wanted = restoreQuotes(tag[1]!, quotes).replace(/["“”]/g, '').trim().toLowerCase();
    const found = scope.tags.find((t) => t.tagName.toLowerCase() === wanted) ?? scope.tags.find((t) => `${t.groupTitle}: ${t.tagName}`.toLowerCase() === wanted);
    if (!found) warn(scope, plain, quotes, 'tag');
    return found ? [{ id: nodeId(scope, `tag_${found.tagName}`), type: 'tag', tagIds: [found.id] }] : [];
  }
  if (END.test(plain)) return [{ id: nodeId(scope, 'end'), type: 'end', ...(quoted[0] ? { message: quoted[0] } : {}) }];
  if (GUIDANCE.test(plain)) return [];

  const ask = ASK.exec(plain);
  if (ask && !SAY.test(plain)) {
    const object = restoreQuotes(ask[1]!, quotes).replace(/[.?!]+$/, '').trim();
    const whether = /^(?:if|whether)\b/i.test(object);
    const wh = /^(?:what|which|how|when|where|who|why)\b/i.test(object);
    const phrases = whether || wh ? [object] : object.split(/\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s+as well as\s+)\s*/i).filter(Boolean);
    if (phrases.length && phrases.every((p) => p.split(/\s+/).length <= 8)) {
      return phrases.map((phrase) => {
        const bare = whether ? phrase.replace(/^(?:if|whether)\s+(?:they|he|she|the customer|the user)?\s*(?:also\s+)?/i, '') : phrase.replace(/^(?:what|which|how)\s+/i, '');
        const field = fieldName(bare);
        const dataType = whether ? 'boolean' : fieldType(phrase);
        const unique = scope.fields.some((f) => f.field === field) ? `${field}${scope.fields.length + 1}` : field;
        scope.fields.push({ field: unique, phrase: whether ? phrase.replace(/^(?:if|whether)\s+/i, '') : phrase, dataType });
        return { id: nodeId(scope, `ask_${unique.replace(/([A-Z])/g, '_$1')}`), type: 'collect', field: unique, question: questionFor(phrase, dataType, whether), dataType, required: true } as FlowNode;
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

  if (quoted.length) {
    // Only a step that says its quotes ('Say "A" and "B"', 'Reply with "A"') becomes replies: quotes
    // inside anything else ('Depending on the plan say "A" or "B"') would be said unconditionally.
    const rest = plain.replace(/⟦\d+⟧/g, ' ').replace(/\s*(?:,|\band\b|\bthen\b)\s*/gi, ' ');
    if (SAY_ONLY.test(rest)) return quoted.map((q) => ({ id: nodeId(scope, `say_${contentWords(q).slice(0, 3).join('_') || 'message'}`), type: 'message', message: messageText(q) }) as FlowNode);
    warn(scope, plain, quotes, 'step');
    return [];
  }
  const say = SAY.exec(plain) ?? OFFER.exec(plain) ?? APOLOGISE.exec(plain);
  if (say) {
    const verb = plain.split(/\s+/)[0]!.toLowerCase();
    const body = toSecondPerson(restoreQuotes(say[say.length - 1]!, quotes)).trim();
    const content = /^apologi/.test(verb) ? `We're sorry${body ? ` ${body.replace(/^(?:for|about)\s+/i, 'about ')}` : ' about that'}` : /^(?:offer|give|provide)$/.test(verb) ? `We can ${verb} you ${body}` : body;
    if (content.trim()) return [{ id: nodeId(scope, `say_${contentWords(content).slice(0, 3).join('_') || 'message'}`), type: 'message', message: messageText(sentence(content)) }];
  }
  warn(scope, plain, quotes, 'step');
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

/**
 * Chains nodes through `next`; a node that ends the flow (escalate, end) ends the chain. A tag
 * after it ("hand over to billing and tag Refund") labels the conversation all the same: it goes
 * before the end.
 */
export function link(nodes: FlowNode[]): FlowNode {
  const end = nodes.findIndex((n) => n.type === 'escalate' || n.type === 'end');
  const ordered = end < 0 ? nodes : [...nodes.slice(0, end), ...nodes.slice(end + 1).filter((n) => n.type === 'tag'), nodes[end]!, ...nodes.slice(end + 1).filter((n) => n.type !== 'tag')];
  const chain = ordered.slice(0, ordered.findIndex((n) => n.type === 'escalate' || n.type === 'end') + 1 || ordered.length);
  for (let i = chain.length - 2; i >= 0; i -= 1) (chain[i] as { next?: FlowNode }).next = chain[i + 1];
  return chain[0]!;
}

const ends = (n: FlowNode) => n.type === 'escalate' || n.type === 'end';
const CONDITIONAL = /^(?:if|when|whenever|in case|for|unless)\b/i;

/**
 * The steps after one that ends the conversation (a hand-over, an end). An exception stated after
 * the default ("Ask how many seats and hand over to sales. For fewer than 5 seats, tell them to sign
 * up online") makes the default's actions the other branch of the exception's condition. Any other
 * step there could never run: it is named in the warnings, never dropped in silence.
 */
function afterTheEnd(nodes: FlowNode[], rest: readonly string[], quotes: readonly string[], scope: Scope): FlowNode[] {
  const [first, ...others] = rest;
  let exception = false;
  const plain = first!.trim().replace(CONNECTOR, '');
  if (CONDITIONAL.test(plain) && !OTHERWISE.test(plain)) {
    // The default: the actions after the last question or condition.
    let from = nodes.length;
    while (from > 0 && !['collect', 'condition'].includes(nodes[from - 1]!.type)) from -= 1;
    const before = scope.warnings.length;
    const produced = stepNodes(plain, quotes, scope);
    const condition = produced.at(-1);
    if (from < nodes.length && scope.warnings.length === before && condition?.type === 'condition' && condition.then && !condition.else) {
      condition.else = link(nodes.slice(from));
      nodes = [...nodes.slice(0, from), ...produced];
      exception = true;
    }
  }
  for (const step of exception ? others : rest) warn(scope, step, quotes, 'step');
  return nodes;
}

/** Steps -> one chain, attaching "Otherwise ..." steps as the `else` of the condition before them. */
export function buildChain(steps: readonly string[], quotes: readonly string[], scope: Scope): FlowNode[] {
  let nodes: FlowNode[] = [];
  let previousRead = true;
  for (const [i, step] of steps.entries()) {
    const isOtherwise = OTHERWISE.test(step.trim().replace(CONNECTOR, ''));
    // The other branch of a condition that was not understood is not in the flow either.
    if (isOtherwise && !previousRead) {
      warn(scope, step, quotes, 'condition');
      continue;
    }
    const before = scope.warnings.length;
    const produced = stepNodes(step, quotes, scope);
    previousRead = !(produced.length === 0 && scope.warnings.length > before);
    const previous = nodes[nodes.length - 1];
    if (isOtherwise && previous?.type === 'condition' && !previous.else && produced.length) {
      previous.else = link(produced);
      continue;
    }
    nodes.push(...produced);
    if (nodes.some(ends)) {
      if (i + 1 < steps.length) nodes = afterTheEnd(nodes, steps.slice(i + 1), quotes, scope);
      break;
    }
  }
  return tagsFirst(nodes);
}

const mayEnd = (n: FlowNode | undefined): boolean =>
  n !== undefined && (ends(n) || (n.type === 'condition' && (mayEnd(n.then) || mayEnd(n.else))) || mayEnd((n as { next?: FlowNode }).next));

/**
 * "... 4. If it cost over $100, hand over. 5. Otherwise say ... 6. Tag as Damaged": a tag of the
 * whole rule labels the conversation on every path, also the ones a condition before it ends.
 */
function tagsFirst(nodes: FlowNode[]): FlowNode[] {
  const first = nodes.findIndex((n) => n.type === 'condition' && mayEnd(n));
  if (first < 0) return nodes;
  const late = nodes.slice(first + 1).filter((n) => n.type === 'tag');
  return late.length ? [...nodes.slice(0, first), ...late, ...nodes.slice(first).filter((n) => n.type !== 'tag' || !late.includes(n))] : nodes;
}
