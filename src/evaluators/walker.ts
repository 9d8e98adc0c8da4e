import { z } from 'zod';
import { type ConditionsResult, evaluateConditions } from './conditions.js';
import { type EvaluationContext, interpolate, MISSING, resolvePath } from './context.js';
import { CHILD_KEYS, type ChildKey, type CollectDataType, type CollectNode, type FlowNode } from './flow.js';
import { readDays, readIdentifier, readNumber } from '../text/values.js';

/**
 * The flow walker (wave2-decisions §4, docs/rules.md): runs an intent rule's flow for one customer
 * message and stops where the flow waits for the customer, hands over, ends or runs out of nodes.
 * Pure: tools are called through the `ToolInvoker` the caller passes (the answer pipeline runs
 * actions, the test route records the calls without making them), and the walk resumes from the
 * JSON `state` it answered, as a conversation's next message does.
 */

export const FLOW_STATUSES = ['waiting_for_input', 'escalated', 'ended', 'completed'] as const;
export type FlowStatus = (typeof FLOW_STATUSES)[number];

/** How often a `collect` node asks again after an answer it cannot use (then it hands over, or moves on). */
export const MAX_REASKS = 2;
/** A guard only: a tree cannot loop, and has at most 200 nodes. */
export const MAX_STEPS = 500;

export const flowStateSchema = z.strictObject({
  status: z.enum(FLOW_STATUSES),
  waitingFor: z.strictObject({ nodeId: z.string().min(1).max(100), field: z.string().min(1).max(64), attempts: z.number().int().min(0).max(MAX_REASKS) }).nullable(),
  /** Ids of the nodes that still run once the current branch is done, the next to run last. */
  continuation: z.array(z.string().min(1).max(100)).max(200),
  /** What the flow collected so far (`rule.<field>`) and tool outputs (`rule.<tool>`). */
  collected: z.record(z.string(), z.unknown()),
  tagIds: z.array(z.string()).max(200),
});
export type FlowState = z.infer<typeof flowStateSchema>;

export interface ToolCall {
  nodeId: string;
  toolId: string;
  inputs: Record<string, unknown>;
}
export interface ToolResult {
  success: boolean;
  output: Record<string, unknown>;
  /** The action's name: its outputs land in `rule.<name>` (else `rule.<toolId>`). */
  toolName?: string;
  error?: string;
  /** The call was recorded, not made (test routes). */
  dryRun?: boolean;
}
export interface ToolInvoker {
  call(call: ToolCall): Promise<ToolResult>;
}

/** Records calls without making them: every call succeeds with no output. For dry runs. */
export const dryRunTools: ToolInvoker = {
  call: async () => ({ success: true, output: {}, dryRun: true }),
};

export type FlowStep =
  | { nodeId: string; type: 'message'; reply: string }
  | { nodeId: string; type: 'collect'; field: string; action: 'asked' | 'accepted' | 'reasked' | 'gave_up' | 'known'; value?: unknown; reply?: string; attempts: number }
  | { nodeId: string; type: 'condition'; holds: boolean; branch: 'then' | 'else'; conditions: ConditionsResult }
  | { nodeId: string; type: 'tool'; toolId: string; inputs: Record<string, unknown>; success: boolean; output: Record<string, unknown>; error?: string; dryRun?: boolean }
  | { nodeId: string; type: 'tag'; tagIds: string[] }
  | { nodeId: string; type: 'escalate'; reason: string; reply?: string }
  | { nodeId: string; type: 'end'; reply?: string };

export interface FlowWalk {
  status: FlowStatus;
  steps: FlowStep[];
  /** What the agent says, in order (interpolated). */
  replies: string[];
  toolCalls: (ToolCall & ToolResult)[];
  /** Tags applied by this walk and earlier turns of it. */
  tagIds: string[];
  escalation: { reason: string; message: string | null } | null;
  /** Send back with the next message to resume; `status` other than waiting means the flow is over. */
  state: FlowState;
  /** Why the walk could not start (a `state` that does not fit this flow); nothing ran. */
  error?: string;
}

export interface WalkInput {
  message: string;
  context: EvaluationContext;
  state?: FlowState | null;
}

const indexes = new WeakMap<FlowNode, Map<string, FlowNode>>();

