import { authorOf, emit, inTransaction, type WorkspaceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import type { ArticleSnapshot } from '../../db/schema/index.js';
import { publishRequest } from '../../events/events.js';
import { AppError } from '../../http/errors.js';
import {
  type ArticleCursor,
  type ArticleFilters,
  type ArticleRow,
  type ArticleVersionRow,
  deleteArticles as deleteArticleRows,
  findArticle,
  findArticlesByIds,
  findOpenDraft as findOpenDraftRow,
  findVersion,
  insertArticles,
  insertVersions,
  listArticles as listArticleRows,
  listVersions,
  type NewArticle,
  updateArticle,
} from './articles.repository.js';
import type { ArticleOrigin } from './articles.schemas.js';
import { authored } from './actor.js';
import { findFolder } from './folders.repository.js';


/** The fields every write of an article's content carries. */
/** A folder an article or folder is put into (folders.service.ts checks folders with it too): 400 (it is named in the body) when not in the workspace. */
export async function requireParentFolder(db: Db, workspaceId: string, parentId: string): Promise<void> {
  if (!(await findFolder(db, workspaceId, parentId))) {
    throw new AppError('bad_request', `parentFolderId: folder ${parentId} not found in this workspace`);
  }
}

export type ArticleContent = Pick<
  ArticleSnapshot,
  'title' | 'mainKnowledge' | 'agentInstruction' | 'questions' | 'keywords' | 'escalation'
>;

export interface NewArticleInput extends ArticleContent {
  parentFolderId: string;
  isDraft: boolean;
  origin?: ArticleOrigin;
  active?: boolean;
  public?: boolean;
  misc?: Record<string, unknown>;
}

/** Inserts a new article at version 1, with that version in its history. */
async function insertNewArticle(
  ctx: WorkspaceContext,
  db: Db,
  values: Omit<NewArticle, 'workspaceId' | 'version' | 'createdAt' | 'updatedAt' | 'createdBy' | 'updatedBy'>,
): Promise<ArticleRow> {
  const [row] = await insertArticles(db, ctx.workspaceId, [{ ...values, version: 1, ...authored(ctx) }]);
  if (!row) throw new Error('insert returned no row');
  return row;
}

async function requireArticle(db: Db, workspaceId: string, id: string, lock = false): Promise<ArticleRow> {
  const row = await findArticle(db, workspaceId, id, { lock });
  if (!row) throw new AppError('not_found', 'article not found');
  return row;
}

/** Creates a live article or a draft, with version 1 in its history. */
export async function createArticle(ctx: WorkspaceContext, input: NewArticleInput): Promise<ArticleRow> {
  const { origin, active, public: isPublic, misc, ...fields } = input;
  return inTransaction(ctx, async ({ db: tx }) => {
    await requireParentFolder(tx, ctx.workspaceId, input.parentFolderId);
    return insertNewArticle(ctx, tx, {
      ...fields,
      active: active ?? true,
      public: isPublic ?? false,
      misc: misc ?? {},
      origin: origin ?? 'API_CREATED',
    });
  });
}

export interface ArticlePage {
  rows: ArticleRow[];
  hasMore: boolean;
  nextCursor: string | null;
}

function encodeCursor(row: ArticleRow): string {
  return Buffer.from(`${row.updatedAt.toISOString()}|${row.id}`).toString('base64url');
}

const CURSOR_PATTERN = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

function decodeCursor(cursor: string): ArticleCursor {
  const match = CURSOR_PATTERN.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const updatedAt = new Date(match?.[1] ?? '');
  const id = match?.[2];
  // Round-tripping rejects dates that only look valid (year 0000, February 30).
  if (!id || Number.isNaN(updatedAt.getTime()) || updatedAt.toISOString() !== match?.[1] || updatedAt.getUTCFullYear() < 1) {
    throw new AppError('bad_request', 'query.cursor: malformed cursor; pass nextCursor of the previous page');
  }
  return { updatedAt, id };
}

/**
 * A page of articles, most recently changed first; `nextCursor` continues after its last row.
 * `type=draft` means the drafts still open for review: a published draft is history, listed only
 * when `isDraftPublished=true` asks for it.
 */
export async function listArticles(
  ctx: WorkspaceContext,
  filters: ArticleFilters,
  limit: number,
  cursor?: string,
): Promise<ArticlePage> {
  const after = cursor ? decodeCursor(cursor) : undefined;
  const open = filters.type === 'draft' && filters.isDraftPublished === undefined ? { isDraftPublished: false } : {};
  const rows = await listArticleRows(ctx.db, ctx.workspaceId, { ...filters, ...open }, limit, after);
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, hasMore, nextCursor: hasMore && last ? encodeCursor(last) : null };
}

/** An article (live or draft) of the workspace, or undefined; `lock` holds it until the transaction ends. */
export async function getArticle(ctx: WorkspaceContext, id: string, options: { lock?: boolean } = {}): Promise<ArticleRow | undefined> {
  return findArticle(ctx.db, ctx.workspaceId, id, options);
}

