import type { Db } from '../../db/database.js';
import { type ArticleRow, findArticlesByIds } from './articles.repository.js';
import { type Highlight, highlights as findHighlights, searchLexical } from './search.repository.js';

export interface KnowledgeSearch {
  query: string;
  /** Search the agent's folders only. The caller checks that the agent exists. */
  agentId?: string;
  limit: number;
  /** Compute highlights (the search route does; jobs that only rank need not). */
  highlights?: boolean;
}

export interface KnowledgeHit {
  article: ArticleRow;
  score: number;
  highlights: Highlight[];
}

/**
 * The one retrieval function of Parley (answers, refine, knowledge generation and the search route):
 * live, active articles in the workspace's (or the agent's) active folders, ranked for a question.
 */
export async function searchKnowledge(ctx: { db: Db; workspaceId: string }, input: KnowledgeSearch): Promise<KnowledgeHit[]> {
  const hits = await searchLexical(ctx.db, { workspaceId: ctx.workspaceId, agentId: input.agentId }, input.query, input.limit);
  if (hits.length === 0) return [];
  const ids = hits.map((h) => h.articleId);
  const [rows, marks] = await Promise.all([
    findArticlesByIds(ctx.db, ctx.workspaceId, ids),
    input.highlights ? findHighlights(ctx.db, ctx.workspaceId, ids, input.query) : Promise.resolve(new Map<string, Highlight[]>()),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return hits.flatMap((hit) => {
    const article = byId.get(hit.articleId);
    return article ? [{ article, score: Math.round(hit.score * 10_000) / 10_000, highlights: marks.get(hit.articleId) ?? [] }] : [];
  });
}
