// Query and mutation hooks of an agent's widget keys (docs/widget.md): the publishable `pk_...`
// keys a web page embeds the chat widget with. A key is not a secret: the API lists it in full.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../api/client';

export type WidgetKey = Schemas['WidgetKey'];
export interface WidgetKeyFields {
  name: string;
  allowedOrigins: string[];
  visitorRateLimit?: number;
}

export const widgetKeyKeys = {
  all: ['widget-keys'] as const,
  ofAgent: (agentId: string) => ['widget-keys', agentId] as const,
};

/** The agent's keys, oldest first. */
export function useWidgetKeys(agentId: string) {
  return useQuery({
    queryKey: widgetKeyKeys.ofAgent(agentId),
    queryFn: () => call(api.GET('/v2/bots/{id}/widget-keys/public', { params: { path: { id: agentId } } })),
  });
}

function useWidgetKeyMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: widgetKeyKeys.all }) });
}

export const useCreateWidgetKey = () =>
  useWidgetKeyMutation(({ agentId, body }: { agentId: string; body: WidgetKeyFields }) =>
    call(api.POST('/v2/bots/{id}/widget-keys/public', { params: { path: { id: agentId } }, body })),
  );

export const useDeleteWidgetKey = () => useWidgetKeyMutation((id: string) => call(api.DELETE('/v2/widget-keys/{id}/public', { params: { path: { id } } })));

/** The script tag that embeds the widget with a key: the widget is served by this Parley, next to the console. */
export function embedSnippet(key: string): string {
  return `<script src="${window.location.origin}/widget.js" data-key="${key}" async></script>`;
}

/** The demo page of this Parley that runs the widget with a key. */
export function demoUrl(key: string): string {
  return `${window.location.origin}/widget/demo?key=${encodeURIComponent(key)}`;
}
