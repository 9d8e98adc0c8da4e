import { z } from 'zod';
import { uuidSchema } from '../../http/schemas.js';
import { articleOriginSchema } from './articles.schemas.js';

export const SEARCH_LIMIT_MAX = 50;

export const searchBodySchema = z
  .object({
    query: z.string().trim().min(1).max(2000).describe('the question, as a customer would ask it'),
    botId: uuidSchema.optional().describe("only the agent's folders (its assigned folders and their descendants)"),
    folderId: uuidSchema.optional().describe('only this folder and its subfolders'),
    limit: z.number().int().min(1).max(SEARCH_LIMIT_MAX).default(10),
  })
  .strict()
  .meta({ examples: [{ query: 'How can I get my money back?', botId: '0b5f2d3c-7a1e-4c9b-8d6f-2e4a1b3c5d7e', limit: 5 }] });

export const searchResultSchema = z
  .object({
    article: z
      .object({
        id: z.uuid(),
        title: z.string(),
        parentFolderId: z.uuid(),
        questions: z.array(z.string()),
        keywords: z.array(z.string()),
        escalation: z.boolean(),
        public: z.boolean(),
        version: z.number().int(),
        origin: articleOriginSchema,
        updatedAt: z.iso.datetime(),
      })
      .meta({ id: 'SearchArticle' }),
    score: z.number().describe('relevance; higher is better, comparable within one answer only'),
    highlights: z
      .array(
        z.object({
          field: z.enum(['title', 'questions', 'keywords', 'mainKnowledge']),
          snippet: z.string().describe('the matching text as HTML: the article text escaped (&amp;, &lt;, &gt;), matched words in <mark>…</mark>'),
        }),
      )
      .describe('where the article matches the query'),
  })
  .meta({ id: 'SearchResult' });

export const searchResponseSchema = z.object({ results: z.array(searchResultSchema) }).meta({ id: 'SearchResults' });
