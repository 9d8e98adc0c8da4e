import type { AnswerArticle } from '../../ai/contracts/answer.js';
import type { PlanOutput } from '../../ai/contracts/plan.js';
import type { SelectTagsOutput } from '../../ai/contracts/select-tags.js';
import { addUsage, LlmError, type LlmTask, NO_USAGE, type TokenUsage } from '../../ai/index.js';
import type { WorkspaceContext } from '../../context.js';
import type { PromptSet, UsedArticle, UsedSubfolder, WaitingFlow } from '../../db/schema/index.js';
import type { EvaluationContext } from '../../evaluators/context.js';
import { flowConfigSchema, type FlowNode } from '../../evaluators/flow.js';
import { type GuardrailResult, runGuardrails } from '../../evaluators/guardrails.js';
import { chooseReplyType, type ReplyType } from '../../evaluators/reply.js';
import { type FlowState, flowStateSchema, type FlowWalk, type ToolInvoker, walkFlow } from '../../evaluators/walker.js';
import { type AgentWithPrompts, serializeSections, workspaceDefaultPrompts } from '../agents/index.js';
import { guardrailsForAgent } from '../guardrails/index.js';
import { folderTitles, type KnowledgeHit, searchKnowledge } from '../knowledge/index.js';
import { replySlotsFor } from '../reply-rules/index.js';
import { matchIntentRules, publishedRulesForAgent, type RuleWithAgents } from '../rules/index.js';
import { sourceUrlsOfArticles } from '../sources/index.js';
import {
  CONVERSATION_STATUS_GROUP_ID,
  type ConversationStatus,
  ESCALATION_REASON_GROUP_ID,
  type EscalationReason,
  listTagGroupsWithTags,
  SYSTEM_TAG_IDS,
  type TagGroupWithTags,
} from '../tags/index.js';
import { actionRunner, attributesForAgent } from '../tools/index.js';
import { type ConversationRow, earlierConversations, type EventRow } from './conversations.repository.js';
import { answerTask, planTask, selectTagsTask } from './conversations.tasks.js';
import { handoverMessage } from './handover.js';

/**
 * The answer pipeline (docs/conversations.md): one customer message in, the agent's reply (or
 * none) and the trace of how it came about out. It reads through services and ports only and
 * writes nothing: the caller stores the outcome, and Refine with AI can replay it with drafts
 * overlaid. Stages, each timed and recorded in the trace:
 *
 *   input guardrails + reply rules -> attributes -> planning (a waiting flow, intent rules, search
 *   or not) -> the rule flow -> knowledge search -> answer generation -> output guardrails -> tags
 *   and memories
 *
 * A failing stage is recorded and the agent degrades: it answers without a failed attribute, and
 * hands over (`tool_failure`, `low_confidence`) when a flow's action or the answer itself fails.
 */

export interface AnswerOverlay {
  /** Prompts to answer with instead of the agent's current ones. */
  prompts?: PromptSet;
  /** Published-rule stand-ins: a rule with the id of a live one replaces it, another is added. */
  rules?: RuleWithAgents[];
  /**
   * Article drafts searched as if live. A draft with `replacesArticleId` stands in for that live
   * article (the answer names the live article, with the draft's content).
   */
  articleDrafts?: { draftId: string; replacesArticleId: string | null }[];
}

export interface AnswerRequest {
  agent: AgentWithPrompts;
  conversation: ConversationRow;
  userEvent: { id: string; message: string; createdAt: Date };
  /** Earlier events of the conversation, oldest first. */
  history: readonly EventRow[];
  overlay?: AnswerOverlay;
}

export interface AnswerReply {
  message: string;
  type: 'message' | 'internal_comment';
  handover: boolean;
  escalationReason: EscalationReason | null;
  usedArticles: UsedArticle[];
  usedSubfolders: UsedSubfolder[];
  tagIds: string[];
  metadata: Record<string, unknown>;
}

