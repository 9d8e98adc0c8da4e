import { iso } from '../../http/schemas.js';
import type { ArticleOrigin } from './articles.schemas.js';
import type { KnowledgeHit } from './search.service.js';

/** One ranked article as the search route (and the MCP tool) answers it: the article's summary, its score, where it matched. */
export function presentSearchHit({ article, score, highlights }: KnowledgeHit) {
  return {
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
  };
}
