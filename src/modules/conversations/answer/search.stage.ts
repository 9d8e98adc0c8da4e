import type { AnswerArticle } from '../../../ai/contracts/answer.js';
import type { WorkspaceContext } from '../../../context.js';
import type { UsedArticle, UsedSubfolder } from '../../../db/schema/index.js';
import { folderTitles, type KnowledgeHit, searchKnowledge } from '../../knowledge/index.js';
import { sourceUrlsOfArticles } from '../../sources/index.js';
import type { AnswerOverlay } from './answer.service.js';
import { stageSignal, type StageTrace } from './trace.js';
import type { KnowledgeSearchTrace } from './trace.schemas.js';

/** Search depth: the answer reads the best few articles. */
const SEARCH_LIMIT = 5;

/**
 * Stage 5: the agent's folders searched for the message. Refine's article drafts are searched as
 * if live, a draft of a live article under that article's id. A failed search is recorded and
 * finds nothing.
 */
export async function searchArticles(ctx: WorkspaceContext, trace: StageTrace, query: string, agentId: string, overlay: AnswerOverlay | undefined): Promise<KnowledgeHit[]> {
  try {
    const drafts = overlay?.articleDrafts ?? [];
    const found = await searchKnowledge(
      { ...ctx, signal: stageSignal(ctx) },
      {
        query,
        agentId,
        limit: SEARCH_LIMIT,
        synonyms: true,
        ...(drafts.length ? { overlay: { include: drafts.map((d) => d.draftId), exclude: drafts.flatMap((d) => (d.replacesArticleId ? [d.replacesArticleId] : [])) } } : {}),
      },
    );
    const standIns = new Map(drafts.flatMap((d) => (d.replacesArticleId ? [[d.draftId, d.replacesArticleId] as const] : [])));
    return found.map((h) => (standIns.has(h.article.id) ? { ...h, article: { ...h.article, id: standIns.get(h.article.id)!, isDraft: false } } : h));
  } catch (error) {
    trace.error('knowledgeSearch', error);
    return [];
  }
}

/** The articles the answer task reads, best first. */
export function answerArticles(hits: readonly KnowledgeHit[]): AnswerArticle[] {
  return hits.map(({ article: a, score }) => ({ id: a.id, title: a.title, body: a.mainKnowledge, questions: a.questions, keywords: a.keywords, escalation: a.escalation, score }));
}

/**
 * The trace's `knowledgeSearch`: why the first article ranks first (with the scores), and the
 * articles given to the answer, exactly `{ id, title, version }` as the specification has them.
 */
export function searchTrace(articles: readonly AnswerArticle[], hits: readonly KnowledgeHit[]): KnowledgeSearchTrace {
  const top = articles[0];
  return {
    topOneReasoning: top ? `"${top.title}" ranks first (score ${top.score}${articles[1] ? `; next "${articles[1].title}" ${articles[1].score}` : ''}).` : "No article in the agent's folders matches the message.",
    selectionReasoning: articles.length ? `The ${articles.length} best articles of the agent's folders by full-text relevance are given to the answer.` : 'Nothing to select.',
    articles: hits.map((h) => ({ id: h.article.id, title: h.article.title, version: h.article.version })),
  };
}

/** The articles a reply cites, with their source URLs, and the folders they sit in. */
export async function citedArticles(ctx: WorkspaceContext, usedArticleIds: readonly string[], hits: readonly KnowledgeHit[]): Promise<{ hits: KnowledgeHit[]; usedArticles: UsedArticle[]; usedSubfolders: UsedSubfolder[] }> {
  const used = usedArticleIds.map((id) => hits.find((h) => h.article.id === id)).filter((h): h is KnowledgeHit => h !== undefined);
  const folderIds = [...new Set(used.map((h) => h.article.parentFolderId))];
  const [urls, folders] = await Promise.all([sourceUrlsOfArticles(ctx, usedArticleIds), folderTitles(ctx, folderIds)]);
  return {
    hits: used,
    usedArticles: used.map((h) => ({ id: h.article.id, title: h.article.title, documentUrl: urls.get(h.article.id) ?? null })),
    usedSubfolders: folderIds.map((id) => ({ id, title: folders.get(id) ?? '' })),
  };
}
