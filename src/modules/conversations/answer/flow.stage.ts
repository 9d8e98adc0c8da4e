import type { WorkspaceContext } from '../../../context.js';
import type { WaitingFlow } from '../../../db/schema/index.js';
import type { EvaluationContext } from '../../../evaluators/context.js';
import { flowConfigSchema, type FlowNode } from '../../../evaluators/flow.js';
import { dryRunTools, type FlowState, flowStateSchema, type FlowWalk, type ToolInvoker, walkFlow } from '../../../evaluators/walker.js';
import type { RuleWithAgents } from '../../rules/index.js';
import { actionRunner } from '../../tools/index.js';
import type { Planning } from './planning.stage.js';
import { errorText, stageSignal, type StageTrace } from './trace.js';
import type { ExecutedRulesTrace } from './trace.schemas.js';

export interface FlowStage {
  /** The walk of the flow that ran for this message; null when none did. */
  walk: FlowWalk | null;
  /** The flow that ran (a resumed one, or the triggered rule's from its start). */
  run: WaitingFlow | null;
  executedRules: ExecutedRulesTrace | null;
  /** The flow the conversation waits in after this message. */
  waitingFlow: WaitingFlow | null;
  ruleIds: string[];
}

/** A rule's flow from its first node. */
function startFlow(rule: RuleWithAgents): WaitingFlow {
  return { ruleId: rule.id, ruleName: rule.name, ruleVersionId: rule.currentVersionId, flow: rule.flowConfig ?? {}, state: {} };
}

/** Stage 4: the flow planning chose walks one step further, its actions called through the action runner. */
export async function runFlow(
  ctx: WorkspaceContext,
  trace: StageTrace,
  planning: Planning,
  waiting: WaitingFlow | null,
  message: string,
  context: EvaluationContext,
  dryRun = false,
): Promise<FlowStage> {
  const run = planning.resumed ?? (planning.matched ? startFlow(planning.matched.rule) : null);
  if (!run) return { walk: null, run: null, executedRules: null, waitingFlow: waiting, ruleIds: [] };
  const walk = await trace.time('rules', () => walkRule(ctx, trace, run, message, context, dryRun));
  if (walk.error) trace.errors.push({ stage: 'rules', message: walk.error });
  return {
    walk,
    run,
    executedRules: executedRules(run, walk),
    waitingFlow: walk.status === 'waiting_for_input' && !walk.error ? { ...run, state: walk.state as unknown as Record<string, unknown> } : null,
    ruleIds: [run.ruleId],
  };
}

/**
 * At a hand-over, the agent's first `on_escalation` rule runs, unless a flow already ran for this
 * message: its messages follow the reply, its tags join the flow's, and it becomes the trace's
 * executed rule.
 */
export async function afterHandover(
  ctx: WorkspaceContext,
  trace: StageTrace,
  input: { handover: boolean; flow: FlowStage; intentRules: readonly RuleWithAgents[]; message: string; context: EvaluationContext; reply: string; dryRun: boolean },
): Promise<{ reply: string; executedRules: ExecutedRulesTrace | null; ruleIds: string[]; tagIds: string[] }> {
  const { flow } = input;
  const unchanged = { reply: input.reply, executedRules: flow.executedRules, ruleIds: flow.ruleIds, tagIds: flow.walk?.tagIds ?? [] };
  const rule = input.intentRules.find((r) => r.triggerType === 'on_escalation' && r.flowConfig);
  if (!input.handover || flow.run || !rule) return unchanged;
  const run = startFlow(rule);
  const escalated = { ...input.context, conversation: { ...input.context.conversation, status: 'Escalated to Human Agent' } };
  const walk = await trace.time('rules', () => walkRule(ctx, trace, run, input.message, escalated, input.dryRun));
  return {
    reply: walk.replies.length ? `${input.reply}\n\n${walk.replies.join('\n\n')}` : input.reply,
    executedRules: executedRules(run, walk),
    ruleIds: [...flow.ruleIds, run.ruleId],
    tagIds: [...unchanged.tagIds, ...walk.tagIds],
  };
}

async function walkRule(ctx: WorkspaceContext, trace: StageTrace, run: WaitingFlow, message: string, context: EvaluationContext, dryRun: boolean): Promise<FlowWalk> {
  const flow = flowConfigSchema.parse(run.flow) as FlowNode;
  const parsed = flowStateSchema.safeParse(run.state);
  const state: FlowState | null = Object.keys(run.state).length && parsed.success ? parsed.data : null;
  if (dryRun) return walkFlow(flow, { message, context, state }, dryRunTools);
  const signal = stageSignal(ctx);
  const tools: ToolInvoker = {
    call: async (call) => {
      try {
        const result = await actionRunner.run({ ...ctx, signal }, call.toolId, call.inputs);
        if (!result.success) trace.errors.push({ stage: 'rules', message: `${result.toolName}: ${result.error?.message ?? 'failed'}` });
        return { success: result.success, output: result.output, toolName: result.toolName, ...(result.error ? { error: result.error.message } : {}) };
      } catch (error) {
        trace.errors.push({ stage: 'rules', message: errorText(error) });
        return { success: false, output: {}, error: errorText(error) };
      }
    },
  };
  return walkFlow(flow, { message, context, state }, tools);
}

/** The walk's steps in the specification's `executedRules` shape. */
function executedRules(run: WaitingFlow, walk: FlowWalk): ExecutedRulesTrace {
  const results = walk.steps.map((step) => {
    const { nodeId, type, ...rest } = step;
    const success = step.type === 'tool' ? step.success : step.type === 'collect' ? step.action !== 'gave_up' : true;
    return { id: nodeId, name: type === 'tool' ? `tool ${step.type === 'tool' ? step.toolId : ''}` : type, type: type.toUpperCase(), success, result: rest };
  });
  return { ruleId: run.ruleId, ruleName: run.ruleName, results };
}
