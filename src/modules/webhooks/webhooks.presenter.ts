import { iso } from '../../http/schemas.js';
import type { DeliveryRow, EndpointRow } from './webhooks.repository.js';
import type { DeliveryStatus, WebhookEventType } from './webhooks.schemas.js';

/** An endpoint on the wire; the signing secret never (it is shown once, by `presentCreatedWebhook`). */
export function presentWebhook(e: EndpointRow) {
  return {
    id: e.id,
    companyId: e.workspaceId,
    url: e.url,
    description: e.description,
    events: e.events as WebhookEventType[],
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    disabledAt: iso(e.disabledAt),
    failingSince: iso(e.failingSince),
    previousSecretExpiresAt: e.previousSecretSealed ? iso(e.previousSecretExpiresAt) : null,
    createdAt: iso(e.createdAt),
    updatedAt: iso(e.updatedAt),
  };
}

export function presentCreatedWebhook(e: EndpointRow, secret: string) {
  return { ...presentWebhook(e), secret };
}

export function presentDelivery(d: DeliveryRow) {
  return {
    id: d.id,
    webhookId: d.endpointId,
    messageId: d.messageId,
    eventType: d.eventType,
    status: d.status as DeliveryStatus,
    attempts: d.attempts,
    responseStatus: d.responseStatus,
    responseTimeMs: d.responseTimeMs,
    lastError: d.lastError,
    lastAttemptAt: iso(d.lastAttemptAt),
    nextAttemptAt: iso(d.nextAttemptAt),
    deliveredAt: iso(d.deliveredAt),
    redeliveryOf: d.redeliveryOf,
    isTest: d.isTest,
    payload: JSON.parse(d.payload) as unknown,
    createdAt: iso(d.createdAt),
  };
}
