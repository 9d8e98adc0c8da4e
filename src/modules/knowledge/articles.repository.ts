import { and, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { containsPattern } from '../../db/sql.js';
import { type ArticleRow, type ArticleSnapshot, type ArticleVersionRow, articles, articleVersions } from '../../db/schema/index.js';

export type { ArticleRow, ArticleVersionRow };
export type NewArticle = typeof articles.$inferInsert;

/** The content a version snapshot keeps. */
export function snapshotOf(row: ArticleRow): ArticleSnapshot {
  return {
    title: row.title,
    mainKnowledge: row.mainKnowledge,
    agentInstruction: row.agentInstruction,
    questions: row.questions,
    keywords: row.keywords,
    escalation: row.escalation,
    active: row.active,
    public: row.public,
    parentFolderId: row.parentFolderId,
    misc: row.misc,
  };
}

/** Inserts articles with their first version snapshot (batched: the tree import sends thousands). */
export async function insertArticles(db: Db, workspaceId: string, values: Omit<NewArticle, 'workspaceId'>[]): Promise<ArticleRow[]> {
  const rows: ArticleRow[] = [];
  for (let i = 0; i < values.length; i += 500) {
    const batch = await db
      .insert(articles)
      .values(values.slice(i, i + 500).map((v) => ({ ...v, workspaceId })))
      .returning();
    rows.push(...batch);
  }
  await insertVersions(db, workspaceId, rows);
  return rows;
}

/** Appends the current state of each row to its history. */
export async function insertVersions(db: Db, workspaceId: string, rows: ArticleRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    await db.insert(articleVersions).values(
      rows.slice(i, i + 500).map((row) => ({
        workspaceId,
        articleId: row.id,
        version: row.version,
        snapshot: snapshotOf(row),
        createdAt: row.updatedAt,
        createdBy: row.updatedBy,
      })),
    );
  }
}

export async function findArticle(
  db: Db,
  workspaceId: string,
  id: string,
  options: { lock?: boolean } = {},
): Promise<ArticleRow | undefined> {
  const query = db.select().from(articles).where(and(eq(articles.workspaceId, workspaceId), eq(articles.id, id)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/**
 * An unpublished draft of `live` at its current version that a knowledge job made from this
 * source (`misc.sourceId`) and that nobody has changed since (still at version 1), if any.
 */
export async function findOpenDraft(db: Db, workspaceId: string, live: ArticleRow, sourceId: string): Promise<ArticleRow | undefined> {
  const [row] = await db
    .select()
    .from(articles)
    .where(
      and(
        eq(articles.workspaceId, workspaceId),
        eq(articles.originalArticleId, live.id),
        eq(articles.originalArticleVersion, live.version),
        eq(articles.isDraft, true),
        eq(articles.isDraftPublished, false),
        eq(articles.version, 1),
        sql`${articles.misc}->>'sourceId' = ${sourceId}`,
      ),
    )
    .orderBy(desc(articles.updatedAt))
    .limit(1);
  return row;
}

export async function findArticlesByIds(db: Db, workspaceId: string, ids: string[]): Promise<ArticleRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(articles).where(and(eq(articles.workspaceId, workspaceId), inArray(articles.id, ids)));
}

export interface ArticleFilters {
  type?: 'live' | 'draft';
  parentFolderId?: string;
  origin?: string;
  q?: string;
  isDraftPublished?: boolean;
}

/** Position of the last row of a page, for keyset pagination on (updated_at, id) descending. */
export interface ArticleCursor {
  updatedAt: Date;
  id: string;
}

/** One page, newest change first; `limit + 1` rows are read to know whether more follow. */
export async function listArticles(
  db: Db,
  workspaceId: string,
  filters: ArticleFilters,
  limit: number,
  after?: ArticleCursor,
): Promise<ArticleRow[]> {
  const where: SQL[] = [eq(articles.workspaceId, workspaceId)];
  if (filters.type) where.push(eq(articles.isDraft, filters.type === 'draft'));
  if (filters.parentFolderId) where.push(eq(articles.parentFolderId, filters.parentFolderId));
  if (filters.origin) where.push(eq(articles.origin, filters.origin));
  if (filters.q) where.push(ilike(articles.title, containsPattern(filters.q)));
  if (filters.isDraftPublished !== undefined) where.push(eq(articles.isDraftPublished, filters.isDraftPublished));
  if (after) {
    const older = or(
      sql`${articles.updatedAt} < ${after.updatedAt.toISOString()}`,
      and(sql`${articles.updatedAt} = ${after.updatedAt.toISOString()}`, sql`${articles.id} < ${after.id}`),
    );
    if (older) where.push(older);
  }
  return db
    .select()
    .from(articles)
    .where(and(...where))
    .orderBy(desc(articles.updatedAt), desc(articles.id))
    .limit(limit + 1);
}

export async function updateArticle(
  db: Db,
  workspaceId: string,
  id: string,
  changes: Partial<NewArticle>,
): Promise<ArticleRow> {
  const [row] = await db
    .update(articles)
    .set(changes)
    .where(and(eq(articles.workspaceId, workspaceId), eq(articles.id, id)))
    .returning();
  if (!row) throw new Error('update returned no row');
  return row;
}

/**
 * Drafts made from articles that are about to be deleted keep their content and lose the link;
 * publishing one later creates a new live article.
 */
async function detachDrafts(db: Db, workspaceId: string, originalIds: string[]): Promise<void> {
  if (originalIds.length === 0) return;
  await db
    .update(articles)
    .set({ originalArticleId: null, originalArticleVersion: null })
    .where(and(eq(articles.workspaceId, workspaceId), inArray(articles.originalArticleId, originalIds)));
}

/**
 * Deletes articles with their history (the versions go by cascade); drafts made from them are kept
 * and unlinked, so publishing one later creates a new live article. Returns the deleted rows.
 */
export async function deleteArticles(db: Db, workspaceId: string, ids: string[]): Promise<ArticleRow[]> {
  if (ids.length === 0) return [];
  await detachDrafts(db, workspaceId, ids);
  return db.delete(articles).where(and(eq(articles.workspaceId, workspaceId), inArray(articles.id, ids))).returning();
}

export async function listVersions(
  db: Db,
  workspaceId: string,
  articleId: string,
): Promise<{ version: number; title: string; createdAt: Date; createdBy: string | null }[]> {
  return db
    .select({
      version: articleVersions.version,
      title: sql<string>`${articleVersions.snapshot}->>'title'`,
      createdAt: articleVersions.createdAt,
      createdBy: articleVersions.createdBy,
    })
    .from(articleVersions)
    .where(and(eq(articleVersions.workspaceId, workspaceId), eq(articleVersions.articleId, articleId)))
    .orderBy(desc(articleVersions.version));
}

export async function findVersion(
  db: Db,
  workspaceId: string,
  articleId: string,
  version: number,
): Promise<ArticleVersionRow | undefined> {
  const [row] = await db
    .select()
    .from(articleVersions)
    .where(
      and(
        eq(articleVersions.workspaceId, workspaceId),
        eq(articleVersions.articleId, articleId),
        eq(articleVersions.version, version),
      ),
    );
  return row;
}
