import { sql } from 'drizzle-orm';
import {
  boolean,
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
import { agents } from './agents.js';
import { workspaces } from './workspaces.js';

/** Knowledge folders: an adjacency list; `parent_folder_id` null for a top-level folder. */
export const folders = pgTable(
  'folders',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    parentFolderId: uuid('parent_folder_id'),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
    updatedBy: uuid('updated_by'),
  },
  (t) => [
    unique('folders_workspace_id_id_unique').on(t.workspaceId, t.id),
    index('folders_workspace_parent_idx').on(t.workspaceId, t.parentFolderId),
    foreignKey({
      columns: [t.workspaceId, t.parentFolderId],
      foreignColumns: [t.workspaceId, t.id],
    }),
  ],
);

/** The content of an article that a version snapshot keeps. */
export interface ArticleSnapshot {
  title: string;
  mainKnowledge: string;
  agentInstruction: string;
  questions: string[];
  keywords: string[];
  escalation: boolean;
  active: boolean;
  public: boolean;
  parentFolderId: string;
  misc: Record<string, unknown>;
}

/** Articles, live and draft. A draft made from a live article points at it and its version. */
export const articles = pgTable(
  'articles',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    parentFolderId: uuid('parent_folder_id').notNull(),
    title: text('title').notNull(),
    mainKnowledge: text('main_knowledge').notNull(),
    agentInstruction: text('agent_instruction').notNull().default(''),
    questions: text('questions').array().notNull().default(sql`'{}'::text[]`),
    keywords: text('keywords').array().notNull().default(sql`'{}'::text[]`),
    escalation: boolean('escalation').notNull().default(false),
    misc: jsonb('misc').$type<Record<string, unknown>>().notNull().default({}),
    active: boolean('active').notNull().default(true),
    public: boolean('public').notNull().default(false),
    isDraft: boolean('is_draft').notNull().default(false),
    isDraftPublished: boolean('is_draft_published').notNull().default(false),
    originalArticleId: uuid('original_article_id'),
    originalArticleVersion: integer('original_article_version'),
    version: integer('version').notNull().default(1),
    origin: text('origin').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
    updatedBy: uuid('updated_by'),
  },
  (t) => [
    unique('articles_workspace_id_id_unique').on(t.workspaceId, t.id),
    index('articles_workspace_updated_idx').on(t.workspaceId, t.updatedAt, t.id),
    index('articles_workspace_folder_idx').on(t.workspaceId, t.parentFolderId),
    index('articles_workspace_original_idx').on(t.workspaceId, t.originalArticleId),
    foreignKey({ columns: [t.workspaceId, t.parentFolderId], foreignColumns: [folders.workspaceId, folders.id] }),
    foreignKey({
      columns: [t.workspaceId, t.originalArticleId],
      foreignColumns: [t.workspaceId, t.id],
    }),
  ],
);

/** Append-only snapshots of every version of an article. */
export const articleVersions = pgTable(
  'article_versions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    workspaceId: uuid('workspace_id').notNull(),
    articleId: uuid('article_id').notNull(),
    version: integer('version').notNull(),
    snapshot: jsonb('snapshot').$type<ArticleSnapshot>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
  },
  (t) => [
    unique('article_versions_article_version_unique').on(t.articleId, t.version),
    foreignKey({
      columns: [t.workspaceId, t.articleId],
      foreignColumns: [articles.workspaceId, articles.id],
    }).onDelete('cascade'),
  ],
);

/** Which folders each agent answers from (its assigned folders and their descendants). */
export const agentFolders = pgTable(
  'agent_folders',
  {
    workspaceId: uuid('workspace_id').notNull(),
    agentId: uuid('agent_id').notNull(),
    folderId: uuid('folder_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.agentId, t.folderId] }),
    index('agent_folders_folder_idx').on(t.workspaceId, t.folderId),
    foreignKey({ columns: [t.workspaceId, t.agentId], foreignColumns: [agents.workspaceId, agents.id] }).onDelete('cascade'),
    foreignKey({ columns: [t.workspaceId, t.folderId], foreignColumns: [folders.workspaceId, folders.id] }).onDelete('cascade'),
  ],
);

export type FolderRow = typeof folders.$inferSelect;
export type ArticleRow = typeof articles.$inferSelect;
export type ArticleVersionRow = typeof articleVersions.$inferSelect;
