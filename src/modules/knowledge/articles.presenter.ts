import type { ArticleSnapshot } from '../../db/schema/index.js';
import { iso } from '../../http/schemas.js';
import type { ArticleRow, ArticleVersionRow } from './articles.repository.js';
import type { ArticleOrigin } from './articles.schemas.js';

export function presentArticle(row: ArticleRow) {
  return {
    id: row.id,
    title: row.title,
    mainKnowledge: row.mainKnowledge,
    agentInstruction: row.agentInstruction,
    questions: row.questions,
    keywords: row.keywords,
    escalation: row.escalation,
    misc: row.misc,
    active: row.active,
    public: row.public,
    parentFolderId: row.parentFolderId,
    companyId: row.workspaceId,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    version: row.version,
    isDraft: row.isDraft,
    isDraftPublished: row.isDraftPublished,
    originalArticleId: row.originalArticleId,
    originalArticleVersion: row.originalArticleVersion,
    createdBy: row.createdBy,
    updatedBy: row.updatedBy,
    origin: row.origin as ArticleOrigin,
  };
}

/** The article as it was at a saved version: that version's content, stamped with its time and author. */
export function presentArticleAtVersion(row: ArticleRow, version: ArticleVersionRow) {
  const snapshot: ArticleSnapshot = version.snapshot;
  return {
    ...presentArticle(row),
    ...snapshot,
    version: version.version,
    updatedAt: iso(version.createdAt),
    updatedBy: version.createdBy,
  };
}
