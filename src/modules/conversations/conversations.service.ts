import { randomUUID } from 'node:crypto';
import { emit, inTransaction, type WorkspaceContext } from '../../context.js';
import type { UsedArticle, UsedSubfolder } from '../../db/schema/index.js';
import { deleteInBatches } from '../../db/sql.js';
import { AppError } from '../../http/errors.js';
import { pageCursors } from '../../http/keyset.js';
import { requireAnsweringAgent } from '../agents/index.js';
import { listTagGroupsWithTags } from '../tags/index.js';
import { answer, type AnswerOverlay } from './answer/answer.service.js';
import { withStatusTag } from './answer/tags.stage.js';
import { presentEvent, presentInteraction, type TagLookup } from './conversations.presenter.js';
import {
  type ConversationRow,
  cursorOf,
  type EventRow,
  findConversation,
  insertConversation,
  insertEvents,
  listConversations as listConversationRows,
  listEvents,
  liveConversationIds,
  type NewEvent,
  softDeleteConversations,
  unscopedPurgeDeletedConversations,
  updateConversation,
} from './conversations.repository.js';
import { AGENT_ROLE, type GenerateAnswerBody, LIMITS, type ListInteractionsQuery } from './conversations.schemas.js';

type Ctx = WorkspaceContext;

export const conversationNotFound = () => new AppError('not_found', 'conversation not found');
export const eventNotFound = () => new AppError('not_found', 'event not found');
const PREVIEW_CHARS = 200;

