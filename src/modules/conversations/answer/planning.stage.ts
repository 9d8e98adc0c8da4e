import type { PlanOutput } from '../../../ai/contracts/plan.js';
import type { WorkspaceContext } from '../../../context.js';
import type { WaitingFlow } from '../../../db/schema/index.js';
import { matchIntentRules, type RuleWithAgents } from '../../rules/index.js';
import { planTask } from '../conversations.tasks.js';
import { errorText, stageSignal, type StageTrace } from './trace.js';

export interface PlanningInput {
  message: string;
  history: { role: string; message: string }[];
  planningPrompt: string;
  /** The agent's published intent rules (with Refine's stand-ins). */
  intentRules: readonly RuleWithAgents[];
  /** The flow the conversation waits in, if any. */
  waiting: WaitingFlow | null;
  /** Ids of rules a Refine overlay stands in: a flow waiting in one of them resumes too. */
  overlayRuleIds: readonly string[];
}

export interface Planning {
  plan: PlanOutput;
  /** The waiting flow that resumes with this message. */
  resumed: WaitingFlow | null;
  /** The intent rule this message triggers (when no flow resumes). */
  matched: { rule: RuleWithAgents; score: number; reason: string } | null;
  reasoning: string;
  performKnowledgeSearch: boolean;
}

/**
 * The customer pressed a "talk to a person" button (the widget's): whatever the plan read in the
 * message, it is a request for a person. No rule starts or resumes and nothing is searched, so
 * the reply is the hand-over (`customer_request`); the plan's sentiment is kept.
 */
export function personRequested(planning: Planning): Planning {
  return {
    ...planning,
    plan: { ...planning.plan, intent: 'human_request', performKnowledgeSearch: false, smallTalkReply: null },
    resumed: null,
    matched: null,
    reasoning: `The customer asked for a person with the chat's button. ${planning.reasoning}`,
    performKnowledgeSearch: false,
  };
}

/** When planning fails the agent searches, as for any question. */
function failedPlan(error: unknown): PlanOutput {
  return { reasoning: `Planning failed (${errorText(error)}); searching the knowledge base.`, performKnowledgeSearch: true, intent: 'question', smallTalkReply: null, sentiment: 'neutral', angry: false };
}

/**
 * Stage 3: what the message is (the plan task), then what handles it: the flow it waits in
 * resumes; else an intent rule it triggers by description runs; else the plan says whether to search.
 */
export async function planReply(ctx: WorkspaceContext, trace: StageTrace, input: PlanningInput): Promise<Planning> {
  let plan: PlanOutput;
  try {
    plan = await trace.run(planTask, { message: input.message, history: input.history, planningPrompt: input.planningPrompt, rules: [] });
  } catch (error) {
    trace.error('planning', error);
    plan = failedPlan(error);
  }
  const waiting = input.waiting;
  if (waiting && (input.intentRules.some((r) => r.id === waiting.ruleId) || input.overlayRuleIds.includes(waiting.ruleId))) {
    return { plan, resumed: waiting, matched: null, reasoning: `The rule "${waiting.ruleName}" waits for the customer's answer: its flow resumes. ${plan.reasoning}`, performKnowledgeSearch: false };
  }
  const matched = plan.intent === 'question' ? await triggeredRule(ctx, trace, input) : null;
  if (matched) {
    return { plan, resumed: null, matched, reasoning: `The message triggers the rule "${matched.rule.name}" (score ${matched.score}: ${matched.reason}). ${plan.reasoning}`, performKnowledgeSearch: false };
  }
  return { plan, resumed: null, matched: null, reasoning: plan.reasoning, performKnowledgeSearch: plan.performKnowledgeSearch };
}

/** The best intent rule at or above the match threshold, of those a message can trigger. */
async function triggeredRule(ctx: WorkspaceContext, trace: StageTrace, input: PlanningInput): Promise<Planning['matched']> {
  const candidates = input.intentRules.filter((r) => r.triggerType !== 'on_escalation' && r.flowConfig);
  if (candidates.length === 0) return null;
  try {
    const { matches, threshold, usage } = await matchIntentRules(ctx, input.message, candidates, { signal: stageSignal(ctx) });
    trace.addUsage(usage);
    const best = matches[0];
    const rule = best && best.score >= threshold ? candidates.find((r) => r.id === best.ruleId) : undefined;
    return rule && best ? { rule, score: best.score, reason: best.reason } : null;
  } catch (error) {
    trace.errors.push({ stage: 'planning', message: `rule matching failed: ${errorText(error)}` });
    return null;
  }
}
