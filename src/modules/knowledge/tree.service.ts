import { randomUUID } from 'node:crypto';
import { inTransaction, type WorkspaceContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { authored } from './actor.js';
import { type ArticleRow, insertArticles, type NewArticle } from './articles.repository.js';
import { botIdsByFolder, type FolderRow, type FolderWithBots, insertFolders, listFolders, lockFolderTree } from './folders.repository.js';
import { parseTreeFile, TreeFileError, type TreeRow } from './tree-csv.js';

export interface PersistedTree {
  folders: FolderWithBots[];
  articles: ArticleRow[];
  createdFolders: number;
}

/** Parses a tree file; its errors become 400s naming the line and column. */
export function readTreeFile(data: Buffer): TreeRow[] {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(data);
  if (text.includes('\u0000')) throw new AppError('bad_request', 'body.file: not a text (CSV) file');
  try {
    return parseTreeFile(text);
  } catch (error) {
    if (error instanceof TreeFileError) throw new AppError('bad_request', `body.file: ${error.message}`);
    throw error;
  }
}

const key = (parentId: string | null, title: string) => `${parentId ?? ''}/${title}`;

/**
 * Creates the folders and articles a tree file describes, in one transaction (all or nothing).
 * A folder path that already exists in the workspace is reused (the oldest folder of that title
 * under that parent); only new folders take the file's description.
 */
export async function persistTree(ctx: WorkspaceContext, rows: TreeRow[]): Promise<PersistedTree> {
  if (rows.length === 0) throw new AppError('bad_request', 'body.file: the file has a header but no rows');
  return inTransaction(ctx, async ({ db: tx }) => {
    await lockFolderTree(tx, ctx.workspaceId);
    const now = ctx.clock.now();
    const byPath = new Map<string, FolderRow>();
    for (const folder of await listFolders(tx, ctx.workspaceId)) {
      const k = key(folder.parentFolderId, folder.title);
      if (!byPath.has(k)) byPath.set(k, folder);
    }
    const created: FolderRow[] = [];
    const createdDescriptions = new Map<string, { description: string; line: number }>();
    const named = new Map<string, FolderRow>();
    const articles: NewArticle[] = [];
    for (const row of rows) {
      let parentId: string | null = null;
      row.folderPath.forEach((title, depth) => {
        const k = key(parentId, title);
        let folder = byPath.get(k);
        if (!folder) {
          folder = {
            id: randomUUID(),
            workspaceId: ctx.workspaceId,
            parentFolderId: parentId,
            title,
            description: '',
            active: true,
            ...authored(ctx, now),
          };
          byPath.set(k, folder);
          created.push(folder);
        }
        named.set(folder.id, folder);
        const last = depth === row.folderPath.length - 1;
        if (last && row.folderDescription !== undefined && created.includes(folder)) {
          const earlier = createdDescriptions.get(folder.id);
          if (earlier && earlier.description !== row.folderDescription) {
            throw new AppError(
              'bad_request',
              `body.file: line ${row.line}: folder_description differs from the one given on line ${earlier.line} for the same folder`,
            );
          }
          if (!earlier) createdDescriptions.set(folder.id, { description: row.folderDescription, line: row.line });
          folder.description = row.folderDescription;
        }
        parentId = folder.id;
      });
      if (row.article && parentId) {
        const { isDraft, active, public: isPublic, ...content } = row.article;
        articles.push({
          workspaceId: ctx.workspaceId,
          parentFolderId: parentId,
          ...content,
          isDraft,
          active: active ?? true,
          public: isPublic ?? false,
          origin: 'API_CREATED',
          version: 1,
          ...authored(ctx, now),
        });
      }
    }
    // Parents come before their children in `created`, so each batch can reference earlier ones.
    await insertFolders(tx, ctx.workspaceId, created);
    const insertedArticles = await insertArticles(tx, ctx.workspaceId, articles);
    const bots = await botIdsByFolder(tx, ctx.workspaceId, [...named.keys()]);
    return {
      folders: [...named.values()].map((f) => ({ ...f, botIds: bots.get(f.id) ?? [] })),
      articles: insertedArticles,
      createdFolders: created.length,
    };
  });
}
