import type { AnswerArticle } from '../../../ai/contracts/answer.js';
import type { WorkspaceContext } from '../../../context.js';
import { concurrentQueries } from '../../../db/database.js';
import type { UsedArticle, UsedSubfolder } from '../../../db/schema/index.js';
import { folderTitles, type KnowledgeHit, searchKnowledge, semanticScorer } from '../../knowledge/index.js';
import { sourceUrlsOfArticles } from '../../sources/index.js';
import type { AnswerOverlay } from './answer.service.js';
import { stageSignal, type StageTrace } from './trace.js';
import type { KnowledgeSearchTrace } from './trace.schemas.js';

/** Search depth: the answer reads the best few articles. */
const SEARCH_LIMIT = 5;

/** A hit of the answer's search, with the built-in encoder's similarity to the message when it ran. */
export type AnswerHit = KnowledgeHit & { similarity?: number };

/**
 * Stage 5: the agent's folders searched for the message. Refine's article drafts are searched as
 * if live, a draft of a live article under that article's id. With the built-in engine, the
 * message is encoded by its sentence encoder while the search runs, and each hit gets its
 * similarity (knowledge/embeddings.ts). A failed search is recorded and finds nothing.
 */
export async function searchArticles(ctx: WorkspaceContext, trace: StageTrace, query: string, agentId: string, overlay: AnswerOverlay | undefined): Promise<AnswerHit[]> {
  try {
    const drafts = overlay?.articleDrafts ?? [];
    const signal = stageSignal(ctx);
    const semantic = semanticScorer({ ...ctx, signal }, query);
    const found = await searchKnowledge(
      { ...ctx, signal },
      {
        query,
        agentId,
        limit: SEARCH_LIMIT,
        synonyms: true,
        ...(drafts.length ? { overlay: { include: drafts.map((d) => d.draftId), exclude: drafts.flatMap((d) => (d.replacesArticleId ? [d.replacesArticleId] : [])) } } : {}),
      },
    );
    const standIns = new Map(drafts.flatMap((d) => (d.replacesArticleId ? [[d.draftId, d.replacesArticleId] as const] : [])));
    const hits = found.map((h) => (standIns.has(h.article.id) ? { ...h, article: { ...h.article, id: standIns.get(h.article.id)!, isDraft: false } } : h));
    const similarities = await semantic.similarities(
      hits.map((h) => h.article),
      { store: drafts.length === 0 },
    );
    return similarities ? hits.map((h) => (similarities.has(h.article.id) ? { ...h, similarity: similarities.get(h.article.id)! } : h)) : hits;
  } catch (error) {
    trace.error('knowledgeSearch', error);
    return [];
  }
}

/** The articles the answer task reads, best first. */
export function answerArticles(hits: readonly AnswerHit[]): AnswerArticle[] {
  return hits.map(({ article: a, score, similarity }) => ({
    id: a.id, title: a.title, body: a.mainKnowledge, questions: a.questions, keywords: a.keywords, escalation: a.escalation, score,
    ...(similarity !== undefined ? { similarity } : {}),
  }));
}

/**
 * The trace's `knowledgeSearch`: why the first article ranks first (with the scores), and the
 * articles given to the answer, exactly `{ id, title, version }` as the specification has them.
 */
export function searchTrace(articles: readonly AnswerArticle[], hits: readonly KnowledgeHit[]): KnowledgeSearchTrace {
  const top = articles[0];
  return {
    topOneReasoning: top ? `"${top.title}" ranks first (${scoreOf(top)}${articles[1] ? `; next "${articles[1].title}" ${scoreOf(articles[1])}` : ''}).` : "No article in the agent's folders matches the message.",
    selectionReasoning: articles.length ? `The ${articles.length} best articles of the agent's folders by full-text relevance are given to the answer.` : 'Nothing to select.',
    articles: hits.map((h) => ({ id: h.article.id, title: h.article.title, version: h.article.version })),
  };
}

/** An article's search score, and the encoder's similarity when it ran. */
function scoreOf(article: AnswerArticle): string {
  return `score ${article.score}${article.similarity !== undefined ? `, similarity ${article.similarity}` : ''}`;
}

/** The articles a reply cites, with their source URLs, and the folders they sit in. */
export async function citedArticles(ctx: WorkspaceContext, usedArticleIds: readonly string[], hits: readonly KnowledgeHit[]): Promise<{ hits: KnowledgeHit[]; usedArticles: UsedArticle[]; usedSubfolders: UsedSubfolder[] }> {
  const used = usedArticleIds.map((id) => hits.find((h) => h.article.id === id)).filter((h): h is KnowledgeHit => h !== undefined);
  const folderIds = [...new Set(used.map((h) => h.article.parentFolderId))];
  const [urls, folders] = await concurrentQueries(ctx.db, [() => sourceUrlsOfArticles(ctx, usedArticleIds), () => folderTitles(ctx, folderIds)]);
  return {
    hits: used,
    usedArticles: used.map((h) => ({ id: h.article.id, title: h.article.title, documentUrl: urls.get(h.article.id) ?? null })),
    usedSubfolders: folderIds.map((id) => ({ id, title: folders.get(id) ?? '' })),
  };
}
