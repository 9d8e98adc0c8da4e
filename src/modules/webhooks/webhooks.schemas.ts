import { z } from 'zod';
import { documentedAs, uuidSchema } from '../../http/schemas.js';

/**
 * The events an endpoint can subscribe to (docs/webhooks.md gives each payload). `webhook.test` is
 * what the test route sends; it cannot be subscribed to.
 */
export const WEBHOOK_EVENT_TYPES = [
  'conversation.created',
  'conversation.escalated',
  'conversation.answered',
  'conversation.feedback',
  'conversation.released',
  'article.published',
  'source.ingested',
  'source.failed',
  'refine.iteration.ready',
  'testrun.regressed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const TEST_EVENT_TYPE = 'webhook.test';

/** The JSON body of every message (delivery.service.ts `messageBody`), `WebhookMessage` in the OpenAPI document. */
const webhookMessageSchema = z
  .strictObject({
    type: z.enum([...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE]),
    timestamp: z.iso.datetime(),
    data: z.record(z.string(), z.unknown()).describe("the event's payload (docs/webhooks.md lists each event's fields)"),
  })
  .meta({ id: 'WebhookMessage', description: 'A webhook message as sent (Standard Webhooks: `{ type, timestamp, data }`).' });

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const LIMITS = { endpointsPerWorkspace: 50, urlChars: 2_000, descriptionChars: 500, previousSecretHours: 168 } as const;
/** Hours the previous secret keeps signing after a rotation, unless the request says otherwise. */
export const DEFAULT_PREVIOUS_SECRET_HOURS = 24;

const urlField = z.string().trim().min(1).max(LIMITS.urlChars).describe('an http or https URL that receives the events with POST');
const eventsField = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .refine((events) => new Set(events).size === events.length, { message: 'each event at most once' })
  .describe('the event types sent to this endpoint');

const example = { url: 'https://hooks.example.com/parley', events: ['conversation.escalated', 'source.failed'], description: 'Escalations to the on-call channel' };

export const createWebhookBodySchema = z
  .strictObject({
    url: urlField,
    events: eventsField,
    description: z.string().max(LIMITS.descriptionChars).default(''),
  })
  .meta({ examples: [example] });
export type CreateWebhookBody = z.output<typeof createWebhookBodySchema>;

export const updateWebhookBodySchema = z
  .strictObject({
    url: urlField.optional(),
    events: eventsField.optional(),
    description: z.string().max(LIMITS.descriptionChars).optional(),
    enabled: z.boolean().optional().describe('`true` turns a disabled endpoint back on (its failure history starts afresh)'),
  })
  .meta({ examples: [{ enabled: true }, { events: ['conversation.escalated'] }] });
export type UpdateWebhookBody = z.output<typeof updateWebhookBodySchema>;

export const rotateSecretBodySchema = z
  .strictObject({
    keepPreviousHours: z
      .int()
      .min(0)
      .max(LIMITS.previousSecretHours)
      .default(DEFAULT_PREVIOUS_SECRET_HOURS)
      .describe('hours the current secret keeps signing beside the new one, so receivers can switch without refusing a message; 0 stops it at once'),
  })
  .nullish()
  .describe(`optional: no body keeps the current secret signing for ${DEFAULT_PREVIOUS_SECRET_HOURS} hours`)
  .meta({ examples: [{ keepPreviousHours: 24 }, { keepPreviousHours: 0 }] });
export type RotateSecretBody = z.output<typeof rotateSecretBodySchema>;

export const webhookSchema = z
  .object({
    id: z.uuid(),
    companyId: z.uuid(),
    url: z.string(),
    description: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    enabled: z.boolean(),
    disabledReason: z.string().nullable().describe('why Parley switched the endpoint off (null when enabled, or disabled by a client)'),
    disabledAt: z.iso.datetime().nullable(),
    failingSince: z.iso.datetime().nullable().describe('the first failed attempt since the last success'),
    previousSecretExpiresAt: z.iso
      .datetime()
      .nullable()
      .describe('after a rotation that kept the previous secret, when it stops signing beside the current one (a past time once it has); null otherwise'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Webhook' });

export const createdWebhookSchema = webhookSchema
  .extend({ secret: z.string().describe('the signing secret, `whsec_` + base64: shown only in this answer (at creation, or at a rotation)') })
  .meta({ id: 'CreatedWebhook' });

export const deliverySchema = z
  .object({
    id: z.uuid(),
    webhookId: z.uuid(),
    messageId: z.string().describe('the `webhook-id` header: the same on every retry and redelivery of the message'),
    eventType: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.int(),
    responseStatus: z.int().nullable().describe('HTTP status of the last attempt (null when no answer came)'),
    responseTimeMs: z.int().nullable().describe('duration of the last attempt'),
    lastError: z.string().nullable(),
    lastAttemptAt: z.iso.datetime().nullable(),
    nextAttemptAt: z.iso.datetime().nullable().describe('when the next retry is due (pending deliveries)'),
    deliveredAt: z.iso.datetime().nullable(),
    redeliveryOf: z.uuid().nullable(),
    isTest: z.boolean(),
    payload: documentedAs(z.unknown(), webhookMessageSchema).describe('the JSON body sent: `{ type, timestamp, data }`'),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'WebhookDelivery' });

export const listDeliveriesQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(50),
    cursor: uuidSchema.optional().describe('a delivery id: the page continues after (next) or before (previous) it'),
    direction: z.enum(['next', 'previous']).default('next').describe('`next` goes to older deliveries, `previous` back to newer ones'),
    status: z.enum(DELIVERY_STATUSES).optional(),
  })
  .strict();
export type ListDeliveriesQuery = z.output<typeof listDeliveriesQuerySchema>;

export const deliveryListSchema = z
  .object({ deliveries: z.array(deliverySchema), hasMore: z.boolean(), nextCursor: z.uuid().nullable(), prevCursor: z.uuid().nullable() })
  .meta({ id: 'WebhookDeliveryList' });

export const deliveryParamsSchema = z.object({ id: uuidSchema, deliveryId: uuidSchema });
