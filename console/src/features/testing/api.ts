// Query and mutation hooks of the Tests page (docs/testing.md): an agent's test cases in keyset
// pages (by tag), one case, create, edit and delete; runs queued, one run (read every second until
// it has ended) and the agent's runs history.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type paths, type Schemas } from '../../api/client';

export type TestCase = Schemas['TestCase'];
/** The body of a new case (and of its edit: the edit route replaces the fields given, here all of them). */
export type CaseBody = NonNullable<paths['/v2/bots/{id}/test-cases/public']['post']['requestBody']>['content']['application/json'];
export type Expectation = Schemas['StoredTestExpectation'];
export type TestRun = Schemas['TestRun'];
export type RunSummary = Schemas['TestRunSummary'];
export type CaseResult = TestRun['cases'][number];
export type HandoverReason = NonNullable<Expectation['handoverReason']>;

/** Each hand-over reason an expectation may name, in words. A Record: a reason added to the API is a type error here. */
export const HANDOVER_REASONS: Record<HandoverReason, string> = {
  missing_knowledge: 'Missing knowledge',
  customer_request: 'The customer asked for a person',
  rule_escalation: 'A rule handed over',
  guardrail_block: 'A guardrail blocked the reply',
  tool_failure: 'An action failed',
  low_confidence: 'Low confidence',
  negative_sentiment: 'Negative sentiment',
  other: 'Other',
};

export const TRIGGERS: Record<TestRun['trigger'], string> = { api: 'Run', schedule: 'Schedule', gate: 'Publish gate' };

/** Where a keyset list is: a cursor and its direction, or the newest page. */
export interface Page {
  cursor?: string;
  direction?: 'next' | 'previous';
}

export const testingKeys = {
  all: ['testing'] as const,
  cases: (agentId: string, tag: string | undefined, page: Page) => ['testing', 'cases', agentId, tag, page] as const,
  one: (caseId: string) => ['testing', 'case', caseId] as const,
  runs: (agentId: string, page: Page) => ['testing', 'runs', agentId, page] as const,
  run: (runId: string) => ['testing', 'run', runId] as const,
};

export const isRunOver = (run: Pick<TestRun, 'state'>) => run.state === 'completed' || run.state === 'failed';

/** A page of the agent's cases, newest first, 25 at a time, optionally those with a tag. */
export function useTestCases(agentId: string, tag: string | undefined, page: Page) {
  return useQuery({
    queryKey: testingKeys.cases(agentId, tag, page),
    placeholderData: keepPreviousData,
    queryFn: () =>
      call(api.GET('/v2/bots/{id}/test-cases/public', { params: { path: { id: agentId }, query: { limit: 25, tag, cursor: page.cursor, direction: page.direction ?? 'next' } } })),
  });
}

export function useTestCase(caseId: string) {
  return useQuery({ queryKey: testingKeys.one(caseId), queryFn: () => call(api.GET('/v2/test-cases/{caseId}/public', { params: { path: { caseId } } })) });
}

/** A page of the agent's runs, newest first; read every second while one of them has not ended. */
export function useTestRuns(agentId: string, page: Page) {
  return useQuery({
    queryKey: testingKeys.runs(agentId, page),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.testRuns.some((r) => !isRunOver(r)) ? 1000 : false),
    queryFn: () => call(api.GET('/v2/bots/{id}/test-runs/public', { params: { path: { id: agentId }, query: { limit: 20, cursor: page.cursor, direction: page.direction ?? 'next' } } })),
  });
}

/** One run with each case's results; read every second until it has completed or failed. */
export function useTestRun(runId: string) {
  return useQuery({
    queryKey: testingKeys.run(runId),
    refetchInterval: (query) => (query.state.data && isRunOver(query.state.data) ? false : 1000),
    queryFn: () => call(api.GET('/v2/test-runs/{id}/public', { params: { path: { id: runId } } })),
  });
}

function useTestingMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: testingKeys.all }) });
}

export const useCreateTestCase = () =>
  useTestingMutation(({ agentId, body }: { agentId: string; body: CaseBody }) => call(api.POST('/v2/bots/{id}/test-cases/public', { params: { path: { id: agentId } }, body })));

export const useUpdateTestCase = () =>
  useTestingMutation(({ caseId, body }: { caseId: string; body: CaseBody }) => call(api.PATCH('/v2/test-cases/{caseId}/public', { params: { path: { caseId } }, body })));

export const useDeleteTestCase = () => useTestingMutation((caseId: string) => call(api.DELETE('/v2/test-cases/{caseId}/public', { params: { path: { caseId } } })));

/** Queues a run of the agent's cases (those with any of `tags`, or all), each k times: the run, queued. */
export const useStartRun = () =>
  useTestingMutation(({ agentId, k, tags }: { agentId: string; k: number; tags: string[] }) =>
    call(api.POST('/v2/bots/{id}/test-runs/public', { params: { path: { id: agentId } }, body: { k, ...(tags.length > 0 ? { tags } : {}) } })),
  );
