import { RULE_MATCH_THRESHOLD } from '../../ai/contracts/match-rule.js';
import { NO_USAGE, type TokenUsage } from '../../ai/index.js';
import { AppError } from '../../http/errors.js';
import type { EvaluationContext } from '../../evaluators/context.js';
import { flowConfigSchema } from '../../evaluators/flow.js';
import { dryRunTools, flowStateSchema, walkFlow } from '../../evaluators/walker.js';
import { callOptions, modelCall } from './rule-drafts.service.js';
import { type Ctx, requireRule } from './rules.service.js';
import { matchRuleTask } from './rules.tasks.js';

// ---------------------------------------------------------------------------------------------
// Test (a dry run)

export interface TestRuleInput {
  message: string;
  context: EvaluationContext;
  state?: Record<string, unknown> | null;
}

/**
 * Whether the rule's trigger matches a message, and the walk of its flow with the tool calls
 * recorded, not made. Nothing is stored.
 */
export async function testRule(ctx: Ctx, id: string, input: TestRuleInput) {
  const rule = await requireRule(ctx.db, ctx, id);
  if (rule.type === 'business') throw new AppError('bad_request', 'business rules have no flow to test: they apply to every answer of their agents');
  let state = null;
  if (input.state) {
    const parsed = flowStateSchema.safeParse(input.state);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AppError('bad_request', `body.state${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message ?? 'invalid'}`);
    }
    state = parsed.data;
  }
  const context: EvaluationContext = { ...input.context, message: { ...input.context.message, content: input.context.message?.content ?? input.message } };
  let trigger: { matched: boolean; score: number; reason: string };
  if (rule.triggerType === 'on_escalation') {
    const escalated = context.conversation?.status === 'Escalated to Human Agent';
    trigger = {
      matched: escalated,
      score: escalated ? 1 : 0,
      reason: escalated ? 'the conversation was handed over: on_escalation rules run at hand-over' : 'on_escalation rules run only at hand-over (conversation.status "Escalated to Human Agent")',
    };
  } else {
    const { output } = await modelCall(() =>
      ctx.llm.run(matchRuleTask, { message: input.message, rules: [{ id: rule.id, name: rule.name, description: rule.description }] }, callOptions(ctx)),
    );
    const match = output.matches.find((m) => m.ruleId === rule.id);
    const score = match ? Math.min(1, Math.max(0, match.score)) : 0;
    trigger = { matched: score >= RULE_MATCH_THRESHOLD, score, reason: match?.reason ?? 'the model did not score this rule' };
  }
  const walk = rule.flowConfig ? await walkFlow(flowConfigSchema.parse(rule.flowConfig), { message: input.message, context, state }, dryRunTools) : null;
  if (walk?.error) throw new AppError('bad_request', `body.${walk.error}`);
  return { ruleId: rule.id, version: rule.version, versionId: rule.currentVersionId, threshold: RULE_MATCH_THRESHOLD, trigger, walk };
}

/**
 * Which of `rules` a customer message triggers (the planner's match by description): the scores
 * of the match task, best first, and the rules at or above RULE_MATCH_THRESHOLD.
 */
export async function matchIntentRules(
  ctx: Ctx,
  message: string,
  rules: readonly { id: string; name: string; description: string }[],
  options: { signal?: AbortSignal } = {},
): Promise<{ matches: { ruleId: string; score: number; reason: string }[]; threshold: number; usage: TokenUsage }> {
  if (rules.length === 0) return { matches: [], threshold: RULE_MATCH_THRESHOLD, usage: NO_USAGE };
  const { output, usage } = await ctx.llm.run(matchRuleTask, { message, rules: rules.map((r) => ({ id: r.id, name: r.name, description: r.description })) }, options);
  const known = new Set(rules.map((r) => r.id));
  const matches = output.matches
    .filter((m) => known.has(m.ruleId))
    .map((m) => ({ ...m, score: Math.min(1, Math.max(0, m.score)) }))
    .sort((a, b) => b.score - a.score || a.ruleId.localeCompare(b.ruleId));
  return { matches, threshold: RULE_MATCH_THRESHOLD, usage };
}
