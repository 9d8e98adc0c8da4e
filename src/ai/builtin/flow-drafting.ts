import type { FlowNode } from '../../evaluators/flow.js';
import type { DraftingAction, DraftingTag } from '../contracts/draft-rule.js';
import { capitalize, squash } from '../../text/sentences.js';
import { similarity } from '../../text/similarity.js';
import { conditionFor, contentWords, fieldName, fieldType, knownField, questionFor, toSecondPerson } from './flow-reading.js';

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
}

// ---------------------------------------------------------------------------------------------
// One step -> nodes

export interface Scope {
  tags: readonly DraftingTag[];
  actions: readonly DraftingAction[];
  fields: { field: string; phrase: string }[];
  ids: Set<string>;
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
export function stepNodes(text: string, quotes: readonly string[], scope: Scope): FlowNode[] {
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
export function link(nodes: FlowNode[]): FlowNode {
  const chain = nodes.slice(0, nodes.findIndex((n) => n.type === 'escalate' || n.type === 'end') + 1 || nodes.length);
  for (let i = chain.length - 2; i >= 0; i -= 1) (chain[i] as { next?: FlowNode }).next = chain[i + 1];
  return chain[0]!;
}

/** Steps -> one chain, attaching "Otherwise ..." steps as the `else` of the condition before them. */
export function buildChain(steps: readonly string[], quotes: readonly string[], scope: Scope): FlowNode[] {
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

