import { defineRoute } from '../../http/route.js';
import { presentSearchHit } from './search.presenter.js';
import { searchBodySchema, searchResponseSchema } from './search.schemas.js';
import { FIELD_WEIGHTS, searchAsClient } from './search.service.js';

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
        'are never found. Without embeddings, a query of stopwords only finds nothing. `folderId` narrows the search to ' +
        'that folder and its subfolders (with `botId`, to those of them the agent answers from). 404 when `botId` names ' +
        'no agent of the workspace, or `folderId` no folder of it.',
      body: searchBodySchema,
      response: searchResponseSchema,
      errors: [404],
      handler: async ({ ctx, body }) => {
        const hits = await searchAsClient(ctx, body);
        return { results: hits.map(presentSearchHit) };
      },
    }),
  ];
}
