import { z } from 'zod';

/**
 * The `generate_knowledge` task (docs/ai.md): a decision about one piece of candidate knowledge,
 * with the article to write. Output fields are nullable rather than optional, so that strict
 * structured output (every property required) accepts them.
 */

/** The operations of a decision, in this order (the same as the sources module's linked operations). */
export const KNOWLEDGE_OPERATIONS = ['ADD_ARTICLE_TO_FOLDER', 'UPDATE_ARTICLE', 'DO_NOTHING'] as const;
export type KnowledgeOperation = (typeof KNOWLEDGE_OPERATIONS)[number];

export const existingArticleSchema = z.object({
  id: z.string(),
  title: z.string(),
  mainKnowledge: z.string(),
  questions: z.array(z.string()),
  keywords: z.array(z.string()),
  parentFolderId: z.string(),
});
export type ExistingArticle = z.infer<typeof existingArticleSchema>;

export const folderOptionSchema = z.object({ id: z.string(), path: z.array(z.string()), description: z.string(), articleTitles: z.array(z.string()) });
export type FolderOption = z.infer<typeof folderOptionSchema>;

export const generationInputSchema = z.object({
  /** The text to turn into knowledge (a source's paragraphs, or candidate text). */
  text: z.string(),
  /** A title the text came with (a source's title), if any. */
  titleHint: z.string().nullable(),
  instructions: z.string(),
  allowed: z.array(z.enum(KNOWLEDGE_OPERATIONS)).readonly(),
  /** Existing live articles most similar to the text, best first. */
  candidates: z.array(existingArticleSchema),
  folders: z.array(folderOptionSchema),
  /** The article this text's source already produced, when the source is linked. */
  linkedArticleId: z.string().nullable(),
});
export type GenerationInput = z.infer<typeof generationInputSchema>;

export const articleContentSchema = z.object({
  title: z.string(),
  mainKnowledge: z.string(),
  questions: z.array(z.string()),
  keywords: z.array(z.string()),
  agentInstruction: z.string(),
});
export type GeneratedArticle = z.infer<typeof articleContentSchema>;

export const generationOutputSchema = z.object({
  // The AI layer's own list (equal to the sources' LINKED_OPERATIONS): a CPU pool thread loads this
  // file, and importing the sources module would load the whole application into every thread.
  operation: z.enum(KNOWLEDGE_OPERATIONS),
  articleId: z.string().nullable().describe('the article to update (UPDATE_ARTICLE) or that already covers the text (DO_NOTHING)'),
  folderId: z.string().nullable().describe('the folder of the new article (ADD_ARTICLE_TO_FOLDER)'),
  reason: z.string(),
  article: articleContentSchema.nullable().describe('the complete new or updated article; null for DO_NOTHING'),
});
export type GenerationOutput = z.infer<typeof generationOutputSchema>;