/** Every node by id (nodes saved without ids get their path as id, which is stable for one flow). */
function indexFlow(root: FlowNode): Map<string, FlowNode> {
  const known = indexes.get(root);
  if (known) return known;
  const byId = new Map<string, FlowNode>();
  indexes.set(root, byId);
  const visit = (node: FlowNode, path: string) => {
    byId.set(node.id ?? `@${path}`, node);
    for (const key of CHILD_KEYS) {
      const next = (node as Partial<Record<ChildKey, FlowNode>>)[key];
      if (next) visit(next, path ? `${path}.${key}` : key);
    }
  };
  visit(root, '');
  return byId;
}

function idOf(byId: Map<string, FlowNode>, node: FlowNode): string {
  if (node.id !== undefined) return node.id;
  for (const [id, n] of byId) if (n === node) return id;
  return '?';
}

const YES = new Set(['yes', 'y', 'yeah', 'yep', 'yup', 'sure', 'true', 'correct', 'right', 'ok', 'okay', 'affirmative', 'ja', 'oui', 'si', 'sí']);
const NO = new Set(['no', 'n', 'nope', 'nah', 'false', 'wrong', 'incorrect', 'negative', 'nein', 'non']);
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;

/** Reads an answer of the node's data type from a customer message; undefined when there is none. */
export function parseAnswer(type: CollectDataType, message: string, today?: string): unknown {
  const text = message.trim();
  if (!text) return undefined;
  switch (type) {
    case 'string':
      return text.slice(0, 1_000);
    case 'email':
      return EMAIL.exec(text)?.[0].toLowerCase();
    case 'number':
      return readNumber(text);
    case 'identifier':
      return readIdentifier(text);
    case 'days':
      return readDays(text, today);
    case 'boolean': {
      const first = text.toLowerCase().match(/[\p{L}]+/u)?.[0] ?? '';
      return YES.has(first) ? true : NO.has(first) ? false : undefined;
    }
    case 'date': {
      const iso = /\d{4}-\d{2}-\d{2}/.exec(text)?.[0];
      const time = Date.parse(iso ?? text);
      return Number.isFinite(time) ? new Date(time).toISOString().slice(0, 10) : undefined;
    }
  }
}

/** Words that announce an identifier without saying whose it is ("number", "#", "id"). */
const GENERIC_CUE = new Set(['number', 'no', 'nr', 'num', 'id', 'ref', 'reference', 'code', 'is', 'was', 'my', 'the', 'it', 's']);

/** Words of a question that say nothing of what is asked for. */
const QUESTION_WORDS = new Set(['what', 'which', 'when', 'where', 'your', 'you', 'please', 'could', 'would', 'can', 'give', 'tell', 'share', 'send', 'for', 'and', 'with', 'from', 'our', 'this', 'that', 'have', 'about']);

/** The lower-case words of a field name and its question (`orderNumber` -> order, number), singular. */
function fieldWords(node: CollectNode): Set<string> {
  const text = `${node.field.replace(/([a-z])([A-Z])/g, '$1 $2')} ${node.question}`.toLowerCase();
  return new Set((text.match(/[a-z]+/g) ?? []).filter((w) => w.length > 2 && !QUESTION_WORDS.has(w)).map((w) => w.replace(/s$/, '')));
}

/**
 * A value for the node that a message gives in passing, before the flow asked for it ("order 48213,
 * bought 45 days ago" as the first message gives the order number and its age): only what cannot
 * be mistaken for something else: an identifier right after a word of the field or its question
 * ("order 48213", "order #48213" for an order number; not for a tracking number), an email address,
 * an ISO date, or for a question about when something happened, a duration with "ago" or a written
 * date. Free text, numbers and yes / no are never taken unasked.
 */
