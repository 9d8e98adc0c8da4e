import { z } from 'zod';
import { queryBooleanSchema, uuidSchema } from '../../http/schemas.js';

export const ARTICLE_ORIGINS = [
  'MANUAL_ARTICLE',
  'API_CREATED',
  'MAGIC_ARTICLE',
  'SOURCE_IMPORT',
  'INBOX_SUGGESTION',
  'FIX_REVIEW',
  'OVERNIGHT_GENERATION',
  'FINI_SCOUT',
] as const;
export const articleOriginSchema = z.enum(ARTICLE_ORIGINS);
export type ArticleOrigin = z.infer<typeof articleOriginSchema>;

/** Size bounds of article fields, shared with the tree import so both reject the same input. */
export const ARTICLE_LIMITS = {
  title: 500,
  mainKnowledge: 100_000,
  agentInstruction: 20_000,
  listItems: 100,
  question: 1_000,
  keyword: 200,
} as const;

export const articleFieldSchemas = {
  title: z.string().trim().min(1).max(ARTICLE_LIMITS.title),
  mainKnowledge: z.string().trim().min(1).max(ARTICLE_LIMITS.mainKnowledge),
  agentInstruction: z.string().max(ARTICLE_LIMITS.agentInstruction),
  questions: z.array(z.string().trim().min(1).max(ARTICLE_LIMITS.question)).max(ARTICLE_LIMITS.listItems),
  keywords: z.array(z.string().trim().min(1).max(ARTICLE_LIMITS.keyword)).max(ARTICLE_LIMITS.listItems),
  escalation: z.boolean(),
};

const contentFields = z.object(articleFieldSchemas);

const example = {
  title: 'How do I reset my password?',
  mainKnowledge: 'Open Settings > Security and choose "Reset password". A link valid for 30 minutes is emailed to you.',
  agentInstruction: 'If the link expired, tell the customer to request a new one.',
  questions: ['I forgot my password', 'Password reset link expired'],
  keywords: ['password', 'reset', 'login'],
  escalation: false,
};

export const createArticleBodySchema = contentFields
  .extend({
    parentFolderId: uuidSchema,
    isDraft: z.boolean().default(false),
    origin: articleOriginSchema.optional().describe('defaults to API_CREATED'),
    active: z.boolean().optional(),
    public: z.boolean().optional(),
  })
  .strict()
  .meta({ examples: [{ ...example, parentFolderId: '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d' }] });

export const updateArticleBodySchema = contentFields
  .extend({ active: z.boolean().optional(), public: z.boolean().optional() })
  .strict()
  .meta({ examples: [example] });

export const draftFromLiveBodySchema = contentFields
  .extend({
    active: z.boolean().optional().describe("defaults to the live article's"),
    public: z.boolean().optional().describe("defaults to the live article's"),
    origin: articleOriginSchema.optional().describe('defaults to API_CREATED'),
  })
  .strict()
  .meta({ examples: [example] });

export const publishDraftBodySchema = contentFields
  .partial()
  .extend({
    active: z.boolean().optional(),
    public: z.boolean().optional(),
    origin: articleOriginSchema.optional().describe("a new live article's origin (a draft of a live article keeps the article's)"),
    overwrite: z
      .boolean()
      .default(false)
      .describe('publish even when the live article changed since the draft was made (409 otherwise)'),
    force: z
      .boolean()
      .default(false)
      .describe('publish even when the test gate finds test cases this draft breaks (409 otherwise; docs/testing.md)'),
  })
  .strict()
  .nullish()
  .describe('Optional. Content fields given here are what is published (and saved on the draft); the others are the draft\'s.');

export const articleSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    mainKnowledge: z.string(),
    agentInstruction: z.string(),
    questions: z.array(z.string()),
    keywords: z.array(z.string()),
    escalation: z.boolean(),
    misc: z.record(z.string(), z.unknown()),
    active: z.boolean(),
    public: z.boolean(),
    parentFolderId: z.uuid(),
    companyId: z.uuid(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    version: z.number().int(),
    isDraft: z.boolean(),
    isDraftPublished: z.boolean(),
    originalArticleId: z.uuid().nullable(),
    originalArticleVersion: z.number().int().nullable(),
    createdBy: z.string().nullable(),
    updatedBy: z.string().nullable(),
    origin: articleOriginSchema,
  })
  .meta({ id: 'Article' });

export const articleListQuerySchema = z
  .object({
    type: z.enum(['live', 'draft']).optional().describe('live articles, or open drafts (draft); both, published drafts included, when omitted'),
    parentFolderId: uuidSchema.optional(),
    origin: articleOriginSchema.optional(),
    q: z.string().trim().min(1).max(200).optional().describe('case-insensitive match within the title'),
    isDraftPublished: queryBooleanSchema.optional().describe('with type=draft: published (true) or open (false, the default) drafts'),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    cursor: z.string().max(200).optional().describe('`nextCursor` of the previous page'),
  })
  .strict();

export const articleListSchema = z
  .object({
    articles: z.array(articleSchema),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'ArticleList' });

export const articleIdsBodySchema = z
  .object({ articleIds: z.array(uuidSchema).min(1).max(500) })
  .strict()
  .meta({ examples: [{ articleIds: ['9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d'] }] });

export const articleArraySchema = z.array(articleSchema);

export const articleHistorySchema = z
  .object({
    articleId: z.uuid(),
    currentVersion: z.number().int(),
    versions: z
      .array(z.object({ version: z.number().int(), title: z.string(), createdAt: z.iso.datetime(), createdBy: z.string().nullable() }))
      .describe('newest first'),
  })
  .meta({ id: 'ArticleHistory' });

export const versionBodySchema = z
  .object({ version: z.number().int().min(1).max(2_147_483_647) })
  .strict()
  .meta({ examples: [{ version: 2 }] });

export const moveArticleBodySchema = z
  .object({ parentFolderId: uuidSchema })
  .strict()
  .meta({ examples: [{ parentFolderId: '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d' }] });
