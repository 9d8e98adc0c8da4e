import type { PlanOutput } from '../../../ai/contracts/plan.js';
import type { WorkspaceContext } from '../../../context.js';
import { concurrentQueries } from '../../../db/database.js';
import type { PromptSet, UsedArticle, UsedSubfolder, WaitingFlow } from '../../../db/schema/index.js';
import type { ReplyType } from '../../../evaluators/reply.js';
import { type AgentWithPrompts, serializeSections, workspaceDefaultPrompts } from '../../agents/index.js';
import { guardrailsForAgent } from '../../guardrails/index.js';
import type { KnowledgeHit } from '../../knowledge/index.js';
import { replySlotsFor } from '../../reply-rules/index.js';
import { publishedRulesForAgent, type RuleWithAgents } from '../../rules/index.js';
import { type ConversationStatus, type EscalationReason, listTagGroupsWithTags } from '../../tags/index.js';
import type { ConversationRow, EventRow } from '../conversations.repository.js';
import type { HandoverWording } from '../handover.js';
import { runAttributes } from './attributes.stage.js';
import { decideReply, negativeStreak, replySource } from './decide-reply.js';
import { afterHandover, runFlow } from './flow.stage.js';
import { generateAnswer, generateTrace } from './generate.stage.js';
import { checkInput, evaluationContext, guardrailTrace } from './input.stage.js';
import { relevantMemories } from './memories.stage.js';
import { personRequested, planReply } from './planning.stage.js';
import { answerArticles, citedArticles, searchArticles, searchTrace } from './search.stage.js';
import { indexTags, tagReply, tagsByGroup, withStatusTag } from './tags.stage.js';
import { StageTrace } from './trace.js';
import type { AnswerTrace } from './trace.schemas.js';

/**
 * The answer pipeline (docs/conversations.md): one customer message in, the agent's reply (or
 * none) and the trace of how it came about out. It reads through services and ports only and
 * writes nothing: the caller stores the outcome, and Refine with AI can replay it with drafts
 * overlaid. One file per stage, each timed and recorded in the trace:
 *
 *   input guardrails + reply rules -> attributes -> planning (a waiting flow, intent rules, search
 *   or not) -> the rule flow -> knowledge search -> answer generation -> the reply decision
 *   (decide-reply.ts, with the output guardrails) -> on_escalation rules -> tags -> memories
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
  /** The customer asked for a person with a button (the widget's): the agent hands over. */
  personRequested?: boolean;
  /**
   * Actions and attributes are not called (test runs): a flow's tool step succeeds as a dry run
   * with an empty output, as on the rule test route, and attributes are left out of the context.
   */
  dryRunActions?: boolean | undefined;
  /**
   * Asks for the generated answer's text as the model writes it, for a visitor's stream. Called only
   * when nothing but the hand-over decision can change the text afterwards: the reply is a message
   * (no INTERNAL_COMMENT reply rule) and the agent has no enabled output guardrail. The outcome's
   * reply is what counts: it may differ (a hand-over) or be absent (a flow or small talk replied).
   */
  onPartial?: ((text: string) => void) | undefined;
}

