// Query and mutation hooks of the Webhooks page (docs/webhooks.md): the workspace's endpoints, one
// endpoint, its deliveries in keyset pages, and create, edit, delete, test and redeliver.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../api/client';

export type Webhook = Schemas['Webhook'];
export type CreatedWebhook = Schemas['CreatedWebhook'];
export type Delivery = Schemas['WebhookDelivery'];
export type WebhookEvent = Webhook['events'][number];
export type DeliveryStatus = Delivery['status'];

/**
 * Every event type an endpoint can subscribe to, in the API's order, with what sends it. A Record
 * of the schema's type: an event type added to the API is a type error here until it is described.
 */
export const EVENT_TYPES: Record<WebhookEvent, string> = {
  'conversation.created': "a conversation's first event is stored",
  'conversation.escalated': 'the agent handed a conversation over to a person',
  'conversation.answered': 'the agent replied to a customer message',
  'conversation.feedback': 'feedback was given on an agent reply',
  'conversation.released': 'a person handed a conversation back to the agent',
  'article.published': 'a draft was published',
  'source.ingested': "a source's ingestion completed",
  'source.failed': "a source's ingestion failed",
  'refine.iteration.ready': 'a Refine with AI iteration has changes to review',
  'testrun.regressed': 'a test run fails a case that passed in the previous run',
};

export const DELIVERY_STATUSES: Record<DeliveryStatus, string> = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' };

/** Where the deliveries list is in the keyset: a cursor and its direction, or the newest page. */
export interface DeliveryPage {
  cursor?: string;
  direction?: 'next' | 'previous';
}

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: ['webhooks', 'list'] as const,
  one: (id: string) => ['webhooks', 'one', id] as const,
  deliveries: (id: string, status: DeliveryStatus | undefined, page: DeliveryPage) => ['webhooks', 'deliveries', id, status, page] as const,
};

/** Every endpoint, in creation order. */
export function useWebhooks() {
  return useQuery({ queryKey: webhookKeys.list, queryFn: () => call(api.GET('/v2/webhooks/public', {})) });
}

export function useWebhook(id: string) {
  return useQuery({ queryKey: webhookKeys.one(id), queryFn: () => call(api.GET('/v2/webhooks/{id}/public', { params: { path: { id } } })) });
}

/** A delivery whose attempt is due within a minute (queued, or retried soon): the list looks again until it ends. */
const dueSoon = (d: Delivery) => d.status === 'pending' && (d.nextAttemptAt === null || Date.parse(d.nextAttemptAt) - Date.now() < 60_000);

/** A page of the endpoint's deliveries, newest first, 25 at a time; read every second while one is due soon. */
export function useDeliveries(id: string, status: DeliveryStatus | undefined, page: DeliveryPage) {
  return useQuery({
    queryKey: webhookKeys.deliveries(id, status, page),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.deliveries.some(dueSoon) ? 1000 : false),
    queryFn: () =>
      call(api.GET('/v2/webhooks/{id}/deliveries/public', { params: { path: { id }, query: { limit: 25, status, cursor: page.cursor, direction: page.direction ?? 'next' } } })),
  });
}

function useWebhookMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }) });
}

export const useCreateWebhook = () =>
  useWebhookMutation((body: { url: string; events: WebhookEvent[]; description: string }) => call(api.POST('/v2/webhooks/public', { body })));

export const useUpdateWebhook = () =>
  useWebhookMutation(({ id, body }: { id: string; body: { url?: string; events?: WebhookEvent[]; description?: string; enabled?: boolean } }) =>
    call(api.PATCH('/v2/webhooks/{id}/public', { params: { path: { id } }, body })),
  );

export const useDeleteWebhook = () => useWebhookMutation((id: string) => call(api.DELETE('/v2/webhooks/{id}/public', { params: { path: { id } } })));

/** A new signing secret (answered once); the current one keeps signing beside it for `keepPreviousHours`. */
export const useRotateSecret = () =>
  useWebhookMutation(({ id, keepPreviousHours }: { id: string; keepPreviousHours: number }) =>
    call(api.POST('/v2/webhooks/{id}/rotate-secret/public', { params: { path: { id } }, body: { keepPreviousHours } })),
  );

/** Sends a `webhook.test` message now, once: the delivery with its outcome. */
export const useTestWebhook = () => useWebhookMutation((id: string) => call(api.POST('/v2/webhooks/{id}/test/public', { params: { path: { id } } })));

/** The delivery's message again, as a new delivery (pending) with the same `webhook-id`. */
export const useRedeliver = () =>
  useWebhookMutation(({ id, deliveryId }: { id: string; deliveryId: string }) =>
    call(api.POST('/v2/webhooks/{id}/deliveries/{deliveryId}/redeliver/public', { params: { path: { id, deliveryId } } })),
  );
