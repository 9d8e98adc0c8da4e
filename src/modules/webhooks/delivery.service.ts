import { enqueue, enqueueMany, inTransaction, type WorkspaceContext } from '../../context.js';
import { deleteInBatches } from '../../db/sql.js';
import { FetchError } from '../../ingest/fetch/safe-fetch.js';
import { newMessageId, signatureHeaders } from './signing.js';
import {
  type DeliveryRow,
  type EndpointRow,
  findDelivery,
  findDeliveryWithEndpoint,
  findEndpoint,
  insertDeliveries,
  listSubscribedEndpoints,
  recordPendingAttempt,
  unscopedPurgeFinishedDeliveries,
  updateDelivery,
  updateEndpoint,
} from './webhooks.repository.js';
import type { WebhookEventType } from './webhooks.schemas.js';

/**
 * Delivery of webhook messages: one `webhook_deliveries` row per message and endpoint, one queue
 * job per attempt (`webhooks.deliver`). An attempt that fails records itself and queues the next
 * one after the configured delay (`PARLEY_WEBHOOK_RETRY_SCHEDULE`); a worker that dies mid-attempt
 * leaves the job to the queue's own retry, so a message is delivered at least once, always under
 * the same `webhook-id`.
 */

type Ctx = WorkspaceContext;

/** An endpoint failing this long (every attempt since its last success) is switched off. */
export const DISABLE_AFTER_MS = 3 * 24 * 3600 * 1000;
/** What is kept of a receiver's answer: its status and time, never more than this of its body. */
const RESPONSE_CAP_BYTES = 64 * 1024;

/** The housekeeping job: deletes finished deliveries older than `PARLEY_WEBHOOK_RETENTION_DAYS`, in batches. */
export async function purgeFinishedDeliveries(ctx: Pick<WorkspaceContext, 'db' | 'clock' | 'config'>): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - ctx.config.webhooks.retentionDays * 24 * 3600 * 1000);
  return deleteInBatches((limit) => unscopedPurgeFinishedDeliveries(ctx.db, before, limit), 1000);
}

/** The JSON body of a message: the Standard Webhooks convention `{ type, timestamp, data }`. */
export function messageBody(type: string, at: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

/**
 * Queues a message for every enabled endpoint of the workspace subscribed to `type`, each with its
 * first attempt, in one transaction. Answers how many deliveries were queued.
 */
export async function queueMessage(ctx: Ctx, type: WebhookEventType, data: Record<string, unknown>): Promise<number> {
  const endpoints = await listSubscribedEndpoints(ctx.db, ctx.workspaceId, type);
  if (endpoints.length === 0) return 0;
  const now = ctx.clock.now();
  const messageId = newMessageId();
  const payload = messageBody(type, now, data);
  await inTransaction(ctx, async (tx) => {
    const rows = await insertDeliveries(
      tx.db,
      ctx.workspaceId,
      endpoints.map((e) => ({ endpointId: e.id, messageId, eventType: type, payload, status: 'pending', nextAttemptAt: now, createdAt: now })),
    );
    await enqueueMany(
      tx,
      'webhooks.deliver',
      rows.map((r) => ({ id: r.id, payload: { workspaceId: ctx.workspaceId, deliveryId: r.id, attempt: 1 } })),
    );
  });
  return endpoints.length;
}

/** Queues a delivery that already has its row (a redelivery) for its first attempt. */
export async function queueFirstAttempt(ctx: Ctx, delivery: DeliveryRow): Promise<void> {
  await enqueue(ctx, 'webhooks.deliver', { workspaceId: ctx.workspaceId, deliveryId: delivery.id, attempt: 1 });
}

/** What one attempt gave: the receiver's status and time, or why there was no answer. */
export interface AttemptOutcome {
  ok: boolean;
  at: Date;
  responseStatus: number | null;
  responseTimeMs: number;
  error: string | null;
}

/**
 * Sends a delivery's payload once, signed, through the outbound port's safeFetch (private
 * addresses refused unless the operator allows them), within `PARLEY_WEBHOOK_TIMEOUT_MS`,
 * following no redirect. A 2xx answer is a success; anything else is a failure with its reason.
 */
export async function attempt(ctx: Ctx, endpoint: EndpointRow, delivery: DeliveryRow): Promise<AttemptOutcome> {
  const at = ctx.clock.now();
  const secrets = [ctx.secrets.open(endpoint.secretSealed)];
  // After a rotation the previous secret signs too until its time is up (docs/webhooks.md).
  if (endpoint.previousSecretSealed && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > at) secrets.push(ctx.secrets.open(endpoint.previousSecretSealed));
  const headers = { 'content-type': 'application/json', accept: '*/*', ...signatureHeaders(secrets, delivery.messageId, at, delivery.payload) };
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await ctx.outbound.fetch({
      url: endpoint.url,
      method: 'POST',
      headers,
      body: delivery.payload,
      signal: ctx.signal,
      timeoutMs: ctx.config.webhooks.timeoutMs,
      maxBytes: RESPONSE_CAP_BYTES,
      maxRedirects: 0,
    });
    const ok = response.status >= 200 && response.status < 300;
    return { ok, at, responseStatus: response.status, responseTimeMs: elapsed(), error: ok ? null : `the endpoint answered HTTP ${response.status}` };
  } catch (error) {
    if (!(error instanceof FetchError)) throw error;
    const message = error.kind === 'too_many_redirects' ? `${endpoint.url} answered with a redirect; webhooks follow none (give the final URL)` : error.message;
    return { ok: false, at, responseStatus: null, responseTimeMs: elapsed(), error: message };
  }
}

