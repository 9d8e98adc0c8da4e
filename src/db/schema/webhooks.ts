import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { workspaces } from './workspaces.js';

/**
 * Webhook endpoints: where a workspace wants its events sent, which events, and the signing
 * secret (sealed with the secret box, `src/secrets.ts`; shown in clear once, at creation or
 * rotation). After a rotation the previous secret also signs until `previous_secret_expires_at`.
 * `failing_since` is the first failed attempt since the last success: an endpoint failing for three
 * days is switched off with `disabled_reason` (docs/webhooks.md).
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    events: text('events').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    secretSealed: text('secret_sealed').notNull(),
    previousSecretSealed: text('previous_secret_sealed'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true, mode: 'date' }),
    failingSince: timestamp('failing_since', { withTimezone: true, mode: 'date' }),
    disabledAt: timestamp('disabled_at', { withTimezone: true, mode: 'date' }),
    disabledReason: text('disabled_reason'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
    updatedBy: uuid('updated_by'),
  },
  (t) => [unique('webhook_endpoints_workspace_id_id_unique').on(t.workspaceId, t.id), index('webhook_endpoints_workspace_idx').on(t.workspaceId, t.createdAt)],
);

/**
 * One message to one endpoint and its attempts so far. `message_id` is the `webhook-id` header:
 * the same on every retry and on a redelivery (`redelivery_of`), so a receiver can drop duplicates.
 * `payload` is the exact JSON body that is signed and sent.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id').notNull(),
    endpointId: uuid('endpoint_id').notNull(),
    messageId: text('message_id').notNull(),
    eventType: text('event_type').notNull(),
    payload: text('payload').notNull(),
    /** `pending` (queued or waiting for a retry), `delivered`, `failed` (retries exhausted or endpoint disabled). */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true, mode: 'date' }),
    responseStatus: integer('response_status'),
    responseTimeMs: integer('response_time_ms'),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    redeliveryOf: uuid('redelivery_of'),
    isTest: boolean('is_test').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    unique('webhook_deliveries_workspace_id_id_unique').on(t.workspaceId, t.id),
    foreignKey({ columns: [t.workspaceId, t.endpointId], foreignColumns: [webhookEndpoints.workspaceId, webhookEndpoints.id] }).onDelete('cascade'),
    index('webhook_deliveries_endpoint_idx').on(t.workspaceId, t.endpointId, t.createdAt, t.id),
  ],
);
