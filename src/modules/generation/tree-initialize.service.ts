import type { TreeOutput } from '../../ai/contracts/initialize-tree.js';
import { LlmError } from '../../ai/index.js';
import type { WorkspaceContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { storableText } from '../../http/text-guard.js';
import { ARTICLE_LIMITS, FOLDER_LIMITS, parseTreeFile, type TreeRow, writeTreeFile } from '../knowledge/index.js';
import { initializeTreeTask } from './generation.tasks.js';

/**
 * POST /v2/knowledge/public/tree/initialize: the tree file (the CSV `tree/persist` reads) of a
 * knowledge base designed from the prompt. Articles are drafts. The file is read back with the
 * import's own parser before it is sent, so persist accepts it unchanged.
 */
export async function initializeTree(ctx: WorkspaceContext, initPrompt: string): Promise<string> {
  if (!/[\p{L}\p{N}]/u.test(initPrompt)) throw noTopics();
  let output: TreeOutput;
  try {
    ({ output } = await ctx.llm.run(initializeTreeTask, { initPrompt }, ctx.signal ? { signal: ctx.signal } : {}));
  } catch (error) {
    if (error instanceof LlmError) throw new AppError('bad_gateway', error.message);
    throw error;
  }
  const rows = treeRows(output);
  if (rows.length === 0) throw noTopics();
  const file = writeTreeFile(rows);
  try {
    parseTreeFile(file);
  } catch (error) {
    throw new AppError('bad_gateway', `the generated tree is not a valid tree file: ${(error as Error).message}`);
  }
  return file;
}

const noTopics = () =>
  new AppError('bad_request', 'initPrompt: no topics found; describe the help centre, for example as an outline of topics');

const clip = (text: string, max: number) => storableText(text).trim().slice(0, max).trim();
/** A list cell of the tree file separates items with `|`; an item keeps its text without it. */
const listItems = (items: string[], max: number) =>
  [...new Set(items.map((i) => clip(i.replace(/\|/g, '/'), max)).filter(Boolean))].slice(0, ARTICLE_LIMITS.listItems);

/**
 * The model's (or the built-in engine's) tree as rows of the tree file, within the article limits
 * and the import's rules: a folder named twice is one folder (its first description), an article
 * title appears once per folder, and text the database cannot store is dropped.
 */
function treeRows(output: TreeOutput): TreeRow[] {
  const folders = new Map<string, { folderPath: string[]; folderDescription: string; titles: Set<string>; rows: TreeRow[] }>();
  for (const folder of output.folders) {
    const folderPath = folder.path.map((t) => clip(t, FOLDER_LIMITS.title)).filter(Boolean);
    if (folderPath.length === 0) continue;
    const key = folderPath.join('\u0000').toLowerCase();
    let entry = folders.get(key);
    if (!entry) {
      entry = { folderPath, folderDescription: clip(folder.description, FOLDER_LIMITS.description), titles: new Set(), rows: [] };
      folders.set(key, entry);
    }
    for (const a of folder.articles) {
      const title = clip(a.title, ARTICLE_LIMITS.title);
      const mainKnowledge = clip(a.mainKnowledge, ARTICLE_LIMITS.mainKnowledge);
      if (!title || !mainKnowledge || entry.titles.has(title.toLowerCase())) continue;
      entry.titles.add(title.toLowerCase());
      entry.rows.push({
        line: 0,
        folderPath: entry.folderPath,
        folderDescription: entry.folderDescription,
        article: {
          title,
          mainKnowledge,
          agentInstruction: '',
          questions: listItems(a.questions, ARTICLE_LIMITS.question),
          keywords: listItems(a.keywords, ARTICLE_LIMITS.keyword),
          escalation: false,
          isDraft: true,
        },
      });
    }
  }
  return [...folders.values()].flatMap((f) =>
    f.rows.length ? f.rows : [{ line: 0, folderPath: f.folderPath, folderDescription: f.folderDescription }],
  );
}
