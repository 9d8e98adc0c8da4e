import type { WorkspaceContext } from '../../context.js';
import { defineListener, type EventListener, registeredListener } from '../../events/bus.js';
import type { DomainEvents, EventName } from '../../events/events.js';
import { queueMessage } from './delivery.service.js';
import type { WebhookEventType } from './webhooks.schemas.js';

/**
 * Domain events become webhook messages in the transaction of the change that caused them (phase
 * `transaction`): the delivery rows and their first jobs commit with the change or not at all, so
 * no committed change loses its message to a crash between the commit and a later write (at least
 * once, as the deliveries' jobs then are). A change that rolls back sends nothing. Conversations of
 * Refine with AI replays and test runs are Parley's own rehearsals, not customers', and send nothing.
 */

const INTERNAL_SOURCES = new Set(['replay', 'testsuite']);

/**
 * A link into the console (console/src/app/app.tsx): absolute under PARLEY_PUBLIC_URL when it is
 * set, else the path, for the receiver to prefix with the address Parley is served at.
 */
function consoleLink(ctx: WorkspaceContext, path: string): string {
  return `${ctx.config.publicUrl ?? ''}/console/${path}`;
}

/** Payloads whose transaction queued deliveries: their delivery workers are woken after the commit. */
const queuedIn = new WeakSet<object>();

/**
 * Two listeners per event: in the change's transaction, the deliveries and their first jobs; after
 * its commit, a wake of this process's delivery workers (before the commit a worker would find
 * nothing, and wait for its next poll).
 */
function forward<K extends EventName>(event: K, type: WebhookEventType, data: (payload: DomainEvents[K], ctx: WorkspaceContext) => Record<string, unknown> | null) {
  const write: EventListener<K> = {
    name: `webhooks.send-${type}`,
    event,
    phase: 'transaction',
    handle: async (ctx: WorkspaceContext, payload) => {
      const body = data(payload, ctx);
      if (body && (await queueMessage(ctx, type, body)) > 0) queuedIn.add(payload);
    },
  };
  const wake: EventListener<K> = {
    name: `webhooks.wake-${type}`,
    event,
    phase: 'commit',
    handle: async (ctx: WorkspaceContext, payload) => {
      if (queuedIn.delete(payload)) ctx.queue.wake('webhooks.deliver');
    },
  };
  return [registeredListener(defineListener(write)), registeredListener(defineListener(wake))];
}

const customer = (source: string) => !INTERNAL_SOURCES.has(source);

export const webhookListeners = [
  forward('conversation.created', 'conversation.created', (p, ctx) =>
    customer(p.source) ? { conversationId: p.conversationId, botId: p.agentId, source: p.source, channel: p.channel, consoleUrl: consoleLink(ctx, `conversations/${p.conversationId}`) } : null,
  ),
  forward('conversation.answered', 'conversation.answered', (p, ctx) =>
    customer(p.source) ? { conversationId: p.conversationId, botId: p.agentId, eventId: p.eventId, userEventId: p.userEventId, consoleUrl: consoleLink(ctx, `conversations/${p.conversationId}`) } : null,
  ),
  forward('conversation.escalated', 'conversation.escalated', (p, ctx) =>
    customer(p.source) ? { conversationId: p.conversationId, botId: p.agentId, eventId: p.eventId, reason: p.reason, consoleUrl: consoleLink(ctx, `conversations/${p.conversationId}`) } : null,
  ),
  forward('conversation.feedback', 'conversation.feedback', (p, ctx) =>
    customer(p.source)
      ? {
          conversationId: p.conversationId,
          botId: p.agentId,
          eventId: p.eventId,
          csatRating: p.csatRating,
          feedback: p.feedback,
          resolved: p.resolved,
          approved: p.approved,
          consoleUrl: consoleLink(ctx, `conversations/${p.conversationId}`),
        }
      : null,
  ),
  forward('conversation.released', 'conversation.released', (p, ctx) => ({ conversationId: p.conversationId, consoleUrl: consoleLink(ctx, `conversations/${p.conversationId}`) })),
  forward('article.published', 'article.published', (p) => ({ articleId: p.articleId, draftId: p.draftId, version: p.version })),
  forward('source.ingested', 'source.ingested', (p) => (p.status === 'COMPLETED' ? { documentId: p.sourceId, changed: p.changed } : null)),
  forward('source.ingested', 'source.failed', (p) => (p.status === 'FAILED' ? { documentId: p.sourceId } : null)),
  forward('refine.iteration.ready', 'refine.iteration.ready', (p, ctx) => ({
    sessionId: p.sessionId,
    iterationId: p.iterationId,
    conversationId: p.conversationId,
    eventId: p.targetEventId,
    consoleUrl: consoleLink(ctx, `refine/${p.conversationId}/${p.targetEventId}`),
  })),
  forward('testrun.regressed', 'testrun.regressed', (p) => ({ runId: p.runId, botId: p.agentId, previousRunId: p.previousRunId, caseIds: p.caseIds, trigger: p.trigger })),
].flat();