export interface AnswerOutcome {
  replyType: ReplyType;
  /** The user message as stored: after input redactions. */
  userMessage: string;
  sentiment: PlanOutput['sentiment'] | null;
  reply: AnswerReply | null;
  status: ConversationStatus;
  waitingFlow: WaitingFlow | null;
  /** Tags of the conversation after this message (the status tag replaced). */
  conversationTagIds: string[];
  /** Rules whose flows ran for this message. */
  ruleIds: string[];
}

/** Search depth: the answer reads the best few articles. */
const SEARCH_LIMIT = 5;
const MEMORY_LIMIT = 3;
const HISTORY_EVENTS = 12;

type Ctx = WorkspaceContext;

/** A stage ran out of its time budget (PARLEY_ANSWER_STAGE_TIMEOUT_MS). */
class StageTimeout extends Error {}

class Trace {
  readonly timings: Record<string, number> = {};
  readonly errors: { stage: string; message: string }[] = [];
  usage: TokenUsage = NO_USAGE;
  private started: number;
  constructor(private readonly ctx: Ctx) {
    this.started = performance.now();
  }
  async time<T>(stage: string, fn: () => Promise<T>): Promise<T> {
    const t = performance.now();
    try {
      return await fn();
    } finally {
      this.timings[stage] = Math.round((performance.now() - t) * 100) / 100;
    }
  }
  total(): number {
    return Math.round((performance.now() - this.started) * 100) / 100;
  }
  /** Runs a model task within the stage budget, counting its tokens. */
  async run<I, O>(task: LlmTask<I, O>, input: I): Promise<O> {
    const signal = stageSignal(this.ctx);
    try {
      const { output, usage } = await this.ctx.llm.run(task, input, { signal });
      this.usage = addUsage(this.usage, usage);
      return output;
    } catch (error) {
      if (error instanceof LlmError) this.usage = addUsage(this.usage, error.usage);
      if (signal.aborted && !this.ctx.signal?.aborted) throw new StageTimeout(`${task.name} took longer than ${this.ctx.config.answerStageTimeoutMs} ms`);
      throw error;
    }
  }
}

