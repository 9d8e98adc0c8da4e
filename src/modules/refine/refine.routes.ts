import { defineRoute } from '../../http/route.js';
import {
  activeSessionResponseSchema,
  closeSessionBodySchema,
  createIterationBodySchema,
  createIterationResponseSchema,
  fixSessionSchema,
  iterationParamsSchema,
  publishIterationBodySchema,
  sessionParamsSchema,
  targetParamsSchema,
} from './refine.schemas.js';
import { closeSession, createIteration, getActiveSession, getSession, publishIteration } from './refine.service.js';

const tags = ['Refine with AI'];

const TARGET_ERRORS =
  ' 404 for an unknown conversation or event; 400 for an event of another conversation, not authored by the agent ' +
  '(`parleybot`), or without a linked customer message.';

export function refineRoutes() {
  return [
    defineRoute({
      method: 'POST',
      url: '/v2/fix-review/interactions/:id/events/:eventId/sessions/iterations/public',
      auth: 'write',
      tags,
      summary: 'Create a Refine with AI iteration',
      description:
        "Queues the analysis of one agent reply with the support lead's `feedbackNote` (1 to 2000 characters) and returns at " +
        "once: the reply's active session (created when there is none), the iteration and its background job. The job " +
        'diagnoses the reply, proposes the fix as drafts (prompt, article or rule; origin FIX_REVIEW) and replays the ' +
        'customer message with them in a new conversation of source `replay`; poll the session until `latestIteration.status` ' +
        'is `ready`, `no_change` or `failed`. Nothing is published. A new iteration builds on the latest `ready` one. 400 ' +
        'while an iteration of the reply is running ("a fix iteration is already running").' +
        TARGET_ERRORS,
      params: targetParamsSchema,
      body: createIterationBodySchema,
      errors: [404],
      response: createIterationResponseSchema,
      handler: ({ ctx, params, body }) => createIteration(ctx, params.id, params.eventId, body.feedbackNote),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/fix-review/interactions/:id/events/:eventId/session/public',
      auth: 'read',
      tags,
      summary: "A reply's active Refine with AI session",
      description: 'The active session with every iteration (newest first) and its changes, or JSON `null` when there is none.' + TARGET_ERRORS,
      params: targetParamsSchema,
      errors: [404],
      response: activeSessionResponseSchema,
      handler: ({ ctx, params }) => getActiveSession(ctx, params.id, params.eventId),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/fix-review/sessions/:sessionId/public',
      auth: 'read',
      tags,
      summary: 'A Refine with AI session by id',
      description: 'A session of any status (`active`, `published`, `closed`) with its iterations and changes. 404 when unknown.',
      params: sessionParamsSchema,
      errors: [404],
      response: fixSessionSchema,
      handler: ({ ctx, params }) => getSession(ctx, params.sessionId),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/fix-review/sessions/:sessionId/iterations/:iterationId/publish/public',
      auth: 'write',
      tags,
      summary: "Publish an iteration's drafts",
      description:
        "Publishes the `ready` iteration's drafts together, in one transaction, each through its own publish path: a prompt " +
        'draft becomes the next prompt version, an article draft the article (or a new one), a rule draft the next rule ' +
        'version. 409 naming the draft whose base moved on (nothing is published then). The iteration becomes `published`, ' +
        'older `ready` ones `superseded`, the session `published`. 400 for a session that is not active or an iteration that ' +
        'is not ready; 404 for an unknown session or iteration. First the test gate (docs/testing.md): the test cases of the ' +
        "agents the drafts reach run with them; 409 naming the cases that pass today and fail with the drafts, unless the " +
        'body says `{ "force": true }`; the iteration\'s `gateRun` records the gate\'s runs either way. The body is optional.',
      params: iterationParamsSchema,
      body: publishIterationBodySchema,
      errors: [404, 409],
      response: fixSessionSchema,
      handler: ({ ctx, params, body }) => publishIteration(ctx, params.sessionId, params.iterationId, body?.force ?? false),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/fix-review/sessions/:sessionId/close/public',
      auth: 'write',
      tags,
      summary: 'Close a Refine with AI session',
      description:
        'Ends an active session without publishing (`closedReason` from the optional `reason`): the drafts of its unpublished ' +
        'iterations are discarded, and a running iteration ends `failed`. 400 for a session that is not active; 404 when unknown.',
      params: sessionParamsSchema,
      body: closeSessionBodySchema,
      errors: [404],
      response: fixSessionSchema,
      handler: ({ ctx, params, body }) => closeSession(ctx, params.sessionId, body?.reason),
    }),
  ];
}
