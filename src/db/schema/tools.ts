import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { agents } from './agents.js';
import { workspaces } from './workspaces.js';

/** A declared input of an action or attribute. */
export interface ToolInputField {
  name: string;
  type: 'string' | 'number' | 'boolean';
  required: boolean;
  description: string;
}

/** A declared output of an action or attribute. */
export interface ToolOutputField {
  name: string;
  type: 'string' | 'number' | 'boolean';
}

/**
 * Actions (`always_get` false: called from rule flows) and attributes (`always_get` true: run for
 * every conversation of their agents); the wire `hc-tools`. Their HTTP calls are `data_steps`.
 */
export const tools = pgTable(
  'tools',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    alwaysGet: boolean('always_get').notNull().default(false),
    source: text('source').notNull(),
    inputFields: jsonb('input_fields').$type<ToolInputField[]>().notNull().default([]),
    outputFields: jsonb('output_fields').$type<ToolOutputField[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
    updatedBy: uuid('updated_by'),
  },
  (t) => [
    unique('tools_workspace_id_id_unique').on(t.workspaceId, t.id),
    index('tools_workspace_idx').on(t.workspaceId, t.alwaysGet, t.createdAt),
  ],
);

/** The agents an action or attribute is assigned to. */
export const toolAgents = pgTable(
  'tool_agents',
  {
    workspaceId: uuid('workspace_id').notNull(),
    toolId: uuid('tool_id').notNull(),
    agentId: uuid('agent_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.toolId, t.agentId] }),
    index('tool_agents_agent_idx').on(t.workspaceId, t.agentId),
    foreignKey({ columns: [t.workspaceId, t.toolId], foreignColumns: [tools.workspaceId, tools.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.workspaceId, t.agentId], foreignColumns: [agents.workspaceId, agents.id] }).onDelete('cascade'),
  ],
);

/**
 * External API call steps (the wire `Data Step`). Header and body values marked `hide` are stored
 * sealed (AES-256-GCM, `src/secrets.ts`) as `{ hide: true, sealed }`, never in clear.
 */
export const dataSteps = pgTable(
  'data_steps',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** The action or attribute whose chain the step belongs to; null for a step not yet attached. */
    toolId: uuid('tool_id'),
    name: text('name').notNull(),
    stepNumber: integer('step_number').notNull().default(1),
    requestMethod: text('request_method').notNull(),
    requestUrl: text('request_url').notNull(),
    requestHeaders: jsonb('request_headers').$type<Record<string, unknown>>().notNull().default({}),
    requestBody: jsonb('request_body').$type<unknown>(),
    responseMapping: jsonb('response_mapping').$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
    updatedBy: uuid('updated_by'),
  },
  (t) => [
    unique('data_steps_workspace_id_id_unique').on(t.workspaceId, t.id),
    index('data_steps_tool_idx').on(t.workspaceId, t.toolId, t.stepNumber),
    foreignKey({ columns: [t.workspaceId, t.toolId], foreignColumns: [tools.workspaceId, tools.id] }).onDelete('cascade'),
  ],
);
