import { z } from 'zod';

/** The `initialize_tree` task (docs/ai.md): the folders and starter articles of a new knowledge base. */

export const initializeTreeInputSchema = z.object({ initPrompt: z.string() });
export type InitializeTreeInput = z.infer<typeof initializeTreeInputSchema>;

const treeArticleSchema = z.object({
  title: z.string(),
  mainKnowledge: z.string(),
  questions: z.array(z.string()),
  keywords: z.array(z.string()),
});
export type TreeArticle = z.infer<typeof treeArticleSchema>;

export const treeOutputSchema = z.object({
  folders: z.array(
    z.object({
      path: z.array(z.string()).describe('folder titles from the top level down'),
      description: z.string(),
      articles: z.array(treeArticleSchema),
    }),
  ),
});
export type TreeOutput = z.infer<typeof treeOutputSchema>;
export type TreeFolder = TreeOutput['folders'][number];
