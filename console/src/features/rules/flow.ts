// A rule's flow as the console handles it: nodes addressed by the branch keys leading to them
// (`['next', 'then']`), the flow and its conditions in words, and the API's 400 messages
// (`body.flowConfig.next.then.toolId: ...`) mapped back to the node they name.

export const NODE_TYPES = ['message', 'collect', 'condition', 'tool', 'tag', 'escalate', 'end'] as const;
export type NodeType = (typeof NODE_TYPES)[number];
/** The keys holding a following node, in the order the walker visits them (src/evaluators/flow.ts). */
export const CHILD_KEYS = ['then', 'else', 'onSuccess', 'onFailure', 'next'] as const;
export type ChildKey = (typeof CHILD_KEYS)[number];
export const BRANCH_LABELS: Record<ChildKey, string> = { then: 'Then', else: 'Otherwise', onSuccess: 'On success', onFailure: 'On failure', next: 'Next' };

export interface Predicate {
  left: { path: string; dataType: string };
  operator: string;
  right?: { value?: unknown };
}
export interface ConditionGroup {
  scope: string;
  predicate: Predicate[];
}
export interface FlowNode {
  id?: string;
  type: NodeType;
  message?: string;
  field?: string;
  question?: string;
  dataType?: string;
  required?: boolean;
  conditions?: ConditionGroup[];
  toolId?: string;
  inputs?: Record<string, string | number | boolean | null>;
  tagIds?: string[];
  reason?: string;
  then?: FlowNode;
  else?: FlowNode;
  onSuccess?: FlowNode;
  onFailure?: FlowNode;
  next?: FlowNode;
}

export type NodePath = ChildKey[];
export const pathKey = (path: NodePath) => path.join('.');

export function nodeAt(flow: FlowNode, path: NodePath): FlowNode | undefined {
  let node: FlowNode | undefined = flow;
  for (const key of path) node = node?.[key];
  return node;
}

/** The flow with the node at `path` replaced (undefined removes it), every other node shared. */
export function replaceAt(flow: FlowNode, path: NodePath, replacement: FlowNode | undefined): FlowNode | undefined {
  if (path.length === 0) return replacement;
  const [key, ...rest] = path as [ChildKey, ...ChildKey[]];
  const child = flow[key];
  if (!child) return flow;
  const copy = { ...flow };
  const replaced = replaceAt(child, rest, replacement);
  if (replaced === undefined) delete copy[key];
  else copy[key] = replaced;
  return copy;
}

/** A node's own fields, without the nodes that follow it. */
export function ownFields(node: FlowNode): FlowNode {
  const copy = { ...node };
  for (const key of CHILD_KEYS) delete copy[key];
  return copy;
}

/** The node with its own fields replaced and its following nodes kept. */
export function withFields(node: FlowNode, fields: FlowNode): FlowNode {
  const children = Object.fromEntries(CHILD_KEYS.filter((key) => node[key]).map((key) => [key, node[key]]));
  return { ...fields, ...children };
}

const OPERATOR_WORDS: Record<string, string> = {
  '==': 'is',
  '!=': 'is not',
  '<': 'is less than',
  '<=': 'is at most',
  '>': 'is more than',
  '>=': 'is at least',
  contains: 'contains',
  not_contains: 'does not contain',
  starts_with: 'starts with',
  ends_with: 'ends with',
  in: 'is one of',
  not_in: 'is none of',
  matches: 'matches the pattern',
  exists: 'is known',
  not_exists: 'is not known',
};
export const OPERATORS = Object.keys(OPERATOR_WORDS);

function valueText(value: unknown): string {
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  if (typeof value === 'string') return `“${value}”`;
  return JSON.stringify(value) ?? '';
}

export function predicateText(p: Predicate, scope = 'SCALAR'): string {
  const subject = scope === 'ANY' ? `any item of ${p.left.path}` : scope === 'ALL' ? `every item of ${p.left.path}` : p.left.path;
  const words = OPERATOR_WORDS[p.operator] ?? p.operator;
  const unary = p.operator === 'exists' || p.operator === 'not_exists';
  return `${subject} ${words}${unary ? '' : ` ${valueText(p.right?.value)}`}${p.left.dataType === 'date' ? ' (as a date)' : ''}`;
}

