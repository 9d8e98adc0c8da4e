// Query and mutation hooks of knowledge generation: the ingested sources to pick from, queueing a
// generate-and-save job per source (the bulk route), and the jobs' states (polled while any runs).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../api/client';

export type KnowledgeJob = Schemas['KnowledgeJob'];
export type Operation = NonNullable<KnowledgeJob['linkedOperation']>;

/** The bulk and status routes take at most this many ids a request. */
const MAX_IDS = 500;
/** The source list route's largest page. */
const SOURCE_PAGE = 200;

export const generationKeys = {
  sources: (filters: PickFilters) => ['generation', 'sources', filters] as const,
  jobs: (ids: string[]) => ['generation', 'jobs', ids] as const,
};

/** Which ingested sources the picker lists. */
export interface PickFilters {
  notLinked: boolean;
  title?: string;
}

const sourceQuery = (filters: PickFilters, cursor?: string, cursorUpdatedAt?: string) => ({
  limit: SOURCE_PAGE,
  success: ['true'] as 'true'[],
  ...(filters.notLinked ? { linkedKnowledge: 'false' as const } : {}),
  ...(filters.title ? { title: filters.title } : {}),
  ...(cursor ? { cursor, cursorUpdatedAt } : {}),
});

/** Ingested sources, most recently updated first, one page of 200 (narrow it with the title). */
export function usePickableSources(filters: PickFilters) {
  return useQuery({
    queryKey: generationKeys.sources(filters),
    queryFn: () => call(api.GET('/v2/documents/public', { params: { query: sourceQuery(filters) } })),
  });
}

/** A source to generate from: its id, and its title to name its job by. */
export interface PickedSource {
  id: string;
  title: string;
}

/** Every ingested source not yet made into an article (all pages of the list route). */
async function allUnlinkedSources(): Promise<PickedSource[]> {
  const found: PickedSource[] = [];
  let cursor: { id: string; updatedAt: string } | undefined;
  for (;;) {
    const page = await call(api.GET('/v2/documents/public', { params: { query: sourceQuery({ notLinked: true }, cursor?.id, cursor?.updatedAt) } }));
    found.push(...page.documents.map((d) => ({ id: d.id, title: d.title || d.url })));
    const last = page.documents[page.documents.length - 1];
    if (!page.hasMore || !last) return found;
    cursor = { id: last.id, updatedAt: last.updatedAt };
  }
}

const chunks = <T,>(items: T[]): T[][] => Array.from({ length: Math.ceil(items.length / MAX_IDS) }, (_, i) => items.slice(i * MAX_IDS, (i + 1) * MAX_IDS));

export interface GenerateInput {
  /** The picked sources, or 'unlinked' for every ingested source without an article. */
  sources: PickedSource[] | 'unlinked';
  botId?: string;
  restrictedOps: Operation[];
  instructions?: string;
  isDraft: boolean;
}

/** Queues one job per source (500 a request); answers the job ids in order and the sources' titles. */
export function useGenerate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ sources, ...options }: GenerateInput) => {
      const picked = sources === 'unlinked' ? await allUnlinkedSources() : sources;
      if (picked.length === 0) throw new Error('There is no ingested source without an article to generate from.');
      const jobs: string[] = [];
      for (const part of chunks(picked)) {
        const queued = await call(api.POST('/v2/knowledge/public/bulk', { body: { documentIds: part.map((s) => s.id), origin: 'sources', ...options } }));
        jobs.push(...queued.jobs.map((j) => j.backgroundJobId));
      }
      return { jobs, titles: new Map(picked.map((s) => [s.id, s.title])) };
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['generation', 'sources'] }),
  });
}

export const isFinished = (job: KnowledgeJob) => job.jobStatus === 'COMPLETED' || job.jobStatus === 'FAILED';

/** The jobs' states in the order asked, looked at again every second until every one has finished. */
export function useJobs(ids: string[]) {
  return useQuery({
    queryKey: generationKeys.jobs(ids),
    enabled: ids.length > 0,
    queryFn: async () => {
      const answers = await Promise.all(chunks(ids).map((jobIds) => call(api.POST('/v2/knowledge/public/jobs/status', { body: { jobIds } }))));
      return answers.flatMap((a) => a.jobs);
    },
    refetchInterval: (query) => (query.state.data?.every(isFinished) ? false : 1000),
  });
}

/** The articles the jobs wrote (titles and states), in one request. */
export function useJobArticles(ids: string[]) {
  return useQuery({
    queryKey: ['knowledge', 'by-ids', ids],
    enabled: ids.length > 0,
    queryFn: () => call(api.POST('/v2/hc-articles/ids/public', { body: { articleIds: ids } })),
  });
}
