// Query and mutation hooks of the Conversations page (and of Try the agent, which talks through
// the same Generate Answer route): the inbox, one conversation, a reply's trace, feedback, replies,
// and the release of a conversation the human team holds.
import { keepPreviousData, queryOptions, useMutation, usePrefetchQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../api/client';
import { useAllTags } from '../tags/api';

export type Conversation = Schemas['Interaction'];
export type ConversationEvent = Schemas['InteractionEvent'];
export type Trace = Schemas['EventMetadata'];
export type ConversationStatus = Conversation['status'];

export const STATUSES: ConversationStatus[] = ['Waiting for Customer', 'Escalated to Human Agent', 'Resolved by AI', 'Unresolved', 'No Reply'];

/** The inbox's filters as the list route takes them; a window is two ISO dates (days). */
export interface InboxFilters {
  status: string[];
  channel: string[];
  source: string[];
  tagIds: string[];
  botId?: string;
  since?: string;
  until?: string;
}

/** Where the inbox is in the keyset: a cursor and its direction, or the newest page. */
export interface InboxPage {
  cursor?: string;
  direction?: 'next' | 'previous';
}

export const conversationKeys = {
  all: ['conversations'] as const,
  list: (filters: InboxFilters, page: InboxPage) => ['conversations', 'list', filters, page] as const,
  one: (id: string) => ['conversations', 'one', id] as const,
  trace: (eventId: string) => ['conversations', 'trace', eventId] as const,
};

/** A list filter: omitted when empty (the route takes a comma list). */
const listParam = (values: string[]) => (values.length ? values.join(',') : undefined);

const inboxQuery = (filters: InboxFilters, page: InboxPage) =>
  queryOptions({
    queryKey: conversationKeys.list(filters, page),
    queryFn: () =>
      call(
        api.GET('/v2/hc-interactions/public', {
          params: {
            query: {
              limit: 25,
              status: listParam(filters.status),
              channel: listParam(filters.channel),
              source: listParam(filters.source),
              tagIds: listParam(filters.tagIds),
              botId: filters.botId,
              since: filters.since ? new Date(`${filters.since}T00:00:00`).toISOString() : undefined,
              until: filters.until ? new Date(`${filters.until}T23:59:59.999`).toISOString() : undefined,
              cursor: page.cursor,
              direction: page.direction,
            },
          },
        }),
      ),
  });

/**
 * The inbox's page of conversations. It is asked for as the inbox renders (usePrefetchQuery), not
 * once its filters have rendered and mounted: that took 50 to 100 ms of a first load (bench/console).
 */
export function useInbox(filters: InboxFilters, page: InboxPage) {
  usePrefetchQuery(inboxQuery(filters, page));
  return useQuery({ ...inboxQuery(filters, page), placeholderData: keepPreviousData });
}

export function useConversation(id: string | undefined) {
  return useQuery({
    queryKey: conversationKeys.one(id ?? ''),
    enabled: id !== undefined,
    queryFn: () => call(api.GET('/v2/hc-interactions/{id}/public', { params: { path: { id: id ?? '' } } })),
  });
}

/** What the agent did for one reply: the event's metadata trace. */
export function useTrace(eventId: string) {
  return useQuery({
    queryKey: conversationKeys.trace(eventId),
    staleTime: Infinity, // a stored reply's trace never changes
    queryFn: () => call(api.GET('/v2/hc-events/{id}/metadata', { params: { path: { id: eventId } } })),
  });
}

/** The inbox's tag filter reads the Tags page's one cache of the list. */
export const useTags = () => useAllTags();

function useConversationMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: conversationKeys.all }) });
}

/** Generate Answer: a customer message (the agent answers) or a human agent's reply (role `agent`). */
export const usePostEvent = () =>
  useConversationMutation(
    (body: { content: string; role: 'user' | 'agent'; interactionId?: string; botId?: string; type?: 'message' | 'internal_comment' }) =>
      call(api.POST('/v2/hc-interactions/events/public', { body })),
  );

export const useFeedback = () =>
  useConversationMutation(({ eventId, ...body }: { eventId: string; csatRating?: number; resolved?: boolean; feedback?: string }) =>
    call(api.POST('/v2/hc-events/{id}/feedback/public', { params: { path: { id: eventId } }, body })),
  );

export const useEvaluate = () =>
  useConversationMutation((id: string) => call(api.POST('/v2/hc-interactions/{id}/evaluate/public', { params: { path: { id } } })));

/**
 * Gives a conversation the human team holds back to the agent. The conversations are read again
 * also after a refusal: a 409 says someone released it meanwhile, which the page should then show.
 */
export function useRelease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(api.POST('/v2/hc-interactions/{id}/release/public', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: conversationKeys.all }),
  });
}
