import { z } from 'zod';
import { idParamsSchema, uuidSchema } from '../../http/schemas.js';
import { eventSchema, generateAnswerBodySchema, interactionSchema, interactionWithEventsSchema, listInteractionsQuerySchema } from '../conversations/index.js';
import { articleFieldSchemas, articleSchema, searchBodySchema, searchResultSchema } from '../knowledge/index.js';
import { createIterationBodySchema, fixSessionSchema, ITERATION_STATUSES } from '../refine/index.js';

// The MCP tools' arguments (names fixed by the issue that asked for them, so any MCP client can
// script them) are built from the routes' own field schemas: the same bounds, the same messages.
// Each result is an object of its own with no schema id, since MCP wants `type: object` at the
// root of an output schema (a registered id would make the root a `$ref`).

export const ARTICLE_URI = 'parley://articles/{id}';
export const FIX_SESSION_URI = 'parley://fix-sessions/{id}';

export const articleUri = (id: string) => ARTICLE_URI.replace('{id}', id);
export const fixSessionUri = (id: string) => FIX_SESSION_URI.replace('{id}', id);

const answer = generateAnswerBodySchema.shape;

export const searchKnowledgeInput = searchBodySchema;
export const searchKnowledgeOutput = z.object({
  results: z.array(searchResultSchema.extend({ uri: z.string().describe('the article as an MCP resource (Markdown)') })),
});

export const getArticleInput = idParamsSchema.strict();
export const articleOutput = z.object({ article: articleSchema, uri: z.string() });

export const askAgentInput = z
  .object({
    botId: answer.botId.unwrap().describe('the agent that answers'),
    message: answer.content.describe("the customer's message"),
    conversationId: answer.interactionId.describe('the conversation to continue; a new one when left out'),
  })
  .strict();
export const askAgentOutput = z.object({
  conversationId: z.uuid(),
  replyEventId: z.uuid().nullable().describe("the agent's reply (what propose_fix takes); null when the agent does not answer"),
  reply: z.string().nullable(),
  replyType: eventSchema.shape.type.nullable().describe('`internal_comment`: a note for the team, not shown to the customer'),
  handover: z.boolean().describe('the agent handed the conversation to a person'),
  escalationReason: eventSchema.shape.escalationReason,
  citedArticles: z.array(z.object({ id: z.string(), title: z.string(), documentUrl: z.string().nullable(), uri: z.string() })),
  events: z.array(eventSchema).describe('the events this message created: the customer message, then the reply'),
});

const listQuery = listInteractionsQuerySchema.shape;
export const listConversationsInput = z
  .object({ botId: listQuery.botId, status: listQuery.status, limit: listQuery.limit })
  .strict();
export const listConversationsOutput = z.object({ interactions: z.array(interactionSchema), hasMore: z.boolean() });

export const getConversationInput = idParamsSchema.strict();
export const conversationOutput = z.object({ conversation: interactionWithEventsSchema });

export const createArticleDraftInput = z
  .object({
    articleId: uuidSchema.optional().describe('a live article: the draft replaces its knowledge (and title) when published; a new article when left out'),
    title: articleFieldSchemas.title.optional().describe("required for a new article; the live article's when left out"),
    mainKnowledge: articleFieldSchemas.mainKnowledge,
    parentFolderId: uuidSchema.optional().describe('the folder of a new article (required without articleId)'),
  })
  .strict();

export const proposeFixInput = z
  .object({
    eventId: uuidSchema.describe('an agent reply (ask_agent answers its id as replyEventId)'),
    feedback: createIterationBodySchema.shape.feedbackNote,
  })
  .strict();
export const proposeFixOutput = z.object({
  sessionId: z.uuid(),
  iterationId: z.uuid(),
  status: z.enum(ITERATION_STATUSES),
  finished: z.boolean().describe('false: the iteration still runs; read `poll.resource` (or GET `poll.route`) until its status is ready, no_change or failed'),
  poll: z.object({ resource: z.string(), route: z.string() }),
  session: fixSessionSchema,
});
