// A rule's flow as the console handles it: nodes addressed by the branch keys leading to them
// (`['next', 'then']`), the flow in words (its conditions in the shared words of
// components/condition-words.ts), and the API's 400 messages (`body.flowConfig.next.then.toolId:
// ...`, read by components/field-errors.ts) mapped back to the node they name.
import { type ConditionGroup, conditionsWords } from '../../components/condition-words';
import { type FieldErrors, fieldErrors } from '../../components/field-errors';

export const NODE_TYPES = ['message', 'collect', 'condition', 'tool', 'tag', 'escalate', 'end'] as const;
export type NodeType = (typeof NODE_TYPES)[number];
/** The keys holding a following node, in the order the walker visits them (src/evaluators/flow.ts). */
export const CHILD_KEYS = ['then', 'else', 'onSuccess', 'onFailure', 'next'] as const;
export type ChildKey = (typeof CHILD_KEYS)[number];
export const BRANCH_LABELS: Record<ChildKey, string> = { then: 'Then', else: 'Otherwise', onSuccess: 'On success', onFailure: 'On failure', next: 'Next' };

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
      return `If ${conditionsWords(node.conditions)}`;
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

export interface FlowErrors {
  /** Each node's messages by its path key (`next.then`): fields inside the node (`toolId`,
   * `conditions.0.predicate.1.operator`), and in `other` those naming the node itself. */
  byNode: Map<string, FieldErrors>;
  /** Messages naming no node (another field of the body, or none). */
  other: string[];
}

export const NO_FLOW_ERRORS: FlowErrors = { byNode: new Map(), other: [] };

/**
 * The API's 400 split per node: `body.flowConfig.next.then.toolId: action ... does not exist`
 * belongs to the node at ['next', 'then'], field `toolId`.
 */
export function flowErrors(error: unknown): FlowErrors {
  const { fields, other } = fieldErrors(error);
  const byNode = new Map<string, FieldErrors>();
  const rest = [...other];
  for (const [path, message] of fields) {
    const segments = path.split('.');
    if (segments.shift() !== 'flowConfig') {
      rest.push(`body.${path}: ${message}`);
      continue;
    }
    const at: string[] = [];
    while (segments.length && (CHILD_KEYS as readonly string[]).includes(segments[0]!)) at.push(segments.shift()!);
    const node = byNode.get(at.join('.')) ?? { fields: new Map<string, string>(), other: [] };
    if (segments.length) node.fields.set(segments.join('.'), message);
    else node.other.push(message);
    byNode.set(at.join('.'), node);
  }
  return { byNode, other: rest };
}
