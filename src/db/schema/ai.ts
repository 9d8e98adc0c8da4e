import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  foreignKey,
  primaryKey,
  index,
  integer,
  pgTable,
  real,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { articles } from './knowledge.js';
import { workspaces } from './workspaces.js';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * The full-text document of every article, kept by a trigger on `articles` (migration 0003):
 * title (weight A), questions (B), keywords (C) and body (D) in the `english` configuration, with
 * the token count of each field for BM25 length normalisation. A separate table so that reading
 * articles never carries their index.
 */
export const articleSearch = pgTable(
  'article_search',
  {
    articleId: uuid('article_id').primaryKey(),
    workspaceId: uuid('workspace_id').notNull(),
    document: tsvector('document').notNull(),
    /** Tokens in title, questions, keywords and body. */
    lengths: integer('lengths').array().notNull(),
  },
  (t) => [
    index('article_search_document_idx').using('gin', t.document),
    index('article_search_workspace_idx').on(t.workspaceId),
    foreignKey({ columns: [t.workspaceId, t.articleId], foreignColumns: [articles.workspaceId, articles.id] }).onDelete('cascade'),
  ],
);

/**
 * The inverted index of `article_search`: one row per article and lexeme with its number of
 * occurrences in title, questions, keywords and body, kept by a trigger on `article_search`
 * (migration 0009), its counts also in the primary key's leaves (migration 0023). Knowledge search
 * reads the rows of the query's lexemes only, from the index alone, so its cost grows
 * with how many articles hold those lexemes, not with the length of every matching article.
 */
export const articleTerms = pgTable(
  'article_terms',
  {
    workspaceId: uuid('workspace_id').notNull(),
    lexeme: text('lexeme').notNull(),
    articleId: uuid('article_id').notNull(),
    /** Occurrences in title, questions, keywords and body. */
    counts: integer('counts').array().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.lexeme, t.articleId] }),
    index('article_terms_article_idx').on(t.articleId),
    foreignKey({ columns: [t.articleId], foreignColumns: [articleSearch.articleId] }).onDelete('cascade'),
  ],
);

/**
 * Embeddings of articles for vector similarity, written when an embedding model is configured
 * (`knowledge.embed`). `contentHash` says which text the vector was made from; `articleVersion` is
 * the article version last checked, so only articles with a newer version are hashed again, and
 * only those whose text changed are embedded again.
 */
export const articleEmbeddings = pgTable(
  'article_embeddings',
  {
    articleId: uuid('article_id').primaryKey(),
    workspaceId: uuid('workspace_id').notNull(),
    model: text('model').notNull(),
    contentHash: text('content_hash').notNull(),
    embedding: real('embedding').array().notNull(),
    articleVersion: integer('article_version').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('article_embeddings_workspace_idx').on(t.workspaceId, t.model),
    foreignKey({ columns: [t.workspaceId, t.articleId], foreignColumns: [articles.workspaceId, articles.id] }).onDelete('cascade'),
  ],
);

/**
 * Knowledge-generation jobs (wire `backgroundJobId`). The id is the pg-boss job's id. The job
 * decides an operation within `restrictedOps` and records what it wrote in `hcArticleId`.
 */
export const knowledgeJobs = pgTable(
  'knowledge_jobs',
  {
    id: uuid('id').primaryKey(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** `sources`, `generated` or `inbox` (the request's origin). */
    origin: text('origin').notNull(),
    documentId: uuid('document_id'),
    hcEventId: uuid('hc_event_id'),
    /** The text to turn into knowledge; null when the job reads its source's paragraphs. */
    candidateKnowledge: text('candidate_knowledge'),
    instructions: text('instructions').notNull().default(''),
    allowedOps: text('allowed_ops').array().notNull(),
    botId: uuid('bot_id'),
    isDraft: boolean('is_draft').notNull(),
    status: text('status').notNull(),
    error: text('error').notNull().default(''),
    hcArticleId: uuid('hc_article_id'),
    operation: text('operation'),
    reason: text('reason'),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    /** The API key that queued the job (null: the operator or a job); the articles it writes are stamped with it. */
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('knowledge_jobs_workspace_idx').on(t.workspaceId, t.createdAt),
    index('knowledge_jobs_pending_idx')
      .on(t.status, t.updatedAt)
      .where(sql`${t.status} IN ('PENDING', 'IN_PROGRESS')`),
  ],
);

export type KnowledgeJobRow = typeof knowledgeJobs.$inferSelect;
