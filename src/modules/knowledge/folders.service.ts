import { authorOf, inTransaction, type WorkspaceContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import { requireAgent } from '../agents/index.js';
import { deleteArticles, requireParentFolder } from './articles.service.js';
import { authored } from './actor.js';
import {
  folderTitlesByIds,
  addJunctions,
  articleIdsInFolders,
  articleSummariesByFolder,
  assignedFolderIds,
  botIdsByFolder,
  countChildren,
  deleteFolders,
  existingAgentIds,
  existingFolderIds,
  findFolder,
  type FolderChoice,
  folderChoices as folderChoiceRows,
  type FolderRow,
  type FolderWithBots,
  insertFolders,
  isSelfOrAncestor,
  listFolders,
  lockFolderTree,
  removeJunctions,
  subtreeIds,
  updateFolder,
  agentsOfFolders,
  folderAncestry as folderAncestryRows,
} from './folders.repository.js';
import { nestSnapshot } from './folders.presenter.js';
import type { SnapshotFolder } from './folders.schemas.js';

async function withBots(db: Db, workspaceId: string, row: FolderRow): Promise<FolderWithBots> {
  const bots = await botIdsByFolder(db, workspaceId, [row.id]);
  return { ...row, botIds: bots.get(row.id) ?? [] };
}

async function requireFolder(db: Db, workspaceId: string, id: string): Promise<FolderRow> {
  const row = await findFolder(db, workspaceId, id);
  if (!row) throw new AppError('not_found', 'folder not found');
  return row;
}

/** A folder of the workspace, in any state (404 when there is none). */
export async function getFolder(ctx: Pick<WorkspaceContext, 'db' | 'workspaceId'>, id: string): Promise<FolderRow> {
  return requireFolder(ctx.db, ctx.workspaceId, id);
}

export async function createFolder(
  ctx: WorkspaceContext,
  input: { title: string; description: string; parentFolderId?: string | null },
): Promise<FolderWithBots> {
  return inTransaction(ctx, async ({ db: tx }) => {
    if (input.parentFolderId) await requireParentFolder(tx, ctx.workspaceId, input.parentFolderId);
    const [row] = await insertFolders(tx, ctx.workspaceId, [
      {
            title: input.title,
        description: input.description,
        parentFolderId: input.parentFolderId ?? null,
        ...authored(ctx),
      },
    ]);
    if (!row) throw new Error('insert returned no row');
    return { ...row, botIds: [] };
  });
}

export async function updateFolderDetails(
  ctx: WorkspaceContext,
  id: string,
  input: { title: string; description: string; active: boolean },
): Promise<FolderWithBots> {
  const row = await inTransaction(ctx, (tx) => updateFolder(tx.db, ctx.workspaceId, id, { ...input, updatedAt: ctx.clock.now(), updatedBy: authorOf(ctx) }));
  if (!row) throw new AppError('not_found', 'folder not found');
  return withBots(ctx.db, ctx.workspaceId, row);
}

/** Moves a folder under another (or to the top level); a move into itself or below itself is a 400. */
export async function moveFolder(ctx: WorkspaceContext, id: string, parentFolderId: string | null): Promise<FolderWithBots> {
  return inTransaction(ctx, async ({ db: tx }) => {
    await lockFolderTree(tx, ctx.workspaceId);
    await requireFolder(tx, ctx.workspaceId, id);
    if (parentFolderId) {
      await requireParentFolder(tx, ctx.workspaceId, parentFolderId);
      if (await isSelfOrAncestor(tx, ctx.workspaceId, id, parentFolderId)) {
        throw new AppError('bad_request', 'parentFolderId: a folder cannot be moved into itself or one of its subfolders');
      }
    }
    const row = await updateFolder(tx, ctx.workspaceId, id, { parentFolderId, updatedAt: ctx.clock.now(), updatedBy: authorOf(ctx) });
    if (!row) throw new AppError('not_found', 'folder not found');
    return withBots(tx, ctx.workspaceId, row);
  });
}

/**
 * Deletes a folder. A folder with subfolders or articles is refused (409) unless `cascade`, which
 * deletes the whole subtree with its articles (and their history) and agent assignments.
 */
export async function deleteFolder(ctx: WorkspaceContext, id: string, cascade: boolean): Promise<FolderWithBots> {
  return inTransaction(ctx, async (txCtx) => {
    const tx = txCtx.db;
    await lockFolderTree(tx, ctx.workspaceId);
    const folder = await withBots(tx, ctx.workspaceId, await requireFolder(tx, ctx.workspaceId, id));
    if (!cascade) {
      const children = await countChildren(tx, ctx.workspaceId, id);
      if (children.folders > 0 || children.articles > 0) {
        throw new AppError(
          'conflict',
          `folder is not empty (${children.folders} subfolder(s), ${children.articles} article(s)); ` +
            'delete with cascade=true to delete them too',
        );
      }
    }
    const folderIds = await subtreeIds(tx, ctx.workspaceId, id);
    const articleIds = await articleIdsInFolders(tx, ctx.workspaceId, folderIds);
    await deleteArticles(txCtx, articleIds);
    await deleteFolders(tx, ctx.workspaceId, folderIds);
    return folder;
  });
}

export interface Snapshot {
  workspaceId: string;
  computedAt: Date;
  updatedAt: Date;
  folders: SnapshotFolder[];
}

/** Adds `id` and every folder below it (by the in-memory parent index) to `into`. */
function collectSubtree(id: string, children: Map<string, string[]>, into: Set<string>): void {
  const stack = [id];
  while (stack.length > 0) {
    const next = stack.pop() as string;
    if (into.has(next)) continue;
    into.add(next);
    stack.push(...(children.get(next) ?? []));
  }
}

/**
 * The knowledge tree: folders nested with their live articles and open drafts. With an agent,
 * only its assigned folders and their descendants. Three queries whatever the size of the tree, read
 * in one transaction.
 */
export async function getSnapshot(ctx: WorkspaceContext, agentId?: string): Promise<Snapshot> {
  // One consistent view: a move or import committing between the queries must not tear the tree.
  return inTransaction(ctx, ({ db }) => readSnapshot({ ...ctx, db }, agentId), { snapshot: true });
}

async function readSnapshot(ctx: WorkspaceContext, agentId?: string): Promise<Snapshot> {
  const computedAt = ctx.clock.now();
  let assigned: string[] | undefined;
  if (agentId) {
    await requireAgent(ctx, agentId);
    assigned = await assignedFolderIds(ctx.db, ctx.workspaceId, agentId);
  }
  const folderRows = await listFolders(ctx.db, ctx.workspaceId);
  const bots = await botIdsByFolder(ctx.db, ctx.workspaceId);
  let included: Set<string> | undefined;
  let roots: string[];
  if (assigned) {
    const children = new Map<string, string[]>();
    for (const row of folderRows) {
      if (row.parentFolderId) children.set(row.parentFolderId, [...(children.get(row.parentFolderId) ?? []), row.id]);
    }
    included = new Set<string>();
    for (const id of assigned) collectSubtree(id, children, included);
    const set = included;
    roots = folderRows.filter((r) => set.has(r.id) && !(r.parentFolderId && set.has(r.parentFolderId))).map((r) => r.id);
  } else {
    roots = folderRows.filter((r) => r.parentFolderId === null).map((r) => r.id);
  }
  const shown = included ? folderRows.filter((r) => included.has(r.id)) : folderRows;
  const articleGroups = await articleSummariesByFolder(ctx.db, ctx.workspaceId, included ? [...included] : undefined);
  let updatedAt = shown.length ? new Date(0) : computedAt;
  for (const row of shown) if (row.updatedAt > updatedAt) updatedAt = row.updatedAt;
  for (const group of articleGroups) if (group.latest > updatedAt) updatedAt = group.latest;
  return { workspaceId: ctx.workspaceId, computedAt, updatedAt, folders: nestSnapshot(shown, bots, articleGroups, roots) };
}

export interface JunctionChange {
  folderId: string;
  botId: string;
  action: 'ADD' | 'DELETE';
}

/**
 * Assigns and unassigns folders to agents, all or nothing. Every folder and agent must exist in
 * the workspace (400 naming the item otherwise). For a pair named twice, the last action wins.
 */
export async function applyJunctions(ctx: WorkspaceContext, changes: JunctionChange[]): Promise<void> {
  const folderIds = await existingFolderIds(ctx.db, ctx.workspaceId, [...new Set(changes.map((c) => c.folderId))]);
  const agentIds = await existingAgentIds(ctx.db, ctx.workspaceId, [...new Set(changes.map((c) => c.botId))]);
  changes.forEach((change, i) => {
    if (!folderIds.has(change.folderId)) throw new AppError('bad_request', `junctions.${i}.folderId: folder ${change.folderId} not found in this workspace`);
    if (!agentIds.has(change.botId)) throw new AppError('bad_request', `junctions.${i}.botId: agent ${change.botId} not found in this workspace`);
  });
  const last = new Map<string, JunctionChange>();
  for (const change of changes) last.set(`${change.folderId}:${change.botId}`, change);
  const pairs = (action: JunctionChange['action']) =>
    [...last.values()].filter((c) => c.action === action).map((c) => ({ folderId: c.folderId, agentId: c.botId }));
  await inTransaction(ctx, async ({ db: tx }) => {
    await addJunctions(tx, ctx.workspaceId, pairs('ADD'), ctx.clock.now());
    await removeJunctions(tx, ctx.workspaceId, pairs('DELETE'));
  });
}

/** The active folders (of the agent, when given) with their paths: where a knowledge job may add an article. */
export async function folderChoices(ctx: WorkspaceContext, agentId?: string): Promise<FolderChoice[]> {
  return folderChoiceRows(ctx.db, ctx.workspaceId, agentId);
}

/** Titles of folders by id: what conversations show as `usedSubfolders`. */
export async function folderTitles(ctx: Pick<WorkspaceContext, 'db' | 'workspaceId'>, ids: readonly string[]): Promise<Map<string, string>> {
  return folderTitlesByIds(ctx.db, ctx.workspaceId, ids);
}

/** Each folder with the folders above it (itself first): what "an article of this folder, or of a folder inside it" reads. */
export async function folderAncestry(ctx: Pick<WorkspaceContext, 'db' | 'workspaceId'>, ids: readonly string[]): Promise<Map<string, string[]>> {
  return folderAncestryRows(ctx.db, ctx.workspaceId, ids);
}

/** The agents that answer from these folders: assigned one of them or a folder above one. */
export async function agentsAnsweringFrom(ctx: Pick<WorkspaceContext, 'db' | 'workspaceId'>, folderIds: readonly string[]): Promise<string[]> {
  const ancestry = await folderAncestryRows(ctx.db, ctx.workspaceId, folderIds);
  return agentsOfFolders(ctx.db, ctx.workspaceId, [...new Set([...ancestry.values()].flat())]);
}
