import { z } from 'zod';
import { uuidSchema } from '../../http/schemas.js';
import { JOB_STATUSES, linkedOperationSchema } from '../sources/index.js';

export const GENERATION_ORIGINS = ['sources', 'generated', 'inbox'] as const;
export type GenerationOrigin = (typeof GENERATION_ORIGINS)[number];

/** The article origin each request origin records. */
export const ARTICLE_ORIGIN_OF = {
  sources: 'SOURCE_IMPORT',
  generated: 'MAGIC_ARTICLE',
  inbox: 'INBOX_SUGGESTION',
} as const;

/** Most source ids one bulk request, or job ids one status request, may carry. */
export const MAX_BULK_IDS = 500;
export const MAX_CANDIDATE_CHARS = 200_000;

const commonFields = {
  restrictedOps: z
    .array(linkedOperationSchema)
    .min(1)
    .max(10)
    .optional()
    .describe('the operations the job may choose from (all three when omitted; repeats count once)'),
  instructions: z.string().trim().max(5000).optional().describe("guidance for the generator, e.g. 'focus on pricing'"),
  botId: uuidSchema.optional().describe("consider only the agent's folders and their articles"),
  isDraft: z.boolean().default(true).describe('true: write drafts to review; false: write live articles'),
};

export const generateBodySchema = z
  .object({
    candidateKnowledge: z.string().trim().min(1).max(MAX_CANDIDATE_CHARS),
    origin: z.enum(GENERATION_ORIGINS),
    documentId: uuidSchema.optional().describe('the source the text comes from; required (and only allowed) with origin `sources`'),
    hcEventId: uuidSchema.optional().describe('the conversation event it comes from; required (and only allowed) with origin `inbox`'),
    ...commonFields,
  })
  .strict()
  .superRefine((body, issues) => {
    const rule = (field: 'documentId' | 'hcEventId', origin: GenerationOrigin) => {
      if (body.origin === origin && !body[field]) {
        issues.addIssue({ code: 'custom', path: [field], message: `required when origin is ${origin}` });
      }
      if (body.origin !== origin && body[field]) {
        issues.addIssue({ code: 'custom', path: [field], message: `only allowed when origin is ${origin}` });
      }
    };
    rule('documentId', 'sources');
    rule('hcEventId', 'inbox');
  })
  .meta({
    examples: [
      {
        candidateKnowledge: 'Refunds are issued to the original payment method within 14 days of receiving the return.',
        origin: 'generated',
        restrictedOps: ['ADD_ARTICLE_TO_FOLDER', 'UPDATE_ARTICLE'],
        isDraft: true,
      },
    ],
  });

export const generateResponseSchema = z.object({ backgroundJobId: z.uuid() });

export const bulkBodySchema = z
  .object({
    documentIds: z.array(uuidSchema).min(1).max(MAX_BULK_IDS),
    origin: z.literal('sources').default('sources').describe('must be `sources`'),
    ...commonFields,
  })
  .strict()
  .meta({ examples: [{ documentIds: ['5c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f'], origin: 'sources', isDraft: true }] });

export const bulkResponseSchema = z.object({
  jobs: z.array(z.object({ documentId: z.uuid(), backgroundJobId: z.uuid() })),
});

export const jobStatusBodySchema = z
  .object({ jobIds: z.array(uuidSchema).min(1).max(MAX_BULK_IDS) })
  .strict()
  .meta({ examples: [{ jobIds: ['7d8e9f0a-1b2c-4d3e-9f4a-5b6c7d8e9f0a'] }] });

export const knowledgeJobSchema = z
  .object({
    id: z.uuid(),
    jobStatus: z.enum(JOB_STATUSES),
    createdAt: z.iso.datetime(),
    startedAt: z.iso.datetime().nullable(),
    completedAt: z.iso.datetime().nullable(),
    hcArticleId: z.uuid().nullable().describe('the article written (the draft when isDraft), or the one that already covers the text'),
    origin: z.enum(GENERATION_ORIGINS),
    documentId: z.uuid().nullable(),
    hcEventId: z.uuid().nullable(),
    isDraft: z.boolean(),
    linkedOperation: linkedOperationSchema.nullable().describe('the operation the job chose'),
    linkedReason: z.string().nullable(),
    error: z.string().describe('why the job FAILED; empty otherwise'),
    usage: z.object({
      provider: z.string(),
      model: z.string(),
      inputTokens: z.number().int(),
      outputTokens: z.number().int(),
      totalTokens: z.number().int(),
    }),
  })
  .meta({ id: 'KnowledgeJob' });

export const jobStatusResponseSchema = z.object({ jobs: z.array(knowledgeJobSchema) });

export const treeInitializeBodySchema = z
  .object({ initPrompt: z.string().trim().min(1).max(20_000).describe('what the help centre is about; an outline helps') })
  .strict()
  .meta({
    examples: [
      {
        initPrompt:
          '# Orders\n- Shipping: we ship within 2 business days\n- Returns: 30 days, free\n# Account\n- Password reset\n- Deleting an account',
      },
    ],
  });
