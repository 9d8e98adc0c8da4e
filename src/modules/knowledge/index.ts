export { articleRoutes } from './articles.routes.js';
export {
  type ArticleContent,
  createArticle,
  createDraftFromLive,
  deleteArticles,
  findOpenDraft,
  type NewArticleInput,
  getArticle,
  getArticlesByIds,
  publishDraft,
  updateArticleContent,
} from './articles.service.js';
export { ARTICLE_LIMITS, ARTICLE_ORIGINS, type ArticleOrigin, articleFieldSchemas, articleSchema } from './articles.schemas.js';
export { presentArticle } from './articles.presenter.js';
export { FOLDER_LIMITS } from './folders.schemas.js';
export type { ArticleRow } from './articles.repository.js';
export { agentsAnsweringFrom, folderAncestry, folderChoices, folderTitles } from './folders.service.js';
export type { FolderChoice } from './folders.repository.js';
export { folderRoutes } from './folders.routes.js';
export { treeRoutes } from './tree.routes.js';
export { searchRoutes } from './search.routes.js';
export { type KnowledgeHit, type KnowledgeSearch, type SearchContext, type SearchOverlay, searchAsClient, searchKnowledge } from './search.service.js';
export { searchBodySchema, searchResultSchema } from './search.schemas.js';
export { presentSearchHit } from './search.presenter.js';
export { embedPendingArticles, type EmbedRunResult, semanticScorer, type SemanticScorer } from './embeddings.js';
export { knowledgeJobs } from './knowledge.jobs.js';
export { parseTreeFile, type TreeRow, writeTreeFile } from './tree-csv.js';
