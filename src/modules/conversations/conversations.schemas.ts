import { z } from 'zod';
import { instantSchema, uuidSchema } from '../../http/schemas.js';
import { CONVERSATION_STATUSES, ESCALATION_REASONS } from '../tags/index.js';
import { answerTraceSchema } from './answer/trace.schemas.js';

export const EVENT_ROLES = ['user', 'parleybot', 'agent', 'otherbot'] as const;
export const EVENT_TYPES = ['message', 'internal_comment'] as const;
export const CONVERSATION_SOURCES = ['api', 'replay', 'testsuite'] as const;
export const CHANNELS = ['chat', 'email'] as const;
/** The role of Parley's own agent on events (the specification's `<service>bot`). */
export const AGENT_ROLE = 'parleybot';

export const LIMITS = { content: 20_000, window: 90 * 24 * 3600 * 1000, defaultWindow: 7 * 24 * 3600 * 1000, bulk: 50, feedback: 5_000, attributes: 64 } as const;

const usedArticleSchema = z.object({ id: z.string(), title: z.string(), documentUrl: z.string().nullable() });
const tagSchema = z.object({ id: z.string(), tagName: z.string(), tagGroupId: z.string() });

export const eventSchema = z
  .object({
    id: z.uuid(),
    interactionId: z.uuid(),
    role: z.enum(EVENT_ROLES),
    type: z.enum(EVENT_TYPES),
    message: z.string(),
    createdAt: z.iso.datetime(),
    externalId: z.string().nullable(),
    externalCreatedAt: z.iso.datetime().nullable(),
    csatRating: z.number().int().nullable(),
    feedback: z.string().nullable(),
    approved: z.boolean().nullable(),
    resolved: z.boolean().nullable(),
    attachments: z.array(z.unknown()),
    tags: z.array(tagSchema),
    usedArticles: z.array(usedArticleSchema),
    userEventId: z.uuid().nullable(),
    handover: z.boolean().describe('Parley: an agent reply that handed the conversation to a person'),
    escalationReason: z.enum(ESCALATION_REASONS).nullable().describe('Parley: why the agent handed over'),
    sentiment: z.enum(['positive', 'neutral', 'negative']).nullable().describe("Parley: a customer message's sentiment"),
  })
  .meta({ id: 'InteractionEvent' });

const evaluationSchema = z.object({
  evaluatedAt: z.iso.datetime(),
  verdict: z.enum(['good', 'needs_review', 'poor']),
  score: z.number(),
  replies: z.array(z.object({ eventId: z.string(), grounded: z.boolean(), answered: z.boolean(), score: z.number(), notes: z.array(z.string()) })),
  notes: z.array(z.string()),
  model: z.object({ provider: z.string(), model: z.string() }),
});

