import type { FlowNode } from '../../evaluators/flow.js';
import type { DraftingAction, DraftingTag } from '../contracts/draft-rule.js';
import { draftRuleFlow } from './draft-rule.js';
import { type DraftedRule, type Scope, link, messageText, nodeId, stepNodes } from './flow-drafting.js';
import { fieldName, knownField, quotesIn, splitSteps } from './flow-reading.js';
import type { KnownField } from './instruction-conditions.js';

/** The built-in engine's `refine_rule` method (docs/rules.md lists the edits it understands). */

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

function collectedFields(root: FlowNode): KnownField[] {
  const out: KnownField[] = [];
  const visit = (node: FlowNode) => {
    if (node.type === 'collect') out.push({ field: node.field, phrase: node.field.replace(/([A-Z])/g, ' $1').toLowerCase(), dataType: node.dataType });
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
    return { name: input.rule.name, description: input.rule.description, flowConfig: drafted.flowConfig, warnings: drafted.warnings };
  }
  const original: FlowNode = structuredClone(input.rule.flowConfig);
  let root: FlowNode = original;
  const scope: Scope = { tags: input.tags, actions: input.actions, fields: collectedFields(original), ids: allIds(original), warnings: [] };
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
  return { name: input.rule.name, description: input.rule.description, flowConfig: root, warnings: scope.warnings };
}

/** Where a new condition goes: right after the collect node of the field it tests, else at the end. */
function refersToField(condition: FlowNode, chain: FlowNode[]): number {
  const path = condition.type === 'condition' ? condition.conditions[0]?.predicate[0]?.left.path : undefined;
  const field = path?.startsWith('rule.') ? path.slice(5) : undefined;
  const index = field ? chain.findIndex((n) => n.type === 'collect' && n.field === field) : -1;
  if (index >= 0) return index + 1;
  return chain.length - (chain.length && isTerminal(chain[chain.length - 1]!) ? 1 : 0);
}

