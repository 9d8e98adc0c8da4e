// The events of conversations: an agent reply's trace and feedback, the conversation's evaluation,
// and the reads other modules make of events (Refine with AI, the widget's stream).
import { emit, inTransaction, type ProcessContext, type WorkspaceContext } from '../../context.js';
import type { ConversationEvaluation } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { getArticlesByIds } from '../knowledge/index.js';
import type { ConversationStatus } from '../tags/index.js';
import { withStatusTag } from './answer/tags.stage.js';
import { presentTrace } from './conversations.presenter.js';
import {
  type ConversationRow,
  type EventRow,
  findConversation,
  findEvent,
  listEvents,
  listEventsAfter,
  ratingsOf,
  unscopedChangedConversations,
  updateConversation,
  updateEvent,
} from './conversations.repository.js';
import { AGENT_ROLE } from './conversations.schemas.js';
import { conversationNotFound, eventNotFound, getInteraction } from './conversations.service.js';
import { evaluateTask } from './conversations.tasks.js';

type Ctx = WorkspaceContext;

async function requireAgentEvent(ctx: Ctx, id: string, options: { lock?: boolean } = {}) {
  const found = await findEvent(ctx.db, ctx.workspaceId, id, options);
  if (!found) throw eventNotFound();
  if (found.event.role !== AGENT_ROLE) throw new AppError('bad_request', `event ${id} is not authored by ${AGENT_ROLE} (its role is ${found.event.role})`);
  return found;
}

export async function getEventMetadata(ctx: Ctx, id: string) {
  const { event } = await requireAgentEvent(ctx, id);
  return presentTrace(event.metadata);
}

/** Feedback on an agent reply; `resolved` moves the conversation's status (and its status tag). */
export async function giveFeedback(
  ctx: Ctx,
  id: string,
  body: { csatRating?: number; feedback?: string; resolved?: boolean; approved?: boolean },
  options: { conversationId?: string } = {},
): Promise<EventRow> {
  return inTransaction(ctx, async (tx) => {
    const { event, conversation } = await requireAgentEvent(tx, id, { lock: true });
    // A caller that knows only one conversation (a widget visitor) sees no event of another.
    if (options.conversationId !== undefined && conversation.id !== options.conversationId) throw eventNotFound();
    const updated = await updateEvent(tx.db, ctx.workspaceId, event.id, {
      ...(body.csatRating !== undefined ? { csatRating: body.csatRating } : {}),
      ...(body.feedback !== undefined ? { feedback: body.feedback } : {}),
      ...(body.resolved !== undefined ? { resolved: body.resolved } : {}),
      ...(body.approved !== undefined ? { approved: body.approved } : {}),
    });
    const now = ctx.clock.now();
    const status: ConversationStatus | undefined = body.resolved === true ? 'Resolved by AI' : body.resolved === false ? 'Unresolved' : undefined;
    await updateConversation(tx.db, ctx.workspaceId, conversation.id, {
      hasFeedback: true,
      csatRatings: await ratingsOf(tx.db, ctx.workspaceId, conversation.id),
      updatedAt: now,
      ...(status ? { status, resolved: body.resolved, tagIds: withStatusTag(conversation.tagIds, status) } : {}),
    });
    await emit(tx, 'conversation.changed', { conversationId: conversation.id });
    await emit(tx, 'conversation.feedback', {
      conversationId: conversation.id,
      agentId: conversation.agentId,
      source: conversation.source,
      eventId: updated!.id,
      csatRating: updated!.csatRating,
      feedback: updated!.feedback,
      resolved: updated!.resolved,
      approved: updated!.approved,
    });
    return updated!;
  });
}

// ---------------------------------------------------------------------------------------------
// Evaluation

