import type { WorkspaceContext } from '../../context.js';
import { requireAgent } from '../agents/index.js';
import { concurrentQueries } from '../../db/database.js';
import { isStorableVector } from '../../db/vector.js';
import { queryExpansion } from '../../text/thesaurus.js';
import { type ArticleRow, findArticlesByIds } from './articles.repository.js';
import type { FolderScope } from './folders.repository.js';
import { getFolder } from './folders.service.js';
import { capText, embeddingsEnabled } from './embeddings.js';
import { FIELD_WEIGHTS, type Highlight, highlights as findHighlights, NO_OVERLAY, type SearchOverlay, searchLexical, searchVector } from './search.repository.js';

export { FIELD_WEIGHTS, type SearchOverlay };

export interface KnowledgeSearch {
  query: string;
  /** Search the agent's folders only. The caller checks that the agent exists. */
  agentId?: string | undefined;
  /** Search this folder and its subfolders only (with `agentId`: those of them the agent sees). */
  folderId?: string | undefined;
  limit: number;
  /** Compute highlights (the search route does; jobs that only rank need not). */
  highlights?: boolean;
  /** Drafts to search as if live, in place of the articles they replace (a Refine with AI replay). */
  overlay?: SearchOverlay;
  /**
   * Also search, at half weight, the synonyms of the words the query says (text/thesaurus.ts: "money
   * back" searches "refund" too): what the answer pipeline does for a customer's words. The search
   * route and the jobs search the words as given.
   */
  synonyms?: boolean;
}

export interface KnowledgeHit {
  article: ArticleRow;
  score: number;
  highlights: Highlight[];
}

/** What a search needs: the database, the workspace, and the model, configuration and log for embeddings. */
export type SearchContext = Pick<WorkspaceContext, 'db' | 'workspaceId' | 'llm' | 'config' | 'log' | 'signal'>;

/** Reciprocal rank fusion: score = Σ 1 / (RRF_K + rank) over the lexical and vector rankings. */
export const RRF_K = 60;
/** Each ranking contributes this many candidates to the fusion, at least. */
export const FUSION_DEPTH_MIN = 50;
/** The most a search waits for its query's embedding before it ranks by full-text search alone. */
export const QUERY_EMBEDDING_TIMEOUT_MS = 10_000;

interface Ranked {
  articleId: string;
  score: number;
}

/**
 * The one retrieval function of Parley (answers, refine, knowledge generation and the search route):
 * live, active articles in the workspace's (or the agent's) active folders, ranked for a question.
 *
 * Full-text search (BM25, search.repository.ts; with `synonyms`, also the query's synonyms at half
 * weight) alone, with its scores, unless an embedding model
 * is configured and the database has `vector`: then the query is embedded too, the nearest
 * articles by cosine distance are fused with the full-text ranking by reciprocal rank fusion, and
 * the score is the fused one. A failed query embedding falls back to full-text search alone.
 */
export async function searchKnowledge(ctx: SearchContext, input: KnowledgeSearch): Promise<KnowledgeHit[]> {
  const overlay = input.overlay ?? NO_OVERLAY;
  const expansion = input.synonyms ? queryExpansion(input.query) : '';
  const scope = { agentId: input.agentId, folderId: input.folderId };
  let ranked: Ranked[];
  if (embeddingsEnabled(ctx.config, ctx.db)) {
    const depth = Math.max(4 * input.limit, FUSION_DEPTH_MIN);
    const [lexical, nearest] = await concurrentQueries(ctx.db, [
      () => searchLexical(ctx.db, ctx.workspaceId, scope, input.query, depth, overlay, expansion),
      () => nearestArticles(ctx, scope, input.query, depth, overlay),
    ]);
    ranked = nearest ? fuse(lexical, nearest).slice(0, input.limit) : lexicalScores(lexical.slice(0, input.limit));
  } else {
    ranked = lexicalScores(await searchLexical(ctx.db, ctx.workspaceId, scope, input.query, input.limit, overlay, expansion));
  }
  if (ranked.length === 0) return [];
  const ids = ranked.map((h) => h.articleId);
  const [rows, marks] = await concurrentQueries(ctx.db, [
    () => findArticlesByIds(ctx.db, ctx.workspaceId, ids),
    () => (input.highlights ? findHighlights(ctx.db, ctx.workspaceId, ids, input.query) : Promise.resolve(new Map<string, Highlight[]>())),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ranked.flatMap((hit) => {
    const article = byId.get(hit.articleId);
    return article ? [{ article, score: hit.score, highlights: marks.get(hit.articleId) ?? [] }] : [];
  });
}

/** A search as a client asks for it: the query, the agent and folder it is narrowed to, how many hits. */
export interface ClientSearch {
  query: string;
  botId?: string | undefined;
  folderId?: string | undefined;
  limit: number;
}

/**
 * The search route's and the MCP tool's search: 404 for an agent or a folder the workspace does not
 * have, then the ranking with highlights.
 */
export async function searchAsClient(ctx: WorkspaceContext, search: ClientSearch): Promise<KnowledgeHit[]> {
  if (search.botId) await requireAgent(ctx, search.botId);
  if (search.folderId) await getFolder(ctx, search.folderId);
  return searchKnowledge(ctx, { query: search.query, agentId: search.botId, folderId: search.folderId, limit: search.limit, highlights: true });
}

function lexicalScores(hits: Ranked[]): Ranked[] {
  return hits.map((h) => ({ articleId: h.articleId, score: Math.round(h.score * 10_000) / 10_000 }));
}

/**
 * The articles nearest to the query's embedding, best first; undefined (and a warning) when the
 * query cannot be embedded or compared, so the search answers by full-text search alone.
 */
async function nearestArticles(ctx: SearchContext, scope: FolderScope, query: string, depth: number, overlay: SearchOverlay): Promise<string[] | undefined> {
  const provider = ctx.llm;
  const model = ctx.config.llm.embeddingModel;
  if (!provider.embed || !model) return undefined;
  try {
    const timeout = AbortSignal.timeout(Math.min(ctx.config.llm.timeoutMs, QUERY_EMBEDDING_TIMEOUT_MS));
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
    const { embeddings } = await provider.embed([capText(query)], { signal });
    const embedding = embeddings[0];
    if (!embedding || !isStorableVector(embedding)) {
      ctx.log.warn({ dimensions: embedding?.length }, 'the query embedding is unusable; knowledge search uses full-text search only');
      return undefined;
    }
    const hits = await searchVector(ctx.db, ctx.workspaceId, scope, model, embedding, depth, overlay);
    return hits.map((h) => h.articleId);
  } catch (error) {
    ctx.log.warn({ err: error }, 'vector similarity failed for this query; knowledge search uses full-text search only');
    return undefined;
  }
}

/**
 * Reciprocal rank fusion of two rankings (best first). Scores are rounded to 6 decimals, and equal
 * scores come in ascending id order, as in the full-text ranking.
 */
function fuse(lexical: Ranked[], nearest: string[]): Ranked[] {
  const scores = new Map<string, number>();
  const add = (id: string, rank: number) => scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + rank));
  lexical.forEach((h, i) => add(h.articleId, i + 1));
  nearest.forEach((id, i) => add(id, i + 1));
  return [...scores]
    .map(([articleId, score]) => ({ articleId, score: Math.round(score * 1_000_000) / 1_000_000 }))
    .sort((a, b) => b.score - a.score || (a.articleId < b.articleId ? -1 : a.articleId > b.articleId ? 1 : 0));
}
