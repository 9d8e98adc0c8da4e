import { sql } from 'drizzle-orm';
import { foreignKey, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { agents } from './agents.js';
import { workspaces } from './workspaces.js';

/**
 * Publishable widget keys (`pk_...`), one agent each. The key is not a secret (it sits in every page
 * that embeds the widget, and only works from `allowed_origins` for a visitor's rights), so it is
 * stored as it is and listed in full: the team can copy the embed snippet again at any time.
 */
export const widgetKeys = pgTable(
  'widget_keys',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id').notNull(),
    name: text('name').notNull(),
    key: text('key').notNull(),
    /** Origins (`scheme://host[:port]`) a browser may use the key from. */
    allowedOrigins: text('allowed_origins').array().notNull(),
    /** Requests per visitor per rate-limit window; null: PARLEY_WIDGET_VISITOR_RATE_LIMIT. */
    visitorRateLimit: integer('visitor_rate_limit'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    unique('widget_keys_key_unique').on(t.key),
    unique('widget_keys_workspace_id_id_unique').on(t.workspaceId, t.id),
    index('widget_keys_agent_idx').on(t.workspaceId, t.agentId, t.createdAt),
    index('widget_keys_origins_idx').using('gin', t.allowedOrigins),
    foreignKey({ columns: [t.workspaceId, t.agentId], foreignColumns: [agents.workspaceId, agents.id] }).onDelete('cascade'),
  ],
);

/**
 * A conversation a visitor started through a widget: its id is the conversation's (the
 * conversation row itself is written with the visitor's first message, so an opened widget nobody
 * wrote in is no conversation in the lists and analytics), the hash of its visitor token, and what
 * the visitor sent at the start.
 */
export const widgetConversations = pgTable(
  'widget_conversations',
  {
    id: uuid('id').primaryKey(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id').notNull(),
    /** The key it was started with (null once that key is deleted; the token still works). */
    widgetKeyId: uuid('widget_key_id'),
    tokenHash: text('token_hash').notNull(),
    /** `userAttributes` (and `locale`) given at the start, for the conversation's first message. */
    userAttributes: jsonb('user_attributes').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** When the first message wrote the conversation row; null before. */
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    unique('widget_conversations_workspace_id_id_unique').on(t.workspaceId, t.id),
    foreignKey({ columns: [t.workspaceId, t.agentId], foreignColumns: [agents.workspaceId, agents.id] }).onDelete('cascade'),
  ],
);
