// Query and mutation hooks of the Refine with AI page: a reply's active session, a session by id
// (polled while its latest iteration is queued or running), the drafts a change made, and the
// session's actions (start an iteration with a note, publish, close).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../api/client';

export type RefineSession = Schemas['FixReviewSession'];
export type Iteration = Schemas['FixIteration'];
export type Change = Schemas['FixChange'];
export type NoteWarning = Schemas['FixNoteWarning'];

/** States in which the job has not finished with the iteration yet. */
export function isRunning(iteration: Iteration | null | undefined): boolean {
  return iteration?.status === 'queued' || iteration?.status === 'generating_changes' || iteration?.status === 'replaying';
}

export const refineKeys = {
  all: ['refine'] as const,
  reply: (eventId: string) => ['refine', 'reply', eventId] as const,
  session: (id: string) => ['refine', 'session', id] as const,
};

/**
 * The reply's active session, or null when it has none (an ended session is not returned). The
 * answer is the whole session, so it is also kept as that session's query: the page does not ask
 * for it again.
 */
export function useReplySession(conversationId: string, eventId: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: refineKeys.reply(eventId),
    queryFn: async () => {
      const session = await call(
        api.GET('/v2/fix-review/interactions/{id}/events/{eventId}/session/public', { params: { path: { id: conversationId, eventId } } }),
      );
      if (session) queryClient.setQueryData(refineKeys.session(session.id), session);
      return session;
    },
  });
}

/** A session of any status; looked at again every second while its latest iteration runs. */
export function useRefineSession(id: string | undefined) {
  return useQuery({
    queryKey: refineKeys.session(id ?? ''),
    enabled: id !== undefined,
    queryFn: () => call(api.GET('/v2/fix-review/sessions/{sessionId}/public', { params: { path: { sessionId: id ?? '' } } })),
    refetchInterval: (query) => (isRunning(query.state.data?.latestIteration) ? 1000 : false),
  });
}

/** A mutation after which every refine query (and the knowledge and agents it may change) is read again. */
function useRefineMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: refineKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['knowledge'] });
      await queryClient.invalidateQueries({ queryKey: ['agents'] });
    },
  });
}

/** Queues an iteration for the reply with the lead's note (a new session when none is active). */
export const useStartIteration = () =>
  useRefineMutation(({ conversationId, eventId, feedbackNote }: { conversationId: string; eventId: string; feedbackNote: string }) =>
    call(
      api.POST('/v2/fix-review/interactions/{id}/events/{eventId}/sessions/iterations/public', {
        params: { path: { id: conversationId, eventId } },
        body: { feedbackNote },
      }),
    ),
  );

export const usePublishIteration = () =>
  useRefineMutation(({ sessionId, iterationId, force = false }: { sessionId: string; iterationId: string; force?: boolean }) =>
    call(api.POST('/v2/fix-review/sessions/{sessionId}/iterations/{iterationId}/publish/public', { params: { path: { sessionId, iterationId } }, body: { force } })),
  );

export const useCloseSession = () =>
  useRefineMutation((sessionId: string) => call(api.POST('/v2/fix-review/sessions/{sessionId}/close/public', { params: { path: { sessionId } }, body: {} })));
