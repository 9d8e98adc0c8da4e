import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { agents } from './agents.js';
import { workspaces } from './workspaces.js';

/**
 * The agent's behaviour: tags, reply rules, intent and business rules with versions, guardrails.
 * The languages stored in the JSON columns (conditions, flows, guardrail configs) are defined and
 * validated by `src/evaluators/` (docs/rules.md); the tables store them as given.
 */

/**
 * Tag groups. `workspace_id` is null for Parley's read-only system groups (Conversation Status,
 * Escalation Reason), which every workspace sees; their ids are fixed in the migration.
 */
export const tagGroups = pgTable(
  'tag_groups',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    prompt: text('prompt').notNull().default(''),
    multiselect: boolean('multiselect').notNull().default(false),
    mandatory: boolean('mandatory').notNull().default(false),
    isOutputTagGroup: boolean('is_output_tag_group').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
    updatedBy: uuid('updated_by'),
  },
  (t) => [
    unique('tag_groups_workspace_id_id_unique').on(t.workspaceId, t.id),
    index('tag_groups_workspace_idx').on(t.workspaceId, t.createdAt),
  ],
);

/** Tags; names are unique per group, case-insensitively. System tags have a null `workspace_id`. */
export const tags = pgTable(
  'tags',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    tagGroupId: uuid('tag_group_id')
      .notNull()
      .references(() => tagGroups.id, { onDelete: 'cascade' }),
    tagName: text('tag_name').notNull(),
    tagDescription: text('tag_description').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
    updatedBy: uuid('updated_by'),
  },
  (t) => [
    uniqueIndex('tags_group_name_unique').on(t.tagGroupId, sql`lower(${t.tagName})`),
    index('tags_workspace_group_idx').on(t.workspaceId, t.tagGroupId),
    // A workspace's tag sits in a group of the same workspace (system tags have no workspace).
    foreignKey({ columns: [t.workspaceId, t.tagGroupId], foreignColumns: [tagGroups.workspaceId, tagGroups.id] }).onDelete('cascade'),
  ],
);

/** Reply rules: one slot per workspace and reply type (`NO_REPLY`, `INTERNAL_COMMENT`, `DIRECT_REPLY`). */
export const replyRules = pgTable(
  'reply_rules',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    replyType: text('reply_type').notNull(),
    conditions: jsonb('conditions').$type<unknown[]>().notNull(),
    isEnabled: boolean('is_enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
    updatedBy: uuid('updated_by'),
  },
  (t) => [unique('reply_rules_workspace_type_unique').on(t.workspaceId, t.replyType)],
);

/**
 * Intent and business rules. A rule is a draft (`DRAFT`, no versions, no agents) until published;
 * each published change appends a `rule_versions` row and moves `version`/`current_version_id`.
 */
export const rules = pgTable(
  'rules',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** `intent` or `business`. */
    type: text('type').notNull(),
    /** `DRAFT` or `PUBLISHED`. */
    status: text('status').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    source: text('source').notNull(),
    triggerType: text('trigger_type').notNull(),
    inputSchema: jsonb('input_schema').$type<Record<string, unknown>>().notNull().default({}),
    /** The rule flow (src/evaluators/flow.ts); null for business rules. */
    flowConfig: jsonb('flow_config').$type<Record<string, unknown>>(),
    /** What a draft was generated from, and the refinements since (a draft's history in words). */
    behaviorInstructions: text('behavior_instructions'),
    /**
     * The parts of a draft's instructions that drafting or refining did not turn into the flow: a
     * draft with any publishes only when the request accepts them (docs/rules.md).
     */
    draftWarnings: jsonb('draft_warnings').$type<RuleDraftWarning[]>().notNull().default([]),
    /** Number of the current published version; null for a draft. */
    version: integer('version'),
    currentVersionId: uuid('current_version_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
    updatedBy: uuid('updated_by'),
  },
  (t) => [
    unique('rules_workspace_id_id_unique').on(t.workspaceId, t.id),
    index('rules_workspace_type_idx').on(t.workspaceId, t.type, t.status, t.updatedAt),
  ],
);

/** A part of a draft's instructions not turned into its flow: the exact words, and why. */
export interface RuleDraftWarning {
  fragment: string;
  message: string;
}

/** The content of a rule that a version keeps (the specification's version `item`, minus ids and times). */
export interface RuleVersionItem {
  name: string;
  description: string;
  status: string;
  source: string;
  triggerType: string;
  botIds: string[];
  inputSchema: Record<string, unknown>;
  flowConfig: Record<string, unknown> | null;
}

/** Published versions of a rule: append-only snapshots, numbered from 1. */
export const ruleVersions = pgTable(
  'rule_versions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id').notNull(),
    ruleId: uuid('rule_id').notNull(),
    version: integer('version').notNull(),
    item: jsonb('item').$type<RuleVersionItem>().notNull(),
    /** The version this one restored, when it was made by a restore. */
    restoredFromVersionId: uuid('restored_from_version_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
  },
  (t) => [
    unique('rule_versions_rule_version_unique').on(t.ruleId, t.version),
    unique('rule_versions_workspace_id_id_unique').on(t.workspaceId, t.id),
    foreignKey({ columns: [t.workspaceId, t.ruleId], foreignColumns: [rules.workspaceId, rules.id] }).onDelete('cascade'),
  ],
);

/** The agents a published rule applies to. */
export const ruleAgents = pgTable(
  'rule_agents',
  {
    workspaceId: uuid('workspace_id').notNull(),
    ruleId: uuid('rule_id').notNull(),
    agentId: uuid('agent_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.ruleId, t.agentId] }),
    index('rule_agents_agent_idx').on(t.workspaceId, t.agentId),
    foreignKey({ columns: [t.workspaceId, t.ruleId], foreignColumns: [rules.workspaceId, rules.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.workspaceId, t.agentId], foreignColumns: [agents.workspaceId, agents.id] }).onDelete('cascade'),
  ],
);

/** Guardrails: checks on the customer's message (`input`) or the agent's answer (`output`). */
export const guardrails = pgTable(
  'guardrails',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    stage: text('stage').notNull(),
    action: text('action').notNull(),
    config: jsonb('config').$type<Record<string, unknown>>().notNull(),
    isEnabled: boolean('is_enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
    updatedBy: uuid('updated_by'),
  },
  (t) => [
    unique('guardrails_workspace_id_id_unique').on(t.workspaceId, t.id),
    index('guardrails_workspace_idx').on(t.workspaceId, t.createdAt),
  ],
);

/** The agents a guardrail applies to. */
export const guardrailAgents = pgTable(
  'guardrail_agents',
  {
    workspaceId: uuid('workspace_id').notNull(),
    guardrailId: uuid('guardrail_id').notNull(),
    agentId: uuid('agent_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.guardrailId, t.agentId] }),
    index('guardrail_agents_agent_idx').on(t.workspaceId, t.agentId),
    foreignKey({ columns: [t.workspaceId, t.guardrailId], foreignColumns: [guardrails.workspaceId, guardrails.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.workspaceId, t.agentId], foreignColumns: [agents.workspaceId, agents.id] }).onDelete('cascade'),
  ],
);
