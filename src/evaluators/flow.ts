import { z } from 'zod';
import { type ConditionGroup, conditionGroupsSchema } from './conditions.js';

/**
 * The rule-flow language (`flowConfig` of intent rules, wave2-decisions §4, docs/rules.md): a tree
 * of typed nodes. `next`, `then`, `else`, `onSuccess` and `onFailure` hold the following node
 * itself, never a reference, so a flow cannot loop. A branch (`then`/`else`, `onSuccess`/
 * `onFailure`) runs first; when it ends without finishing the flow, the node's `next` follows.
 */

export const FLOW_NODE_TYPES = ['message', 'collect', 'condition', 'tool', 'tag', 'escalate', 'end'] as const;
export type FlowNodeType = (typeof FLOW_NODE_TYPES)[number];

/** The data types a `collect` node validates answers with. */
export const COLLECT_DATA_TYPES = ['string', 'number', 'boolean', 'date', 'email', 'identifier', 'days'] as const;
export type CollectDataType = (typeof COLLECT_DATA_TYPES)[number];

/** Why a flow hands over (the system group `Escalation Reason`, wave2-decisions §1). */
export const FLOW_ESCALATION_REASONS = [
  'missing_knowledge',
  'customer_request',
  'rule_escalation',
  'guardrail_block',
  'tool_failure',
  'low_confidence',
  'negative_sentiment',
  'other',
] as const;

export const FLOW_LIMITS = { nodes: 200, depth: 30, text: 4_000 } as const;

/** The keys that hold a following node, in the order the walker visits them. */
export const CHILD_KEYS = ['then', 'else', 'onSuccess', 'onFailure', 'next'] as const;
export type ChildKey = (typeof CHILD_KEYS)[number];

interface NodeBase {
  /** Unique within the flow; assigned (`n1`, `n2`, ...) when a saved flow leaves it out. */
  id?: string;
  next?: FlowNode;
}
export interface MessageNode extends NodeBase {
  type: 'message';
  message: string;
}
export interface CollectNode extends NodeBase {
  type: 'collect';
  field: string;
  question: string;
  dataType: CollectDataType;
  required: boolean;
}
export interface ConditionNode extends NodeBase {
  type: 'condition';
  conditions: ConditionGroup[];
  then?: FlowNode;
  else?: FlowNode;
}
export interface ToolNode extends NodeBase {
  type: 'tool';
  toolId: string;
  /** Input name -> `${path}` template or literal. */
  inputs: Record<string, string | number | boolean | null>;
  onSuccess?: FlowNode;
  onFailure?: FlowNode;
}
export interface TagNode extends NodeBase {
  type: 'tag';
  tagIds: string[];
}
export interface EscalateNode {
  id?: string;
  type: 'escalate';
  reason: (typeof FLOW_ESCALATION_REASONS)[number];
  message?: string;
}
export interface EndNode {
  id?: string;
  type: 'end';
  message?: string;
}
export type FlowNode = MessageNode | CollectNode | ConditionNode | ToolNode | TagNode | EscalateNode | EndNode;

const id = z.string().trim().min(1).max(100).optional();
const text = z.string().trim().min(1).max(FLOW_LIMITS.text);
const child = () => z.lazy((): z.ZodType<FlowNode> => flowNodeSchema).optional();
const fieldName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'a field name: a letter or _, then letters, digits or _ (at most 64)');

const messageNode = z.strictObject({ id, type: z.literal('message'), message: text, next: child() });
const collectNode = z.strictObject({
  id,
  type: z.literal('collect'),
  field: fieldName,
  question: text,
  dataType: z.enum(COLLECT_DATA_TYPES).default('string'),
  required: z.boolean().default(true),
  next: child(),
});
const conditionNode = z.strictObject({
  id,
  type: z.literal('condition'),
  conditions: conditionGroupsSchema.min(1),
  then: child(),
  else: child(),
  next: child(),
});
const toolNode = z.strictObject({
  id,
  type: z.literal('tool'),
  toolId: z.uuid().overwrite((v) => v.toLowerCase()),
  inputs: z.record(fieldName, z.union([z.string().max(FLOW_LIMITS.text), z.number(), z.boolean(), z.null()])).default({}),
  onSuccess: child(),
  onFailure: child(),
  next: child(),
});
const tagNode = z.strictObject({
  id,
  type: z.literal('tag'),
  tagIds: z
    .array(z.uuid().overwrite((v) => v.toLowerCase()))
    .min(1)
    .max(20),
  next: child(),
});
const escalateNode = z.strictObject({ id, type: z.literal('escalate'), reason: z.enum(FLOW_ESCALATION_REASONS).default('rule_escalation'), message: text.optional() });
const endNode = z.strictObject({ id, type: z.literal('end'), message: text.optional() });

