// Query and mutation hooks of the Agents page (and the agent pickers of other pages): agents,
// their folders (junctions), their prompts with history, and prompt drafts (edit, publish, discard).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../api/client';

export type Agent = Schemas['Agent'];
export type AgentPrompt = Schemas['AgentPrompt'];
export type PromptDraft = Schemas['PromptDraft'];
export type PromptSection = Schemas['PromptSection'];
export type ChannelSection = Schemas['ChannelPromptSection'];
/** The three prompts of a save or a draft, each the full list of its sections. */
export type PromptSet = Pick<PromptDraft, 'hcPlanningPrompt' | 'hcGuidelinePrompt' | 'hcChannelPrompt'>;

export const agentKeys = {
  all: ['agents'] as const,
  prompt: (id: string) => ['agents', 'prompt', id] as const,
  history: (id: string) => ['agents', 'history', id] as const,
  drafts: (id: string) => ['agents', 'drafts', id] as const,
  draft: (id: string) => ['agents', 'draft', id] as const,
};

/** The workspace's agents, most recently updated first. */
export function useAgents() {
  return useQuery({ queryKey: agentKeys.all, queryFn: () => call(api.GET('/v2/bots/public', {})) });
}

export function usePrompt(id: string) {
  return useQuery({
    queryKey: agentKeys.prompt(id),
    queryFn: () => call(api.GET('/v2/bots/{id}/hc-prompt/public', { params: { path: { id } } })),
  });
}

export function usePromptHistory(id: string) {
  return useQuery({
    queryKey: agentKeys.history(id),
    queryFn: () => call(api.GET('/v2/bots/{id}/hc-prompt/history/public', { params: { path: { id } } })),
  });
}

/** The agent's open prompt drafts, most recently updated first. */
export function usePromptDrafts(agentId: string) {
  return useQuery({
    queryKey: agentKeys.drafts(agentId),
    queryFn: async () => (await call(api.GET('/v2/bots/{id}/hc-prompt/drafts/public', { params: { path: { id: agentId }, query: { status: 'draft' } } }))).drafts,
  });
}

/** One prompt draft of any status (its sections, to edit or to compare with the live prompt). */
export function usePromptDraft(agentId: string, draftId: string) {
  return useQuery({
    queryKey: agentKeys.draft(draftId),
    queryFn: () => call(api.GET('/v2/bots/{id}/hc-prompt/drafts/{draftId}/public', { params: { path: { id: agentId, draftId } } })),
  });
}

/** A mutation that refreshes the agents (and the folder tree, which names each folder's agents). */
function useAgentMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: agentKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['knowledge', 'tree'] });
    },
  });
}

export const useCreateAgent = () => useAgentMutation((name: string) => call(api.POST('/v2/bots/public', { body: { name } })));

export const useRenameAgent = () =>
  useAgentMutation(({ id, name }: { id: string; name: string }) => call(api.PATCH('/v2/bots/{id}/public', { params: { path: { id } }, body: { name } })));

export const useDeleteAgent = () => useAgentMutation((id: string) => call(api.DELETE('/v2/bots/{id}/public', { params: { path: { id } } })));

/** Assigns and unassigns folders in one transaction (the junctions route). */
export const useAssignFolders = () =>
  useAgentMutation((junctions: { folderId: string; botId: string; action: 'ADD' | 'DELETE' }[]) =>
    call(api.POST('/v2/hc-bot-folder-junctions/public', { body: { junctions } })),
  );

/** A new draft copied from the live prompts (nothing changes for the agent until it is published). */
export const useCreatePromptDraft = () =>
  useAgentMutation((agentId: string) => call(api.POST('/v2/bots/{id}/hc-prompt/drafts/public', { params: { path: { id: agentId } }, body: {} })));

export const useSavePromptDraft = () =>
  useAgentMutation(({ agentId, draftId, prompts, note }: { agentId: string; draftId: string; prompts: PromptSet; note: string }) =>
    call(api.PUT('/v2/bots/{id}/hc-prompt/drafts/{draftId}/public', { params: { path: { id: agentId, draftId } }, body: { ...prompts, note } })),
  );

/**
 * Publishes a draft as the agent's next version; 409 when a version was saved since, unless
 * overwrite, and when the test gate finds cases it breaks, unless force.
 */
export const usePublishPromptDraft = () =>
  useAgentMutation(({ agentId, draftId, overwrite, force = false }: { agentId: string; draftId: string; overwrite: boolean; force?: boolean }) =>
    call(api.POST('/v2/bots/{id}/hc-prompt/drafts/{draftId}/publish/public', { params: { path: { id: agentId, draftId } }, body: { overwrite, force } })),
  );

export const useDiscardPromptDraft = () =>
  useAgentMutation(({ agentId, draftId }: { agentId: string; draftId: string }) =>
    call(api.DELETE('/v2/bots/{id}/hc-prompt/drafts/{draftId}/public', { params: { path: { id: agentId, draftId } } })),
  );
