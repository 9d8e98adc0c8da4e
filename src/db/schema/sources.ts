import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { articles } from './knowledge.js';
import { workspaces } from './workspaces.js';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

/**
 * Sources (wire `Document`): one record per web page, uploaded file or provider item. A web
 * source's `external_id` is its normalised URL, so one URL has one record per workspace.
 */
export const sources = pgTable(
  'sources',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    source: text('source').notNull(),
    externalId: text('external_id').notNull(),
    originalUrl: text('original_url').notNull(),
    /** Lower-case host name of a web source (the `domain` filter); null for other sources. */
    domain: text('domain'),
    title: text('title').notNull(),
    storageUrl: text('storage_url'),
    mimeType: text('mime_type').notNull().default(''),
    type: text('type'),
    english: boolean('english').notNull().default(true),
    baser: boolean('baser').notNull().default(false),
    success: boolean('success').notNull().default(false),
    error: text('error').notNull().default(''),
    paragraphs: jsonb('paragraphs').$type<string[]>().notNull().default([]),
    oldParagraphs: jsonb('old_paragraphs').$type<string[]>().notNull().default([]),
    /** Fingerprint of the paragraphs under the change rule (docs/sources.md). */
    contentFingerprint: text('content_fingerprint'),
    /** SHA-256 of the bytes last extracted: identical bytes are not extracted again. */
    bodyHash: text('body_hash'),
    etag: text('etag'),
    lastModified: text('last_modified'),
    linkedKnowledgeId: uuid('linked_knowledge_id'),
    linkedOperation: text('linked_operation'),
    linkedReason: text('linked_reason'),
    linkedJobId: uuid('linked_job_id'),
    linkedJobStatus: text('linked_job_status'),
    changed: boolean('changed').notNull().default(false),
    misc: jsonb('misc').$type<Record<string, unknown>>().notNull().default({}),
    /** The source's own re-sync recurrence (src/jobs/recurrence.ts); null follows its connection's, then the workspace's. */
    syncInterval: text('sync_interval'),
    /** When the schedule last queued a refresh of the source. */
    lastSyncAt: timestamp('last_sync_at', { withTimezone: true, mode: 'date' }),
    /** Ingestion jobs that failed in a row (0 after one completes): the schedule backs off on them. */
    syncFailures: integer('sync_failures').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    unique('sources_workspace_id_id_unique').on(t.workspaceId, t.id),
    unique('sources_workspace_source_external_unique').on(t.workspaceId, t.source, t.externalId),
    index('sources_workspace_order_idx').on(t.workspaceId, t.updatedAt, t.externalId, t.id),
    index('sources_workspace_linked_idx').on(t.workspaceId, t.linkedKnowledgeId),
    // DEFERRABLE INITIALLY DEFERRED in the migration (drizzle cannot say it): checked at commit, so the
    // knowledge module deletes articles and the sources module's `article.deleted` listener unlinks
    // their sources in the same transaction (src/modules/sources/sources.listeners.ts).
    foreignKey({
      name: 'sources_linked_knowledge_fk',
      columns: [t.workspaceId, t.linkedKnowledgeId],
      foreignColumns: [articles.workspaceId, articles.id],
    }),
    index('sources_pending_idx')
      .on(t.linkedJobStatus, t.updatedAt)
      .where(sql`${t.linkedJobStatus} IN ('PENDING', 'IN_PROGRESS')`),
  ],
);

/** The original bytes of an uploaded file source (deleted with the source). */
export const sourceFiles = pgTable(
  'source_files',
  {
    sourceId: uuid('source_id').primaryKey(),
    workspaceId: uuid('workspace_id').notNull(),
    filename: text('filename').notNull(),
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    data: bytea('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({ columns: [t.workspaceId, t.sourceId], foreignColumns: [sources.workspaceId, sources.id] }).onDelete(
      'cascade',
    ),
  ],
);

/** History of ingestion jobs: the id is also the queue job's id and the source's `linkedJobId`. */
export const sourceJobs = pgTable(
  'source_jobs',
  {
    id: uuid('id').primaryKey(),
    workspaceId: uuid('workspace_id').notNull(),
    sourceId: uuid('source_id').notNull(),
    /** `sync`: a refresh the source's re-sync schedule queued. */
    kind: text('kind').$type<'add' | 'refresh' | 'sync'>().notNull(),
    status: text('status').notNull(),
    error: text('error').notNull().default(''),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('source_jobs_source_idx').on(t.workspaceId, t.sourceId, t.createdAt),
    foreignKey({ columns: [t.workspaceId, t.sourceId], foreignColumns: [sources.workspaceId, sources.id] }).onDelete(
      'cascade',
    ),
  ],
);

export type SourceRow = typeof sources.$inferSelect;
export type NewSource = typeof sources.$inferInsert;
export type SourceJobRow = typeof sourceJobs.$inferSelect;

/**
 * A workspace's connection to a provider (Notion, Zendesk, Confluence, Google Drive): the
 * credentials sealed with the SecretBox (never answered, logged or put in job payloads), the API
 * base, and the account name the provider reported when the credentials were checked.
 */
export const providerConnections = pgTable(
  'provider_connections',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    /** The credentials as one sealed JSON object (src/secrets.ts). */
    sealedCredentials: text('sealed_credentials').notNull(),
    baseUrl: text('base_url').notNull(),
    account: text('account').notNull().default(''),
    /** The re-sync recurrence of the provider's sources that have none of their own; null follows the workspace's. */
    syncInterval: text('sync_interval'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.provider] })],
);

export type ProviderConnectionRow = typeof providerConnections.$inferSelect;