export function readInPassing(node: CollectNode, message: string, today?: string): unknown {
  switch (node.dataType) {
    case 'identifier': {
      const value = readIdentifier(message);
      if (value === undefined) return undefined;
      const before = (message.slice(0, message.indexOf(value)).toLowerCase().match(/[a-z]+/g) ?? []).filter((w) => !GENERIC_CUE.has(w));
      const subject = before.at(-1)?.replace(/s$/, '');
      return subject !== undefined && fieldWords(node).has(subject) && /[a-z]\W{0,16}$/i.test(message.slice(0, message.indexOf(value))) ? value : undefined;
    }
    case 'email':
      return parseAnswer('email', message);
    case 'date':
      return /\b\d{4}-\d{2}-\d{2}\b/.test(message) ? parseAnswer('date', message) : undefined;
    case 'days':
      // Only for a question about when something happened ("When was your order? ... how many days
      // ago"), and only a duration with "ago" or a written date: "days late" or "supposed to be here
      // last week" says something else than the age asked for.
      return /\b(?:when|ago|date)\b/i.test(node.question) &&
        !/\b(?:late|delay|overdue|long)\b/i.test(node.question) &&
        /\b\w+\s+(?:days?|weeks?|months?|years?)\s+ago\b|\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b/i.test(message)
        ? readDays(message, today)
        : undefined;
    default:
      return undefined;
  }
}

const DATA_TYPE_WORDS: Record<CollectDataType, string> = {
  string: 'an answer',
  number: 'a number',
  boolean: 'a yes or no',
  date: 'a date',
  email: 'an email address',
  identifier: 'a number or reference',
  days: 'a date or how many days ago',
};

/** Tool inputs: a value that is exactly `${path}` keeps the context value's type; other strings are interpolated. */
function toolInputs(inputs: Record<string, unknown>, view: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(inputs)) {
    if (typeof value !== 'string') {
      out[name] = value;
      continue;
    }
    const whole = /^\$\{([^{}]+)\}$/.exec(value);
    if (whole) {
      const resolved = resolvePath(view, whole[1]!.trim());
      out[name] = resolved === MISSING ? null : resolved;
    } else {
      out[name] = interpolate(value, view);
    }
  }
  return out;
}

