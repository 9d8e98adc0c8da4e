import { z } from 'zod';
import { AppError } from '../../http/errors.js';
import { defineRoute } from '../../http/route.js';
import { isUuid } from '../../http/schemas.js';
import { presentVisitorEvent, presentVisitorEvents } from './visitors.presenter.js';
import {
  startConversationBodySchema,
  startedConversationSchema,
  visitorEventParamsSchema,
  visitorEventSchema,
  visitorEventsQuerySchema,
  visitorEventsSchema,
  visitorFeedbackBodySchema,
  visitorMessageBodySchema,
  visitorParamsSchema,
  visitorStreamQuerySchema,
} from './visitors.schemas.js';
import { giveVisitorFeedback, postVisitorMessage, requireVisitorConversation, startConversation, visitorEvents } from './visitors.service.js';
import { presentedVisitorToken } from './visitor-limit.js';
import type { VisitorStreams } from './visitor-stream.js';

const tags = ['Widget'];
const TOKEN = ' The conversation is proved by its visitor token (`X-Visitor-Token`): 401 without one, 403 for a token of another ' +
  'conversation, 404 for a conversation this agent has no widget conversation of.';

/** What a visitor of a widget does, with the widget key of one agent (docs/widget.md). */
export function visitorRoutes(streams: VisitorStreams) {
  return [
    defineRoute({
      method: 'POST',
      url: '/v2/widget/conversations',
      auth: 'visitor',
      tags,
      summary: 'Start a visitor conversation',
      description:
        "Starts a conversation with the key's agent: its id and the visitor token that proves it in later calls (shown " +
        "once, stored hashed). `userAttributes` become the conversation's `userAttributes` (what rules and the answer " +
        'read), `locale` its `locale` attribute. The conversation appears in the workspace with the first message.',
      body: startConversationBodySchema,
      status: 201,
      response: startedConversationSchema,
      handler: async ({ ctx, body }) => startConversation(ctx, body),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/widget/conversations/:id/messages',
      auth: 'visitor',
      rateLimit: 'answer',
      tags,
      summary: "Send a visitor's message",
      description:
        "The visitor's message and the agent's answer, through the same pipeline as Generate Answer (channel `chat`, source " +
        "`api`): the created events the visitor sees, the message then the agent's reply. While the human team holds the " +
        'conversation (after a hand-over) the message is stored and the agent stays silent: the message alone.' +
        TOKEN,
      params: visitorParamsSchema,
      body: visitorMessageBodySchema,
      errors: [404],
      response: z.array(visitorEventSchema),
      handler: async ({ ctx, params, body, request }) => {
        const conversation = await requireVisitorConversation(ctx, params.id, presentedVisitorToken(request));
        return presentVisitorEvents(await postVisitorMessage(ctx, conversation, body, streams.partials));
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/widget/conversations/:id/events',
      auth: 'visitor',
      tags,
      summary: "Read a visitor conversation's events",
      description:
        "The conversation's messages the visitor sees (theirs, the agent's, the team's; never internal comments), oldest " +
        'first, after the event `after`; its status and whether the team holds it. For polling; the stream pushes the ' +
        'same.' +
        TOKEN,
      params: visitorParamsSchema,
      querystring: visitorEventsQuerySchema,
      errors: [404],
      response: visitorEventsSchema,
      handler: async ({ ctx, params, query, request }) => {
        const conversation = await requireVisitorConversation(ctx, params.id, presentedVisitorToken(request));
        const page = await visitorEvents(ctx, conversation, query.after, { limit: query.limit, field: 'query.after' });
        return { interactionId: conversation.id, status: page.status, humanTakeover: page.humanTakeover, events: presentVisitorEvents(page.events), hasMore: page.hasMore };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/widget/conversations/:id/stream',
      auth: 'visitor',
      tags,
      summary: "Stream a visitor conversation's events (Server-Sent Events)",
      description:
        '`text/event-stream`: an `event` event for each message the visitor sees (the agent\'s reply, a person\'s reply, the ' +
        "visitor's own), its SSE `id` the event's id; a `status` event `{ status, humanTakeover }` first and at each change; " +
        "while a configured model writes the answer to a message posted to this API process, `partial` events `{ replyTo, " +
        'from, text }` (the answer so far: its first `from` characters before, then `text`), then the stored events and ' +
        '`partial_end` `{ replyTo }` (none with an enabled output guardrail); ' +
        'a `: heartbeat` comment every `PARLEY_WIDGET_HEARTBEAT_SECONDS`. Resumes after `Last-Event-ID` (or `lastEventId`). ' +
        'EventSource sends no headers: the widget key may come as `widgetKey`, the token as `visitorToken`. Works across ' +
        'API processes (each stream reads the database).' +
        TOKEN,
      params: visitorParamsSchema,
      querystring: visitorStreamQuerySchema,
      errors: [404],
      produces: 'text/event-stream',
      response: z.string().describe('Server-Sent Events'),
      handler: async ({ ctx, params, query, request, reply }) => {
        const conversation = await requireVisitorConversation(ctx, params.id, presentedVisitorToken(request));
        const header = request.headers['last-event-id'];
        if (typeof header === 'string' && header && !isUuid(header)) throw new AppError('bad_request', 'Last-Event-ID: must be an event id (a UUID)');
        const after = typeof header === 'string' && header ? header.toLowerCase() : query.lastEventId;
        const first = await visitorEvents(ctx, conversation, after, { limit: 100, field: 'Last-Event-ID' });
        reply.header('cache-control', 'no-cache, no-transform').header('x-accel-buffering', 'no');
        return streams.start(ctx, conversation, first, after, (stop) => reply.raw.on('close', stop)) as unknown as string;
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/widget/conversations/:id/events/:eventId/feedback',
      auth: 'visitor',
      rateLimit: 'answer',
      tags,
      summary: 'Rate an agent reply (visitor)',
      description:
        "The visitor's `csatRating` (1-5) and `resolved` on one of the agent's replies in their conversation (nothing else: " +
        "notes and approvals are the team's). `resolved: true` marks the conversation `Resolved by AI`, `false` " +
        '`Unresolved`. 400 for an event not authored by the agent, 404 for an event of another conversation.' +
        TOKEN,
      params: visitorEventParamsSchema,
      body: visitorFeedbackBodySchema,
      errors: [404],
      response: visitorEventSchema,
      handler: async ({ ctx, params, body, request }) => {
        const conversation = await requireVisitorConversation(ctx, params.id, presentedVisitorToken(request));
        return presentVisitorEvent(await giveVisitorFeedback(ctx, conversation, params.eventId, body));
      },
    }),
  ];
}