/**
 * Runs attempt `attemptNo` of a delivery (the `webhooks.deliver` job). Does nothing when the
 * delivery is gone, finished, or past this attempt (the job ran before): so a job run twice sends
 * at most once more. An endpoint switched off fails its waiting deliveries with its reason.
 */
export async function runDelivery(ctx: Ctx, deliveryId: string, attemptNo: number): Promise<void> {
  const found = await findDeliveryWithEndpoint(ctx.db, ctx.workspaceId, deliveryId);
  if (!found || found.delivery.status !== 'pending' || found.delivery.attempts !== attemptNo - 1) return;
  const { delivery, endpoint } = found;
  if (!endpoint.enabled) {
    await updateDelivery(ctx.db, ctx.workspaceId, delivery.id, {
      status: 'failed',
      nextAttemptAt: null,
      lastError: `not sent: the endpoint is disabled${endpoint.disabledReason ? ` (${endpoint.disabledReason})` : ''}`,
    });
    return;
  }
  const outcome = await attempt(ctx, endpoint, delivery);
  if (outcome.ok) await recordSuccess(ctx, delivery, endpoint, attemptNo, outcome);
  else await recordFailure(ctx, delivery.id, attemptNo, outcome);
}

const seenOf = (outcome: AttemptOutcome) => ({
  lastAttemptAt: outcome.at,
  responseStatus: outcome.responseStatus,
  responseTimeMs: outcome.responseTimeMs,
  lastError: outcome.error,
});

/**
 * A success: the delivery is delivered (one conditional update: the common case kept short), and
 * an endpoint with a failure streak is healthy again, in the same transaction.
 */
async function recordSuccess(ctx: Ctx, delivery: DeliveryRow, endpoint: EndpointRow, attemptNo: number, outcome: AttemptOutcome): Promise<void> {
  const delivered = { ...seenOf(outcome), status: 'delivered', deliveredAt: outcome.at, nextAttemptAt: null };
  if (!endpoint.failingSince) {
    await recordPendingAttempt(ctx.db, ctx.workspaceId, delivery.id, attemptNo, delivered);
    return;
  }
  await inTransaction(ctx, async (tx) => {
    if (await recordPendingAttempt(tx.db, ctx.workspaceId, delivery.id, attemptNo, delivered)) await updateEndpoint(tx.db, ctx.workspaceId, endpoint.id, { failingSince: null });
  });
}

/**
 * A failure, and what follows from it, in one transaction with the endpoint locked: the next
 * attempt queued after its delay, or, when retries are spent, the delivery failed; and an endpoint
 * failing for `DISABLE_AFTER_MS` is switched off with its reason.
 */
async function recordFailure(ctx: Ctx, deliveryId: string, attemptNo: number, outcome: AttemptOutcome): Promise<void> {
  const delays = ctx.config.webhooks.retryDelaysSeconds;
  await inTransaction(ctx, async (tx) => {
    const current = await findDelivery(tx.db, ctx.workspaceId, deliveryId, { lock: true });
    if (!current || current.status !== 'pending' || current.attempts !== attemptNo - 1) return;
    const endpoint = await findEndpoint(tx.db, ctx.workspaceId, current.endpointId, { lock: true });
    if (!endpoint) return;
    const seen = { attempts: attemptNo, ...seenOf(outcome) };
    const failingSince = endpoint.failingSince ?? outcome.at;
    if (outcome.at.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS && endpoint.enabled) {
      const reason = `every delivery failed for 3 days, since ${failingSince.toISOString()} (last: ${outcome.error})`;
      await updateEndpoint(tx.db, ctx.workspaceId, endpoint.id, { enabled: false, disabledAt: outcome.at, disabledReason: reason, updatedAt: outcome.at });
      await updateDelivery(tx.db, ctx.workspaceId, deliveryId, { ...seen, status: 'failed', nextAttemptAt: null, lastError: `${outcome.error}; the endpoint was disabled: ${reason}` });
      ctx.log.warn({ webhookId: endpoint.id, url: endpoint.url }, 'webhook endpoint disabled after failing for 3 days');
      return;
    }
    if (!endpoint.failingSince) await updateEndpoint(tx.db, ctx.workspaceId, endpoint.id, { failingSince });
    const delay = delays[attemptNo - 1];
    if (delay === undefined) {
      await updateDelivery(tx.db, ctx.workspaceId, deliveryId, { ...seen, status: 'failed', nextAttemptAt: null });
      return;
    }
    await updateDelivery(tx.db, ctx.workspaceId, deliveryId, { ...seen, nextAttemptAt: new Date(outcome.at.getTime() + delay * 1000) });
    await enqueue(tx, 'webhooks.deliver', { workspaceId: ctx.workspaceId, deliveryId, attempt: attemptNo + 1 }, { startAfterSeconds: delay });
  });
}