/** The open draft of this version of a live article that a source's job made and nobody edited since. */
export async function findOpenDraft(ctx: WorkspaceContext, live: ArticleRow, sourceId: string): Promise<ArticleRow | undefined> {
  return findOpenDraftRow(ctx.db, ctx.workspaceId, live, sourceId);
}

/** Articles by id in the order asked; ids not in the workspace are skipped. */
export async function getArticlesByIds(ctx: WorkspaceContext, ids: string[]): Promise<ArticleRow[]> {
  const rows = await findArticlesByIds(ctx.db, ctx.workspaceId, [...new Set(ids)]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return [...new Set(ids)].map((id) => byId.get(id)).filter((r): r is ArticleRow => r !== undefined);
}

/** Applies changes as the next version and appends it to the history. */
async function saveVersion(ctx: WorkspaceContext, db: Db, current: ArticleRow, changes: Partial<ArticleRow>): Promise<ArticleRow> {
  const row = await updateArticle(db, ctx.workspaceId, current.id, {
    ...changes,
    version: current.version + 1,
    updatedAt: ctx.clock.now(),
    updatedBy: authorOf(ctx),
  });
  await insertVersions(db, ctx.workspaceId, [row]);
  return row;
}

function requireEditable(row: ArticleRow): void {
  if (row.isDraft && row.isDraftPublished) throw new AppError('conflict', 'draft is already published and can no longer change');
}

/** Updates content (a live article or an open draft) as a new version. */
export async function updateArticleContent(
  ctx: WorkspaceContext,
  id: string,
  input: ArticleContent & { active?: boolean; public?: boolean },
): Promise<ArticleRow> {
  return inTransaction(ctx, async ({ db: tx }) => {
    const current = await requireArticle(tx, ctx.workspaceId, id, true);
    requireEditable(current);
    return saveVersion(ctx, tx, current, {
      ...input,
      active: input.active ?? current.active,
      public: input.public ?? current.public,
    });
  });
}

/** A draft of a live article, recording the version it was made from. */
export async function createDraftFromLive(
  ctx: WorkspaceContext,
  id: string,
  input: ArticleContent & { active?: boolean; public?: boolean },
  origin: ArticleOrigin = 'API_CREATED',
  misc: Record<string, unknown> = {},
): Promise<ArticleRow> {
  const { active, public: isPublic, ...content } = input;
  return inTransaction(ctx, async ({ db: tx }) => {
    const live = await requireArticle(tx, ctx.workspaceId, id);
    if (live.isDraft) throw new AppError('bad_request', 'article is a draft; drafts are made from live articles');
    return insertNewArticle(ctx, tx, {
      parentFolderId: live.parentFolderId,
      ...content,
      active: active ?? live.active,
      public: isPublic ?? live.public,
      misc,
      isDraft: true,
      originalArticleId: live.id,
      originalArticleVersion: live.version,
      origin,
    });
  });
}

/** What a publish may set besides the draft's content (the deployed route takes create's fields). */
export type PublishChanges = Partial<ArticleContent> & { active?: boolean; public?: boolean; origin?: ArticleOrigin };

/**
 * Publishes a draft. A draft of a live article updates that article as its next version (409 when
 * the article moved on since the draft was made, unless `overwrite`) and stays in its folder; any
 * other draft becomes a new live article in the draft's folder. The draft is kept, marked `isDraftPublished`. Returns the live article.
 */
/**
 * The publish route's: content sent with the publish is saved on the draft first, then the test
 * gate runs with the draft as it will go live (`publish.requested`, docs/testing.md: 409 when test
 * cases of the agents answering from its folder that pass today fail with it, unless `force`),
 * then the publish.
 */
export async function publishDraftGated(ctx: WorkspaceContext, id: string, options: { overwrite: boolean; force: boolean }, changes: PublishChanges = {}): Promise<ArticleRow> {
  const draft = await requireArticle(ctx.db, ctx.workspaceId, id);
  if (!draft.isDraft) throw new AppError('bad_request', 'article is not a draft');
  requireEditable(draft);
  const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as PublishChanges;
  if (Object.keys(given).length > 0) {
    await inTransaction(ctx, async (txCtx) => {
      const current = await requireArticle(txCtx.db, ctx.workspaceId, id, true);
      requireEditable(current);
      await saveVersion(ctx, txCtx.db, current, given);
    });
  }
  await emit(ctx, 'publish.requested', publishRequest({ kind: 'article_draft', id }, [], { articleDraftIds: [id] }, options.force));
  return publishDraft(ctx, id, options.overwrite);
}

export async function publishDraft(ctx: WorkspaceContext, id: string, overwrite: boolean, changes: PublishChanges = {}): Promise<ArticleRow> {
  return inTransaction(ctx, async (txCtx) => {
    const tx = txCtx.db;
    let draft = await requireArticle(tx, ctx.workspaceId, id, true);
    if (!draft.isDraft) throw new AppError('bad_request', 'article is not a draft');
    requireEditable(draft);
    // Content sent with the publish is saved on the draft first (a version of the draft), then published.
    const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as PublishChanges;
    if (Object.keys(given).length > 0) draft = await saveVersion(ctx, tx, draft, given);
    const content = {
      title: draft.title,
      mainKnowledge: draft.mainKnowledge,
      agentInstruction: draft.agentInstruction,
      questions: draft.questions,
      keywords: draft.keywords,
      escalation: draft.escalation,
      active: draft.active,
      public: draft.public,
    };
    let live: ArticleRow;
    const original = draft.originalArticleId ? await findArticle(tx, ctx.workspaceId, draft.originalArticleId, { lock: true }) : undefined;
    if (original) {
      if (!overwrite && original.version !== draft.originalArticleVersion) {
        throw new AppError(
          'conflict',
          `the live article changed since this draft was made (draft of version ${draft.originalArticleVersion}, ` +
            `live version ${original.version}); publish with overwrite=true to replace it`,
        );
      }
      // The live article keeps its folder: moving is its own versioned change, as for revert.
      live = await saveVersion(ctx, tx, original, content);
    } else {
      live = await insertNewArticle(ctx, tx, {
        ...content,
        parentFolderId: draft.parentFolderId,
        misc: draft.misc,
        isDraft: false,
        origin: draft.origin,
      });
    }
    await updateArticle(tx, ctx.workspaceId, draft.id, { isDraftPublished: true, updatedAt: ctx.clock.now(), updatedBy: authorOf(ctx) });
    await emit(txCtx, 'article.published', { articleId: live.id, draftId: draft.id, version: live.version });
    return live;
  });
}

export async function getHistory(ctx: WorkspaceContext, id: string) {
  const row = await requireArticle(ctx.db, ctx.workspaceId, id);
  return { article: row, versions: await listVersions(ctx.db, ctx.workspaceId, id) };
}

async function requireVersion(db: Db, workspaceId: string, id: string, version: number): Promise<ArticleVersionRow> {
  const saved = await findVersion(db, workspaceId, id, version);
  if (!saved) throw new AppError('not_found', `version ${version} of this article not found`);
  return saved;
}

export async function getArticleVersion(ctx: WorkspaceContext, id: string, version: number) {
  const row = await requireArticle(ctx.db, ctx.workspaceId, id);
  return { article: row, version: await requireVersion(ctx.db, ctx.workspaceId, id, version) };
}

/**
 * Restores the content of a saved version (title, body, instruction, questions, keywords,
 * escalation, active, public) as a new version. The article stays in its current folder.
 */
export async function revertArticle(ctx: WorkspaceContext, id: string, version: number): Promise<ArticleRow> {
  return inTransaction(ctx, async ({ db: tx }) => {
    const current = await requireArticle(tx, ctx.workspaceId, id, true);
    requireEditable(current);
    const { snapshot } = await requireVersion(tx, ctx.workspaceId, id, version);
    return saveVersion(ctx, tx, current, {
      title: snapshot.title,
      mainKnowledge: snapshot.mainKnowledge,
      agentInstruction: snapshot.agentInstruction,
      questions: snapshot.questions,
      keywords: snapshot.keywords,
      escalation: snapshot.escalation,
      active: snapshot.active,
      public: snapshot.public,
    });
  });
}

/** Moves an article to another folder of the workspace, as a new version (no-op for the same folder). */
export async function moveArticle(ctx: WorkspaceContext, id: string, parentFolderId: string): Promise<ArticleRow> {
  return inTransaction(ctx, async ({ db: tx }) => {
    const current = await requireArticle(tx, ctx.workspaceId, id, true);
    requireEditable(current);
    await requireParentFolder(tx, ctx.workspaceId, parentFolderId);
    if (current.parentFolderId === parentFolderId) return current;
    return saveVersion(ctx, tx, current, { parentFolderId });
  });
}

/** Deletes an article (see deleteArticles). */
export async function deleteArticle(ctx: WorkspaceContext, id: string): Promise<ArticleRow> {
  return inTransaction(ctx, async (tx) => {
    const row = await requireArticle(tx.db, ctx.workspaceId, id, true);
    await deleteArticles(tx, [id]);
    return row;
  });
}

/**
 * Deletes articles with their history; drafts made from them are kept, unlinked. Every delete of
 * articles goes through here and emits `article.deleted` (sources made into them unlink in the same
 * transaction). Ids not in the workspace are skipped. Returns the deleted rows.
 */
export async function deleteArticles(ctx: WorkspaceContext, ids: string[]): Promise<ArticleRow[]> {
  if (ids.length === 0) return [];
  return inTransaction(ctx, async (tx) => {
    const deleted = await deleteArticleRows(tx.db, ctx.workspaceId, ids);
    if (deleted.length) await emit(tx, 'article.deleted', { articleIds: deleted.map((a) => a.id) });
    return deleted;
  });
}
