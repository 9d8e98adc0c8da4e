import { isIP } from 'node:net';
import { authorOf, inTransaction, type WorkspaceContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { pageCursors } from '../../http/keyset.js';
import { isPrivateAddress } from '../../ingest/fetch/safe-fetch.js';
import { attempt, messageBody, queueFirstAttempt } from './delivery.service.js';
import { newMessageId, newSigningSecret } from './signing.js';
import {
  countEndpoints,
  type DeliveryRow,
  deleteEndpoint,
  type EndpointRow,
  findDelivery,
  findEndpoint,
  insertDeliveries,
  insertEndpoint,
  listDeliveries as listDeliveryRows,
  listEndpoints,
  updateDelivery,
  updateEndpoint,
} from './webhooks.repository.js';
import { type CreateWebhookBody, DEFAULT_PREVIOUS_SECRET_HOURS, LIMITS, type ListDeliveriesQuery, type RotateSecretBody, TEST_EVENT_TYPE, type UpdateWebhookBody } from './webhooks.schemas.js';

type Ctx = WorkspaceContext;

const webhookNotFound = () => new AppError('not_found', 'webhook not found');
const deliveryNotFound = () => new AppError('not_found', 'delivery not found');

/**
 * The endpoint URL as it will be called, or a 400 naming the field: http or https, no credentials
 * (the signature is what authenticates Parley), and no literal private or loopback address unless
 * the operator allows them (`PARLEY_FETCH_ALLOW_PRIVATE`). Host names are checked again at every
 * delivery, on the address they resolve to.
 */
function checkedUrl(ctx: Ctx, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('bad_request', 'body.url: not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AppError('bad_request', 'body.url: only http and https URLs can receive webhooks');
  if (url.username || url.password) throw new AppError('bad_request', 'body.url: a URL with credentials is not allowed (the signature authenticates Parley to the receiver)');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!ctx.config.fetch.allowPrivate && isIP(host) !== 0 && isPrivateAddress(host)) {
    throw new AppError('bad_request', 'body.url: a private or loopback address; Parley calls those only when the operator sets PARLEY_FETCH_ALLOW_PRIVATE');
  }
  return url.href;
}

async function requireEndpoint(ctx: Ctx, id: string, options: { lock?: boolean } = {}): Promise<EndpointRow> {
  const found = await findEndpoint(ctx.db, ctx.workspaceId, id, options);
  if (!found) throw webhookNotFound();
  return found;
}

/** Creates an endpoint with a new signing secret; the secret in clear is answered this once. */
export async function createWebhook(ctx: Ctx, body: CreateWebhookBody): Promise<{ endpoint: EndpointRow; secret: string }> {
  const url = checkedUrl(ctx, body.url);
  const secret = newSigningSecret();
  const endpoint = await inTransaction(ctx, async (tx) => {
    if ((await countEndpoints(tx.db, ctx.workspaceId)) >= LIMITS.endpointsPerWorkspace) {
      throw new AppError('conflict', `a workspace has at most ${LIMITS.endpointsPerWorkspace} webhook endpoints; delete one first`);
    }
    return insertEndpoint(tx.db, ctx.workspaceId, { url, description: body.description, events: body.events, secretSealed: ctx.secrets.seal(secret) }, authorOf(ctx), ctx.clock.now());
  });
  return { endpoint, secret };
}

/**
 * A new signing secret for an endpoint, answered in clear this once. The current one keeps signing
 * beside it for `keepPreviousHours` (each request then carries both signatures), so receivers can
 * switch to the new secret without refusing a message; 0 ends it at once.
 */
export async function rotateWebhookSecret(ctx: Ctx, id: string, body: RotateSecretBody): Promise<{ endpoint: EndpointRow; secret: string }> {
  const secret = newSigningSecret();
  const hours = body?.keepPreviousHours ?? DEFAULT_PREVIOUS_SECRET_HOURS;
  const endpoint = await inTransaction(ctx, async (tx) => {
    const current = await requireEndpoint(tx, id, { lock: true });
    const now = ctx.clock.now();
    const updated = await updateEndpoint(tx.db, ctx.workspaceId, id, {
      secretSealed: ctx.secrets.seal(secret),
      previousSecretSealed: hours > 0 ? current.secretSealed : null,
      previousSecretExpiresAt: hours > 0 ? new Date(now.getTime() + hours * 3_600_000) : null,
      updatedAt: now,
      updatedBy: authorOf(ctx),
    });
    return updated!;
  });
  return { endpoint, secret };
}

export async function listWebhooks(ctx: Ctx): Promise<EndpointRow[]> {
  return listEndpoints(ctx.db, ctx.workspaceId);
}

export async function getWebhook(ctx: Ctx, id: string): Promise<EndpointRow> {
  return requireEndpoint(ctx, id);
}

/**
 * Changes the fields given. `enabled: true` turns the endpoint back on with a clean record (no
 * failure streak, no reason); `enabled: false` switches it off by hand (no reason: nothing failed).
 */
export async function updateWebhook(ctx: Ctx, id: string, body: UpdateWebhookBody): Promise<EndpointRow> {
  const url = body.url === undefined ? undefined : checkedUrl(ctx, body.url);
  return inTransaction(ctx, async (tx) => {
    const current = await requireEndpoint(tx, id, { lock: true });
    const now = ctx.clock.now();
    const toggled = body.enabled !== undefined && body.enabled !== current.enabled;
    const updated = await updateEndpoint(tx.db, ctx.workspaceId, id, {
      ...(url !== undefined ? { url } : {}),
      ...(body.events !== undefined ? { events: body.events } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(toggled && body.enabled ? { enabled: true, failingSince: null, disabledAt: null, disabledReason: null } : {}),
      ...(toggled && !body.enabled ? { enabled: false, disabledAt: now, disabledReason: null } : {}),
      updatedAt: now,
      updatedBy: authorOf(ctx),
    });
    return updated!;
  });
}

/** Deletes an endpoint and its deliveries; retries still queued find nothing and end. Answers the deleted endpoint. */
export async function deleteWebhook(ctx: Ctx, id: string): Promise<EndpointRow> {
  return inTransaction(ctx, async (tx) => {
    const current = await requireEndpoint(tx, id, { lock: true });
    await deleteEndpoint(tx.db, ctx.workspaceId, id);
    return current;
  });
}

/** Cursor-paged deliveries of an endpoint, newest first, as the conversation list pages. */
export async function listDeliveries(ctx: Ctx, id: string, query: ListDeliveriesQuery) {
  await requireEndpoint(ctx, id);
  const cursor = query.cursor ? await findDelivery(ctx.db, ctx.workspaceId, query.cursor, { endpointId: id }) : undefined;
  if (query.cursor && !cursor) throw new AppError('bad_request', 'query.cursor: not a delivery of this webhook');
  const page = await listDeliveryRows(ctx.db, ctx.workspaceId, id, {
    limit: query.limit,
    cursor: cursor ? { createdAt: cursor.createdAt, id: cursor.id } : undefined,
    direction: query.direction,
    status: query.status,
  });
  return { rows: page.rows, hasMore: page.hasMore, ...pageCursors(page.rows, { hasMore: page.hasMore, direction: query.direction, fromCursor: Boolean(cursor) }) };
}

/**
 * Sends a delivery's message again, as a new delivery (`redeliveryOf`) with the same payload and
 * the same `webhook-id`, through the queue with the full retry schedule. 409 when the endpoint is
 * disabled (enable it first).
 */
export async function redeliver(ctx: Ctx, id: string, deliveryId: string): Promise<DeliveryRow> {
  const copy = await inTransaction(ctx, async (tx) => {
    const endpoint = await requireEndpoint(tx, id, { lock: true });
    const original = await findDelivery(tx.db, ctx.workspaceId, deliveryId, { endpointId: id });
    if (!original) throw deliveryNotFound();
    if (!endpoint.enabled) throw new AppError('conflict', 'the webhook is disabled; enable it (PATCH enabled: true) before redelivering');
    const now = ctx.clock.now();
    const [row] = await insertDeliveries(tx.db, ctx.workspaceId, [
      {
        endpointId: id,
        messageId: original.messageId,
        eventType: original.eventType,
        payload: original.payload,
        status: 'pending',
        nextAttemptAt: now,
        redeliveryOf: original.redeliveryOf ?? original.id,
        isTest: original.isTest,
        createdAt: now,
      },
    ]);
    await queueFirstAttempt(tx, row!);
    return row!;
  });
  ctx.queue.wake('webhooks.deliver');
  return copy;
}

/**
 * Sends a `webhook.test` message to the endpoint now, once, and answers the delivery with its
 * outcome. Works on a disabled endpoint (to check it before turning it back on); a test neither
 * retries nor counts towards disabling.
 */
export async function testWebhook(ctx: Ctx, id: string): Promise<DeliveryRow> {
  const endpoint = await requireEndpoint(ctx, id);
  const now = ctx.clock.now();
  const payload = messageBody(TEST_EVENT_TYPE, now, { webhookId: endpoint.id, message: 'A test message from Parley.' });
  // The delivery is written (and audited) in its own transaction; the attempt runs outside any.
  const [delivery] = await inTransaction(ctx, (tx) =>
    insertDeliveries(tx.db, ctx.workspaceId, [
      { endpointId: id, messageId: newMessageId(), eventType: TEST_EVENT_TYPE, payload, status: 'pending', isTest: true, nextAttemptAt: now, createdAt: now },
    ]),
  );
  const outcome = await attempt(ctx, endpoint, delivery!);
  const updated = await updateDelivery(ctx.db, ctx.workspaceId, delivery!.id, {
    status: outcome.ok ? 'delivered' : 'failed',
    attempts: 1,
    lastAttemptAt: outcome.at,
    responseStatus: outcome.responseStatus,
    responseTimeMs: outcome.responseTimeMs,
    lastError: outcome.error,
    deliveredAt: outcome.ok ? outcome.at : null,
    nextAttemptAt: null,
  });
  return updated!;
}
