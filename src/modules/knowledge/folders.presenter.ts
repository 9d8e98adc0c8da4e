import { iso } from '../../http/schemas.js';
import type { ArticleOrigin } from './articles.schemas.js';
import type { ArticleSummaryRow, FolderArticles, FolderRow } from './folders.repository.js';
import type { SnapshotFolder } from './folders.schemas.js';

export function presentFolder(row: FolderRow, botIds: string[]) {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    parentFolderId: row.parentFolderId,
    active: row.active,
    botIds,
    companyId: row.workspaceId,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

function presentSummary(row: ArticleSummaryRow) {
  return {
    id: row.id,
    title: row.title,
    active: row.active,
    public: row.public,
    escalation: row.escalation,
    isDraft: row.isDraft,
    originalArticleId: row.originalArticleId,
    version: row.version,
    origin: row.origin as ArticleOrigin,
    updatedAt: row.updatedAt,
  };
}

/**
 * Nests folders and their articles in memory (linear time). `rootIds` are the folders to start
 * from (every top-level folder, or an agent's assigned folders); each appears once.
 */
export function nestSnapshot(
  folderRows: FolderRow[],
  botIds: Map<string, string[]>,
  articleGroups: FolderArticles[],
  rootIds: string[],
): SnapshotFolder[] {
  const nodes = new Map<string, SnapshotFolder>();
  for (const row of folderRows) nodes.set(row.id, { ...presentFolder(row, botIds.get(row.id) ?? []), articles: [], subfolders: [] });
  for (const row of folderRows) {
    if (row.parentFolderId) nodes.get(row.parentFolderId)?.subfolders.push(nodes.get(row.id) as SnapshotFolder);
  }
  for (const group of articleGroups) {
    const node = nodes.get(group.folderId);
    if (node) node.articles = group.articles.map(presentSummary);
  }
  return rootIds.map((id) => nodes.get(id)).filter((node): node is SnapshotFolder => node !== undefined);
}
