// Query and mutation hooks of the Sources page: the list with its filters and keyset paging, one
// source (polled while its job runs), adding URLs, a site's deep crawl, uploading files, refreshing.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type paths, type Schemas } from '../../api/client';

export type Source = Schemas['Document'];
type ListQuery = paths['/v2/documents/public']['get']['parameters']['query'];

/** The list's filters, as the route takes them (a yes/no filter is omitted for "any"). */
export interface SourceFilters {
  source?: Source['source'];
  success?: 'true' | 'false';
  linkedKnowledge?: 'true' | 'false';
  changed?: 'true';
  title?: string;
  url?: string;
}

/** Where the list is in the keyset: after or before a source (and where that source was). */
export interface SourcePage {
  cursor?: string;
  cursorUpdatedAt?: string;
  direction?: 'next' | 'previous';
}

const running = (source: Source) => source.linkedJobStatus === 'PENDING' || source.linkedJobStatus === 'IN_PROGRESS';

export const sourceKeys = {
  all: ['sources'] as const,
  list: (filters: SourceFilters, page: SourcePage) => ['sources', 'list', filters, page] as const,
  one: (id: string) => ['sources', 'one', id] as const,
};

export function useSources(filters: SourceFilters, page: SourcePage) {
  return useQuery({
    queryKey: sourceKeys.list(filters, page),
    placeholderData: keepPreviousData,
    queryFn: () => call(api.GET('/v2/documents/public', { params: { query: { limit: 25, ...filters, ...page } as ListQuery } })),
    // Sources being ingested change state on their own: look again until none is.
    refetchInterval: (query) => (query.state.data?.documents.some(running) ? 1000 : false),
  });
}

export function useSource(id: string) {
  return useQuery({
    queryKey: sourceKeys.one(id),
    queryFn: () => call(api.GET('/v2/documents/public/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => (query.state.data && running(query.state.data) ? 1000 : false),
  });
}

function useSourceMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: sourceKeys.all }) });
}

/** Web pages by URL: new ones are created, known ones refreshed (one ingestion job each). */
export const useAddUrls = () =>
  useSourceMutation((urls: string[]) => call(api.POST('/v2/documents/public', { body: { source: 'web', documentIdsToAdd: urls } })));

/** One file as a `files` source, sent as multipart form data. */
export const useUpload = () =>
  useSourceMutation(({ file, title }: { file: File; title?: string }) =>
    call(
      // The client sends a body with a File as multipart form data.
      api.POST('/v2/documents/public/files', { body: { file, ...(title ? { title } : {}) } }),
    ),
  );

export interface CrawlInput {
  links: string[];
  limit: number;
  maxDepth: number;
  include?: string[];
  exclude?: string[];
}

/** Discovers a site's pages (nothing is created): the URLs found and what happened. */
export const useCrawl = () => useMutation({ mutationFn: (body: CrawlInput) => call(api.POST('/v2/documents/public/deep-crawl/links', { body })) });

export const useRefresh = () =>
  useSourceMutation((documentIds: string[]) => call(api.POST('/v2/documents/public/refresh', { body: { documentIds } })));
