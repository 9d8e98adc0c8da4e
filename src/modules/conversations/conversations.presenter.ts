import { iso } from '../../http/schemas.js';
import { type AnswerTrace, readTrace } from './answer/trace.schemas.js';
import type { ConversationRow, EventRow } from './conversations.repository.js';

/** Tag ids -> the wire `{ id, tagName, tagGroupId }` (tags deleted since are left out). */
export type TagLookup = ReadonlyMap<string, { tagName: string; tagGroupId: string }>;

const tagsOf = (ids: readonly string[], tags: TagLookup) =>
  ids.flatMap((id) => {
    const tag = tags.get(id);
    return tag ? [{ id, tagName: tag.tagName, tagGroupId: tag.tagGroupId }] : [];
  });

export function presentEvent(row: EventRow, tags: TagLookup) {
  return {
    id: row.id,
    interactionId: row.conversationId,
    role: row.role as 'user',
    type: row.type as 'message',
    message: row.message,
    createdAt: iso(row.createdAt),
    externalId: row.externalId,
    externalCreatedAt: iso(row.externalCreatedAt),
    csatRating: row.csatRating,
    feedback: row.feedback,
    approved: row.approved,
    resolved: row.resolved,
    attachments: row.attachments,
    tags: tagsOf(row.tagIds, tags),
    usedArticles: row.usedArticles,
    userEventId: row.userEventId,
    handover: row.handover,
    escalationReason: row.escalationReason as 'other' | null,
    sentiment: row.sentiment as 'neutral' | null,
  };
}

export function presentInteraction(row: ConversationRow, tags: TagLookup) {
  return {
    id: row.id,
    companyId: row.workspaceId,
    botId: row.agentId,
    source: row.source as 'api',
    channel: row.channel as 'chat',
    status: row.status as 'Waiting for Customer',
    externalId: row.externalId,
    subjectPreview: row.subjectPreview,
    userAttributes: row.userAttributes,
    resolved: row.resolved,
    hasFeedback: row.hasFeedback,
    usedArticles: row.usedArticles,
    usedSubfolders: row.usedSubfolders,
    tags: tagsOf(row.tagIds, tags),
    latestSentiment: row.latestSentiment as 'neutral' | null,
    escalationReason: row.escalationReason as 'other' | null,
    evaluation: row.evaluation,
    humanTakeoverAt: iso(row.humanTakeoverAt),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    lastMessageAt: iso(row.lastMessageAt),
  };
}

/**
 * A stored trace on the wire. A trace this version wrote reads through its schema; an older one is
 * sent as stored, but with `knowledgeSearch.articles[]` cut to the specification's `{ id, title, version }`
 * (traces before that fix also held each article's `score`).
 */
export function presentTrace(stored: Record<string, unknown> | null): AnswerTrace {
  const trace = readTrace(stored);
  if (trace) return trace;
  const legacy = { ...(stored ?? {}) };
  const search = legacy.knowledgeSearch as { articles?: { id: unknown; title: unknown; version: unknown }[] } | null | undefined;
  if (search && Array.isArray(search.articles)) {
    legacy.knowledgeSearch = { ...search, articles: search.articles.map(({ id, title, version }) => ({ id, title, version })) };
  }
  // The route sends its answer as the presenter gives it (serializer: 'presenter'), so a legacy
  // trace goes out as stored rather than failing the schema of today's traces.
  return legacy as AnswerTrace;
}
