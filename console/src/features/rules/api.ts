// Query and mutation hooks of the Rules page: intent rules (published and drafts), drafting and
// refining from instructions, updates, publishing, versions with restore, and the test route.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type paths, type Schemas } from '../../api/client';
import { type Tool, toolListQuery } from '../actions/api';
import { useAllTags } from '../tags/api';
import { type FlowNames, type FlowNode, hasNodeOfType } from './flow';

export type Rule = Schemas['Rule'];
export type RuleSummary = Schemas['RuleSummary'];
export type DraftWarning = Schemas['RuleDraftWarning'];
export type RuleTestResult = Schemas['RuleTestResult'];
export type FlowState = Schemas['FlowState'];
export type RuleVersion = Schemas['RuleVersion'];

export const ruleKeys = {
  all: ['rules'] as const,
  list: (drafts: boolean) => ['rules', 'list', drafts] as const,
  one: (id: string) => ['rules', 'one', id] as const,
  versions: (id: string) => ['rules', 'versions', id] as const,
  version: (id: string, versionId: string) => ['rules', 'version', id, versionId] as const,
  /** The warnings of the latest draft or refinement (the API answers them only then). */
  warnings: (id: string) => ['rules', 'warnings', id] as const,
};

/**
 * Published intent rules, or drafts (`drafts`), newest change first; asked for only when `enabled`.
 * The one cache of the list (the Analytics filters read it too), refreshed by every rule change.
 */
export function useRules(drafts: boolean, enabled = true) {
  return useQuery({
    queryKey: ruleKeys.list(drafts),
    enabled,
    queryFn: () => call(api.GET('/v2/hc-rules/public', { params: { query: { isDraft: drafts ? 'true' : 'false', type: 'intent' } } })),
  });
}

export function useRule(id: string) {
  return useQuery({ queryKey: ruleKeys.one(id), queryFn: () => call(api.GET('/v2/hc-rules/{id}/public', { params: { path: { id } } })) });
}

/** The warnings kept from the draft or refine answer of this session (undefined when none was seen). */
export function useDraftWarnings(id: string) {
  return useQuery<DraftWarning[] | null>({ queryKey: ruleKeys.warnings(id), queryFn: () => null, staleTime: Infinity, gcTime: Infinity });
}

export function useVersions(id: string) {
  return useQuery({ queryKey: ruleKeys.versions(id), queryFn: () => call(api.GET('/v2/hc-rules/{id}/versions/public', { params: { path: { id } } })) });
}

/** One version with its flow (the list has none). */
export function useVersion(id: string, versionId: string | null) {
  return useQuery({
    queryKey: ruleKeys.version(id, versionId ?? ''),
    enabled: versionId !== null,
    queryFn: () => call(api.GET('/v2/hc-rules/{id}/versions/{versionId}/public', { params: { path: { id, versionId: versionId ?? '' } } })),
  });
}

/** A mutation that refreshes every rule query once it succeeded. */
function useRuleMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: ruleKeys.all, predicate: (q) => q.queryKey[1] !== 'warnings' }) });
}

/** A draft rule from plain instructions; its warnings are kept for the rule's page. */
export function useDraftRule() {
  const queryClient = useQueryClient();
  return useRuleMutation(async (behaviorInstructions: string) => {
    const drafted = await call(api.POST('/v2/hc-rules/draft/public', { body: { behaviorInstructions, source: 'ui' } }));
    queryClient.setQueryData(ruleKeys.warnings(drafted.id), drafted.warnings);
    return drafted;
  });
}

export function useRefineRule() {
  const queryClient = useQueryClient();
  return useRuleMutation(async ({ id, refinementInstructions }: { id: string; refinementInstructions: string }) => {
    const refined = await call(api.POST('/v2/hc-rules/{id}/refine/public', { params: { path: { id } }, body: { refinementInstructions } }));
    queryClient.setQueryData(ruleKeys.warnings(id), refined.warnings);
    return refined;
  });
}

export const useCreateRule = () =>
  useRuleMutation((body: { name: string; description: string }) => call(api.POST('/v2/hc-rules/public', { body: { ...body, source: 'ui' } })));

/** The flow is typed loosely here (flow.ts); the API validates it and names what it refuses. */
type PatchBody = paths['/v2/hc-rules/{id}/public']['patch']['requestBody']['content']['application/json'];
type RuleChange = { name?: string; description?: string; flowConfig?: FlowNode | null; botIds?: string[]; triggerType?: 'on_message' | 'on_escalation' };

/** A change; a published rule gets a new version (`baseVersion` makes a stale change a 409). */
export function useUpdateRule() {
  const queryClient = useQueryClient();
  return useRuleMutation(async ({ id, change, baseVersion }: { id: string; change: RuleChange; baseVersion?: number }) => {
    const body = { ...change, ...(baseVersion ? { baseVersion } : {}) } as PatchBody;
    const updated = await call(api.PATCH('/v2/hc-rules/{id}/public', { params: { path: { id } }, body }));
    // The lead wrote the flow: the draft's warnings are cleared by the API.
    if (change.flowConfig !== undefined) queryClient.setQueryData(ruleKeys.warnings(id), []);
    return updated;
  });
}

export const useDeleteRule = () => useRuleMutation((id: string) => call(api.DELETE('/v2/hc-rules/{id}/public', { params: { path: { id } } })));

export const usePublishRule = () =>
  useRuleMutation(({ id, botIds, acceptWarnings, force = false }: { id: string; botIds: string[]; acceptWarnings: boolean; force?: boolean }) =>
    call(api.POST('/v2/hc-rules/{id}/publish/public', { params: { path: { id } }, body: { botIds, acceptWarnings, force } })),
  );

export const useRestoreVersion = () =>
  useRuleMutation(({ id, versionId }: { id: string; versionId: string }) =>
    call(api.POST('/v2/hc-rules/{id}/versions/{versionId}/restore/public', { params: { path: { id, versionId } } })),
  );

/** A dry run of one customer message (nothing is stored): a mutation, as each message is sent once. */
export const useTestRule = () =>
  useMutation({
    mutationFn: ({ id, message, state, context }: { id: string; message: string; state?: FlowState; context?: Record<string, unknown> }) =>
      call(api.POST('/v2/hc-rules/{id}/test/public', { params: { path: { id } }, body: { message, ...(state ? { state } : {}), ...(context ? { context } : {}) } })),
  });

const onlyActions = (tools: Tool[]) => tools.filter((tool) => !tool.alwaysGet);

/**
 * The workspace's actions (a tool node's picker and names; attributes are not called by a flow);
 * asked for only when `enabled`. Read from the Actions page's cache of the list, so an action
 * created or renamed there is seen here.
 */
export function useActions(enabled = true) {
  return useQuery({ ...toolListQuery(null, enabled), select: onlyActions });
}

/** Every tag the workspace sees (its own and the system ones), for tag nodes: the Tags page's one cache. */
export const useTags = useAllTags;

/** The names of the actions and tags the flows use, asked for only when they have tool or tag nodes. */
export function useFlowNames(...flows: (FlowNode | null | undefined)[]): FlowNames {
  const actions = useActions(flows.some((flow) => hasNodeOfType(flow, 'tool')));
  const tags = useTags(flows.some((flow) => hasNodeOfType(flow, 'tag')));
  return {
    action: (id) => actions.data?.find((a) => a.id === id)?.name ?? id,
    tag: (id) => tags.data?.find((t) => t.id === id)?.tagName ?? id,
  };
}