export interface AnswerReply {
  message: string;
  type: 'message' | 'internal_comment';
  handover: boolean;
  escalationReason: EscalationReason | null;
  usedArticles: UsedArticle[];
  usedSubfolders: UsedSubfolder[];
  tagIds: string[];
  metadata: AnswerTrace;
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

const HISTORY_EVENTS = 12;

export async function answer(ctx: WorkspaceContext, request: AnswerRequest): Promise<AnswerOutcome> {
  const { agent, conversation, userEvent, overlay } = request;
  const trace = new StageTrace(ctx);
  const prompts = overlay?.prompts ?? agent.prompts ?? workspaceDefaultPrompts();
  const wording: HandoverWording = { channel: conversation.channel === 'email' ? 'email' : 'chat', customerName: typeof conversation.userAttributes.name === 'string' ? conversation.userAttributes.name : null };
  const { tagGroups, inputGuards, outputGuards, replySlots } = await trace.time('load', () => loadBehaviour(ctx, agent.id));
  const tagIndex = indexTags(tagGroups);
  const context = evaluationContext(conversation, userEvent.message, tagsByGroup(conversation.tagIds, tagIndex), ctx.clock.now());
  const input = checkInput(inputGuards, replySlots, context, userEvent.message);
  if (input.replyType === 'NO_REPLY') return noReply(conversation, input.userMessage);
  const message = input.userMessage;
  const executedUserAttributes = request.dryRunActions ? [] : await trace.time('attributes', () => runAttributes(ctx, trace, agent.id, conversation, context));
  const history = request.history.slice(-HISTORY_EVENTS).map((e) => ({ role: e.role, message: e.message }));
  const [intentRules, businessRules] = await concurrentQueries(ctx.db, [() => rulesOf(ctx, agent.id, overlay, 'intent'), () => rulesOf(ctx, agent.id, overlay, 'business')]);
  const planned = await trace.time('planning', () =>
    planReply(ctx, trace, { message, history, planningPrompt: serializeSections(prompts.hcPlanningPrompt), intentRules, waiting: conversation.waitingFlow, overlayRuleIds: overlay?.rules?.map((r) => r.id) ?? [] }),
  );
  const planning = request.personRequested ? personRequested(planned) : planned;
  const flow = await runFlow(ctx, trace, planning, conversation.waitingFlow, message, context, request.dryRunActions ?? false);
  const hits = !flow.walk && planning.performKnowledgeSearch ? await trace.time('knowledgeSearch', () => searchArticles(ctx, trace, message, agent.id, overlay)) : [];
  const { plan } = planning;
  const source = replySource({ flowRan: flow.walk !== null, intent: plan.intent, inputBlocked: input.check.blocked, performKnowledgeSearch: planning.performKnowledgeSearch, smallTalkReply: plan.smallTalkReply });
  const articles = source === 'generated' ? answerArticles(hits) : [];
  const onPartial = input.replyType === 'DIRECT_REPLY' && !outputGuards.some((g) => g.isEnabled) ? request.onPartial : undefined;
  const generated =
    source === 'generated' ? await trace.time('generateAnswer', () => generateAnswer(ctx, trace, { question: message, wording, history, prompts, businessRules, articles, onPartial })) : null;
  const decision = decideReply({
    source,
    wording,
    walk: flow.walk,
    smallTalkReply: plan.smallTalkReply,
    generated,
    articleIds: articles.map((a) => a.id),
    inputEscalate: input.check.escalate,
    negativeStreak: negativeStreak(request.history, plan.sentiment),
    angry: plan.angry,
    personAsked: plan.intent === 'human_request',
    outputGuards,
  });
  const { handover } = decision;
  const after = await afterHandover(ctx, trace, { handover, flow, intentRules, message, context, reply: decision.message, dryRun: request.dryRunActions ?? false });
  const replyText = after.reply;
  const reason = handover ? decision.reason : null;
  const status: ConversationStatus = handover ? 'Escalated to Human Agent' : 'Waiting for Customer';
  const cited = await citedArticles(ctx, decision.usedArticleIds, hits);
  const tags = await trace.time('tags', () =>
    tagReply(ctx, trace, { message, answerText: handover ? null : replyText, groups: tagGroups, index: tagIndex, flowTagIds: after.tagIds, conversationTagIds: conversation.tagIds, status, reason }),
  );
  const memories = await trace.time('memories', () => relevantMemories(ctx, conversation));
  const metadata: AnswerTrace = {
    planning: { reasoning: planning.reasoning, performKnowledgeSearch: planning.performKnowledgeSearch },
    knowledgeSearch: source === 'generated' ? searchTrace(articles, hits) : null,
    relevantMemories: memories,
    generateAnswer: generated ? generateTrace(generated, businessRules) : null,
    inputTagSelection: tags.inputTagSelection,
    outputTagSelection: tags.outputTagSelection,
    executedUserAttributes,
    executedRules: after.executedRules,
    guardrails: [...guardrailTrace('input', input.check.results), ...guardrailTrace('output', decision.outputResults)],
    replyRule: input.replyRule,
    handover: handover ? { reason } : null,
    confidence: generated?.confidence ?? null,
    bestArticleId: generated?.bestArticleId && articles.some((a) => a.id === generated.bestArticleId) ? generated.bestArticleId : null,
    sentiment: plan.sentiment,
    evaluationContext: context,
    configVersion: configVersion(agent, overlay, [...intentRules, ...businessRules], cited.hits),
    timings: { ...trace.timings, total: trace.total() },
    errors: trace.errors,
    model: { provider: ctx.llm.name, model: ctx.llm.model, usage: trace.usage },
  };
  const type = input.replyType === 'INTERNAL_COMMENT' ? 'internal_comment' : 'message';
  const reply: AnswerReply = { message: replyText, type, handover, escalationReason: reason, usedArticles: cited.usedArticles, usedSubfolders: cited.usedSubfolders, tagIds: tags.replyTagIds, metadata };
  return { replyType: input.replyType, userMessage: message, sentiment: plan.sentiment, reply, status, waitingFlow: flow.waitingFlow, conversationTagIds: tags.conversationTagIds, ruleIds: after.ruleIds };
}

/** What shapes the agent's behaviour in the workspace: tag groups, its guardrails, the reply rules. */
async function loadBehaviour(ctx: WorkspaceContext, agentId: string) {
  const [tagGroups, inputGuards, outputGuards, replySlots] = await concurrentQueries(ctx.db, [
    () => listTagGroupsWithTags(ctx),
    () => guardrailsForAgent(ctx, agentId, 'input'),
    () => guardrailsForAgent(ctx, agentId, 'output'),
    () => replySlotsFor(ctx),
  ]);
  return { tagGroups, inputGuards, outputGuards, replySlots };
}

/** A reply rule said no reply: the message is stored, nothing answers it. */
function noReply(conversation: ConversationRow, userMessage: string): AnswerOutcome {
  const status = 'No Reply';
  return { replyType: 'NO_REPLY', userMessage, sentiment: null, reply: null, status, waitingFlow: conversation.waitingFlow, conversationTagIds: withStatusTag(conversation.tagIds, status), ruleIds: [] };
}

/** The agent's published rules of a type, with Refine's stand-ins. */
async function rulesOf(ctx: WorkspaceContext, agentId: string, overlay: AnswerOverlay | undefined, type: 'intent' | 'business'): Promise<RuleWithAgents[]> {
  return overlayRules(await publishedRulesForAgent(ctx, agentId, type), overlay, type);
}

/** The versions of the prompts, rules and articles an answer used (the trace's `configVersion`). */
function configVersion(agent: AgentWithPrompts, overlay: AnswerOverlay | undefined, rules: readonly RuleWithAgents[], cited: readonly KnowledgeHit[]): AnswerTrace['configVersion'] {
  return {
    promptVersion: overlay?.prompts ? 'overlay' : agent.promptVersion,
    rules: rules.map((r) => ({ id: r.id, version: r.version })),
    articles: cited.map((h) => ({ id: h.article.id, version: h.article.version })),
  };
}

function overlayRules(live: RuleWithAgents[], overlay: AnswerOverlay | undefined, type: 'intent' | 'business'): RuleWithAgents[] {
  const extra = (overlay?.rules ?? []).filter((r) => r.type === type);
  if (extra.length === 0) return live;
  const replaced = new Map(extra.map((r) => [r.id, r]));
  return [...live.map((r) => replaced.get(r.id) ?? r), ...extra.filter((r) => !live.some((l) => l.id === r.id))];
}