function stageSignal(ctx: Ctx): AbortSignal {
  const timeout = AbortSignal.timeout(ctx.config.answerStageTimeoutMs);
  return ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function answer(ctx: Ctx, request: AnswerRequest): Promise<AnswerOutcome> {
  const { agent, conversation, userEvent, overlay } = request;
  const trace = new Trace(ctx);
  const now = ctx.clock.now();
  const prompts = overlay?.prompts ?? agent.prompts ?? workspaceDefaultPrompts();
  const channel = conversation.channel === 'email' ? 'email' : 'chat';

  const [tagGroups, inputGuards, outputGuards, replySlots] = await trace.time('load', () =>
    Promise.all([listTagGroupsWithTags(ctx), guardrailsForAgent(ctx, agent.id, 'input'), guardrailsForAgent(ctx, agent.id, 'output'), replySlotsFor(ctx)]),
  );
  const tagIndex = indexTags(tagGroups);
  const turn = conversation.turns + 1;
  const context: EvaluationContext & { attributes: Record<string, Record<string, unknown>>; rule: Record<string, unknown> } = {
    message: { content: userEvent.message, language: 'en' },
    conversation: { id: conversation.id, turn, channel, source: conversation.source, status: conversation.status },
    userAttributes: conversation.userAttributes,
    attributes: {},
    tags: tagsByGroup(conversation.tagIds, tagIndex),
    rule: {},
    time: { hour: now.getUTCHours(), weekday: now.getUTCDay(), date: now.toISOString().slice(0, 10) },
  };

  // 1. Input guardrails and reply rules.
  const guardTrace: { id: string; name: string; action: string; stage: string; result: Omit<GuardrailResult, 'id' | 'name' | 'action'> }[] = [];
  const recordGuards = (stage: string, results: GuardrailResult[]) => {
    for (const { id, name, action, ...result } of results) guardTrace.push({ id, name, action, stage, result });
  };
  const inputCheck = runGuardrails(inputGuards, { stage: 'input', text: userEvent.message });
  recordGuards('input', inputCheck.results);
  const userMessage = inputCheck.text;
  context.message = { ...context.message, content: userMessage };
  const replyDecision = chooseReplyType(replySlots, context);
  const replyType = replyDecision.replyType;
  const replyRule = { replyType, matched: replyDecision.matched };
  if (replyType === 'NO_REPLY') {
    return {
      replyType,
      userMessage,
      sentiment: null,
      reply: null,
      status: 'No Reply',
      waitingFlow: conversation.waitingFlow,
      conversationTagIds: withStatusTag(conversation.tagIds, 'No Reply'),
      ruleIds: [],
    };
  }

  // 2. Attributes, in parallel within the stage budget.
  const executedUserAttributes = await trace.time('attributes', () => runAttributes(ctx, agent.id, conversation, context, trace));

  // 3. Planning: a waiting flow resumes; else intent rules by description, and search or not.
  const history = request.history.slice(-HISTORY_EVENTS).map((e) => ({ role: e.role, message: e.message }));
  const intentRules = overlayRules(await publishedRulesForAgent(ctx, agent.id, 'intent'), overlay, 'intent');
  const businessRules = overlayRules(await publishedRulesForAgent(ctx, agent.id, 'business'), overlay, 'business');
  let plan: PlanOutput;
  let matched: { rule: RuleWithAgents; score: number; reason: string } | null = null;
  let resumed: WaitingFlow | null = null;
  const planning = await trace.time('planning', async () => {
    try {
      plan = await trace.run(planTask, { message: userMessage, history, planningPrompt: serializeSections(prompts.hcPlanningPrompt), rules: [] });
    } catch (error) {
      trace.errors.push({ stage: 'planning', message: errorText(error) });
      plan = { reasoning: `Planning failed (${errorText(error)}); searching the knowledge base.`, performKnowledgeSearch: true, intent: 'question', smallTalkReply: null, sentiment: 'neutral' };
    }
    const waiting = conversation.waitingFlow;
    if (waiting && (intentRules.some((r) => r.id === waiting.ruleId) || overlay?.rules?.some((r) => r.id === waiting.ruleId))) {
      resumed = waiting;
      return { reasoning: `The rule "${waiting.ruleName}" waits for the customer's answer: its flow resumes. ${plan.reasoning}`, performKnowledgeSearch: false };
    }
    const candidates = intentRules.filter((r) => r.triggerType !== 'on_escalation' && r.flowConfig);
    if (plan.intent === 'question' && candidates.length) {
      try {
        const { matches, threshold, usage } = await matchIntentRules(ctx, userMessage, candidates, { signal: stageSignal(ctx) });
        trace.usage = addUsage(trace.usage, usage);
        const best = matches[0];
        const rule = best && best.score >= threshold ? candidates.find((r) => r.id === best.ruleId) : undefined;
        if (rule && best) matched = { rule, score: best.score, reason: best.reason };
      } catch (error) {
        trace.errors.push({ stage: 'planning', message: `rule matching failed: ${errorText(error)}` });
      }
    }
    if (matched) {
      const m = matched as { rule: RuleWithAgents; score: number; reason: string };
      return { reasoning: `The message triggers the rule "${m.rule.name}" (score ${m.score}: ${m.reason}). ${plan.reasoning}`, performKnowledgeSearch: false };
    }
    return { reasoning: plan.reasoning, performKnowledgeSearch: plan.performKnowledgeSearch };
  });
  plan = plan!;

  // 4. The rule flow.
  let walk: FlowWalk | null = null;
  let executedRules: Record<string, unknown> | null = null;
  const ranRuleIds: string[] = [];
  let waitingFlow: WaitingFlow | null = resumed ? null : conversation.waitingFlow;
  const flowRun = resumed ?? (matched ? startFlow((matched as { rule: RuleWithAgents }).rule) : null);
  if (flowRun) {
    const run = flowRun;
    walk = await trace.time('rules', () => walkRule(ctx, run, userMessage, context, trace));
    executedRules = { ruleId: run.ruleId, ruleName: run.ruleName, results: walkResults(walk) };
    ranRuleIds.push(run.ruleId);
    waitingFlow = walk.status === 'waiting_for_input' && !walk.error ? { ...run, state: walk.state as unknown as Record<string, unknown> } : null;
  }

  // 5. Knowledge search.
  let hits: KnowledgeHit[] = [];
  let knowledgeSearch: Record<string, unknown> | null = null;
  if (!walk && planning.performKnowledgeSearch) {
    hits = await trace.time('knowledgeSearch', async () => {
      try {
        const drafts = overlay?.articleDrafts ?? [];
        const found = await searchKnowledge(
          { ...ctx, signal: stageSignal(ctx) },
          {
            query: userMessage,
            agentId: agent.id,
            limit: SEARCH_LIMIT,
            ...(drafts.length ? { overlay: { include: drafts.map((d) => d.draftId), exclude: drafts.flatMap((d) => (d.replacesArticleId ? [d.replacesArticleId] : [])) } } : {}),
          },
        );
        const standIns = new Map(drafts.flatMap((d) => (d.replacesArticleId ? [[d.draftId, d.replacesArticleId] as const] : [])));
        return found.map((h) => (standIns.has(h.article.id) ? { ...h, article: { ...h.article, id: standIns.get(h.article.id)!, isDraft: false } } : h));
      } catch (error) {
        trace.errors.push({ stage: 'knowledgeSearch', message: errorText(error) });
        return [];
      }
    });
  }

  // 6. The reply: the flow's, small talk, a hand-over asked for, or a generated answer.
  let message: string;
  let handover = false;
  let reason: EscalationReason | null = null;
  let usedArticleIds: string[] = [];
  let generateAnswer: { reasoning: { name: string; reasoning: string }[] } | null = null;
  let confidence: number | null = null;
  let bestArticleId: string | null = null;
  const flowTagIds: string[] = walk?.tagIds ?? [];
  const customerName = typeof conversation.userAttributes.name === 'string' ? conversation.userAttributes.name : null;
  if (walk) {
    if (walk.error) {
      handover = true;
      reason = 'other';
      message = handoverMessage({ channel, customerName }, 'other');
      trace.errors.push({ stage: 'rules', message: walk.error });
    } else if (walk.escalation) {
      handover = true;
      reason = walk.escalation.reason as EscalationReason;
      // The walk's replies hold the escalation's own message; without one, the hand-over message goes last.
      message = [...walk.replies, ...(walk.escalation.message ? [] : [handoverMessage({ channel, customerName }, reason)])].join('\n\n');
    } else if (walk.toolCalls.some((c) => !c.success) && walk.replies.length === 0) {
      handover = true;
      reason = 'tool_failure';
      message = handoverMessage({ channel, customerName }, 'tool_failure');
    } else if (walk.replies.length === 0) {
      handover = true;
      reason = 'other';
      message = handoverMessage({ channel, customerName }, 'other');
    } else {
      message = walk.replies.join('\n\n');
    }
  } else if (plan.intent === 'human_request') {
    handover = true;
    reason = 'customer_request';
    message = handoverMessage({ channel, customerName }, 'customer_request');
  } else if (inputCheck.blocked) {
    handover = true;
    reason = 'guardrail_block';
    message = handoverMessage({ channel, customerName }, 'guardrail_block');
  } else if (!planning.performKnowledgeSearch && plan.smallTalkReply) {
    message = plan.smallTalkReply;
  } else {
    const articles = answerArticles(hits);
    knowledgeSearch = searchTrace(articles, hits);
    const generated = await trace.time('generateAnswer', async () => {
      try {
        return await trace.run(answerTask, {
          question: userMessage,
          channel,
          history,
          prompts: {
            planning: serializeSections(prompts.hcPlanningPrompt),
            guideline: serializeSections(prompts.hcGuidelinePrompt),
            channel: serializeSections(prompts.hcChannelPrompt.filter((s) => s.channel === channel)),
          },
          businessRules: businessRules.map((r) => ({ name: r.name, description: r.description })),
          articles,
          minConfidence: ctx.config.answerMinConfidence,
          customerName,
        });
      } catch (error) {
        trace.errors.push({ stage: 'generateAnswer', message: errorText(error) });
        // Output the schema refuses: the model could not give a usable answer. A timeout, a network or
        // provider failure: the model was not reachable, like a failed tool.
        const failure: EscalationReason = error instanceof LlmError && !error.transient ? 'low_confidence' : 'tool_failure';
        return { answer: handoverMessage({ channel, customerName }, failure), usedArticleIds: [], handover: true, reason: failure, confidence: 0, bestArticleId: null, reasoning: `The answer could not be generated: ${errorText(error)}` };
      }
    });
    const known = new Set(articles.map((a) => a.id));
    usedArticleIds = [...new Set(generated.usedArticleIds.filter((id) => known.has(id)))];
    handover = generated.handover || generated.answer.trim() === '';
    reason = handover ? (generated.reason ?? 'low_confidence') : null;
    message = generated.answer.trim() || handoverMessage({ channel, customerName }, reason ?? 'low_confidence');
    if (!handover && usedArticleIds.length === 0 && articles.length === 0) {
      handover = true;
      reason = 'missing_knowledge';
    }
    confidence = generated.confidence;
    bestArticleId = generated.bestArticleId && known.has(generated.bestArticleId) ? generated.bestArticleId : null;
    generateAnswer = {
      reasoning: [
        { name: 'answer', reasoning: generated.reasoning },
        ...businessRules.map((r) => ({ name: r.name, reasoning: `Business rule applied to the answer: ${r.description}` })),
      ],
    };
  }
  if (!handover && inputCheck.escalate) {
    handover = true;
    reason = 'guardrail_block';
  }
  if (!handover && plan.sentiment === 'negative' && hasNegativeStreak(request.history, plan.sentiment)) {
    handover = true;
    reason = 'negative_sentiment';
    message = `${message}\n\n${handoverMessage({ channel, customerName }, 'negative_sentiment')}`;
  }

  // 7. Output guardrails.
  const outputCheck = runGuardrails(outputGuards, { stage: 'output', text: message, citations: usedArticleIds });
  recordGuards('output', outputCheck.results);
  if (outputCheck.blocked) {
    handover = true;
    reason = 'guardrail_block';
    usedArticleIds = [];
    message = handoverMessage({ channel, customerName }, 'guardrail_block');
  } else {
    message = outputCheck.text;
    if (outputCheck.escalate && !handover) {
      handover = true;
      reason = 'guardrail_block';
    }
  }

  // At hand-over, the agent's on_escalation rules run (their messages and tags).
  if (handover) {
    const onEscalation = intentRules.find((r) => r.triggerType === 'on_escalation' && r.flowConfig);
    if (onEscalation && !flowRun) {
      const run = startFlow(onEscalation);
      const escalationContext = { ...context, conversation: { ...context.conversation, status: 'Escalated to Human Agent' } };
      const extra = await trace.time('rules', () => walkRule(ctx, run, userMessage, escalationContext, trace));
      executedRules = { ruleId: run.ruleId, ruleName: run.ruleName, results: walkResults(extra) };
      ranRuleIds.push(run.ruleId);
      if (extra.replies.length) message = `${message}\n\n${extra.replies.join('\n\n')}`;
      flowTagIds.push(...extra.tagIds);
    }
  }

  const status: ConversationStatus = handover ? 'Escalated to Human Agent' : 'Waiting for Customer';
  const usedHits = usedArticleIds.map((id) => hits.find((h) => h.article.id === id)).filter((h): h is KnowledgeHit => h !== undefined);
  const [urls, folders] = await Promise.all([
    sourceUrlsOfArticles(ctx, usedArticleIds),
    folderTitles(ctx, [...new Set(usedHits.map((h) => h.article.parentFolderId))]),
  ]);
  const usedArticles: UsedArticle[] = usedHits.map((h) => ({ id: h.article.id, title: h.article.title, documentUrl: urls.get(h.article.id) ?? null }));
  const usedSubfolders: UsedSubfolder[] = [...new Set(usedHits.map((h) => h.article.parentFolderId))].map((id) => ({ id, title: folders.get(id) ?? '' }));

  // Tags: the model's (or built-in) choice for the workspace's groups, then the system groups.
  const tagging = await trace.time('tags', () => chooseTags(ctx, trace, userMessage, handover ? null : message, tagGroups));
  const chosen = [...tagging.inputIds, ...tagging.outputIds, ...flowTagIds.filter((id) => tagIndex.has(id))];
  if (handover && reason) chosen.push(SYSTEM_TAG_IDS[reason]);
  const replyTagIds = [...new Set([...chosen, SYSTEM_TAG_IDS[status]])];
  const conversationTagIds = withStatusTag([...new Set([...conversation.tagIds, ...chosen])], status);
  const outputChosen = { ...tagging.output.chosenTags, [statusGroupTitle(tagGroups)]: [status], ...(handover && reason ? { [reasonGroupTitle(tagGroups)]: [reason] } : {}) };

  const relevantMemories = await trace.time('memories', () => memoriesOf(ctx, conversation));

  const timings = { ...trace.timings, total: trace.total() };
  const metadata: Record<string, unknown> = {
    planning: { reasoning: planning.reasoning, performKnowledgeSearch: planning.performKnowledgeSearch },
    knowledgeSearch,
    relevantMemories,
    generateAnswer,
    inputTagSelection: { reasoning: tagging.input.reasoning, chosenTags: tagging.input.chosenTags },
    outputTagSelection: { reasoning: tagging.output.reasoning, chosenTags: outputChosen },
    executedUserAttributes,
    executedRules,
    guardrails: guardTrace,
    replyRule,
    handover: handover ? { reason } : null,
    confidence,
    bestArticleId,
    sentiment: plan.sentiment,
    evaluationContext: context,
    configVersion: {
      promptVersion: overlay?.prompts ? 'overlay' : agent.promptVersion,
      rules: [...intentRules, ...businessRules].map((r) => ({ id: r.id, version: r.version })),
      articles: usedHits.map((h) => ({ id: h.article.id, version: h.article.version })),
    },
    timings,
    errors: trace.errors,
    model: { provider: ctx.llm.name, model: ctx.llm.model, usage: trace.usage },
  };
  return {
    replyType,
    userMessage,
    sentiment: plan.sentiment,
    reply: {
      message,
      type: replyType === 'INTERNAL_COMMENT' ? 'internal_comment' : 'message',
      handover,
      escalationReason: handover ? reason : null,
      usedArticles,
      usedSubfolders,
      tagIds: replyTagIds,
      metadata,
    },
    status,
    waitingFlow,
    conversationTagIds,
    ruleIds: ranRuleIds,
  };
}

// ---------------------------------------------------------------------------------------------
// Stages

async function runAttributes(ctx: Ctx, agentId: string, conversation: ConversationRow, context: { attributes: Record<string, Record<string, unknown>> }, trace: Trace) {
  const attributes = await attributesForAgent(ctx, agentId);
  const signal = stageSignal(ctx);
  return Promise.all(
    attributes.map(async (attribute) => {
      const inputs: Record<string, unknown> = {};
      for (const field of attribute.inputFields) {
        const value = conversation.userAttributes[field.name] ?? (field.name === 'externalId' ? conversation.externalId : undefined);
        if (value !== undefined && value !== null) inputs[field.name] = value;
      }
      try {
        const result = await Promise.race([
          actionRunner.run({ ...ctx, signal }, attribute.id, inputs),
          new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error(`the attribute took longer than ${ctx.config.answerStageTimeoutMs} ms`)), { once: true })),
        ]);
        if (result.success) context.attributes[attribute.name] = result.output;
        else trace.errors.push({ stage: 'attributes', message: `${attribute.name}: ${result.error?.message ?? 'failed'}` });
        return {
          id: attribute.id,
          name: attribute.name,
          success: result.success,
          extractedData: result.success ? result.output : null,
          results: result.steps.map((s) => ({ id: s.stepId, name: s.name, success: s.error === null, data: s.error ? { error: s.error.message, status: s.status } : s.responseBody })),
        };
      } catch (error) {
        trace.errors.push({ stage: 'attributes', message: `${attribute.name}: ${errorText(error)}` });
        return { id: attribute.id, name: attribute.name, success: false, extractedData: null, results: [{ id: attribute.id, name: attribute.name, success: false, data: { error: errorText(error) } }] };
      }
    }),
  );
}

