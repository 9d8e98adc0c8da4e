import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { queryRows } from '../../db/sql.js';

/** A live article whose embedding is missing, of another model, or older than its version. */
export interface PendingEmbedding {
  workspaceId: string;
  articleId: string;
}

/**
 * Live articles to (re)check for `model`, newest first, across workspaces by design (the background
 * job's view; `workspaceId` narrows it to one). The caller reads their content per workspace.
 */
export async function unscopedPendingEmbeddings(db: Db, model: string, limit: number, workspaceId?: string): Promise<PendingEmbedding[]> {
  return queryRows<PendingEmbedding>(
    db,
    sql`SELECT a.workspace_id AS "workspaceId", a.id AS "articleId"
      FROM articles a
      LEFT JOIN article_embeddings e ON e.workspace_id = a.workspace_id AND e.article_id = a.id
      WHERE a.is_draft = false ${workspaceId ? sql`AND a.workspace_id = ${workspaceId}` : sql``}
        AND (e.article_id IS NULL OR e.model <> ${model} OR e.article_version < a.version)
      ORDER BY a.updated_at DESC, a.id
      LIMIT ${limit}`,
  );
}

/** What an embedding is made from, with the embedding the article has now (if any). */
export interface EmbeddingSource {
  articleId: string;
  version: number;
  title: string;
  questions: string[];
  keywords: string[];
  mainKnowledge: string;
  model: string | null;
  contentHash: string | null;
}

/** The content of some live articles of one workspace, with their current embedding's model and hash. */
export async function findEmbeddingSources(db: Db, workspaceId: string, articleIds: string[]): Promise<EmbeddingSource[]> {
  if (articleIds.length === 0) return [];
  const ids = sql.join(
    articleIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  return queryRows<EmbeddingSource>(
    db,
    sql`SELECT a.id AS "articleId", a.version, a.title, a.questions, a.keywords, a.main_knowledge AS "mainKnowledge",
        e.model, e.content_hash AS "contentHash"
      FROM articles a
      LEFT JOIN article_embeddings e ON e.workspace_id = a.workspace_id AND e.article_id = a.id
      WHERE a.workspace_id = ${workspaceId} AND a.is_draft = false AND a.id IN (${ids})`,
  );
}

export interface NewEmbedding {
  articleId: string;
  version: number;
  contentHash: string;
  embedding: number[];
}

/**
 * Writes embeddings of one workspace's articles. An article deleted meanwhile is skipped, and an
 * embedding never replaces one made from a newer version of the article.
 */
export async function upsertEmbeddings(db: Db, workspaceId: string, model: string, rows: NewEmbedding[], now: Date): Promise<void> {
  if (rows.length === 0) return;
  const values = sql.join(
    rows.map(
      (r) =>
        sql`(${r.articleId}::uuid, ${r.contentHash}::text, ${`{${r.embedding.join(',')}}`}::real[], ${r.version}::integer)`,
    ),
    sql`, `,
  );
  await db.execute(
    sql`INSERT INTO article_embeddings (article_id, workspace_id, model, content_hash, embedding, article_version, updated_at)
      SELECT v.article_id, a.workspace_id, ${model}::text, v.content_hash, v.embedding, v.article_version, ${now.toISOString()}::timestamptz
      FROM (VALUES ${values}) AS v(article_id, content_hash, embedding, article_version)
      JOIN articles a ON a.workspace_id = ${workspaceId} AND a.id = v.article_id
      ON CONFLICT (article_id) DO UPDATE SET
        model = excluded.model, content_hash = excluded.content_hash, embedding = excluded.embedding,
        article_version = excluded.article_version, updated_at = excluded.updated_at
      WHERE article_embeddings.workspace_id = excluded.workspace_id
        AND article_embeddings.article_version <= excluded.article_version`,
  );
}

/** Records that these articles' embeddings (same model, same text) still hold for a newer version. */
export async function markEmbeddingsCurrent(
  db: Db,
  workspaceId: string,
  rows: { articleId: string; version: number }[],
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  const values = sql.join(
    rows.map((r) => sql`(${r.articleId}::uuid, ${r.version}::integer)`),
    sql`, `,
  );
  await db.execute(
    sql`UPDATE article_embeddings e SET article_version = v.version, updated_at = ${now.toISOString()}::timestamptz
      FROM (VALUES ${values}) AS v(article_id, version)
      WHERE e.workspace_id = ${workspaceId} AND e.article_id = v.article_id AND e.article_version < v.version`,
  );
}

/** The stored vectors of `model` for some articles of one workspace, with the hash of the text each was made from. */
export async function findEmbeddings(db: Db, workspaceId: string, model: string, articleIds: readonly string[]): Promise<Map<string, { contentHash: string; embedding: number[] }>> {
  if (articleIds.length === 0) return new Map();
  const ids = sql.join(
    articleIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const rows = await queryRows<{ articleId: string; contentHash: string; embedding: number[] }>(
    db,
    sql`SELECT article_id AS "articleId", content_hash AS "contentHash", embedding
      FROM article_embeddings
      WHERE workspace_id = ${workspaceId} AND model = ${model} AND article_id IN (${ids})`,
  );
  return new Map(rows.map((r) => [r.articleId, { contentHash: r.contentHash, embedding: r.embedding }]));
}
