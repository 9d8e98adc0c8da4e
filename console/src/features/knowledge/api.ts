// Query and mutation hooks of the Knowledge page: folders (the tree snapshot), articles, drafts and
// versions. Query keys live here; every change invalidates what it can change under ['knowledge'].
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, call, type Schemas } from '../../api/client';

export type Article = Schemas['Article'];
export type SnapshotFolder = Schemas['SnapshotFolder'];
export type ArticleContent = Pick<Article, 'title' | 'mainKnowledge' | 'agentInstruction' | 'questions' | 'keywords' | 'escalation'>;

const PAGE_SIZE = 25;

export const knowledgeKeys = {
  all: ['knowledge'] as const,
  tree: () => ['knowledge', 'tree'] as const,
  articles: (folderId: string, type: 'live' | 'draft') => ['knowledge', 'articles', folderId, type] as const,
  article: (id: string) => ['knowledge', 'article', id] as const,
  history: (id: string) => ['knowledge', 'history', id] as const,
  version: (id: string, version: number) => ['knowledge', 'version', id, version] as const,
};

/** The workspace's folder tree with each folder's live articles and open drafts. */
export function useTree() {
  return useQuery({
    queryKey: knowledgeKeys.tree(),
    queryFn: async () => (await call(api.GET('/v2/hc-folders/public', {}))).snapshotObjV2,
  });
}

/** One folder's live articles or open drafts, a keyset page at a time. */
const folderArticlesQuery = (folderId: string, type: 'live' | 'draft') =>
  infiniteQueryOptions({
    queryKey: knowledgeKeys.articles(folderId, type),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(api.GET('/v2/hc-articles/public', { params: { query: { parentFolderId: folderId, type, limit: PAGE_SIZE, cursor: pageParam } } })),
    getNextPageParam: (page) => (page.hasMore ? (page.nextCursor ?? undefined) : undefined),
  });

export function useFolderArticles(folderId: string, type: 'live' | 'draft') {
  return useInfiniteQuery(folderArticlesQuery(folderId, type));
}

/**
 * Asks for a folder's first page of articles while its page renders, before the tree: the
 * tree's snapshot holds every article of the workspace and takes longer (about 100 ms at 5,000
 * articles), so the articles, asked for after it, waited for it (bench/console).
 */
export function usePrefetchFolderArticles(folderId: string | undefined) {
  // As TanStack Query's usePrefetchInfiniteQuery does it, for a folder that may not be picked yet.
  const queryClient = useQueryClient();
  if (folderId && !queryClient.getQueryState(knowledgeKeys.articles(folderId, 'live'))) {
    void queryClient.prefetchInfiniteQuery(folderArticlesQuery(folderId, 'live'));
  }
}

export function useArticle(id: string) {
  return useQuery({
    queryKey: knowledgeKeys.article(id),
    queryFn: async () => {
      const [article] = await call(api.POST('/v2/hc-articles/ids/public', { body: { articleIds: [id] } }));
      if (!article) throw new ApiError(404, `article ${id} not found`);
      return article;
    },
  });
}

/**
 * Several articles in one request; each is also kept as its own article query, so that the
 * components showing them (useArticle) do not ask again. An id not found is left out.
 */
export function useArticlesById(ids: string[]) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ['knowledge', 'by-id', ...ids],
    enabled: ids.length > 0,
    queryFn: async () => {
      const articles = await call(api.POST('/v2/hc-articles/ids/public', { body: { articleIds: ids } }));
      for (const article of articles) queryClient.setQueryData(knowledgeKeys.article(article.id), article);
      return articles;
    },
  });
}

export function useHistory(id: string) {
  return useQuery({
    queryKey: knowledgeKeys.history(id),
    queryFn: () => call(api.GET('/v2/hc-articles/{id}/history/public', { params: { path: { id } } })),
  });
}

/** The article as it was at a saved version. */
export function useVersion(id: string, version: number | undefined) {
  return useQuery({
    queryKey: knowledgeKeys.version(id, version ?? 0),
    enabled: version !== undefined,
    staleTime: Infinity, // a saved version never changes
    queryFn: () => call(api.POST('/v2/hc-articles/{id}/history/public', { params: { path: { id } }, body: { version: version ?? 0 } })),
  });
}

