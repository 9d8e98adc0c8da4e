import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { agentFolders, agents, articles, type FolderRow, folders } from '../../db/schema/index.js';
import { queryRows } from '../../db/sql.js';

export type { FolderRow };
export type FolderWithBots = FolderRow & { botIds: string[] };

/**
 * Serialises changes to a workspace's folder structure (moves, deletes, imports) for the rest of
 * the transaction, so two concurrent moves cannot build a cycle between them.
 */
export async function lockFolderTree(db: Db, workspaceId: string): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`parley.folders:${workspaceId}`}, 0))`);
}

export async function insertFolders(db: Db, workspaceId: string, values: Omit<typeof folders.$inferInsert, 'workspaceId'>[]): Promise<FolderRow[]> {
  const rows: FolderRow[] = [];
  for (let i = 0; i < values.length; i += 500) {
    rows.push(...(await db.insert(folders).values(values.slice(i, i + 500).map((v) => ({ ...v, workspaceId }))).returning()));
  }
  return rows;
}

export async function findFolder(db: Db, workspaceId: string, id: string): Promise<FolderRow | undefined> {
  const [row] = await db.select().from(folders).where(and(eq(folders.workspaceId, workspaceId), eq(folders.id, id)));
  return row;
}

export async function updateFolder(
  db: Db,
  workspaceId: string,
  id: string,
  changes: Partial<typeof folders.$inferInsert>,
): Promise<FolderRow | undefined> {
  const [row] = await db
    .update(folders)
    .set(changes)
    .where(and(eq(folders.workspaceId, workspaceId), eq(folders.id, id)))
    .returning();
  return row;
}

/** Non-deleted agents each folder is assigned to, by folder id. */
export async function botIdsByFolder(db: Db, workspaceId: string, folderIds?: string[]): Promise<Map<string, string[]>> {
  const where = [eq(agentFolders.workspaceId, workspaceId), isNull(agents.deletedAt)];
  if (folderIds) {
    if (folderIds.length === 0) return new Map();
    where.push(inArray(agentFolders.folderId, folderIds));
  }
  const rows = await db
    .select({ folderId: agentFolders.folderId, agentId: agentFolders.agentId })
    .from(agentFolders)
    .innerJoin(agents, and(eq(agents.workspaceId, agentFolders.workspaceId), eq(agents.id, agentFolders.agentId)))
    .where(and(...where))
    .orderBy(asc(agentFolders.createdAt), asc(agentFolders.agentId));
  const map = new Map<string, string[]>();
  for (const row of rows) map.set(row.folderId, [...(map.get(row.folderId) ?? []), row.agentId]);
  return map;
}

/**
 * Every folder of the workspace, oldest first, then by title (folders of one import share their
 * creation time); the snapshot nests them in memory.
 */
export async function listFolders(db: Db, workspaceId: string): Promise<FolderRow[]> {
  return db
    .select()
    .from(folders)
    .where(eq(folders.workspaceId, workspaceId))
    .orderBy(asc(folders.createdAt), sql`lower(${folders.title}) COLLATE "C"`, sql`${folders.title} COLLATE "C"`, asc(folders.id));
}

/** Whether `folderId` is `candidateId` or one of its ancestors (moving it there makes a cycle). */
export async function isSelfOrAncestor(db: Db, workspaceId: string, folderId: string, candidateId: string): Promise<boolean> {
  const rows = await queryRows<{ found: number }>(
    db,
    sql`WITH RECURSIVE up(id, parent_folder_id) AS (
          SELECT id, parent_folder_id FROM folders WHERE workspace_id = ${workspaceId} AND id = ${candidateId}
          UNION ALL
          SELECT f.id, f.parent_folder_id FROM folders f JOIN up ON f.id = up.parent_folder_id
          WHERE f.workspace_id = ${workspaceId}
        )
        SELECT 1 AS found FROM up WHERE id = ${folderId} LIMIT 1`,
  );
  return rows.length > 0;
}

/** The folder and all folders below it. */
export async function subtreeIds(db: Db, workspaceId: string, rootId: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`WITH RECURSIVE down(id) AS (
          SELECT id FROM folders WHERE workspace_id = ${workspaceId} AND id = ${rootId}
          UNION ALL
          SELECT f.id FROM folders f JOIN down ON f.parent_folder_id = down.id WHERE f.workspace_id = ${workspaceId}
        )
        SELECT id FROM down`,
  );
  return rows.map((r) => r.id);
}

export async function countChildren(db: Db, workspaceId: string, folderId: string): Promise<{ folders: number; articles: number }> {
  const [row] = await queryRows<{ folders: number; articles: number }>(
    db,
    sql`SELECT
          (SELECT count(*)::int FROM folders WHERE workspace_id = ${workspaceId} AND parent_folder_id = ${folderId}) AS folders,
          (SELECT count(*)::int FROM articles WHERE workspace_id = ${workspaceId} AND parent_folder_id = ${folderId}) AS articles`,
  );
  return row ?? { folders: 0, articles: 0 };
}

export async function articleIdsInFolders(db: Db, workspaceId: string, folderIds: string[]): Promise<string[]> {
  if (folderIds.length === 0) return [];
  const rows = await db
    .select({ id: articles.id })
    .from(articles)
    .where(and(eq(articles.workspaceId, workspaceId), inArray(articles.parentFolderId, folderIds)));
  return rows.map((r) => r.id);
}

export async function deleteFolders(db: Db, workspaceId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.delete(folders).where(and(eq(folders.workspaceId, workspaceId), inArray(folders.id, ids)));
}

/** Which of `ids` are folders of the workspace. */
export async function existingFolderIds(db: Db, workspaceId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: folders.id })
    .from(folders)
    .where(and(eq(folders.workspaceId, workspaceId), inArray(folders.id, ids)));
  return new Set(rows.map((r) => r.id));
}

/** Which of `ids` are non-deleted agents of the workspace. */
export async function existingAgentIds(db: Db, workspaceId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.workspaceId, workspaceId), inArray(agents.id, ids), isNull(agents.deletedAt)));
  return new Set(rows.map((r) => r.id));
}

export async function addJunctions(db: Db, workspaceId: string, pairs: { folderId: string; agentId: string }[], now: Date) {
  if (pairs.length === 0) return;
  await db
    .insert(agentFolders)
    .values(pairs.map((p) => ({ workspaceId, folderId: p.folderId, agentId: p.agentId, createdAt: now })))
    .onConflictDoNothing();
}

export async function removeJunctions(db: Db, workspaceId: string, pairs: { folderId: string; agentId: string }[]) {
  if (pairs.length === 0) return;
  await db.execute(
    sql`DELETE FROM agent_folders WHERE workspace_id = ${workspaceId} AND (folder_id, agent_id) IN (${sql.join(
      pairs.map((p) => sql`(${p.folderId}::uuid, ${p.agentId}::uuid)`),
      sql`, `,
    )})`,
  );
}

/** Folders an agent is assigned to directly. */
export async function assignedFolderIds(db: Db, workspaceId: string, agentId: string): Promise<string[]> {
  const rows = await db
    .select({ folderId: agentFolders.folderId })
    .from(agentFolders)
    .where(and(eq(agentFolders.workspaceId, workspaceId), eq(agentFolders.agentId, agentId)));
  return rows.map((r) => r.folderId);
}

/** An article summary as the snapshot shows it (built by the database, see below). */
export interface ArticleSummaryRow {
  id: string;
  title: string;
  active: boolean;
  public: boolean;
  escalation: boolean;
  isDraft: boolean;
  originalArticleId: string | null;
  version: number;
  origin: string;
  /** ISO 8601 in UTC with milliseconds, as every timestamp on the wire. */
  updatedAt: string;
}

export interface FolderArticles {
  folderId: string;
  latest: Date;
  articles: ArticleSummaryRow[];
}

/**
 * Summaries of the live articles and open drafts in the given folders (all folders when omitted),
 * grouped by folder and ordered by title (byte order of the lower-cased title, the same on every
 * database whatever its collation). One query, and the database builds each folder's list as
 * one JSON value: decoding 10,000 rows column by column cost more than the rest of the snapshot.
 */
export async function articleSummariesByFolder(db: Db, workspaceId: string, folderIds?: string[]): Promise<FolderArticles[]> {
  if (folderIds && folderIds.length === 0) return [];
  const inFolders = folderIds ? sql`AND ${inArray(articles.parentFolderId, folderIds)}` : sql``;
  const rows = await queryRows<{ folderId: string; latest: Date | string; articles: ArticleSummaryRow[] | string }>(
    db,
    sql`SELECT parent_folder_id AS "folderId", max(updated_at) AS latest,
          json_agg(json_build_object(
            'id', id, 'title', title, 'active', active, 'public', public, 'escalation', escalation,
            'isDraft', is_draft, 'originalArticleId', original_article_id, 'version', version, 'origin', origin,
            'updatedAt', to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
          ) ORDER BY lower(title) COLLATE "C", title COLLATE "C", id) AS articles
        FROM articles
        WHERE workspace_id = ${workspaceId} AND is_draft_published = false ${inFolders}
        GROUP BY parent_folder_id`,
  );
  return rows.map((row) => ({
    folderId: row.folderId,
    latest: new Date(row.latest),
    articles: typeof row.articles === 'string' ? (JSON.parse(row.articles) as ArticleSummaryRow[]) : row.articles,
  }));
}

/** A folder a new article may go into: its path of titles from the top and what it holds. */
export interface FolderChoice {
  id: string;
  path: string[];
  description: string;
  articleTitles: string[];
}

const TITLES_PER_FOLDER = 20;

/** Which folders a search or a job sees: an agent's (assigned and below), a folder's subtree, or both at once. */
export interface FolderScope {
  agentId?: string | undefined;
  folderId?: string | undefined;
}

/**
 * SQL of the common table expression `scope_folders(id, path, description)`: the folders whose own
 * and every ancestor's `active` is true (an inactive folder hides its whole subtree), each with its
 * path of titles from the top. With an agent, only those of them the agent answers from: its
 * assigned folders and their descendants; with a folder, only that folder and its descendants (both:
 * the folders in both). Both knowledge search and knowledge generation use it, so what an agent can
 * find and where a job may write agree. Needs `WITH RECURSIVE`.
 */
export function scopeFoldersCte(workspaceId: string, scope: FolderScope = {}): SQL {
  const { agentId, folderId } = scope;
  const assigned = (column: SQL) =>
    agentId
      ? sql`${column} IN (SELECT folder_id FROM agent_folders WHERE workspace_id = ${workspaceId} AND agent_id = ${agentId})`
      : sql`true`;
  const within = (column: SQL) => (folderId ? sql`${column} = ${folderId}` : sql`true`);
  return sql`active_tree AS (
      SELECT f.id, ARRAY[f.title] AS path, f.description, ${assigned(sql`f.id`)} AS in_scope, ${within(sql`f.id`)} AS in_folder
      FROM folders f WHERE f.workspace_id = ${workspaceId} AND f.active AND f.parent_folder_id IS NULL
      UNION ALL
      SELECT c.id, t.path || c.title, c.description, t.in_scope OR ${assigned(sql`c.id`)}, t.in_folder OR ${within(sql`c.id`)}
      FROM folders c JOIN active_tree t ON c.parent_folder_id = t.id
      WHERE c.workspace_id = ${workspaceId} AND c.active AND cardinality(t.path) < 64
    ),
    scope_folders AS (SELECT id, path, description FROM active_tree WHERE in_scope AND in_folder)`;
}

/** The folders a job may add an article to (scopeFoldersCte), with the titles of some of their articles (live, or drafts not yet published: a template's drafts say what a folder is for). */
export async function folderChoices(db: Db, workspaceId: string, agentId?: string): Promise<FolderChoice[]> {
  const rows = await queryRows<{ id: string; path: string[]; description: string; titles: string[] | null }>(
    db,
    sql`WITH RECURSIVE ${scopeFoldersCte(workspaceId, { agentId })}
        SELECT s.id, s.path, s.description,
          (SELECT array_agg(x.title) FROM (
             SELECT a.title FROM ${articles} a
             WHERE a.workspace_id = ${workspaceId} AND a.parent_folder_id = s.id AND a.is_draft_published = false
             ORDER BY a.updated_at DESC LIMIT ${TITLES_PER_FOLDER}) x) AS titles
        FROM scope_folders s`,
  );
  return rows
    .map((r) => ({ id: r.id, path: r.path, description: r.description, articleTitles: r.titles ?? [] }))
    .sort((a, b) => a.path.join('\u0000').localeCompare(b.path.join('\u0000')));
}

/** Titles of folders by id (any state). */
export async function folderTitlesByIds(db: Db, workspaceId: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: folders.id, title: folders.title })
    .from(folders)
    .where(and(eq(folders.workspaceId, workspaceId), inArray(folders.id, [...ids])));
  return new Map(rows.map((r) => [r.id, r.title]));
}

/** Each folder with the folders above it (itself first, then its parent, up to the root). */
export async function folderAncestry(db: Db, workspaceId: string, ids: readonly string[]): Promise<Map<string, string[]>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ start: string; id: string; depth: number }>(
    db,
    sql`WITH RECURSIVE up AS (
          SELECT f.id AS start, f.id, f.parent_folder_id, 0 AS depth FROM folders f
          WHERE f.workspace_id = ${workspaceId} AND f.id = ANY(${sql.param([...ids])}::uuid[])
          UNION ALL
          SELECT up.start, p.id, p.parent_folder_id, up.depth + 1 FROM folders p JOIN up ON p.id = up.parent_folder_id
          WHERE p.workspace_id = ${workspaceId} AND up.depth < 64
        )
        SELECT start, id, depth FROM up ORDER BY start, depth`,
  );
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.start, [...(out.get(r.start) ?? []), r.id]);
  return out;
}

/** The agents assigned one of these folders. */
export async function agentsOfFolders(db: Db, workspaceId: string, folderIds: readonly string[]): Promise<string[]> {
  if (folderIds.length === 0) return [];
  const rows = await db
    .selectDistinct({ agentId: agentFolders.agentId })
    .from(agentFolders)
    .where(and(eq(agentFolders.workspaceId, workspaceId), inArray(agentFolders.folderId, [...folderIds])));
  return rows.map((r) => r.agentId).sort();
}
