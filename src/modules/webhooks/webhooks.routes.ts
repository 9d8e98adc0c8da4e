import { z } from 'zod';
import { defineRoute } from '../../http/route.js';
import { idParamsSchema } from '../../http/schemas.js';
import { presentCreatedWebhook, presentDelivery, presentWebhook } from './webhooks.presenter.js';
import {
  createdWebhookSchema,
  createWebhookBodySchema,
  deliveryListSchema,
  deliveryParamsSchema,
  deliverySchema,
  listDeliveriesQuerySchema,
  rotateSecretBodySchema,
  updateWebhookBodySchema,
  WEBHOOK_EVENT_TYPES,
  webhookSchema,
} from './webhooks.schemas.js';
import { createWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks, redeliver, rotateWebhookSecret, testWebhook, updateWebhook } from './webhooks.service.js';

const tags = ['Webhooks'];
const EVENTS = `Events: ${WEBHOOK_EVENT_TYPES.map((e) => `\`${e}\``).join(', ')} (payloads in docs/webhooks.md).`;
const SIGNING =
  'Each request is a POST of `{ type, timestamp, data }` signed as Standard Webhooks specifies (`webhook-id`, ' +
  '`webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`); verify it with the `standardwebhooks` library and the secret.';

export function webhookRoutes() {
  return [
    defineRoute({
      method: 'GET',
      url: '/v2/webhooks/public',
      auth: 'read',
      tags,
      summary: 'List webhook endpoints',
      description: 'In creation order. The signing secrets are never answered again after creation.',
      response: z.array(webhookSchema),
      handler: async ({ ctx }) => (await listWebhooks(ctx)).map(presentWebhook),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/webhooks/public',
      auth: 'write',
      tags,
      summary: 'Create a webhook endpoint',
      description:
        `Answers the endpoint with its signing secret (\`whsec_\` + base64), shown only here. ${SIGNING} ${EVENTS} ` +
        'The URL is http or https without credentials; a private or loopback address is refused unless the operator sets ' +
        '`PARLEY_FETCH_ALLOW_PRIVATE` (400 naming `body.url`). At most 50 endpoints per workspace (409).',
      body: createWebhookBodySchema,
      status: 201,
      errors: [409],
      response: createdWebhookSchema,
      handler: async ({ ctx, body }) => {
        const { endpoint, secret } = await createWebhook(ctx, body);
        return presentCreatedWebhook(endpoint, secret);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/webhooks/:id/public',
      auth: 'read',
      tags,
      summary: 'Get a webhook endpoint',
      description: 'An endpoint Parley switched off after three days of failures has `enabled: false` and says why in `disabledReason`.',
      params: idParamsSchema,
      errors: [404],
      response: webhookSchema,
      handler: async ({ ctx, params }) => presentWebhook(await getWebhook(ctx, params.id)),
    }),
    defineRoute({
      method: 'PATCH',
      url: '/v2/webhooks/:id/public',
      auth: 'write',
      tags,
      summary: 'Update a webhook endpoint',
      description:
        'Changes the fields given (`url`, `events`, `description`, `enabled`). `enabled: true` turns a disabled endpoint back on ' +
        'with a clean record; deliveries failed meanwhile can be sent again with redeliver.',
      params: idParamsSchema,
      body: updateWebhookBodySchema,
      errors: [404],
      response: webhookSchema,
      handler: async ({ ctx, params, body }) => presentWebhook(await updateWebhook(ctx, params.id, body)),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v2/webhooks/:id/public',
      auth: 'write',
      tags,
      summary: 'Delete a webhook endpoint',
      description: 'Deletes the endpoint and its deliveries (retries still due are dropped). Answers the deleted endpoint.',
      params: idParamsSchema,
      errors: [404],
      response: webhookSchema,
      handler: async ({ ctx, params }) => presentWebhook(await deleteWebhook(ctx, params.id)),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/webhooks/:id/rotate-secret/public',
      auth: 'write',
      tags,
      summary: "Rotate a webhook endpoint's signing secret",
      description:
        'Answers the endpoint with a new signing secret, shown only here. The current secret keeps signing beside it for ' +
        '`keepPreviousHours` (24 by default, at most 168): each request then carries both signatures in `webhook-signature` ' +
        '(space-separated, as Standard Webhooks lists them), so a receiver verifying with either secret accepts it while it ' +
        'switches; `previousSecretExpiresAt` says until when. `0` ends the current secret at once. A rotation replaces an ' +
        'earlier previous secret.',
      params: idParamsSchema,
      body: rotateSecretBodySchema,
      errors: [404],
      response: createdWebhookSchema,
      handler: async ({ ctx, params, body }) => {
        const { endpoint, secret } = await rotateWebhookSecret(ctx, params.id, body);
        return presentCreatedWebhook(endpoint, secret);
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/webhooks/:id/test/public',
      auth: 'write',
      tags,
      summary: 'Send a test message',
      description:
        'Sends a signed `webhook.test` message to the endpoint now, once, and answers the delivery with the outcome ' +
        '(`delivered` or `failed`, the response status and time). Works on a disabled endpoint; a test is not retried and ' +
        'does not count towards disabling.',
      params: idParamsSchema,
      errors: [404],
      response: deliverySchema,
      handler: async ({ ctx, params }) => presentDelivery(await testWebhook(ctx, params.id)),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/webhooks/:id/deliveries/public',
      auth: 'read',
      tags,
      summary: 'List deliveries of a webhook endpoint',
      description:
        'Newest first, with status (`pending`, `delivered`, `failed`), attempts, the last response status and time, the last ' +
        'error and the next retry. Pages: pass `nextCursor` as `cursor` for older ones, `prevCursor` with `direction=previous` ' +
        'for newer ones. `status` filters.',
      params: idParamsSchema,
      querystring: listDeliveriesQuerySchema,
      errors: [404],
      response: deliveryListSchema,
      handler: async ({ ctx, params, query }) => {
        const page = await listDeliveries(ctx, params.id, query);
        return { deliveries: page.rows.map(presentDelivery), hasMore: page.hasMore, nextCursor: page.nextCursor, prevCursor: page.prevCursor };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/webhooks/:id/deliveries/:deliveryId/redeliver/public',
      auth: 'write',
      tags,
      summary: 'Redeliver a message',
      description:
        'Queues the delivery\'s message again as a new delivery (`redeliveryOf`), with the same payload and the same ' +
        '`webhook-id` (receivers drop duplicates by it) and the full retry schedule. 409 when the endpoint is disabled.',
      params: deliveryParamsSchema,
      status: 202,
      errors: [404, 409],
      response: deliverySchema,
      handler: async ({ ctx, params }) => presentDelivery(await redeliver(ctx, params.id, params.deliveryId)),
    }),
  ];
}
