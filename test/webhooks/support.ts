// Shared pieces of the webhook tests: wire shapes, paths, the receiver (test/support/webhook-receiver.ts),
// and waiting for deliveries.
import type { TestApp } from '../support/app.js';
import { poll } from '../support/poll.js';
import { expectStatus } from '../support/security.js';

export interface Webhook {
  id: string; companyId: string; url: string; description: string; events: string[]; enabled: boolean;
  disabledReason: string | null; disabledAt: string | null; failingSince: string | null; previousSecretExpiresAt: string | null; createdAt: string; updatedAt: string;
  secret?: string;
}
export interface Delivery {
  id: string; webhookId: string; messageId: string; eventType: string; status: 'pending' | 'delivered' | 'failed'; attempts: number;
  responseStatus: number | null; responseTimeMs: number | null; lastError: string | null; lastAttemptAt: string | null;
  nextAttemptAt: string | null; deliveredAt: string | null; redeliveryOf: string | null; isTest: boolean;
  payload: { type: string; timestamp: string; data: Record<string, unknown> }; createdAt: string;
}
export interface DeliveryPage { deliveries: Delivery[]; hasMore: boolean; nextCursor: string | null; prevCursor: string | null }

export const WEBHOOKS = '/v2/webhooks/public';
export const webhook = (id: string) => `/v2/webhooks/${id}/public`;
export const testOf = (id: string) => `/v2/webhooks/${id}/test/public`;
export const rotateOf = (id: string) => `/v2/webhooks/${id}/rotate-secret/public`;
export const deliveriesOf = (id: string, query = '') => `/v2/webhooks/${id}/deliveries/public${query}`;
export const redeliverOf = (id: string, deliveryId: string) => `/v2/webhooks/${id}/deliveries/${deliveryId}/redeliver/public`;
export const UNKNOWN = '00000000-0000-4000-8000-000000000000';

export { type Answer, type Receiver, startReceiver } from '../support/webhook-receiver.js';

/** The test app's environment for delivering to 127.0.0.1 with short retries. */
export function webhookEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return { PARLEY_FETCH_ALLOW_PRIVATE: 'true', PARLEY_WEBHOOK_RETRY_SCHEDULE: '0s,1s', PARLEY_WEBHOOK_TIMEOUT_MS: '1000', ...overrides };
}

export function createWebhook(t: TestApp, key: string, body: Record<string, unknown>): Promise<Webhook & { secret: string }> {
  return expectStatus<Webhook & { secret: string }>(t, 201, 'POST', WEBHOOKS, key, body);
}

export async function deliveries(t: TestApp, key: string, id: string, query = ''): Promise<Delivery[]> {
  return (await expectStatus<DeliveryPage>(t, 200, 'GET', deliveriesOf(id, query), key)).deliveries;
}

/** Waits until the endpoint's deliveries satisfy `until` (the delivery worker woken at each look). */
export function waitForDeliveries(t: TestApp, key: string, id: string, until: (d: Delivery[]) => boolean, what: string): Promise<Delivery[]> {
  return poll(
    () => {
      t.wakeWorkers('webhooks.deliver');
      return deliveries(t, key, id);
    },
    until,
    { what, intervalMs: 100 },
  );
}