/** Tag ids -> names and groups, for presenting conversations and events. */
export async function tagLookup(ctx: Ctx): Promise<TagLookup> {
  const groups = await listTagGroupsWithTags(ctx);
  const out = new Map<string, { tagName: string; tagGroupId: string }>();
  for (const g of groups) for (const t of g.tags) out.set(t.id, { tagName: t.tagName, tagGroupId: g.id });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Generate Answer

export interface PostEventOptions {
  /** `api` (the route), `replay` (Refine with AI), `testsuite`. */
  source?: 'api' | 'replay' | 'testsuite';
  overlay?: AnswerOverlay;
  /** The id a new conversation gets (a widget conversation's, reserved when the visitor started it). */
  newConversationId?: string;
  /** The customer asked for a person with a button (the widget's): the agent hands over. */
  personRequested?: boolean;
  /** Actions and attributes are not called: a flow's tool steps succeed as dry runs (test runs). */
  dryRunActions?: boolean;
  /**
   * The generated answer's text as the model writes it (AnswerRequest.onPartial), with the id of
   * the customer's message it answers (`replyTo`, stored with the reply when postEvent returns).
   */
  onPartial?: (partial: { replyTo: string; text: string }) => void;
}

/**
 * Stores an event and, for a customer message, runs the agent (the answer pipeline) and stores its
 * reply: the created events in order. The pipeline runs outside any transaction (it may call the
 * team's APIs and a model); what it decided is written in one transaction with the row lock of
 * the conversation.
 */
export async function postEvent(ctx: Ctx, body: GenerateAnswerBody, options: PostEventOptions = {}): Promise<EventRow[]> {
  const arrived = ctx.clock.now();
  const metadata = body.metadata ?? {};
  let conversation: ConversationRow;
  let isNew = false;
  if (body.interactionId) {
    const found = await findConversation(ctx.db, ctx.workspaceId, body.interactionId);
    if (!found) throw conversationNotFound();
    if (body.botId && body.botId !== found.agentId) throw new AppError('bad_request', `botId: the conversation ${found.id} belongs to another agent`);
    conversation = found;
  } else {
    isNew = true;
    conversation = {
      id: options.newConversationId ?? randomUUID(),
      workspaceId: ctx.workspaceId,
      agentId: body.botId!,
      source: options.source ?? 'api',
      channel: metadata.channel ?? 'chat',
      status: 'Waiting for Customer',
      resolved: null,
      externalId: metadata.externalId ?? null,
      subjectPreview: preview(body.content),
      userAttributes: metadata.user_attributes ?? {},
      hasFeedback: false,
      usedArticles: [],
      usedSubfolders: [],
      tagIds: [],
      escalationReason: null,
      latestSentiment: null,
      turns: 0,
      waitingFlow: null,
      evaluation: null,
      humanTakeoverAt: null,
      ruleIds: [],
      subfolderIds: [],
      replyCount: 0,
      responseMsTotal: 0,
      firstResponseMs: null,
      lastReplyAt: null,
      csatRatings: [],
      createdAt: arrived,
      updatedAt: arrived,
      lastMessageAt: arrived,
      deletedAt: null,
    };
  }
  const agent = await requireAnsweringAgent(ctx, conversation.agentId, body.interactionId ? 'interactionId' : 'botId');
  if (!isNew) {
    // A later message may add what the agent knows of the customer, or set the channel.
    conversation = {
      ...conversation,
      userAttributes: { ...conversation.userAttributes, ...(metadata.user_attributes ?? {}) },
      channel: metadata.channel ?? conversation.channel,
      externalId: conversation.externalId ?? metadata.externalId ?? null,
    };
  }
  const userEventId = randomUUID();
  const event: NewEvent = {
    id: userEventId,
    conversationId: conversation.id,
    role: body.role,
    type: body.role === 'user' ? 'message' : (body.type ?? 'message'),
    message: body.content,
    externalId: body.externalId ?? null,
    externalCreatedAt: body.externalCreatedAt ? new Date(body.externalCreatedAt) : null,
    attachments: body.attachments ?? [],
    createdAt: arrived,
  };

  if (body.role !== 'user') return storeWithoutAnswer(ctx, conversation, event, isNew);
  // The humans have the conversation (after a hand-over): the message is stored, the agent stays silent.
  if (conversation.humanTakeoverAt) return storeWithoutAnswer(ctx, conversation, event, isNew, { customerMessage: true });

  const history = isNew ? [] : await listEvents(ctx.db, ctx.workspaceId, conversation.id);
  const { onPartial } = options;
  const outcome = await answer(ctx, {
    agent,
    conversation,
    userEvent: { id: userEventId, message: body.content, createdAt: arrived },
    history,
    overlay: options.overlay,
    personRequested: options.personRequested,
    dryRunActions: options.dryRunActions,
    onPartial: onPartial && ((text) => onPartial({ replyTo: userEventId, text })),
  });
  const answeredAt = new Date(Math.max(ctx.clock.now().getTime(), arrived.getTime() + 1));
  const events: NewEvent[] = [{ ...event, message: outcome.userMessage, sentiment: outcome.sentiment }];
  const reply = outcome.reply;
  if (reply) {
    events.push({
      conversationId: conversation.id,
      role: AGENT_ROLE,
      type: reply.type,
      message: reply.message,
      tagIds: reply.tagIds,
      usedArticles: reply.usedArticles,
      userEventId,
      handover: reply.handover,
      escalationReason: reply.escalationReason,
      metadata: reply.metadata,
      createdAt: answeredAt,
    });
  }
  const lastAt = reply ? answeredAt : arrived;
  const responseMs = answeredAt.getTime() - arrived.getTime();
  return inTransaction(ctx, async (tx) => {
    // Counters and lists grow from the row as it is now (locked), not as the pipeline read it.
    const current = isNew ? await insertConversation(tx.db, ctx.workspaceId, conversation) : await findConversation(tx.db, ctx.workspaceId, conversation.id, { lock: true });
    if (!current) throw conversationNotFound();
    // Another message handed the conversation over while this one's answer was made: it stays unanswered.
    if (current.humanTakeoverAt) return writeUnanswered(tx, current, conversation, event, true);
    const rows = await insertEvents(tx.db, ctx.workspaceId, events);
    const usedSubfolders = mergeById<UsedSubfolder>(current.usedSubfolders, reply?.usedSubfolders ?? []);
    await updateConversation(tx.db, ctx.workspaceId, conversation.id, {
      status: outcome.status,
      resolved: null,
      userAttributes: conversation.userAttributes,
      channel: conversation.channel,
      externalId: conversation.externalId,
      usedArticles: mergeById<UsedArticle>(current.usedArticles, reply?.usedArticles ?? []),
      usedSubfolders,
      subfolderIds: usedSubfolders.map((f) => f.id),
      ruleIds: [...new Set([...current.ruleIds, ...outcome.ruleIds])],
      tagIds: withStatusTag([...new Set([...current.tagIds, ...outcome.conversationTagIds])], outcome.status),
      escalationReason: reply?.handover ? reply.escalationReason : current.escalationReason,
      // A hand-over (any reason) gives the conversation to the humans until it is released.
      humanTakeoverAt: reply?.handover ? (current.humanTakeoverAt ?? answeredAt) : current.humanTakeoverAt,
      latestSentiment: outcome.sentiment ?? current.latestSentiment,
      turns: current.turns + 1,
      waitingFlow: outcome.waitingFlow,
      ...(reply
        ? { replyCount: current.replyCount + 1, responseMsTotal: current.responseMsTotal + responseMs, firstResponseMs: current.firstResponseMs ?? responseMs, lastReplyAt: answeredAt }
        : {}),
      updatedAt: lastAt,
      lastMessageAt: lastAt,
    });
    if (isNew) await emitCreated(tx, conversation);
    await emit(tx, 'conversation.changed', { conversationId: conversation.id });
    const replyRow = reply ? rows.find((r) => r.role === AGENT_ROLE) : undefined;
    if (reply && replyRow) {
      const about = { conversationId: conversation.id, agentId: conversation.agentId, source: conversation.source, eventId: replyRow.id };
      if (reply.handover) await emit(tx, 'conversation.escalated', { ...about, reason: reply.escalationReason ?? 'other' });
      else await emit(tx, 'conversation.answered', { ...about, userEventId });
    }
    return rows;
  });
}

/**
 * Stores an event that the agent does not answer: a human agent's or another bot's, or a customer
 * message while the humans have the conversation (it counts as a turn and moves lastMessageAt, as
 * any customer message does; status and analytics stay the hand-over's). The conversation's row
 * lock orders it with concurrent messages, as an answered message is.
 */
async function storeWithoutAnswer(ctx: Ctx, conversation: ConversationRow, event: NewEvent, isNew: boolean, options: { customerMessage?: boolean } = {}): Promise<EventRow[]> {
  return inTransaction(ctx, async (tx) => {
    const current = isNew ? await insertConversation(tx.db, ctx.workspaceId, conversation) : await findConversation(tx.db, ctx.workspaceId, conversation.id, { lock: true });
    if (!current) throw conversationNotFound();
    if (isNew) await emitCreated(tx, conversation);
    return writeUnanswered(tx, current, conversation, event, options.customerMessage ?? false);
  });
}

/** The writes of an unanswered event, in the caller's transaction with `current` locked. */
async function writeUnanswered(tx: Ctx, current: ConversationRow, conversation: ConversationRow, event: NewEvent, customerMessage: boolean): Promise<EventRow[]> {
  const arrived = event.createdAt ?? tx.clock.now();
  const rows = await insertEvents(tx.db, tx.workspaceId, [event]);
  await updateConversation(tx.db, tx.workspaceId, conversation.id, {
    lastMessageAt: arrived,
    updatedAt: arrived,
    userAttributes: conversation.userAttributes,
    channel: conversation.channel,
    externalId: conversation.externalId,
    ...(customerMessage ? { turns: current.turns + 1 } : {}),
  });
  await emit(tx, 'conversation.changed', { conversationId: conversation.id });
  return rows;
}

/**
 * Gives a conversation the humans hold back to the agent: its next customer message is answered
 * again. Emits `conversation.released` with the change. 409 when the agent already has it.
 */
export async function releaseInteraction(ctx: Ctx, id: string): Promise<ConversationRow> {
  return inTransaction(ctx, async (tx) => {
    const current = await findConversation(tx.db, ctx.workspaceId, id, { lock: true });
    if (!current) throw conversationNotFound();
    if (!current.humanTakeoverAt) throw new AppError('conflict', `conversation ${id} is not held by the human team: the agent already answers it`);
    const updated = await updateConversation(tx.db, ctx.workspaceId, id, { humanTakeoverAt: null, updatedAt: ctx.clock.now() });
    await emit(tx, 'conversation.changed', { conversationId: id });
    await emit(tx, 'conversation.released', { conversationId: id });
    return updated!;
  });
}

function emitCreated(ctx: Ctx, conversation: ConversationRow): Promise<void> {
  return emit(ctx, 'conversation.created', { conversationId: conversation.id, agentId: conversation.agentId, source: conversation.source, channel: conversation.channel });
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat;
}

function mergeById<T extends { id: string }>(a: readonly T[], b: readonly T[]): T[] {
  const out = [...a];
  for (const item of b) if (!out.some((x) => x.id === item.id)) out.push(item);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reading and deleting

export async function listInteractions(ctx: Ctx, query: ListInteractionsQuery) {
  const until = query.until ?? ctx.clock.now();
  const since = query.since ?? new Date(until.getTime() - LIMITS.defaultWindow);
  if (since.getTime() >= until.getTime()) throw new AppError('bad_request', 'query.since: since must be before until');
  if (until.getTime() - since.getTime() > LIMITS.window) throw new AppError('bad_request', 'query.since: the window from since to until is at most 90 days');
  const cursor = query.cursor ? await cursorOf(ctx.db, ctx.workspaceId, query.cursor) : undefined;
  if (query.cursor && !cursor) throw new AppError('bad_request', 'query.cursor: not a conversation of this workspace');
  const page = await listConversationRows(ctx.db, ctx.workspaceId, {
    since,
    until,
    limit: query.limit,
    cursor,
    direction: query.direction,
    agentId: query.botId,
    sources: query.source,
    channels: query.channel,
    statuses: query.status,
    tagIds: query.tagIds,
  });
  return { rows: page.rows, hasMore: page.hasMore, ...pageCursors(page.rows, { hasMore: page.hasMore, direction: query.direction, fromCursor: Boolean(cursor) }) };
}

export async function getInteraction(ctx: Ctx, id: string): Promise<{ conversation: ConversationRow; events: EventRow[] }> {
  const conversation = await findConversation(ctx.db, ctx.workspaceId, id);
  if (!conversation) throw conversationNotFound();
  return { conversation, events: await listEvents(ctx.db, ctx.workspaceId, id) };
}

// ---------------------------------------------------------------------------------------------
// As clients see them (the routes and the MCP tools)

/** Generate Answer: the created events, presented. */
export async function answerEventPresented(ctx: Ctx, body: GenerateAnswerBody) {
  const rows = await postEvent(ctx, body);
  const lookup = await tagLookup(ctx);
  return rows.map((r) => presentEvent(r, lookup));
}

/** A page of conversations, presented. */
export async function interactionPagePresented(ctx: Ctx, query: ListInteractionsQuery) {
  const page = await listInteractions(ctx, query);
  const lookup = await tagLookup(ctx);
  return { interactions: page.rows.map((r) => presentInteraction(r, lookup)), hasMore: page.hasMore, nextCursor: page.nextCursor, prevCursor: page.prevCursor };
}

/** A conversation with its events, oldest first, presented (404 for an unknown or deleted one). */
export async function interactionPresented(ctx: Ctx, id: string) {
  const { conversation, events } = await getInteraction(ctx, id);
  const lookup = await tagLookup(ctx);
  return { ...presentInteraction(conversation, lookup), events: events.map((e) => presentEvent(e, lookup)) };
}

/** Deletes a conversation (hidden at once, purged after the retention); success also for unknown ids, as specified. */
export async function deleteInteraction(ctx: Ctx, id: string): Promise<{ success: true }> {
  await inTransaction(ctx, (tx) => softDeleteConversations(tx.db, ctx.workspaceId, [id], ctx.clock.now()));
  return { success: true };
}

/**
 * Deletes the accessible conversations among `ids`; when some are not (unknown, deleted or of
 * another workspace), the others are still deleted and the answer is a 406 naming those, as the
 * deployed service does.
 */
export async function deleteInteractions(ctx: Ctx, ids: string[]): Promise<{ success: true; deletedIds: string[] }> {
  const { deleted, missing } = await inTransaction(ctx, async (tx) => {
    const live = await liveConversationIds(tx.db, ctx.workspaceId, ids);
    const deleted = await softDeleteConversations(tx.db, ctx.workspaceId, [...live], ctx.clock.now());
    return { deleted, missing: ids.filter((id) => !live.has(id)) };
  });
  if (missing.length) {
    throw new AppError('not_acceptable', `body.ids: not accessible: ${missing.join(', ')}${deleted.length ? ` (the ${deleted.length} others were deleted)` : ''}`);
  }
  return { success: true, deletedIds: ids.filter((id) => deleted.includes(id)) };
}

/** The housekeeping job: purges conversations deleted longer ago than the retention. */
export async function purgeDeletedConversations(ctx: Pick<WorkspaceContext, 'db' | 'clock' | 'config'>): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - ctx.config.deletedRetentionDays * 24 * 3600 * 1000);
  return deleteInBatches((limit) => unscopedPurgeDeletedConversations(ctx.db, before, limit));
}
