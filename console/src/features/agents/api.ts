// Query and mutation hooks of the Agents page (and the agent pickers of other pages): agents,
// their folders (junctions) and their prompts with history.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../api/client';

export type Agent = Schemas['Agent'];
export type AgentPrompt = Schemas['AgentPrompt'];

export const agentKeys = {
  all: ['agents'] as const,
  prompt: (id: string) => ['agents', 'prompt', id] as const,
  history: (id: string) => ['agents', 'history', id] as const,
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
