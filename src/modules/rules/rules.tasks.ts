import { draftRuleFlow } from '../../ai/builtin/draft-rule.js';
import { matchRules } from '../../ai/builtin/match-rule.js';
import { refineRuleFlow } from '../../ai/builtin/refine-rule.js';
import {
  type DraftRuleInput,
  type DraftRuleOutput,
  draftRuleOutputSchema,
  type FlatNode,
  type RuleDraftingContext,
} from '../../ai/contracts/draft-rule.js';
import { type MatchRulesInput, type MatchRulesOutput, matchRulesOutputSchema, RULE_MATCH_THRESHOLD } from '../../ai/contracts/match-rule.js';
import type { RefineRuleInput } from '../../ai/contracts/refine-rule.js';
import type { LlmTask } from '../../ai/provider.js';
import { CONDITION_OPERATORS } from '../../evaluators/conditions.js';
import { CHILD_KEYS, type FlowNode } from '../../evaluators/flow.js';

/**
 * The AI tasks of intent rules: draft a flow from instructions, refine a draft, match a message to
 * rules. A model fills a FLAT list of nodes (children named by id; the schemas are the contracts in
 * src/ai/contracts/draft-rule.ts, refine-rule.ts and match-rule.ts). `flowOfDraft` turns the
 * list into the tree that `flowConfigSchema` then validates; the built-in engine (ai/builtin/draft-rule.ts,
 * refine-rule.ts) builds the tree and answers the same flat shape. This file imports no module: a CPU-pool
 * thread loads it.
 */