/** Walks a flow for one message. Never throws for anything the flow or the tools do. */
export async function walkFlow(flow: FlowNode, input: WalkInput, tools: ToolInvoker, options: { maxSteps?: number } = {}): Promise<FlowWalk> {
  const byId = indexFlow(flow);
  const prior = input.state ?? null;
  const collected: Record<string, unknown> = { ...(prior?.collected ?? {}) };
  const tagIds = [...(prior?.tagIds ?? [])];
  const steps: FlowStep[] = [];
  const replies: string[] = [];
  const toolCalls: (ToolCall & ToolResult)[] = [];
  let escalation: FlowWalk['escalation'] = null;
  // What conditions and texts read: the context with the flow's collected values under `rule`.
  const ruleView: Record<string, unknown> = { ...(input.context.rule ?? {}), ...collected };
  const context = { ...input.context, rule: ruleView };
  const view = () => context;
  const store = (key: string, value: unknown) => {
    collected[key] = value;
    ruleView[key] = value;
  };
  const say = (text: string) => {
    const reply = interpolate(text, view());
    replies.push(reply);
    return reply;
  };
  const finish = (status: FlowStatus, waitingFor: FlowState['waitingFor'] = null, continuation: string[] = []): FlowWalk => ({
    status,
    steps,
    replies,
    toolCalls,
    tagIds,
    escalation,
    state: { status, waitingFor, continuation, collected, tagIds },
  });
  const refuse = (error: string): FlowWalk => ({ ...finish('completed'), error });

  // Where to start: the root, or the node the flow waits in with the incoming message as the answer.
  const pending: FlowNode[] = [];
  let current: FlowNode | undefined = flow;
  let answerFor: CollectNode | undefined;
  let attempts = 0;
  if (prior) {
    if (prior.status !== 'waiting_for_input' || !prior.waitingFor) return refuse(`state.status: the flow is ${prior.status}; a walk resumes only a flow waiting for input`);
    const waiting = byId.get(prior.waitingFor.nodeId);
    if (!waiting || waiting.type !== 'collect') return refuse(`state.waitingFor.nodeId: node "${prior.waitingFor.nodeId}" is not a collect node of this flow`);
    for (const id of prior.continuation) {
      const node = byId.get(id);
      if (!node) return refuse(`state.continuation: node "${id}" is not in this flow`);
      pending.push(node);
    }
    current = waiting;
    answerFor = waiting;
    attempts = prior.waitingFor.attempts;
  }

  const limit = options.maxSteps ?? MAX_STEPS;
  while (current) {
    if (steps.length >= limit) return refuse(`the walk exceeded ${limit} steps`);
    const node: FlowNode = current;
    const nodeId = idOf(byId, node);
    let branch: FlowNode | undefined;
    let following: FlowNode | undefined = 'next' in node ? node.next : undefined;
    switch (node.type) {
      case 'message':
        steps.push({ nodeId, type: 'message', reply: say(node.message) });
        break;
      case 'collect': {
        const known = resolvePath(view(), ['rule', node.field]);
        if (answerFor === node) {
          answerFor = undefined;
          const value = parseAnswer(node.dataType, input.message, input.context.time?.date);
          if (value !== undefined) {
            store(node.field, value);
            steps.push({ nodeId, type: 'collect', field: node.field, action: 'accepted', value, attempts });
            break;
          }
          if (attempts < MAX_REASKS) {
            const reply = say(`Sorry, I need ${DATA_TYPE_WORDS[node.dataType]}. ${node.question}`);
            steps.push({ nodeId, type: 'collect', field: node.field, action: 'reasked', reply, attempts: attempts + 1 });
            return finish('waiting_for_input', { nodeId, field: node.field, attempts: attempts + 1 }, pending.map((n) => idOf(byId, n)));
          }
          steps.push({ nodeId, type: 'collect', field: node.field, action: 'gave_up', attempts });
          if (node.required) {
            const reply = say('I could not get the information I need, so a person from our team will follow up with you.');
            escalation = { reason: 'rule_escalation', message: reply };
            return finish('escalated');
          }
          store(node.field, null);
          break;
        }
        if (known !== MISSING && known !== null) {
          steps.push({ nodeId, type: 'collect', field: node.field, action: 'known', value: known, attempts: 0 });
          break;
        }
        // This walk's message may already give it (a value another step took from it is not taken twice).
        const given = readInPassing(node, input.message, input.context.time?.date);
        if (given !== undefined && !Object.values(collected).some((value) => value === given)) {
          store(node.field, given);
          steps.push({ nodeId, type: 'collect', field: node.field, action: 'accepted', value: given, attempts: 0 });
          break;
        }
        const reply = say(node.question);
        steps.push({ nodeId, type: 'collect', field: node.field, action: 'asked', reply, attempts: 0 });
        return finish('waiting_for_input', { nodeId, field: node.field, attempts: 0 }, pending.map((n) => idOf(byId, n)));
      }
      case 'condition': {
        const conditions = evaluateConditions(node.conditions, view());
        branch = conditions.holds ? node.then : node.else;
        steps.push({ nodeId, type: 'condition', holds: conditions.holds, branch: conditions.holds ? 'then' : 'else', conditions });
        break;
      }
      case 'tool': {
        const inputs = toolInputs(node.inputs, view());
        let result: ToolResult;
        try {
          result = await tools.call({ nodeId, toolId: node.toolId, inputs });
        } catch (error) {
          result = { success: false, output: {}, error: error instanceof Error ? error.message : String(error) };
        }
        const output = result.output && typeof result.output === 'object' ? result.output : {};
        store(result.toolName ?? node.toolId, output);
        toolCalls.push({ nodeId, toolId: node.toolId, inputs, ...result, output });
        steps.push({
          nodeId,
          type: 'tool',
          toolId: node.toolId,
          inputs,
          success: result.success,
          output,
          ...(result.error ? { error: result.error } : {}),
          ...(result.dryRun ? { dryRun: true } : {}),
        });
        branch = result.success ? node.onSuccess : node.onFailure;
        break;
      }
      case 'tag':
        for (const id of node.tagIds) if (!tagIds.includes(id)) tagIds.push(id);
        steps.push({ nodeId, type: 'tag', tagIds: node.tagIds });
        break;
      case 'escalate': {
        const reply = node.message ? say(node.message) : undefined;
        escalation = { reason: node.reason, message: reply ?? null };
        steps.push({ nodeId, type: 'escalate', reason: node.reason, ...(reply !== undefined ? { reply } : {}) });
        return finish('escalated');
      }
      case 'end': {
        const reply = node.message ? say(node.message) : undefined;
        steps.push({ nodeId, type: 'end', ...(reply !== undefined ? { reply } : {}) });
        return finish('ended');
      }
    }
    if (branch) {
      if (following) pending.push(following);
      following = branch;
    }
    current = following ?? pending.pop();
  }
  return finish('completed');
}
