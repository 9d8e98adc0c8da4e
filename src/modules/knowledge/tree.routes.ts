import { defineRoute } from '../../http/route.js';
import { presentArticle } from './articles.presenter.js';
import { presentFolder } from './folders.presenter.js';
import { treePersistResultSchema } from './tree.schemas.js';
import { persistTree, readTreeFile } from './tree.service.js';

const tags = ['Knowledge tree'];

export function treeRoutes() {
  return [
    defineRoute({
      method: 'POST',
      url: '/v2/knowledge/public/tree/persist',
      auth: 'write',
      tags,
      summary: 'Import a knowledge tree file',
      description:
        'Creates the folders and articles of a tree file (CSV, multipart field `file`) in one transaction: ' +
        'all or nothing. Existing folders with the same path are reused. Any error in the file is a 400 ' +
        'naming its line and column. The format (columns `folder_path`, `folder_description`, `title`, ' +
        '`main_knowledge`, `agent_instruction`, `questions`, `keywords`, `escalation`, `is_draft`, `active`, ' +
        '`public`) is documented in docs/knowledge.md.',
      upload: { fileField: 'file', fileDescription: 'the tree file (CSV with a header row)' },
      response: treePersistResultSchema,
      handler: async ({ ctx, upload }) => {
        const rows = readTreeFile((upload as NonNullable<typeof upload>).file.data);
        const tree = await persistTree(ctx, rows);
        const reused = tree.folders.length - tree.createdFolders;
        return {
          status: 'success' as const,
          message:
            `imported ${tree.articles.length} article(s) into ${tree.folders.length} folder(s) ` +
            `(${tree.createdFolders} created, ${reused} existing)`,
          folders: tree.folders.map((f) => presentFolder(f, f.botIds)),
          articles: tree.articles.map(presentArticle),
        };
      },
    }),
  ];
}