function startFlow(rule: RuleWithAgents): WaitingFlow {
  return { ruleId: rule.id, ruleName: rule.name, ruleVersionId: rule.currentVersionId, flow: rule.flowConfig ?? {}, state: {} };
}

async function walkRule(ctx: Ctx, run: WaitingFlow, message: string, context: EvaluationContext, trace: Trace): Promise<FlowWalk> {
  const flow = flowConfigSchema.parse(run.flow) as FlowNode;
  const parsed = flowStateSchema.safeParse(run.state);
  const state: FlowState | null = Object.keys(run.state).length && parsed.success ? parsed.data : null;
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

/** The walk's steps in the specification's `executedRules.results` shape. */
function walkResults(walk: FlowWalk) {
  return walk.steps.map((step) => {
    const { nodeId, type, ...rest } = step;
    const success = step.type === 'tool' ? step.success : step.type === 'collect' ? step.action !== 'gave_up' : true;
    return { id: nodeId, name: type === 'tool' ? `tool ${step.type === 'tool' ? step.toolId : ''}` : type, type: type.toUpperCase(), success, result: rest };
  });
}

function overlayRules(live: RuleWithAgents[], overlay: AnswerOverlay | undefined, type: 'intent' | 'business'): RuleWithAgents[] {
  const extra = (overlay?.rules ?? []).filter((r) => r.type === type);
  if (extra.length === 0) return live;
  const replaced = new Map(extra.map((r) => [r.id, r]));
  return [...live.map((r) => replaced.get(r.id) ?? r), ...extra.filter((r) => !live.some((l) => l.id === r.id))];
}

function answerArticles(hits: KnowledgeHit[]): AnswerArticle[] {
  return hits.map(({ article: a, score }) => ({ id: a.id, title: a.title, body: a.mainKnowledge, questions: a.questions, keywords: a.keywords, escalation: a.escalation, score }));
}

function searchTrace(articles: AnswerArticle[], hits: KnowledgeHit[]) {
  const top = articles[0];
  return {
    topOneReasoning: top ? `"${top.title}" ranks first (score ${top.score}${articles[1] ? `; next "${articles[1].title}" ${articles[1].score}` : ''}).` : 'No article in the agent\'s folders matches the message.',
    selectionReasoning: articles.length ? `The ${articles.length} best articles of the agent's folders by full-text relevance are given to the answer.` : 'Nothing to select.',
    articles: hits.map((h) => ({ id: h.article.id, title: h.article.title, version: h.article.version, score: h.score })),
  };
}

async function chooseTags(ctx: Ctx, trace: Trace, message: string, answerText: string | null, groups: TagGroupWithTags[]) {
  const own = groups.filter((g) => g.workspaceId !== null && g.tags.length > 0);
  const toChoice = (g: TagGroupWithTags) => ({ title: g.title, prompt: g.prompt, description: g.description, multiselect: g.multiselect, mandatory: g.mandatory, tags: g.tags.map((t) => ({ name: t.tagName, description: t.tagDescription })) });
  const inputGroups = own.filter((g) => !g.isOutputTagGroup);
  const outputGroups = own.filter((g) => g.isOutputTagGroup);
  let selection: SelectTagsOutput = { input: { reasoning: 'No tag group to choose from.', chosenTags: [] }, output: { reasoning: 'No tag group to choose from.', chosenTags: [] } };
  if (own.length) {
    try {
      selection = await trace.run(selectTagsTask, { message, answer: answerText, inputGroups: inputGroups.map(toChoice), outputGroups: outputGroups.map(toChoice) });
    } catch (error) {
      trace.errors.push({ stage: 'tags', message: errorText(error) });
    }
  }
  const resolve = (chosen: SelectTagsOutput['input']['chosenTags'], from: TagGroupWithTags[]) => {
    const ids: string[] = [];
    const named: Record<string, string[]> = {};
    for (const c of chosen) {
      const group = from.find((g) => g.title.toLowerCase() === c.group.toLowerCase());
      if (!group) continue;
      const tags = c.tags.map((name) => group.tags.find((t) => t.tagName.toLowerCase() === name.toLowerCase())).filter((t) => t !== undefined);
      const picked = group.multiselect ? tags : tags.slice(0, 1);
      if (!picked.length) continue;
      ids.push(...picked.map((t) => t.id));
      named[group.title] = picked.map((t) => t.tagName);
    }
    return { ids, named };
  };
  const input = resolve(selection.input.chosenTags, inputGroups);
  const output = resolve(selection.output.chosenTags, outputGroups);
  return {
    inputIds: input.ids,
    outputIds: output.ids,
    input: { reasoning: selection.input.reasoning, chosenTags: input.named },
    output: { reasoning: selection.output.reasoning, chosenTags: output.named },
  };
}

async function memoriesOf(ctx: Ctx, conversation: ConversationRow) {
  const email = typeof conversation.userAttributes.email === 'string' ? conversation.userAttributes.email : undefined;
  const externalId = conversation.externalId ?? undefined;
  if (!email && !externalId) return [];
  const rows = await earlierConversations(ctx.db, ctx.workspaceId, { email, externalId }, conversation.id, MEMORY_LIMIT);
  return rows.map((r) => ({ id: r.id, summary: `${r.subjectPreview} (${r.status})`, conversationEndedAt: r.lastMessageAt.toISOString() }));
}

/** Two negative customer messages in a row hand over (the second one's answer goes out first). */
function hasNegativeStreak(history: readonly EventRow[], current: string): boolean {
  if (current !== 'negative') return false;
  const lastUser = [...history].reverse().find((e) => e.role === 'user');
  return lastUser?.sentiment === 'negative';
}

// ---------------------------------------------------------------------------------------------
// Tags helpers

function indexTags(groups: TagGroupWithTags[]): Map<string, { tagName: string; group: string }> {
  const index = new Map<string, { tagName: string; group: string }>();
  for (const g of groups) for (const t of g.tags) index.set(t.id, { tagName: t.tagName, group: g.title });
  return index;
}

function tagsByGroup(tagIds: readonly string[], index: Map<string, { tagName: string; group: string }>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const id of tagIds) {
    const tag = index.get(id);
    if (tag) (out[tag.group] ??= []).push(tag.tagName);
  }
  return out;
}

const STATUS_TAG_IDS = new Set<string>(['Waiting for Customer', 'Resolved by AI', 'Escalated to Human Agent', 'Unresolved', 'No Reply'].map((s) => SYSTEM_TAG_IDS[s as ConversationStatus]));

/** The conversation's tags with exactly one `Conversation Status` tag: the current status. */
export function withStatusTag(tagIds: readonly string[], status: ConversationStatus): string[] {
  return [...tagIds.filter((id) => !STATUS_TAG_IDS.has(id)), SYSTEM_TAG_IDS[status]];
}

const statusGroupTitle = (groups: TagGroupWithTags[]) => groups.find((g) => g.id === CONVERSATION_STATUS_GROUP_ID)?.title ?? 'Conversation Status';
const reasonGroupTitle = (groups: TagGroupWithTags[]) => groups.find((g) => g.id === ESCALATION_REASON_GROUP_ID)?.title ?? 'Escalation Reason';
