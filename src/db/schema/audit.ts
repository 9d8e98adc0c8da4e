import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The audit log: one entry per write through the API, a job, the MCP server or the operator's CLI,
 * written in the transaction of the write it records (src/modules/audit, docs/audit.md). `seq` orders
 * entries (the keyset pages walk it); `workspace_id` is null only for the operator's actions outside
 * any workspace. No foreign key: an entry outlives what it names (a deleted article, a deleted
 * workspace's last entries, kept for the operator until retention removes them).
 * `changes` holds field names, never values: no secret and no article body is ever written here.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    workspaceId: uuid('workspace_id'),
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** `key` (an API key's request), `visitor` (a widget key's), `job`, `operator`. */
    actorKind: text('actor_kind').notNull(),
    /** The key id, the job id, or `operator`. */
    actorId: text('actor_id').notNull(),
    /** The key that acted, or that a job acts on behalf of; and its name when the entry was written. */
    keyId: uuid('key_id'),
    keyName: text('key_name'),
    /** `POST /v2/hc-articles/{id}/publish/public`, `job knowledge.generate`, `mcp propose_fix`, `cli key create`. */
    action: text('action').notNull(),
    resourceType: text('resource_type'),
    resourceId: text('resource_id'),
    /** `{ fields: [...] }`: the fields the request gave or the job's record; names only. */
    changes: jsonb('changes').notNull().default(sql`'{}'::jsonb`),
    requestId: text('request_id'),
  },
  (t) => [
    index('audit_log_workspace_seq_idx').on(t.workspaceId, t.seq),
    index('audit_log_workspace_resource_idx').on(t.workspaceId, t.resourceId),
    index('audit_log_occurred_idx').on(t.occurredAt),
  ],
);