// `FlowNode` in the OpenAPI document: rules' `flowConfig` is documented as this (uuids lower-cased
// with `overwrite`, which keeps the answered type a uuid string in the document).
const nodeUnion = z
  .discriminatedUnion('type', [messageNode, collectNode, conditionNode, toolNode, tagNode, escalateNode, endNode])
  .meta({ id: 'FlowNode', description: 'A node of a rule flow (docs/rules.md): the nodes that follow it nest inside it (`next`, `then`, `else`, `onSuccess`, `onFailure`).' });
export const flowNodeSchema: z.ZodType<FlowNode> = nodeUnion as unknown as z.ZodType<FlowNode>;

/**
 * Size of a raw flow before it is parsed, walked without recursion (a deeply nested body cannot
 * exhaust the stack): the number of nodes and the deepest nesting (the root is depth 1).
 */
export function measureFlow(raw: unknown): { nodes: number; depth: number } {
  let nodes = 0;
  let depth = 0;
  const stack: [unknown, number][] = [[raw, 1]];
  while (stack.length) {
    const [node, level] = stack.pop()!;
    if (node === null || typeof node !== 'object' || Array.isArray(node)) continue;
    nodes += 1;
    depth = Math.max(depth, level);
    if (nodes > FLOW_LIMITS.nodes * 4 || depth > FLOW_LIMITS.depth * 4) break;
    for (const key of CHILD_KEYS) {
      const next = (node as Record<string, unknown>)[key];
      if (next !== undefined) stack.push([next, level + 1]);
    }
  }
  return { nodes, depth };
}

/** Every node of a flow with its path from the root (`['next', 'then']`), in document order. */
export function flowNodes(root: FlowNode): { node: FlowNode; path: string[] }[] {
  const out: { node: FlowNode; path: string[] }[] = [];
  const visit = (node: FlowNode, path: string[]) => {
    out.push({ node, path });
    for (const key of CHILD_KEYS) {
      const next = (node as Partial<Record<ChildKey, FlowNode>>)[key];
      if (next) visit(next, [...path, key]);
    }
  };
  visit(root, []);
  return out;
}

/**
 * A flow as stored: limits checked before the tree is parsed, then every node validated, ids
 * unique. A problem names the node's path (`flowConfig.next.then.type`).
 */
export const flowConfigSchema = z
  .unknown()
  .superRefine((raw, ctx) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      ctx.addIssue({ code: 'custom', message: 'a flow is a node object ({ type, ... })', fatal: true });
      return;
    }
    const { nodes, depth } = measureFlow(raw);
    if (nodes > FLOW_LIMITS.nodes) {
      ctx.addIssue({ code: 'custom', message: `a flow has at most ${FLOW_LIMITS.nodes} nodes`, fatal: true });
    } else if (depth > FLOW_LIMITS.depth) {
      ctx.addIssue({ code: 'custom', message: `a flow nests at most ${FLOW_LIMITS.depth} nodes deep`, fatal: true });
    }
  })
  .pipe(flowNodeSchema)
  .superRefine((flow, ctx) => {
    const seen = new Map<string, string[]>();
    for (const { node, path } of flowNodes(flow)) {
      if (node.id === undefined) continue;
      if (seen.has(node.id)) {
        ctx.addIssue({ code: 'custom', path: [...path, 'id'], message: `node id "${node.id}" is used twice; ids are unique within a flow` });
      }
      seen.set(node.id, path);
    }
  });

/** Gives every node without an id the first free `n<k>` in document order (stored flows always have ids). */
export function withNodeIds(flow: FlowNode): FlowNode {
  const copy = structuredClone(flow);
  const all = flowNodes(copy);
  const used = new Set(all.map((n) => n.node.id).filter((v): v is string => v !== undefined));
  let k = 0;
  for (const { node } of all) {
    if (node.id !== undefined) continue;
    do k += 1;
    while (used.has(`n${k}`));
    node.id = `n${k}`;
    used.add(node.id);
  }
  return copy;
}

/** The tool nodes of a flow with their paths: the caller checks that each names an existing action. */
export function flowToolRefs(flow: FlowNode): { toolId: string; path: string[] }[] {
  return flowNodes(flow).flatMap(({ node, path }) => (node.type === 'tool' ? [{ toolId: node.toolId, path }] : []));
}

/** The tag ids a flow's tag nodes name, with their paths. */
export function flowTagRefs(flow: FlowNode): { tagId: string; path: string[]; index: number }[] {
  return flowNodes(flow).flatMap(({ node, path }) => (node.type === 'tag' ? node.tagIds.map((tagId, index) => ({ tagId, path, index })) : []));
}