export const interactionSchema = z
  .object({
    id: z.uuid(),
    companyId: z.uuid(),
    botId: z.uuid(),
    source: z.enum(CONVERSATION_SOURCES),
    channel: z.enum(CHANNELS),
    status: z.enum(CONVERSATION_STATUSES),
    externalId: z.string().nullable(),
    subjectPreview: z.string(),
    userAttributes: z.record(z.string(), z.unknown()),
    resolved: z.boolean().nullable(),
    hasFeedback: z.boolean(),
    usedArticles: z.array(usedArticleSchema),
    usedSubfolders: z.array(z.object({ id: z.string(), title: z.string() })),
    tags: z.array(tagSchema),
    latestSentiment: z.enum(['positive', 'neutral', 'negative']).nullable(),
    escalationReason: z.enum(ESCALATION_REASONS).nullable(),
    evaluation: evaluationSchema.nullable().describe('Parley: the last evaluation (POST .../evaluate/public), null before one'),
    humanTakeoverAt: z.iso
      .datetime()
      .nullable()
      .describe('Parley: since when the human team holds the conversation (the agent handed it over and stays silent); null while the agent answers'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    lastMessageAt: z.iso.datetime(),
  })
  .meta({ id: 'Interaction' });

export const interactionWithEventsSchema = interactionSchema.extend({ events: z.array(eventSchema) }).meta({ id: 'InteractionWithEvents' });

export const generateAnswerBodySchema = z
  .object({
    content: z.string().trim().min(1).max(LIMITS.content),
    role: z.enum(EVENT_ROLES).default('user'),
    type: z.enum(EVENT_TYPES).optional().describe('for `agent` and `otherbot` events: `internal_comment` keeps it from the customer (default `message`)'),
    interactionId: uuidSchema.optional().describe('the conversation to continue'),
    botId: uuidSchema.optional().describe('the agent of a new conversation (required without interactionId)'),
    metadata: z
      .looseObject({
        user_attributes: z.record(z.string(), z.unknown()).optional().describe('what the agent knows of the customer: `email`, `name`, ...'),
        channel: z.enum(CHANNELS).optional(),
        externalId: z.string().min(1).max(500).optional().describe("the conversation's id in your own system"),
      })
      .optional(),
    attachments: z.array(z.unknown()).max(20).optional(),
    externalId: z.string().min(1).max(500).optional().describe("the event's id in your own system"),
    externalCreatedAt: z.iso.datetime({ offset: true }).optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (!body.interactionId && !body.botId) ctx.addIssue({ code: 'custom', path: ['interactionId'], message: 'interactionId or botId is required' });
    const attributes = body.metadata?.user_attributes;
    if (attributes && Object.keys(attributes).length > LIMITS.attributes) {
      ctx.addIssue({ code: 'custom', path: ['metadata', 'user_attributes'], message: `at most ${LIMITS.attributes} attributes` });
    }
  })
  .meta({ examples: [{ content: 'How do I reset my password?', botId: '6f1c1b8e-3f7a-4a51-9a3e-2f4b8d7c9e10', metadata: { channel: 'chat', user_attributes: { email: 'ada@example.com' } } }] });
export type GenerateAnswerBody = z.output<typeof generateAnswerBodySchema>;

/** A query parameter of one value, a repeated parameter or a comma list: always an array after parsing. */
export function listOf<O, T extends z.ZodType<O, string>>(item: T, description: string) {
  return z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(item).max(200))
    .optional()
    .describe(description);
}

export const listInteractionsQuerySchema = z
  .object({
    since: instantSchema.optional().describe('start of the window (createdAt), epoch ms or ISO 8601; default 7 days before `until`'),
    until: instantSchema.optional().describe('end of the window (exclusive), epoch ms or ISO 8601; default now'),
    limit: z.coerce.number().int().min(1).max(100).default(50),
    cursor: uuidSchema.optional().describe('a conversation id: the page continues after (next) or before (previous) it'),
    direction: z.enum(['next', 'previous']).default('next').describe('`next` goes to older conversations, `previous` back to newer ones'),
    botId: uuidSchema.optional(),
    source: listOf(z.enum(CONVERSATION_SOURCES), '`api`, `replay`, `testsuite`: comma list or repeated'),
    channel: listOf(z.enum(CHANNELS), '`chat`, `email`: comma list or repeated'),
    status: listOf(z.enum(CONVERSATION_STATUSES), 'conversation statuses: comma list or repeated'),
    tagIds: listOf(uuidSchema, 'conversations with any of these tags: comma list or repeated'),
  })
  .strict();
export type ListInteractionsQuery = z.output<typeof listInteractionsQuerySchema>;

export const interactionListSchema = z
  .object({ interactions: z.array(interactionSchema), hasMore: z.boolean(), nextCursor: z.uuid().nullable(), prevCursor: z.uuid().nullable() })
  .meta({ id: 'InteractionList' });

export const bulkDeleteBodySchema = z
  .object({ ids: z.array(uuidSchema).min(1).max(LIMITS.bulk) })
  .strict()
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.ids.forEach((id, i) => {
      if (seen.has(id)) ctx.addIssue({ code: 'custom', path: ['ids', i], message: `duplicate id ${id}` });
      seen.add(id);
    });
  });

export const successSchema = z.object({ success: z.boolean() });
export const bulkDeleteResponseSchema = z.object({ success: z.boolean(), deletedIds: z.array(z.uuid()) });

export const feedbackBodySchema = z
  .object({
    csatRating: z.number().int().min(1).max(5).optional(),
    feedback: z.string().trim().max(LIMITS.feedback).optional(),
    resolved: z.boolean().optional(),
    approved: z.boolean().optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one of csatRating, feedback, resolved, approved' });

/** The trace of an agent reply: the specification's event metadata with Parley's additions (answer/trace.schemas.ts). */
export const metadataSchema = answerTraceSchema.meta({ id: 'EventMetadata' });