/** The tree of a flat draft; an error message when a child id is unknown or a node is used twice. */
export function flowOfDraft(output: DraftRuleOutput): { flow: unknown } | { error: string } {
  const byId = new Map(output.nodes.map((n) => [n.id, n]));
  const used = new Set<string>();
  const build = (id: string, depth: number): unknown => {
    const node = byId.get(id);
    if (!node) throw new Error(`node "${id}" is named as a child but not listed`);
    if (used.has(id)) throw new Error(`node "${id}" is used twice (a flow is a tree)`);
    if (depth > 40) throw new Error('the flow nests too deep');
    used.add(id);
    const out: Record<string, unknown> = { id: node.id, type: node.type };
    const copy = (key: keyof FlatNode, as = key) => {
      if (node[key] !== null && node[key] !== undefined) out[as] = node[key];
    };
    switch (node.type) {
      case 'message':
        copy('message');
        break;
      case 'collect':
        copy('field');
        copy('question');
        copy('dataType');
        copy('required');
        break;
      case 'condition':
        copy('conditions');
        break;
      case 'tool':
        copy('toolId');
        out.inputs = Object.fromEntries((node.inputs ?? []).map((i) => [i.name, i.value]));
        break;
      case 'tag':
        copy('tagIds');
        break;
      case 'escalate':
        copy('reason');
        copy('message');
        break;
      case 'end':
        copy('message');
        break;
    }
    for (const key of CHILD_KEYS) {
      const child = node[key];
      if (child) out[key] = build(child, depth + 1);
    }
    return out;
  };
  if (output.rootId === null) return { flow: null };
  try {
    return { flow: build(output.rootId, 1) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** The flat list of a tree (the built-in engine answers in the model's shape). */
export function flatten(root: FlowNode | null): { rootId: string | null; nodes: FlatNode[] } {
  const nodes: FlatNode[] = [];
  if (!root) return { rootId: null, nodes };
  const visit = (node: FlowNode): string => {
    const n = node as FlowNode & Record<string, unknown>;
    const flat: FlatNode = {
      id: node.id ?? `n${nodes.length + 1}`,
      type: node.type,
      message: typeof n.message === 'string' ? n.message : null,
      field: node.type === 'collect' ? node.field : null,
      question: node.type === 'collect' ? node.question : null,
      dataType: node.type === 'collect' ? node.dataType : null,
      required: node.type === 'collect' ? node.required : null,
      conditions: node.type === 'condition' ? (node.conditions as FlatNode['conditions']) : null,
      toolId: node.type === 'tool' ? node.toolId : null,
      inputs: node.type === 'tool' ? Object.entries(node.inputs).map(([name, value]) => ({ name, value: String(value) })) : null,
      tagIds: node.type === 'tag' ? node.tagIds : null,
      reason: node.type === 'escalate' ? node.reason : null,
      next: null,
      then: null,
      else: null,
      onSuccess: null,
      onFailure: null,
    };
    nodes.push(flat);
    for (const key of CHILD_KEYS) {
      const child = n[key] as FlowNode | undefined;
      if (child) flat[key] = visit(child);
    }
    return flat.id;
  };
  const rootId = visit(root);
  return { rootId, nodes };
}

const LANGUAGE = `A rule flow is a tree of nodes. Node types: message {message}; collect {field, question, dataType, required} (asks the customer and waits; the answer is rule.<field>); condition {conditions, then, else} (conditions: groups OR-ed, predicates AND-ed; predicate {left: {path, dataType}, operator, right: {value}}; operators ${CONDITION_OPERATORS.join(' ')}; paths start with message., conversation., userAttributes., attributes., tags., rule., time.); tool {toolId, inputs} (calls one of the listed actions; never invent an id); tag {tagIds} (only listed tag ids); escalate {reason, message} (hands over to a person); end {message}. next names the node after a node (after its branch); escalate and end finish the flow. Texts may interpolate \${rule.<field>}.`;

const contextLines = (input: RuleDraftingContext) =>
  `Tags (id: group / name):\n${input.tags.map((t) => `- ${t.id}: ${t.groupTitle} / ${t.tagName}`).join('\n') || '(none)'}\n\n` +
  `Actions (id: name - description):\n${input.actions.map((a) => `- ${a.id}: ${a.name} - ${a.description}`).join('\n') || '(none)'}`;

export const draftRuleTask: LlmTask<DraftRuleInput, DraftRuleOutput> = {
  name: 'draft_rule',
  description: 'An intent rule drafted from instructions: name, trigger description and flow nodes.',
  schema: draftRuleOutputSchema,
  system: `You turn a support team's plain-language instructions into an intent rule for a customer-support agent. ${LANGUAGE} Follow the instructions' steps in order; keep quoted texts exactly. Never guess: a condition or action you cannot express goes in warnings with its exact words, and neither branch of an unread condition goes in the flow.`,
  prompt: (input) => `Instructions:\n${input.behaviorInstructions}\n\n${contextLines(input)}`,
  builtin: (input) => {
    const drafted = draftRuleFlow(input);
    return { name: drafted.name, description: drafted.description, ...flatten(drafted.flowConfig), warnings: drafted.warnings };
  },
};

export const refineRuleTask: LlmTask<RefineRuleInput, DraftRuleOutput> = {
  name: 'refine_rule',
  description: 'The rule with the refinement applied: name, trigger description and all flow nodes.',
  schema: draftRuleOutputSchema,
  system: `You change an intent rule of a customer-support agent as the team asks, keeping everything they did not ask to change. ${LANGUAGE} Answer the whole changed rule.`,
  prompt: (input) =>
    `Rule: ${input.rule.name}\nTrigger: ${input.rule.description}\nFlow (JSON tree):\n${JSON.stringify(input.rule.flowConfig)}\n\n` +
    `Change requested:\n${input.refinementInstructions}\n\n${contextLines(input)}`,
  builtin: (input) => {
    const refined = refineRuleFlow({ ...input, rule: { ...input.rule, flowConfig: input.rule.flowConfig as FlowNode | null } });
    return { name: refined.name, description: refined.description, ...flatten(refined.flowConfig), warnings: refined.warnings };
  },
};

export const matchRuleTask: LlmTask<MatchRulesInput, MatchRulesOutput> = {
  name: 'match_rules',
  description: 'How well a customer message matches each rule (0 to 1), best first, with a one-line reason.',
  schema: matchRulesOutputSchema,
  system: `You decide which intent rules of a support agent a customer message triggers. Score each rule from 0 (unrelated) to 1 (clearly this intent); ${RULE_MATCH_THRESHOLD} or more means the rule applies.`,
  prompt: (input) => `Message: ${input.message}\n\nRules:\n${input.rules.map((r) => `- ${r.id}: ${r.name}: ${r.description}`).join('\n')}`,
  builtin: (input) => matchRules(input),
};
