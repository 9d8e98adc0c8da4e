import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { pastCursor, queryRows } from '../../db/sql.js';
import { conversationEvents, conversations } from '../../db/schema/index.js';

export type ConversationRow = typeof conversations.$inferSelect;
export type EventRow = typeof conversationEvents.$inferSelect;
export type NewConversation = Omit<typeof conversations.$inferInsert, 'workspaceId' | 'id'>;
export type NewEvent = Omit<typeof conversationEvents.$inferInsert, 'workspaceId'>;

const live = (workspaceId: string) => and(eq(conversations.workspaceId, workspaceId), isNull(conversations.deletedAt));

export async function insertConversation(db: Db, workspaceId: string, values: NewConversation): Promise<ConversationRow> {
  const [row] = await db.insert(conversations).values({ ...values, workspaceId }).returning();
  return row!;
}

/** A live (not deleted) conversation; `lock` takes its row lock, so messages of one conversation run one at a time. */
export async function findConversation(db: Db, workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<ConversationRow | undefined> {
  const query = db.select().from(conversations).where(and(live(workspaceId), eq(conversations.id, id)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function updateConversation(db: Db, workspaceId: string, id: string, changes: Partial<NewConversation>): Promise<ConversationRow | undefined> {
  const [row] = await db
    .update(conversations)
    .set(changes)
    .where(and(live(workspaceId), eq(conversations.id, id)))
    .returning();
  return row;
}

export interface ConversationFilter {
  since: Date;
  until: Date;
  limit: number;
  cursor?: { createdAt: Date; id: string };
  direction: 'next' | 'previous';
  agentId?: string;
  sources?: string[];
  channels?: string[];
  statuses?: string[];
  tagIds?: string[];
}

/**
 * One page of live conversations in the window, newest first (createdAt, then id). `next` reads
 * after the cursor, `previous` before it; `hasMore` says whether the same direction has more.
 */
export async function listConversations(db: Db, workspaceId: string, f: ConversationFilter): Promise<{ rows: ConversationRow[]; hasMore: boolean }> {
  const where: (SQL | undefined)[] = [live(workspaceId), sql`${conversations.createdAt} >= ${f.since.toISOString()}`, lt(conversations.createdAt, f.until)];
  if (f.agentId) where.push(eq(conversations.agentId, f.agentId));
  if (f.sources?.length) where.push(inArray(conversations.source, f.sources));
  if (f.channels?.length) where.push(inArray(conversations.channel, f.channels));
  if (f.statuses?.length) where.push(inArray(conversations.status, f.statuses));
  if (f.tagIds?.length) where.push(sql`${conversations.tagIds} && ${`{${f.tagIds.join(',')}}`}::uuid[]`);
  const previous = f.direction === 'previous';
  if (f.cursor) {
    const { createdAt, id } = f.cursor;
    where.push(
      pastCursor(conversations.createdAt, conversations.id, { createdAt, id }, previous ? 'after' : 'before'),
    );
  }
  const rows = await db
    .select()
    .from(conversations)
    .where(and(...where))
    .orderBy(...(previous ? [asc(conversations.createdAt), asc(conversations.id)] : [desc(conversations.createdAt), desc(conversations.id)]))
    .limit(f.limit + 1);
  const hasMore = rows.length > f.limit;
  const page = rows.slice(0, f.limit);
  return { rows: previous ? page.reverse() : page, hasMore };
}

/** The cursor record's position, when it is a live conversation of the workspace. */
export async function cursorOf(db: Db, workspaceId: string, id: string): Promise<{ createdAt: Date; id: string } | undefined> {
  const [row] = await db
    .select({ createdAt: conversations.createdAt, id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.workspaceId, workspaceId), eq(conversations.id, id)));
  return row;
}

export async function insertEvents(db: Db, workspaceId: string, values: NewEvent[]): Promise<EventRow[]> {
  if (values.length === 0) return [];
  return db
    .insert(conversationEvents)
    .values(values.map((v) => ({ ...v, workspaceId })))
    .returning();
}

/** Events of a conversation, oldest first. */
export async function listEvents(db: Db, workspaceId: string, conversationId: string): Promise<EventRow[]> {
  return db
    .select()
    .from(conversationEvents)
    .where(and(eq(conversationEvents.workspaceId, workspaceId), eq(conversationEvents.conversationId, conversationId)))
    .orderBy(asc(conversationEvents.createdAt), asc(conversationEvents.id));
}

/** Events of a conversation after `after` in the events' order (createdAt, then id), oldest first, at most `limit`. */
export async function listEventsAfter(db: Db, workspaceId: string, conversationId: string, after: { createdAt: Date; id: string } | undefined, limit: number): Promise<EventRow[]> {
  const where: (SQL | undefined)[] = [eq(conversationEvents.workspaceId, workspaceId), eq(conversationEvents.conversationId, conversationId)];
  if (after) {
    where.push(pastCursor(conversationEvents.createdAt, conversationEvents.id, after, 'after'));
  }
  return db
    .select()
    .from(conversationEvents)
    .where(and(...where))
    .orderBy(asc(conversationEvents.createdAt), asc(conversationEvents.id))
    .limit(limit);
}

/** An event of a live conversation. */
export async function findEvent(db: Db, workspaceId: string, id: string, options: { lock?: boolean } = {}): Promise<{ event: EventRow; conversation: ConversationRow } | undefined> {
  const query = db
    .select({ event: conversationEvents, conversation: conversations })
    .from(conversationEvents)
    .innerJoin(conversations, and(eq(conversations.workspaceId, conversationEvents.workspaceId), eq(conversations.id, conversationEvents.conversationId)))
    .where(and(eq(conversationEvents.workspaceId, workspaceId), eq(conversationEvents.id, id), isNull(conversations.deletedAt)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function updateEvent(db: Db, workspaceId: string, id: string, changes: Partial<NewEvent>): Promise<EventRow | undefined> {
  const [row] = await db
    .update(conversationEvents)
    .set(changes)
    .where(and(eq(conversationEvents.workspaceId, workspaceId), eq(conversationEvents.id, id)))
    .returning();
  return row;
}

/** The ids among `ids` of live conversations of the workspace. */
export async function liveConversationIds(db: Db, workspaceId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(live(workspaceId), inArray(conversations.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}

/** Marks live conversations deleted; answers the ids it deleted. */
export async function softDeleteConversations(db: Db, workspaceId: string, ids: readonly string[], now: Date): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .update(conversations)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(live(workspaceId), inArray(conversations.id, [...ids])))
    .returning({ id: conversations.id });
  return rows.map((r) => r.id);
}

/**
 * Purges conversations deleted before `before`, across every workspace: the housekeeping job's
 * one query (its events go with them by the foreign key's cascade). At most `limit` per call.
 */
export async function unscopedPurgeDeletedConversations(db: Db, before: Date, limit: number): Promise<number> {
  const rows = await db.execute(
    sql`DELETE FROM conversations WHERE id IN (
      SELECT id FROM conversations WHERE deleted_at IS NOT NULL AND deleted_at < ${before.toISOString()} ORDER BY deleted_at LIMIT ${limit}
    ) RETURNING id`,
  );
  return (rows as unknown as { rows?: unknown[] }).rows?.length ?? (Array.isArray(rows) ? rows.length : 0);
}

/**
 * Which of the given conversations changed since their `version` was read: for each id whose row's
 * version now differs (null for an id with no row, or no longer one), the id and its version now.
 * The version is the row's `xmin`, the id of the transaction that wrote the row as it is: every
 * committed write of a conversation (its messages are written with it) gives it another, whatever
 * the clocks say. Of every workspace: the ids are ids of conversations (UUIDs) and nothing of
 * them but whether they changed is answered. One statement, a primary-key probe per id.
 */
export async function unscopedChangedConversations(db: Db, known: readonly { id: string; version: string | null }[]): Promise<{ id: string; version: string | null }[]> {
  if (known.length === 0) return [];
  return queryRows<{ id: string; version: string | null }>(
    db,
    sql`SELECT k.id::text AS id, c.xmin::text AS version
      FROM jsonb_to_recordset(${JSON.stringify(known)}::jsonb) AS k(id uuid, version text)
      LEFT JOIN conversations c ON c.id = k.id
      WHERE c.xmin::text IS DISTINCT FROM k.version`,
  );
}

/** Earlier live conversations of the same customer (by e-mail or external id), newest first. */
export async function earlierConversations(
  db: Db,
  workspaceId: string,
  customer: { email?: string; externalId?: string },
  excludeId: string,
  limit: number,
): Promise<ConversationRow[]> {
  const who: SQL[] = [];
  if (customer.email) who.push(sql`lower(${conversations.userAttributes} ->> 'email') = lower(${customer.email})`);
  if (customer.externalId) who.push(eq(conversations.externalId, customer.externalId));
  if (who.length === 0) return [];
  return db
    .select()
    .from(conversations)
    .where(and(live(workspaceId), ne(conversations.id, excludeId), or(...who), isNotNull(conversations.lastMessageAt)))
    .orderBy(desc(conversations.lastMessageAt))
    .limit(limit);
}

/** The CSAT ratings given to the agent replies of a conversation, in event order. */
export async function ratingsOf(db: Db, workspaceId: string, conversationId: string): Promise<number[]> {
  const rows = await db
    .select({ rating: conversationEvents.csatRating })
    .from(conversationEvents)
    .where(and(eq(conversationEvents.workspaceId, workspaceId), eq(conversationEvents.conversationId, conversationId), isNotNull(conversationEvents.csatRating)))
    .orderBy(asc(conversationEvents.createdAt), asc(conversationEvents.id));
  return rows.map((r) => r.rating!);
}
