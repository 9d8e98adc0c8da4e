import { sql } from 'drizzle-orm';
import { foreignKey, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { workspaces } from './workspaces.js';

/** One section of a prompt. */
export interface PromptSectionValue {
  id: string;
  title: string;
  content: string;
  enabled: boolean;
}

/** A section of the channel prompt applies to one channel. */
export interface ChannelPromptSectionValue extends PromptSectionValue {
  channel: 'email' | 'chat';
}

/** The three prompts an agent is configured with. */
export interface PromptSet {
  hcPlanningPrompt: PromptSectionValue[];
  hcGuidelinePrompt: PromptSectionValue[];
  hcChannelPrompt: ChannelPromptSectionValue[];
}

/** Agents (wire `bots`). Deletion is soft: `deleted_at` hides the agent, its data stays. */
export const agents = pgTable(
  'agents',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Number of the latest saved prompt version; null while the agent uses the defaults. */
    promptVersion: integer('prompt_version'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    createdBy: uuid('created_by'),
    updatedBy: uuid('updated_by'),
  },
  (t) => [
    unique('agents_workspace_id_id_unique').on(t.workspaceId, t.id),
    index('agents_workspace_updated_idx').on(t.workspaceId, t.updatedAt),
  ],
);

/** Saved prompt versions of an agent: append-only, numbered from 1. */
export const promptVersions = pgTable(
  'prompt_versions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id').notNull(),
    agentId: uuid('agent_id').notNull(),
    version: integer('version').notNull(),
    prompts: jsonb('prompts').$type<PromptSet>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
    /** The draft this version was published from, when it was. */
    draftId: uuid('draft_id'),
  },
  (t) => [
    unique('prompt_versions_agent_version_unique').on(t.agentId, t.version),
    unique('prompt_versions_workspace_id_id_unique').on(t.workspaceId, t.id),
    foreignKey({ columns: [t.workspaceId, t.agentId], foreignColumns: [agents.workspaceId, agents.id] }).onDelete('cascade'),
  ],
);

/** Proposed prompt changes (by people or by Refine with AI), published into a new version. */
export const promptDrafts = pgTable(
  'prompt_drafts',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id').notNull(),
    agentId: uuid('agent_id').notNull(),
    /** `draft`, `published` or `discarded`. */
    status: text('status').notNull().default('draft'),
    /** Saved version the draft was based on; null when the agent had only the defaults. */
    baseVersion: integer('base_version'),
    prompts: jsonb('prompts').$type<PromptSet>().notNull(),
    note: text('note').notNull().default(''),
    origin: text('origin').notNull().default('API_CREATED'),
    publishedVersionId: uuid('published_version_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
    updatedBy: uuid('updated_by'),
  },
  (t) => [
    unique('prompt_drafts_workspace_id_id_unique').on(t.workspaceId, t.id),
    index('prompt_drafts_agent_idx').on(t.workspaceId, t.agentId, t.createdAt),
    foreignKey({ columns: [t.workspaceId, t.agentId], foreignColumns: [agents.workspaceId, agents.id] }).onDelete('cascade'),
  ],
);
