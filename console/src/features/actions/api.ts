// Query and mutation hooks of the Actions page: actions and attributes (the wire `hc-tools`), their
// agents, their external API call steps (`api-function-configs`) and the two test routes.
import { queryOptions, useMutation, useMutationState, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../api/client';

export type Tool = Schemas['Tool'];
export type ToolWithSteps = Schemas['ToolWithSteps'];
export type DataStep = Schemas['DataStep'];
export type ToolRun = Schemas['ToolRun'];
export type StepRecord = Schemas['StepRecord'];
export type InputField = Tool['inputFields'][number];
export type OutputField = Tool['outputFields'][number];
export type FieldType = InputField['type'];

/** What the API answers instead of a sensitive value (and keeps the stored value when sent back). */
export const MASK = '********';
export const FIELD_TYPES: FieldType[] = ['string', 'number', 'boolean'];
export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

/** A step as the create and update routes take it (the request side of the wire). */
export interface StepBody {
  name: string;
  requestMethod: (typeof METHODS)[number];
  requestUrl: string;
  requestHeaders: Record<string, string | { hide: true; value: string }>;
  requestBody?: unknown;
  responseMapping: Record<string, string>;
}

export const toolKeys = {
  all: ['tools'] as const,
  list: (botId: string | null) => ['tools', 'list', botId] as const,
  one: (id: string) => ['tools', 'one', id] as const,
};

/**
 * Actions and attributes in creation order; those assigned to one agent when `botId` is given. The
 * one cache of the list: the Rules page reads it through this too, so a change on either page
 * refreshes both.
 */
export const toolListQuery = (botId: string | null, enabled = true) =>
  queryOptions({
    queryKey: toolKeys.list(botId),
    enabled,
    queryFn: () => call(api.GET('/v2/hc-tools/public', { params: { query: botId ? { botId } : {} } })),
  });

export const useTools = (botId: string | null, enabled = true) => useQuery(toolListQuery(botId, enabled));

/** One action or attribute with its steps in run order (sensitive values as ********). */
export function useTool(id: string) {
  return useQuery({ queryKey: toolKeys.one(id), queryFn: () => call(api.GET('/v2/hc-tools/{id}/public', { params: { path: { id } } })) });
}

/**
 * A mutation that refreshes every action query (lists and records) when it settles: on a failure
 * too, as several mutations send more than one request and the first may have changed the record.
 */
function useToolMutation<I, O>(mutationFn: (input: I) => Promise<O>, mutationKey?: readonly unknown[]) {
  const queryClient = useQueryClient();
  return useMutation({ mutationKey, mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: toolKeys.all }) });
}

export const useCreateTool = () =>
  useToolMutation((body: { name: string; description: string; alwaysGet: boolean }) => call(api.POST('/v2/hc-tools/public', { body: { ...body, source: 'ui' } })));

export const useUpdateTool = () =>
  useToolMutation(({ id, ...body }: { id: string; name?: string; description?: string; inputFields?: InputField[]; outputFields?: OutputField[] }) =>
    call(api.PATCH('/v2/hc-tools/{id}/public', { params: { path: { id } }, body })),
  );

export const useDeleteTool = () => useToolMutation((id: string) => call(api.DELETE('/v2/hc-tools/{id}/public', { params: { path: { id } } })));

type Assignment = { id: string; add: string[]; remove: string[] };

/** Adds and removes agents: one request per direction (the route takes one `action` at a time). */
const assign = async ({ id, add, remove }: Assignment) => {
  if (add.length) await call(api.POST('/v2/hc-tools/{id}/assign/public', { params: { path: { id } }, body: { botIds: add, action: 'ADD' } }));
  if (remove.length) await call(api.POST('/v2/hc-tools/{id}/assign/public', { params: { path: { id } }, body: { botIds: remove, action: 'DELETE' } }));
};

export const useAssignTool = () => useToolMutation(assign);

// The assignment made right after a create, under its own key: the new action's page shows its
// failure (the form is gone by then, and creating again would make a second action).
const assignOnCreateKey = ['tools', 'assign-on-create'] as const;
export const useAssignOnCreate = () => useToolMutation(assign, assignOnCreateKey);

/** The failure of the assignment made when this action was created, while the agent is still not assigned. */
export function useAssignOnCreateError(tool: ToolWithSteps): unknown {
  const failures = useMutationState({
    filters: { mutationKey: assignOnCreateKey, status: 'error' },
    select: (mutation) => ({ variables: mutation.state.variables as Assignment | undefined, error: mutation.state.error }),
  });
  return failures.find(({ variables }) => variables?.id === tool.id && variables.add.some((botId) => !tool.botIds.includes(botId)))?.error ?? null;
}

export const useCreateStep = () =>
  useToolMutation(({ toolId, ...body }: StepBody & { toolId: string }) => call(api.POST('/v2/api-function-configs/public', { body: { ...body, toolId } })));

export const useUpdateStep = () =>
  useToolMutation(({ id, ...body }: Partial<StepBody> & { id: string; stepNumber?: number }) =>
    call(api.PATCH('/v2/api-function-configs/{id}/public', { params: { path: { id } }, body })),
  );

export const useDeleteStep = () => useToolMutation((id: string) => call(api.DELETE('/v2/api-function-configs/{id}/public', { params: { path: { id } } })));

/**
 * Puts the chain in the given order: numbers 1..n, one PATCH per step whose number changes (the
 * API has no reorder route; steps run in ascending `stepNumber`).
 */
export const useReorderSteps = () =>
  useToolMutation(async (steps: DataStep[]) => {
    for (const [index, step] of steps.entries()) {
      if (step.stepNumber !== index + 1) await call(api.PATCH('/v2/api-function-configs/{id}/public', { params: { path: { id: step.id } }, body: { stepNumber: index + 1 } }));
    }
  });

/** Runs the whole chain against the real APIs (write scope: the calls may change data). */
export const useTestTool = () =>
  useMutation({
    mutationFn: ({ id, inputs }: { id: string; inputs: Record<string, unknown> }) => call(api.POST('/v2/hc-tools/{id}/test/public', { params: { path: { id } }, body: { inputs } })),
  });

/** Runs one step alone, with earlier steps' outputs (by step id or name) for its `${step.key}`. */
export const useTestStep = () =>
  useMutation({
    mutationFn: ({ id, inputs, previous }: { id: string; inputs: Record<string, unknown>; previous?: Record<string, Record<string, unknown>> }) =>
      call(api.POST('/v2/api-function-configs/{id}/test/public', { params: { path: { id } }, body: { inputs, ...(previous ? { previous } : {}) } })),
  });
