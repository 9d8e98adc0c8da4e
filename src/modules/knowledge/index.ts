export { articleRoutes } from './articles.routes.js';
export {
  type ArticleContent,
  createArticle,
  createDraftFromLive,
  type KnowledgeActor,
  publishDraft,
  updateArticleContent,
} from './articles.service.js';
export { ARTICLE_LIMITS, ARTICLE_ORIGINS, type ArticleOrigin } from './articles.schemas.js';
export { FOLDER_LIMITS } from './folders.schemas.js';
export { type ArticleRow, deleteArticlesWithLinks, findArticle, findArticlesByIds, findOpenDraft } from './articles.repository.js';
export { type FolderChoice, folderChoices } from './folders.repository.js';
export { folderRoutes } from './folders.routes.js';
export { treeRoutes } from './tree.routes.js';
export { searchRoutes } from './search.routes.js';
export { type KnowledgeHit, type KnowledgeSearch, type SearchContext, searchKnowledge } from './search.service.js';
export { embedArticlesJob, embedPendingArticles, type EmbedRunResult } from './embeddings.js';
export { parseTreeFile, type TreeRow, writeTreeFile } from './tree-csv.js';