/** Evaluates every agent reply of the conversation (grounded? answered?) and stores the result on it. */
export async function evaluateInteraction(ctx: Ctx, id: string): Promise<ConversationRow> {
  const { events } = await getInteraction(ctx, id);
  const replies = events.filter((e) => e.role === AGENT_ROLE && e.type === 'message');
  const articleIds = [...new Set(replies.flatMap((r) => r.usedArticles.map((a) => a.id)))];
  const articles = new Map((await getArticlesByIds(ctx, articleIds)).map((a) => [a.id, a]));
  const byId = new Map(events.map((e) => [e.id, e]));
  const input = {
    replies: replies.map((r) => ({
      eventId: r.id,
      question: (r.userEventId ? byId.get(r.userEventId)?.message : undefined) ?? '',
      answer: r.message,
      handover: r.handover,
      articles: r.usedArticles.flatMap((u) => {
        const a = articles.get(u.id);
        return a ? [{ id: a.id, title: a.title, body: a.mainKnowledge }] : [];
      }),
    })),
  };
  let output;
  try {
    ({ output } = await ctx.llm.run(evaluateTask, input, ctx.signal ? { signal: ctx.signal } : {}));
  } catch (error) {
    throw new AppError('bad_gateway', `the evaluation failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const known = new Set(replies.map((r) => r.id));
  const evaluation: ConversationEvaluation = {
    evaluatedAt: ctx.clock.now().toISOString(),
    verdict: output.verdict,
    score: output.score,
    replies: output.replies.filter((r) => known.has(r.eventId)),
    notes: output.notes,
    model: { provider: ctx.llm.name, model: ctx.llm.model },
  };
  const updated = await inTransaction(ctx, (tx) => updateConversation(tx.db, ctx.workspaceId, id, { evaluation, updatedAt: ctx.clock.now() }));
  if (!updated) throw conversationNotFound();
  return updated;
}

// ---------------------------------------------------------------------------------------------
// Refine with AI

export interface AnsweredTurn {
  conversation: ConversationRow;
  /** The agent reply. */
  event: EventRow;
  /** The customer message it answers. */
  userEvent: EventRow;
}

/**
 * An agent reply of a conversation with the customer message it answers (Refine with AI's target):
 * 404 for an unknown conversation or event; 400 for an event of another conversation, not authored
 * by the agent, or without a linked customer message.
 */
export async function requireAnsweredTurn(ctx: Ctx, conversationId: string, eventId: string): Promise<AnsweredTurn> {
  const conversation = await findConversation(ctx.db, ctx.workspaceId, conversationId);
  if (!conversation || conversation.deletedAt) throw conversationNotFound();
  const found = await findEvent(ctx.db, ctx.workspaceId, eventId);
  if (!found) throw eventNotFound();
  const { event } = found;
  if (event.conversationId !== conversation.id) throw new AppError('bad_request', `event ${eventId} is not in conversation ${conversationId}`);
  if (event.role !== AGENT_ROLE) throw new AppError('bad_request', `event ${eventId} is not authored by ${AGENT_ROLE} (its role is ${event.role})`);
  const events = event.userEventId ? await listEvents(ctx.db, ctx.workspaceId, conversation.id) : [];
  const userEvent = events.find((e) => e.id === event.userEventId);
  if (!userEvent) throw new AppError('bad_request', `event ${eventId} has no linked user event`);
  return { conversation, event, userEvent };
}

/**
 * A live conversation and its events after the event `afterEventId` (all of them without one),
 * oldest first, at most `limit`: the widget's polling and its stream. 400 naming `field` when
 * `afterEventId` is not an event of the conversation.
 */
export async function eventsAfter(
  ctx: Ctx,
  conversationId: string,
  afterEventId: string | undefined,
  options: { limit: number; field: string },
): Promise<{ conversation: ConversationRow; events: EventRow[] }> {
  const conversation = await findConversation(ctx.db, ctx.workspaceId, conversationId);
  if (!conversation) throw conversationNotFound();
  let after: { createdAt: Date; id: string } | undefined;
  if (afterEventId) {
    const found = await findEvent(ctx.db, ctx.workspaceId, afterEventId);
    if (!found || found.event.conversationId !== conversationId) throw new AppError('bad_request', `${options.field}: not an event of conversation ${conversationId}`);
    after = { createdAt: found.event.createdAt, id: found.event.id };
  }
  return { conversation, events: await listEventsAfter(ctx.db, ctx.workspaceId, conversationId, after, options.limit) };
}

/** One event of a conversation that is not deleted. */
export async function getEvent(ctx: Ctx, id: string): Promise<EventRow | undefined> {
  return (await findEvent(ctx.db, ctx.workspaceId, id))?.event;
}

/**
 * Which of the conversations a process follows (the widget's open streams) changed since it read
 * their versions (`null`: no conversation yet, or none known): the changed ones, with their
 * versions now. One query for all of them, whatever their workspaces (docs/widget.md "Across
 * processes").
 */
export async function changedConversations(
  ctx: Pick<ProcessContext, 'db'>,
  known: readonly { id: string; version: string | null }[],
): Promise<{ id: string; version: string | null }[]> {
  return unscopedChangedConversations(ctx.db, known);
}