/** Any group holds when all its predicates hold: "A and B, or C". */
export function conditionsText(groups: ConditionGroup[] = []): string {
  return groups.map((g) => g.predicate.map((p) => predicateText(p, g.scope)).join(' and ')).join(', or ');
}

/** Names of the actions and tags a flow refers to by id (the id itself while unknown). */
export interface FlowNames {
  action(id: string): string;
  tag(id: string): string;
}
const BY_ID: FlowNames = { action: (id) => id, tag: (id) => id };

/** Whether any node of the flow is of this type (the page then asks for the names it needs). */
export function hasNodeOfType(node: FlowNode | null | undefined, type: NodeType): boolean {
  if (!node) return false;
  return node.type === type || CHILD_KEYS.some((key) => hasNodeOfType(node[key], type));
}

/** One sentence for what a node does. */
export function nodeText(node: FlowNode, names: FlowNames = BY_ID): string {
  switch (node.type) {
    case 'message':
      return `Say “${node.message ?? ''}”`;
    case 'collect':
      return `Ask “${node.question ?? ''}” and keep the answer as rule.${node.field ?? ''} (${node.dataType ?? 'string'}, ${node.required === false ? 'optional' : 'required'})`;
    case 'condition':
      return `If ${conditionsText(node.conditions)}`;
    case 'tool': {
      const inputs = Object.entries(node.inputs ?? {}).map(([k, v]) => `${k} = ${String(v)}`);
      return `Call action ${names.action(node.toolId ?? '')}${inputs.length ? ` with ${inputs.join(', ')}` : ''}`;
    }
    case 'tag':
      return `Tag the conversation with ${(node.tagIds ?? []).map(names.tag).join(', ')}`;
    case 'escalate':
      return `Hand over to a person (reason ${node.reason ?? 'rule_escalation'})${node.message ? `, saying “${node.message}”` : ''}`;
    case 'end':
      return `End the flow${node.message ? `, saying “${node.message}”` : ''}`;
    default:
      return JSON.stringify(node);
  }
}

/** The flow as indented lines (what the versions diff compares). */
export function flowOutline(node: FlowNode | null | undefined, indent = '', names: FlowNames = BY_ID): string[] {
  const lines: string[] = [];
  for (let current = node; current; current = current.next) {
    lines.push(`${indent}${current.id ?? '?'} [${current.type}] ${nodeText(current, names)}`);
    for (const key of CHILD_KEYS) {
      const child = current[key];
      if (key === 'next' || !child) continue;
      lines.push(`${indent}  ${BRANCH_LABELS[key]}:`);
      lines.push(...flowOutline(child, `${indent}    `, names));
    }
  }
  return lines;
}

export interface NodeError {
  /** What inside the node is wrong (`question`, `conditions.0.predicate.1.operator`), '' for the node itself. */
  field: string;
  message: string;
}

/**
 * The API's validation message split per node: `body.flowConfig.next.then.toolId: action ... does not
 * exist` belongs to the node at ['next', 'then'], field `toolId`. Parts about anything else are `other`.
 */
export function flowErrors(message: string): { byNode: Map<string, NodeError[]>; other: string[] } {
  const byNode = new Map<string, NodeError[]>();
  const other: string[] = [];
  for (const part of message.split(/; (?=body\.)/)) {
    const match = /^body\.flowConfig((?:\.[^\s:]+)?): (.*)$/s.exec(part);
    if (!match) {
      other.push(part);
      continue;
    }
    const segments = (match[1] ?? '').split('.').filter(Boolean);
    const path: string[] = [];
    while (segments.length && (CHILD_KEYS as readonly string[]).includes(segments[0] ?? '')) path.push(segments.shift() ?? '');
    const key = path.join('.');
    byNode.set(key, [...(byNode.get(key) ?? []), { field: segments.join('.'), message: match[2] ?? '' }]);
  }
  return { byNode, other };
}