/**
 * A mutation that refreshes the knowledge queries once it succeeded, or once it settled either way
 * with `refreshOnError` (a refused move usually means the tree shown was stale).
 */
function useKnowledgeMutation<I, O>(mutationFn: (input: I) => Promise<O>, { refreshOnError = false } = {}) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: knowledgeKeys.all });
  return useMutation({ mutationFn, onSuccess: refresh, onError: refreshOnError ? refresh : undefined });
}

export const useCreateFolder = () =>
  useKnowledgeMutation((body: { title: string; description: string; parentFolderId: string | null }) =>
    call(api.POST('/v2/hc-folders/public', { body })),
  );

export const useUpdateFolder = () =>
  useKnowledgeMutation(({ id, ...body }: { id: string; title: string; description: string; active: boolean }) =>
    call(api.PUT('/v2/hc-folders/{id}/public', { params: { path: { id } }, body })),
  );

/** Moves a folder with its subtree under another folder, or to the top level with null. */
export const useMoveFolder = () =>
  useKnowledgeMutation(
    ({ id, parentFolderId }: { id: string; parentFolderId: string | null }) =>
      call(api.PUT('/v2/hc-folders/{id}/move/public', { params: { path: { id } }, body: { parentFolderId } })),
    { refreshOnError: true },
  );

export const useDeleteFolder = () =>
  useKnowledgeMutation(({ id, cascade }: { id: string; cascade: boolean }) =>
    call(api.DELETE('/v2/hc-folders/{id}/public', { params: { path: { id }, query: { cascade: cascade ? 'true' : 'false' } } })),
  );

export const useCreateArticle = () =>
  useKnowledgeMutation((body: ArticleContent & { parentFolderId: string; isDraft: boolean }) =>
    call(api.POST('/v2/hc-articles/public', { body })),
  );

export const useUpdateArticle = () =>
  useKnowledgeMutation(({ id, content }: { id: string; content: ArticleContent }) =>
    call(api.PUT('/v2/hc-articles/{id}/public', { params: { path: { id } }, body: content })),
  );

export const useCreateDraft = () =>
  useKnowledgeMutation(({ id, content }: { id: string; content: ArticleContent }) =>
    call(api.POST('/v2/hc-articles/{id}/draft/public', { params: { path: { id } }, body: content })),
  );

export const usePublishDraft = () =>
  useKnowledgeMutation(({ id, overwrite, force = false }: { id: string; overwrite: boolean; force?: boolean }) =>
    call(api.POST('/v2/hc-articles/{id}/publish/public', { params: { path: { id } }, body: { overwrite, force } })),
  );

export const useRevertArticle = () =>
  useKnowledgeMutation(({ id, version }: { id: string; version: number }) =>
    call(api.POST('/v2/hc-articles/{id}/revert/public', { params: { path: { id } }, body: { version } })),
  );

/** Moves a live article or an open draft to another folder (a new version unless it is already there). */
export const useMoveArticle = () =>
  useKnowledgeMutation(
    ({ id, parentFolderId }: { id: string; parentFolderId: string }) =>
      call(api.PUT('/v2/hc-articles/{id}/move/public', { params: { path: { id } }, body: { parentFolderId } })),
    { refreshOnError: true },
  );

export const useDeleteArticle = () =>
  useKnowledgeMutation((id: string) => call(api.DELETE('/v2/hc-articles/{id}/public', { params: { path: { id } } })));

/** The editable content of an article, as the create, update and draft routes take it. */
export function contentOf(article: ArticleContent): ArticleContent {
  const { title, mainKnowledge, agentInstruction, questions, keywords, escalation } = article;
  return { title, mainKnowledge, agentInstruction, questions, keywords, escalation };
}

export type SearchResult = Schemas['SearchResult'];

/** Knowledge search as an agent runs it (the hit-testing route), with scores and highlights. */
export function useKnowledgeSearch(query: string, botId: string | undefined) {
  return useQuery({
    queryKey: ['knowledge', 'search', query, botId ?? null],
    enabled: query.trim().length > 0,
    queryFn: () => call(api.POST('/v2/knowledge/public/search', { body: { query, botId, limit: 20 } })),
  });
}
