import { z } from 'zod';
import { uuidSchema } from '../../http/schemas.js';
import { CONVERSATION_LIMITS, EVENT_ROLES } from '../conversations/index.js';
import { CONVERSATION_STATUSES } from '../tags/index.js';

export const VISITOR_LIMITS = { page: 100 } as const;

export const startConversationBodySchema = z
  .strictObject({
    userAttributes: z
      .record(z.string(), z.unknown())
      .optional()
      .refine((a) => !a || Object.keys(a).length <= CONVERSATION_LIMITS.attributes, `at most ${CONVERSATION_LIMITS.attributes} attributes`)
      .describe("what the page knows of the visitor (`email`, `name`, a plan...): the conversation's `userAttributes`"),
    locale: z
      .string()
      .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, 'must be a BCP 47 language tag, e.g. en or fr-CA')
      .optional()
      .describe("the visitor's language (BCP 47): stored as the `locale` user attribute"),
  })
  .nullish()
  .describe('optional: no body starts a conversation with no attributes')
  .meta({ examples: [{ userAttributes: { email: 'ada@example.com' }, locale: 'en' }] });

export const startedConversationSchema = z.object({
  conversationId: z.uuid(),
  visitorToken: z.string().describe('proves the conversation to later visitor calls (`X-Visitor-Token`); shown once, stored hashed'),
});

export const visitorMessageBodySchema = z
  .strictObject({
    content: z.string().trim().min(1).max(CONVERSATION_LIMITS.content).describe("the visitor's message, as the conversation shows it"),
    askForPerson: z
      .boolean()
      .default(false)
      .describe('the visitor pressed "talk to a person": the agent hands the conversation to the team (reason `customer_request`) instead of answering'),
  })
  .meta({ examples: [{ content: 'Where is my order?' }, { content: 'I would like to talk to a person.', askForPerson: true }] });

export const visitorEventSchema = z
  .object({
    id: z.uuid(),
    interactionId: z.uuid(),
    role: z.enum(EVENT_ROLES).describe('`user` the visitor, `parleybot` the agent, `agent` a person of the team'),
    message: z.string(),
    createdAt: z.iso.datetime(),
    handover: z.boolean().describe('the agent handed the conversation to the team'),
    csatRating: z.number().int().nullable(),
    resolved: z.boolean().nullable(),
  })
  .meta({ id: 'VisitorEvent' });

export const visitorParamsSchema = z.object({ id: uuidSchema });
export const visitorEventParamsSchema = z.object({ id: uuidSchema, eventId: uuidSchema });

export const visitorEventsQuerySchema = z.object({
  after: uuidSchema.optional().describe('an event id: only the events after it'),
  limit: z.coerce.number().int().min(1).max(VISITOR_LIMITS.page).default(VISITOR_LIMITS.page),
});

const conversationStateShape = {
  status: z.enum(CONVERSATION_STATUSES).nullable().describe("the conversation's status; null before the visitor's first message"),
  humanTakeover: z.boolean().describe('the team holds the conversation: a person answers, not the agent'),
};

export const visitorEventsSchema = z
  .object({
    interactionId: z.uuid(),
    ...conversationStateShape,
    events: z.array(visitorEventSchema),
    hasMore: z.boolean().describe('more events follow: ask again with the last one as `after`'),
  })
  .meta({ id: 'VisitorEvents' });

/** The data of a stream's `status` event. */
export const visitorStatusSchema = z.object(conversationStateShape);

export const visitorStreamQuerySchema = z.object({
  visitorToken: z.string().optional().describe('the visitor token, for clients that cannot send `X-Visitor-Token` (EventSource)'),
  widgetKey: z.string().optional().describe('the widget key, for clients that cannot send `Authorization` (EventSource)'),
  lastEventId: uuidSchema.optional().describe('resume after this event (the `Last-Event-ID` header wins)'),
});

export const visitorFeedbackBodySchema = z
  .strictObject({
    csatRating: z.number().int().min(1).max(5).optional(),
    resolved: z.boolean().optional().describe('true: the reply solved it (`Resolved by AI`); false: it did not (`Unresolved`)'),
  })
  .refine((b) => b.csatRating !== undefined || b.resolved !== undefined, { message: 'csatRating or resolved is required', path: ['csatRating'] });
