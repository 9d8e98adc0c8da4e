import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, integer, jsonb, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { FLOW_ESCALATION_REASONS } from '../../evaluators/flow.js';
import { agents } from './agents.js';
import { workspaces } from './workspaces.js';

/**
 * What a lead expects of an agent reply (docs/testing.md). Every field is optional; a reply meets
 * the expectation when it meets each field given.
 */
export interface TestExpectation {
  /** true: an answer citing an article; false: a hand-over. */
  answers?: boolean;
  /** The hand-over's reason (an Escalation Reason tag name). */
  handoverReason?: (typeof FLOW_ESCALATION_REASONS)[number];
  /** The reply cites one of these articles. */
  citesArticleIds?: string[];
  /** The reply cites an article of one of these folders (or of a folder inside one). */
  citesFolderIds?: string[];
  /** The rule whose flow ran for the message. */
  ruleId?: string;
  /** Phrases the reply says, each (case-insensitive). */
  contains?: string[];
  /** Phrases the reply does not say (case-insensitive). */
  notContains?: string[];
  /** Tags applied to the reply, each (ids or names). */
  tags?: string[];
  /** `message`, `internal_comment`, or `none` (no reply). */
  replyType?: 'message' | 'internal_comment' | 'none';
  /** The reply came within this many milliseconds of the message. */
  maxLatencyMs?: number;
}

/** One customer message of a test case, with the customer's attributes and what its reply must meet. */
export interface TestTurn {
  content: string;
  attributes?: Record<string, unknown>;
  expect?: TestExpectation;
}

/** A test case of an agent: customer turns and what the agent's replies must meet. */
export const testCases = pgTable(
  'test_cases',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id').notNull(),
    name: text('name').notNull(),
    turns: jsonb('turns').$type<TestTurn[]>().notNull(),
    /** Checked on the reply to the last turn. */
    expect: jsonb('expect').$type<TestExpectation>().notNull().default({}),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    /** The case calls the agent's actions for real (default: dry-run, as the rule test route does). */
    liveActions: boolean('live_actions').notNull().default(false),
    /** The conversation the case was made from, when it was. */
    fromConversationId: uuid('from_conversation_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
    updatedBy: uuid('updated_by'),
  },
  (t) => [
    unique('test_cases_workspace_id_id_unique').on(t.workspaceId, t.id),
    index('test_cases_agent_idx').on(t.workspaceId, t.agentId, t.createdAt, t.id),
    foreignKey({ columns: [t.workspaceId, t.agentId], foreignColumns: [agents.workspaceId, agents.id] }).onDelete('cascade'),
  ],
);

/** What a run answers with instead of what is live (ids of drafts, as the run was asked). */
export interface TestRunOverlay {
  iterationId?: string;
  promptDraftIds?: string[];
  articleDraftIds?: string[];
  ruleDraftIds?: string[];
  /** Refine with AI's proposed rule versions (an iteration's, or a gated iteration publish). */
  ruleVersionDraftIds?: string[];
}

/** The publish a gate run checked. */
export interface TestRunGate {
  kind: 'prompt_draft' | 'article_draft' | 'rule_draft' | 'fix_iteration';
  targetId: string;
  /** Cases that pass on what is live and fail with the drafts. */
  regressedCaseIds: string[];
  /** The publish went ahead despite regressions (`force: true`). */
  forced: boolean;
  blocked: boolean;
}

/**
 * A run of test cases: queued by the route (a job), by an agent's schedule, or by a publish's gate
 * (then run in the request, or as a job it waits for). Results are `test_run_results` rows.
 */
export const testRuns = pgTable(
  'test_runs',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id').notNull(),
    /** `queued`, `running`, `completed`, `failed`. */
    state: text('state').notNull(),
    /** `api`, `schedule` or `gate`. */
    trigger: text('trigger').notNull(),
    k: integer('k').notNull(),
    caseIds: uuid('case_ids').array().notNull(),
    /** Case names as they were when the run was made (a case deleted later still reads by name). */
    caseNames: jsonb('case_names').$type<Record<string, string>>().notNull().default({}),
    overlay: jsonb('overlay').$type<TestRunOverlay>(),
    gate: jsonb('gate').$type<TestRunGate>(),
    /** The engine answered deterministically: one run stands for all k. */
    deterministic: boolean('deterministic').notNull().default(false),
    passRate: text('pass_rate'),
    passKRate: text('pass_k_rate'),
    /** Case ids that passed all k runs of the previous comparable run and do not now. */
    regressedCaseIds: uuid('regressed_case_ids').array().notNull().default(sql`'{}'::uuid[]`),
    previousRunId: uuid('previous_run_id'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
  },
  (t) => [
    unique('test_runs_workspace_id_id_unique').on(t.workspaceId, t.id),
    index('test_runs_agent_idx').on(t.workspaceId, t.agentId, t.createdAt, t.id),
    index('test_runs_state_idx').on(t.state, t.updatedAt),
    foreignKey({ columns: [t.workspaceId, t.agentId], foreignColumns: [agents.workspaceId, agents.id] }).onDelete('cascade'),
  ],
);

/** A failed expectation of one run of a case. */
export interface TestFailure {
  run: number;
  /** 1-based turn whose reply failed it. */
  turn: number;
  /** The expectation, as the case states it (`contains "45 days"`). */
  expectation: string;
  /** What the reply did instead. */
  actual: string;
  reply: string | null;
  eventId: string | null;
}

/** One run (1..k) of one case in a test run. */
export const testRunResults = pgTable(
  'test_run_results',
  {
    workspaceId: uuid('workspace_id').notNull(),
    runId: uuid('run_id').notNull(),
    caseId: uuid('case_id').notNull(),
    attempt: integer('attempt').notNull(),
    passed: boolean('passed').notNull(),
    failures: jsonb('failures').$type<TestFailure[]>().notNull().default([]),
    conversationId: uuid('conversation_id'),
    latencyMs: integer('latency_ms').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('test_run_results_unique').on(t.workspaceId, t.runId, t.caseId, t.attempt),
    foreignKey({ columns: [t.workspaceId, t.runId], foreignColumns: [testRuns.workspaceId, testRuns.id] }).onDelete('cascade'),
  ],
);

/** An agent's scheduled test run (docs/testing.md): a cron expression in a time zone. */
export const testSchedules = pgTable(
  'test_schedules',
  {
    workspaceId: uuid('workspace_id').notNull(),
    agentId: uuid('agent_id').notNull(),
    cron: text('cron').notNull(),
    timezone: text('timezone').notNull().default('UTC'),
    k: integer('k').notNull().default(1),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('test_schedules_agent_unique').on(t.workspaceId, t.agentId),
    foreignKey({ columns: [t.workspaceId, t.agentId], foreignColumns: [agents.workspaceId, agents.id] }).onDelete('cascade'),
  ],
);
