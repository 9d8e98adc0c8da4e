import { sql } from 'drizzle-orm';
import { foreignKey, index, integer, jsonb, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { conversations } from './conversations.js';
import { type RuleVersionItem, rules } from './rules.js';
import { workspaces } from './workspaces.js';

/** A part of a feedback note the diagnosis did not understand, and why. */
export interface NoteWarning {
  fragment: string;
  message: string;
}

/** An agent reply as Refine with AI shows it before and after a replay (the specification's AnswerSnapshot). */
export interface AnswerSnapshot {
  interactionId: string;
  eventId: string;
  originalEventId: string | null;
  content: string | null;
  role: string;
  type: string;
  createdAt: string;
}

/** Why an answer went wrong (the specification's rootCause), with the identifiers of what to change. */
export interface RootCause {
  failureStage: string;
  failureMode: string;
  reasoning: string;
  target: {
    kind: 'prompt' | 'kb_article' | 'rule';
    operation?: 'create' | 'update';
    promptSectionIds?: string[];
    promptType?: 'hcPlanningPrompt' | 'hcGuidelinePrompt' | 'hcChannelPrompt';
    articleId?: string;
    articleFields?: string[];
    ruleId?: string;
  };
}

/**
 * Refine with AI sessions (wire `fix-review`): one per agent reply being fixed while `active`
 * (a partial unique index); `published` or `closed` end it.
 */
export const fixReviewSessions = pgTable(
  'fix_review_sessions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    conversationId: uuid('conversation_id').notNull(),
    targetEventId: uuid('target_event_id').notNull(),
    targetUserEventId: uuid('target_user_event_id'),
    agentId: uuid('agent_id').notNull(),
    /** `active`, `published` or `closed`. */
    status: text('status').notNull().default('active'),
    publishedIterationId: uuid('published_iteration_id'),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }),
    closedAt: timestamp('closed_at', { withTimezone: true, mode: 'date' }),
    closedReason: text('closed_reason'),
    originalAnswerSnapshot: jsonb('original_answer_snapshot').$type<AnswerSnapshot>(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
  },
  (t) => [
    unique('fix_review_sessions_workspace_id_id_unique').on(t.workspaceId, t.id),
    uniqueIndex('fix_review_sessions_active_idx').on(t.workspaceId, t.targetEventId).where(sql`status = 'active'`),
    foreignKey({ columns: [t.workspaceId, t.conversationId], foreignColumns: [conversations.workspaceId, conversations.id] }).onDelete('cascade'),
  ],
);

/**
 * One try at fixing the reply: feedback in, diagnosis, drafts and a replay out. Status moves
 * queued -> generating_changes -> replaying -> ready | no_change | failed; later published or
 * superseded.
 */
export const fixIterations = pgTable(
  'fix_iterations',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id').notNull(),
    sessionId: uuid('session_id').notNull(),
    conversationId: uuid('conversation_id').notNull(),
    targetEventId: uuid('target_event_id').notNull(),
    previousIterationId: uuid('previous_iteration_id'),
    /** The queue job that runs it (its id is the iteration's). */
    backgroundJobId: uuid('background_job_id').notNull(),
    replayConversationId: uuid('replay_conversation_id'),
    replayEventId: uuid('replay_event_id'),
    iterationNumber: integer('iteration_number').notNull(),
    status: text('status').notNull().default('queued'),
    feedbackNote: text('feedback_note').notNull(),
    summary: text('summary'),
    /** `high`, `medium` or `low`. */
    confidence: text('confidence'),
    error: text('error'),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    oldAnswerSnapshot: jsonb('old_answer_snapshot').$type<AnswerSnapshot>(),
    newAnswerSnapshot: jsonb('new_answer_snapshot').$type<AnswerSnapshot>(),
    /** The parts of the note the diagnosis did not understand. */
    warnings: jsonb('warnings').$type<NoteWarning[]>().notNull().default([]),
    /** The test gate of its publish: its runs, the cases the drafts break, and whether the publish was forced (docs/testing.md). */
    gateRun: jsonb('gate_run').$type<{ runIds: string[]; regressedCaseIds: string[]; forced: boolean }>(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
  },
  (t) => [
    unique('fix_iterations_workspace_id_id_unique').on(t.workspaceId, t.id),
    unique('fix_iterations_session_number_unique').on(t.sessionId, t.iterationNumber),
    index('fix_iterations_status_idx').on(t.status, t.updatedAt),
    foreignKey({ columns: [t.workspaceId, t.sessionId], foreignColumns: [fixReviewSessions.workspaceId, fixReviewSessions.id] }).onDelete('cascade'),
  ],
);

/** A change an iteration proposes: its root cause and the draft that makes it. */
export const fixChanges = pgTable(
  'fix_changes',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id').notNull(),
    sessionId: uuid('session_id').notNull(),
    iterationId: uuid('iteration_id').notNull(),
    conversationId: uuid('conversation_id').notNull(),
    targetEventId: uuid('target_event_id').notNull(),
    rootCause: jsonb('root_cause').$type<RootCause>().notNull(),
    /** `update_prompt`, `update_rule`, `create_article` or `update_article`. */
    changeType: text('change_type').notNull(),
    draftPromptVersionId: uuid('draft_prompt_version_id'),
    draftArticleId: uuid('draft_article_id'),
    draftRuleVersionId: uuid('draft_rule_version_id'),
    /** The parts of the note this change does not carry out (not understood when it was made). */
    warnings: jsonb('warnings').$type<NoteWarning[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('fix_changes_iteration_idx').on(t.workspaceId, t.iterationId),
    foreignKey({ columns: [t.workspaceId, t.iterationId], foreignColumns: [fixIterations.workspaceId, fixIterations.id] }).onDelete('cascade'),
  ],
);

/**
 * A proposed new version of a published rule (Refine with AI's rule changes): published through
 * the rule's own update path, with its base version checked (409 when the rule moved on).
 */
export const ruleDrafts = pgTable(
  'rule_drafts',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id').notNull(),
    ruleId: uuid('rule_id').notNull(),
    /** `draft`, `published` or `discarded`. */
    status: text('status').notNull().default('draft'),
    baseVersion: integer('base_version'),
    item: jsonb('item').$type<Pick<RuleVersionItem, 'name' | 'description' | 'flowConfig'>>().notNull(),
    origin: text('origin').notNull().default('FIX_REVIEW'),
    publishedVersionId: uuid('published_version_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    unique('rule_drafts_workspace_id_id_unique').on(t.workspaceId, t.id),
    foreignKey({ columns: [t.workspaceId, t.ruleId], foreignColumns: [rules.workspaceId, rules.id] }).onDelete('cascade'),
  ],
);
