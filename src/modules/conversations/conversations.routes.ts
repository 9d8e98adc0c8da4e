import { z } from 'zod';
import { defineRoute } from '../../http/route.js';
import { idParamsSchema } from '../../http/schemas.js';
import { presentEvent, presentInteraction } from './conversations.presenter.js';
import {
  bulkDeleteBodySchema,
  bulkDeleteResponseSchema,
  eventSchema,
  feedbackBodySchema,
  generateAnswerBodySchema,
  interactionListSchema,
  interactionSchema,
  interactionWithEventsSchema,
  listInteractionsQuerySchema,
  metadataSchema,
  successSchema,
} from './conversations.schemas.js';
import {
  answerEventPresented,
  deleteInteraction,
  deleteInteractions,
  interactionPagePresented,
  interactionPresented,
  releaseInteraction,
  tagLookup,
} from './conversations.service.js';
import { evaluateInteraction, getEventMetadata, giveFeedback } from './events.service.js';

const tags = ['Conversations'];

export function conversationRoutes() {
  return [
    defineRoute({
      method: 'POST',
      url: '/v2/hc-interactions/events/public',
      auth: 'write',
      tags,
      summary: 'Generate Answer: add an event to a conversation',
      description:
        'Adds a customer message (`role` `user`, the default) and runs the agent on it: the answer is an array of the created ' +
        'events, the customer event then the agent\'s reply (`parleybot`: a message, an internal comment under an ' +
        'INTERNAL_COMMENT reply rule, or a hand-over message), or the customer event alone under NO_REPLY. `interactionId` ' +
        'continues a conversation; `botId` starts one (`metadata`: `user_attributes`, `channel` `chat`|`email`, `externalId`). ' +
        'Events of other roles (`agent`, `otherbot`, `parleybot`) are stored and returned without running the agent. ' +
        '404 for an unknown conversation or agent, 400 for a deleted agent. The reply\'s trace: GET /v2/hc-events/{id}/metadata.',
      body: generateAnswerBodySchema,
      rateLimit: 'answer',
      errors: [404],
      response: z.array(eventSchema),
      handler: ({ ctx, body }) => answerEventPresented(ctx, body),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/hc-interactions/public',
      auth: 'read',
      tags,
      summary: 'List conversations',
      description:
        'Conversations created in the window [`since`, `until`) (epoch milliseconds or ISO 8601; default the last 7 days, at ' +
        'most 90), newest first. Pages: pass `nextCursor` as `cursor` for older ones, `prevCursor` with ' +
        '`direction=previous` for newer ones. Filters: `botId`, `source`, `channel`, `status`, `tagIds` (any of them); list ' +
        'filters take a comma list or a repeated parameter.',
      querystring: listInteractionsQuerySchema,
      response: interactionListSchema,
      handler: ({ ctx, query }) => interactionPagePresented(ctx, query),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/hc-interactions/:id/public',
      auth: 'read',
      tags,
      summary: 'Get a conversation with its events',
      description: 'The conversation and its events, oldest first. 404 for an unknown or deleted conversation.',
      params: idParamsSchema,
      errors: [404],
      response: interactionWithEventsSchema,
      handler: ({ ctx, params }) => interactionPresented(ctx, params.id),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v2/hc-interactions/:id/public',
      auth: 'write',
      tags,
      summary: 'Delete a conversation',
      description:
        'Hides the conversation from every route and from analytics at once; the housekeeping job purges its rows after ' +
        '`PARLEY_DELETED_RETENTION_DAYS`. Answers `{ success: true }` also for an unknown, already deleted or another ' +
        "workspace's id (which stays untouched), as specified.",
      params: idParamsSchema,
      response: successSchema,
      handler: async ({ ctx, params }) => deleteInteraction(ctx, params.id),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v2/hc-interactions/public',
      auth: 'write',
      tags,
      summary: 'Delete conversations',
      description:
        '`ids`: 1 to 50 unique conversation ids. The accessible ones are deleted; when some are not (unknown, deleted, or of ' +
        'another workspace), the answer is a 406 naming them, and the others are deleted all the same.',
      body: bulkDeleteBodySchema,
      errors: [406],
      response: bulkDeleteResponseSchema,
      handler: async ({ ctx, body }) => deleteInteractions(ctx, body.ids),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/hc-interactions/:id/evaluate/public',
      auth: 'write',
      tags,
      summary: 'Evaluate a conversation',
      description:
        "Judges each agent reply (grounded in the articles it used? did it answer the customer's question?) and the " +
        'conversation as a whole, with the configured model or the built-in engine, and stores the result as the ' +
        "conversation's `evaluation`. 502 when the model fails.",
      params: idParamsSchema,
      errors: [404, 502],
      response: interactionSchema,
      handler: async ({ ctx, params }) => presentInteraction(await evaluateInteraction(ctx, params.id), await tagLookup(ctx)),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/hc-interactions/:id/release/public',
      auth: 'write',
      tags,
      summary: 'Give a conversation back to the agent',
      description:
        'After a hand-over the conversation is the human team\'s (`humanTakeoverAt` set): customer messages are stored but ' +
        'the agent does not answer them, through Generate Answer and the widget alike. Releasing it gives it back: the ' +
        'next customer message is answered again. The status stays what the hand-over made it until that answer. Emits ' +
        '`conversation.released`. 409 when the agent already has the conversation.',
      params: idParamsSchema,
      errors: [404, 409],
      response: interactionSchema,
      handler: async ({ ctx, params }) => presentInteraction(await releaseInteraction(ctx, params.id), await tagLookup(ctx)),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/hc-events/:id/metadata',
      auth: 'read',
      tags,
      summary: "Get an agent reply's trace (event metadata)",
      description:
        'How the agent produced the reply: planning, knowledge search, memories, answer generation, tag selection, the ' +
        'attributes and rules it ran (the specification\'s shape), and Parley\'s `guardrails`, `replyRule`, `configVersion`, ' +
        '`timings`, `model`, `handover`, `confidence` and `evaluationContext`. 400 for an event not authored by `parleybot`.',
      params: idParamsSchema,
      errors: [404],
      response: metadataSchema,
      serializer: 'presenter',
      handler: async ({ ctx, params }) => getEventMetadata(ctx, params.id),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/hc-events/:id/feedback/public',
      auth: 'write',
      tags,
      summary: 'Give feedback on an agent reply',
      description:
        '`csatRating` (1-5), `feedback` (text), `resolved`, `approved`; at least one. `resolved: true` marks the ' +
        'conversation `Resolved by AI`, `false` `Unresolved`. 400 for an event not authored by `parleybot`.',
      params: idParamsSchema,
      body: feedbackBodySchema,
      rateLimit: 'answer',
      errors: [404],
      response: eventSchema,
      handler: async ({ ctx, params, body }) => presentEvent(await giveFeedback(ctx, params.id, body), await tagLookup(ctx)),
    }),
  ];
}
