import { sql } from 'drizzle-orm';
import { bigint, boolean, foreignKey, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import type { AnswerTrace } from '../../modules/conversations/index.js';
import { agents } from './agents.js';
import { workspaces } from './workspaces.js';

/** An article an answer used, as the conversation shows it. */
export interface UsedArticle {
  id: string;
  title: string;
  documentUrl: string | null;
}

/** The folder that directly holds a used article. */
export interface UsedSubfolder {
  id: string;
  title: string;
}

/** A rule flow of the conversation waiting for the customer's next message. */
export interface WaitingFlow {
  ruleId: string;
  ruleName: string;
  /** The rule version the flow started on; the walk resumes on that version's flow. */
  ruleVersionId: string | null;
  flow: Record<string, unknown>;
  state: Record<string, unknown>;
}

/** What an evaluation of the conversation found (docs/conversations.md). */
export interface ConversationEvaluation {
  evaluatedAt: string;
  verdict: 'good' | 'needs_review' | 'poor';
  score: number;
  replies: { eventId: string; grounded: boolean; answered: boolean; score: number; notes: string[] }[];
  notes: string[];
  model: { provider: string; model: string };
}

/**
 * Conversations (wire `interactions`) of an agent. Deletion is soft (`deleted_at`): a deleted
 * conversation disappears from every route at once, and the housekeeping job purges it after
 * PARLEY_DELETED_RETENTION_DAYS.
 */
export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id').notNull(),
    /** `api`, `replay` or `testsuite`. */
    source: text('source').notNull(),
    /** `chat` or `email`. */
    channel: text('channel').notNull(),
    status: text('status').notNull(),
    /** true confirmed by the customer, false said it did not help, null no verdict. */
    resolved: boolean('resolved'),
    externalId: text('external_id'),
    subjectPreview: text('subject_preview').notNull().default(''),
    userAttributes: jsonb('user_attributes').$type<Record<string, unknown>>().notNull().default({}),
    hasFeedback: boolean('has_feedback').notNull().default(false),
    usedArticles: jsonb('used_articles').$type<UsedArticle[]>().notNull().default([]),
    usedSubfolders: jsonb('used_subfolders').$type<UsedSubfolder[]>().notNull().default([]),
    /** Tags of the conversation (chosen by its answers and flows). */
    tagIds: uuid('tag_ids').array().notNull().default(sql`'{}'::uuid[]`),
    /** Reason of the last hand-over (the `Escalation Reason` tag name), null while none. */
    escalationReason: text('escalation_reason'),
    /** The sentiment of the last customer message. */
    latestSentiment: text('latest_sentiment'),
    /** Number of customer messages so far (the evaluation context's conversation.turn). */
    turns: integer('turns').notNull().default(0),
    waitingFlow: jsonb('waiting_flow').$type<WaitingFlow>(),
    /** Rules whose flows ran in the conversation (analytics' ruleAnalytics and ruleIds filter). */
    ruleIds: uuid('rule_ids').array().notNull().default(sql`'{}'::uuid[]`),
    /** Folders that directly hold the used articles (analytics' knowledgeUsage and usedSubfolderIds filter). */
    subfolderIds: uuid('subfolder_ids').array().notNull().default(sql`'{}'::uuid[]`),
    /** Agent replies so far, and the sum of their response times (user event to reply). */
    replyCount: integer('reply_count').notNull().default(0),
    responseMsTotal: bigint('response_ms_total', { mode: 'number' }).notNull().default(0),
    /** Time from the first customer message to the first agent reply. */
    firstResponseMs: integer('first_response_ms'),
    /** When the agent last replied: a conversation waiting for the customer since long enough counts as resolved (assumed). */
    lastReplyAt: timestamp('last_reply_at', { withTimezone: true, mode: 'date' }),
    /** CSAT ratings given to the conversation's replies (1-5), one per rated reply. */
    csatRatings: integer('csat_ratings').array().notNull().default(sql`'{}'::integer[]`),
    evaluation: jsonb('evaluation').$type<ConversationEvaluation>(),
    /**
     * Since when the conversation is the human team's (the agent handed it over): customer messages
     * are stored but the agent stays silent until a release sets this back to null.
     */
    humanTakeoverAt: timestamp('human_takeover_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    unique('conversations_workspace_id_id_unique').on(t.workspaceId, t.id),
    index('conversations_workspace_created_idx').on(t.workspaceId, t.createdAt, t.id),
    index('conversations_agent_created_idx').on(t.workspaceId, t.agentId, t.createdAt),
    index('conversations_external_idx').on(t.workspaceId, t.externalId),
    index('conversations_email_idx').on(t.workspaceId, sql`lower(${t.userAttributes} ->> 'email')`),
    index('conversations_deleted_idx').on(t.deletedAt),
    foreignKey({ columns: [t.workspaceId, t.agentId], foreignColumns: [agents.workspaceId, agents.id] }),
  ],
);

/** Messages and comments of a conversation (wire events), oldest first. */
export const conversationEvents = pgTable(
  'conversation_events',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id').notNull(),
    conversationId: uuid('conversation_id').notNull(),
    /** `user`, `parleybot`, `agent` or `otherbot`. */
    role: text('role').notNull(),
    /** `message` or `internal_comment`. */
    type: text('type').notNull(),
    message: text('message').notNull(),
    externalId: text('external_id'),
    externalCreatedAt: timestamp('external_created_at', { withTimezone: true, mode: 'date' }),
    csatRating: integer('csat_rating'),
    feedback: text('feedback'),
    approved: boolean('approved'),
    resolved: boolean('resolved'),
    attachments: jsonb('attachments').$type<unknown[]>().notNull().default([]),
    tagIds: uuid('tag_ids').array().notNull().default(sql`'{}'::uuid[]`),
    usedArticles: jsonb('used_articles').$type<UsedArticle[]>().notNull().default([]),
    /** For an agent reply: the user event it answers. */
    userEventId: uuid('user_event_id'),
    /** The agent reply was a hand-over to a person. */
    handover: boolean('handover').notNull().default(false),
    escalationReason: text('escalation_reason'),
    /** A customer message's sentiment (`positive`, `neutral`, `negative`), from the plan of its answer. */
    sentiment: text('sentiment'),
    /** The trace of an agent reply (the specification's event metadata). */
    metadata: jsonb('metadata').$type<AnswerTrace>(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('conversation_events_conversation_idx').on(t.workspaceId, t.conversationId, t.createdAt),
    foreignKey({ columns: [t.workspaceId, t.conversationId], foreignColumns: [conversations.workspaceId, conversations.id] }).onDelete('cascade'),
  ],
);
