import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { inTransaction, type ProcessContext, type WorkspaceContext } from '../../context.js';
import { withLocks } from '../../db/key-locks.js';
import { deleteInBatches } from '../../db/sql.js';
import { AppError } from '../../http/errors.js';
import type { Principal } from '../api-keys/index.js';
import { requireAnsweringAgent } from '../agents/index.js';
import { type EventRow, eventsAfter, giveFeedback, postEvent, type PostEventOptions } from '../conversations/index.js';
import type { ConversationStatus } from '../tags/index.js';
import type { AnswerPartials } from './answer-partials.js';
import { findWidgetConversation, insertWidgetConversation, unscopedPurgeUnstartedWidgetConversations, type WidgetConversationRow } from './visitors.repository.js';

type Ctx = WorkspaceContext;
export type WidgetGrant = NonNullable<Principal['widget']>;

const VISITOR_TOKEN_PREFIX = 'vt_';
const conversationNotFound = () => new AppError('not_found', 'conversation not found');

/** What the widget key of a visitor route's request allows (auth.ts admitted only widget keys there). */
export function grantOf(ctx: Pick<Ctx, 'actor'>): WidgetGrant {
  if (ctx.actor.kind !== 'visitor' || !ctx.actor.principal.widget) throw new Error(`a widget key is required here, not a ${ctx.actor.kind}`);
  return ctx.actor.principal.widget;
}

/** Visitor tokens are stored as their SHA-256, as API keys are. */
export function hashVisitorToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Starts a visitor's conversation with the key's agent: reserves its id and issues the visitor
 * token that proves it (shown once). The conversation itself is written with the first message.
 */
export async function startConversation(ctx: Ctx, body: { userAttributes?: Record<string, unknown> | undefined; locale?: string | undefined } | null | undefined) {
  const grant = grantOf(ctx);
  await requireAnsweringAgent(ctx, grant.agentId);
  const visitorToken = VISITOR_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const row = await inTransaction(ctx, (tx) =>
    insertWidgetConversation(tx.db, ctx.workspaceId, {
      id: randomUUID(),
      agentId: grant.agentId,
      widgetKeyId: ctx.actor.id,
      tokenHash: hashVisitorToken(visitorToken),
      userAttributes: { ...body?.userAttributes, ...(body?.locale ? { locale: body.locale } : {}) },
      createdAt: ctx.clock.now(),
    }),
  );
  return { conversationId: row.id, visitorToken };
}

/**
 * The widget conversation a visitor addresses, proved by its token: 401 without a token, 404 for a
 * conversation the key's agent has no widget conversation of (another agent's, another
 * workspace's, one not started through a widget), 403 for a token of another conversation.
 */
export async function requireVisitorConversation(ctx: Ctx, id: string, token: string | undefined): Promise<WidgetConversationRow> {
  if (!token) throw new AppError('unauthorized', 'missing visitor token: send X-Visitor-Token (or ?visitorToken= on the stream)');
  const row = await findWidgetConversation(ctx.db, ctx.workspaceId, grantOf(ctx).agentId, id);
  if (!row) throw conversationNotFound();
  const stored = Buffer.from(row.tokenHash, 'hex');
  const given = Buffer.from(hashVisitorToken(token), 'hex');
  if (stored.length !== given.length || !timingSafeEqual(stored, given)) throw new AppError('forbidden', 'the visitor token does not prove this conversation');
  return row;
}

/**
 * A visitor's message, through Generate Answer's pipeline (channel `chat`, source `api`): the
 * created events. With `partials`, a model's answer is published there as it is written, for the
 * conversation's streams in this process (docs/widget.md "The stream").
 */
export async function postVisitorMessage(ctx: Ctx, conversation: WidgetConversationRow, message: { content: string; askForPerson: boolean }, partials?: AnswerPartials): Promise<EventRow[]> {
  const publisher = partials?.publisher(conversation.id);
  try {
    return await storeVisitorMessage(ctx, conversation, message.content, { source: 'api', personRequested: message.askForPerson, onPartial: publisher?.onPartial });
  } finally {
    publisher?.done();
  }
}

/**
 * The first message writes the conversation under the id reserved at the start, with the start's
 * user attributes (the widget row is marked started in its transaction: widget.listeners.ts); a
 * lock on that id keeps two first messages from both trying.
 */
async function storeVisitorMessage(ctx: Ctx, conversation: WidgetConversationRow, content: string, options: PostEventOptions): Promise<EventRow[]> {
  const continued = (c: Ctx) => postEvent(c, { content, role: 'user', interactionId: conversation.id }, options);
  if (conversation.startedAt) return continued(ctx);
  return withLocks(ctx.db, [`widget-conversation:${conversation.id}`], async (db) => {
    const locked = { ...ctx, db };
    const current = await findWidgetConversation(db, ctx.workspaceId, conversation.agentId, conversation.id);
    if (!current) throw conversationNotFound();
    if (current.startedAt) return continued(locked);
    return postEvent(
      locked,
      { content, role: 'user', botId: conversation.agentId, metadata: { channel: 'chat', user_attributes: current.userAttributes } },
      { ...options, newConversationId: conversation.id },
    );
  });
}

export interface VisitorPage {
  status: ConversationStatus | null;
  humanTakeover: boolean;
  /** Every event after the cursor (the caller shows the visitor's share of them), oldest first. */
  events: EventRow[];
  hasMore: boolean;
}

/**
 * The events after `after` (an event id) and the conversation's state, for polling and the stream.
 * Before the first message there is no conversation row yet: no events, status null. `field` names
 * where `after` came from in a 400.
 */
export async function visitorEvents(ctx: Ctx, conversation: WidgetConversationRow, after: string | undefined, options: { limit: number; field: string }): Promise<VisitorPage> {
  const started = conversation.startedAt ?? (await findWidgetConversation(ctx.db, ctx.workspaceId, conversation.agentId, conversation.id))?.startedAt;
  if (!started) {
    if (after) throw new AppError('bad_request', `${options.field}: not an event of conversation ${conversation.id}`);
    return { status: null, humanTakeover: false, events: [], hasMore: false };
  }
  const page = await eventsAfter(ctx, conversation.id, after, { limit: options.limit + 1, field: options.field });
  return {
    status: page.conversation.status as ConversationStatus,
    humanTakeover: page.conversation.humanTakeoverAt !== null,
    events: page.events.slice(0, options.limit),
    hasMore: page.events.length > options.limit,
  };
}

/** A visitor's rating of a reply of their conversation, and whether it resolved their question. */
export async function giveVisitorFeedback(ctx: Ctx, conversation: WidgetConversationRow, eventId: string, body: { csatRating?: number | undefined; resolved?: boolean | undefined }): Promise<EventRow> {
  return giveFeedback(
    ctx,
    eventId,
    { ...(body.csatRating !== undefined ? { csatRating: body.csatRating } : {}), ...(body.resolved !== undefined ? { resolved: body.resolved } : {}) },
    { conversationId: conversation.id },
  );
}

/**
 * The housekeeping job: deletes conversations visitors started but never wrote in, older than
 * PARLEY_DELETED_RETENTION_DAYS (their visitor tokens stop working, their user attributes go).
 */
export async function purgeUnstartedConversations(ctx: Pick<ProcessContext, 'db' | 'clock' | 'config'>): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - ctx.config.deletedRetentionDays * 24 * 3600 * 1000);
  return deleteInBatches((limit) => unscopedPurgeUnstartedWidgetConversations(ctx.db, before, limit));
}
