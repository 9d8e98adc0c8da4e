import { requireAgent } from '../agents/index.js';
import { defineRoute } from '../../http/route.js';
import { iso } from '../../http/schemas.js';
import type { ArticleOrigin } from './articles.schemas.js';
import { searchBodySchema, searchResponseSchema } from './search.schemas.js';
import { FIELD_WEIGHTS, searchKnowledge } from './search.service.js';

export function searchRoutes() {
  return [
    defineRoute({
      method: 'POST',
      url: '/v2/knowledge/public/search',
      auth: 'read',
      tags: ['Knowledge generation'],
      summary: 'Search knowledge as an agent would',
      description:
        'Ranks the live, active articles in active folders (with `botId`: the agent\'s assigned folders and their ' +
        'descendants) for a question, with the retrieval every answer uses: full-text search in the database ' +
        `over title, questions, keywords and body (weights ${FIELD_WEIGHTS.join(', ')}), stemmed English, scored ` +
        'by BM25 per field. When an embedding model is configured and the database has the `vector` extension, ' +
        'vector similarity of embeddings is fused with it (reciprocal rank fusion, k = 60; `score` is then the ' +
        'fused score, and an article found by similarity alone has no highlights). Drafts and inactive articles ' +
        'are never found. Without embeddings, a query of stopwords only finds nothing. 404 when `botId` names no ' +
        'agent of the workspace.',
      body: searchBodySchema,
      response: searchResponseSchema,
      errors: [404],
      handler: async ({ ctx, body }) => {
        if (body.botId) await requireAgent(ctx, body.botId);
        const hits = await searchKnowledge(ctx, { query: body.query, agentId: body.botId, limit: body.limit, highlights: true });
        return {
          results: hits.map(({ article, score, highlights }) => ({
            article: {
              id: article.id,
              title: article.title,
              parentFolderId: article.parentFolderId,
              questions: article.questions,
              keywords: article.keywords,
              escalation: article.escalation,
              public: article.public,
              version: article.version,
              origin: article.origin as ArticleOrigin,
              updatedAt: iso(article.updatedAt),
            },
            score,
            highlights,
          })),
        };
      },
    }),
  ];
}
