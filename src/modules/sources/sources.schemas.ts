import { z } from 'zod';
import { queryBooleanSchema, uuidSchema } from '../../http/schemas.js';
import { PROVIDERS } from '../../ingest/providers/index.js';
import { recurrenceSchema } from '../../jobs/recurrence.js';

export const SOURCE_KINDS = ['web', 'files', ...PROVIDERS] as const;
export const sourceKindSchema = z.enum(SOURCE_KINDS);
export type SourceKind = z.infer<typeof sourceKindSchema>;

/** Sources the ingest route takes; `files` arrive through the upload route. */
export const INGESTIBLE_KINDS = ['web', ...PROVIDERS] as const;

export const LINKED_OPERATIONS = ['ADD_ARTICLE_TO_FOLDER', 'UPDATE_ARTICLE', 'DO_NOTHING'] as const;
export const linkedOperationSchema = z.enum(LINKED_OPERATIONS);
export type LinkedOperation = (typeof LINKED_OPERATIONS)[number];

export const JOB_STATUSES = ['PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Most URLs or ids one ingest, refresh or delete request may carry. */
export const MAX_BATCH = 5000;
const MAX_URL_LENGTH = 2048;

export const sourceSchema = z
  .object({
    id: z.uuid(),
    originalUrl: z.string(),
    url: z.string().describe('same as originalUrl (the reference samples show both)'),
    title: z.string(),
    storageUrl: z.string().nullable(),
    companyId: z.uuid(),
    source: sourceKindSchema,
    externalId: z.string(),
    english: z.boolean(),
    baser: z.boolean(),
    success: z.boolean(),
    error: z.string(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    mimeType: z.string(),
    type: z.string().nullable(),
    linkedKnowledgeId: z.string().nullable(),
    linkedOperation: linkedOperationSchema.nullable(),
    linkedReason: z.string().nullable(),
    linkedJobId: z.string().nullable(),
    linkedJobStatus: z.enum(JOB_STATUSES).nullable(),
    changed: z.boolean(),
    paragraphs: z.array(z.string()),
    oldParagraphs: z.array(z.string()),
    syncInterval: z
      .string()
      .nullable()
      .describe("the source's own re-sync interval; null: it follows its provider connection's, then the workspace's"),
    effectiveSyncInterval: z
      .string()
      .describe('the re-sync interval in effect: `off`, `hourly`, `daily`, `weekly` or a cron expression (uploaded files: always `off`)'),
    lastSyncAt: z.iso.datetime().nullable().describe('when the schedule last queued a refresh of the source'),
    nextSyncAt: z.iso.datetime().nullable().describe('when the schedule next refreshes the source (after any back-off); null when it does not re-sync'),
    syncFailures: z.number().int().describe('ingestion jobs of the source that failed in a row; 0 once one completes'),
    syncError: z
      .string()
      .nullable()
      .describe('after a failure: what failed and, from the second failure in a row, how the schedule backs off'),
  })
  .meta({ id: 'Document' });

/** A query parameter that may repeat (`success=true&success=false`): always an array after parsing. */
function repeatedBoolean(description: string) {
  return z
    .union([queryBooleanSchema, z.array(queryBooleanSchema).max(2)])
    .transform((value) => (Array.isArray(value) ? value : [value]))
    .optional()
    .describe(description);
}

export const sourceListQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(200).default(50),
    cursor: uuidSchema.optional().describe('a source id: the page continues after (next) or before (previous) it'),
    cursorUpdatedAt: z.iso
      .datetime()
      .optional()
      .describe(
        "the cursor record's `updatedAt` as you saw it: the page continues from where that record was, even if it changed since",
      ),
    direction: z
      .enum(['next', 'previous'])
      .default('next')
      .describe('`next` continues in the listing order (older first under the default order), `previous` goes back'),
    order: z.enum(['asc', 'desc']).default('desc').describe('applied to updatedAt, then externalId, then id'),
    source: sourceKindSchema.optional(),
    english: queryBooleanSchema.optional(),
    success: repeatedBoolean('`true` successful, `false` failed; both (repeated) disables the filter'),
    id: uuidSchema.optional(),
    title: z.string().min(1).max(500).optional().describe('case-insensitive partial match'),
    url: z.string().min(1).max(MAX_URL_LENGTH).optional().describe('case-insensitive partial match on originalUrl'),
    domain: z.string().min(1).max(253).optional().describe('exact host name; only with source=web'),
    articleId: uuidSchema.optional().describe('sources linked to this article'),
    linkedKnowledge: repeatedBoolean('`true` linked, `false` unlinked; both (repeated) disables the filter'),
    linkedOperation: linkedOperationSchema.optional(),
    changed: queryBooleanSchema.optional().describe('true: linked sources flagged changed; false: sources not flagged'),
  })
  .strict()
  .superRefine((query, ctx) => {
    if (query.cursorUpdatedAt !== undefined && query.cursor === undefined) {
      ctx.addIssue({ code: 'custom', path: ['cursorUpdatedAt'], message: 'cursorUpdatedAt needs cursor' });
    }
    if (query.domain !== undefined && query.source !== 'web') {
      ctx.addIssue({ code: 'custom', path: ['domain'], message: 'domain is only valid with source=web' });
    }
  });
export type SourceListQuery = z.output<typeof sourceListQuerySchema>;

export const sourceListSchema = z
  .object({ documents: z.array(sourceSchema), hasMore: z.boolean() })
  .meta({ id: 'DocumentList' });

const entrySchema = z.string().trim().min(1).max(MAX_URL_LENGTH);

export const ingestBodySchema = z
  .object({
    source: z.enum(INGESTIBLE_KINDS).default('web'),
    documentIdsToAdd: z.array(entrySchema).max(MAX_BATCH).default([]).describe('web: URLs; other sources: source ids'),
    documentIdsToRefresh: z.array(entrySchema).max(MAX_BATCH).default([]).describe('same values as documentIdsToAdd'),
    english: z.boolean().default(true),
    baser: z.boolean().default(false),
    syncInterval: recurrenceSchema
      .nullable()
      .optional()
      .describe('sets the re-sync interval of every source named (null: they follow the defaults again); absent: left as it is'),
  })
  .strict()
  .meta({
    examples: [{ source: 'web', documentIdsToAdd: ['https://help.example.com/refunds'], documentIdsToRefresh: [], syncInterval: 'daily' }],
  });
export type IngestBody = z.output<typeof ingestBodySchema>;

const jobSchema = z.object({ id: z.uuid(), documentId: z.uuid(), status: z.enum(JOB_STATUSES) });

export const ingestResponseSchema = z
  .object({
    addedDocumentIds: z.array(z.uuid()),
    updatedDocumentIds: z.array(z.uuid()),
    jobs: z.array(jobSchema),
    documents: z.array(sourceSchema),
  })
  .meta({ id: 'IngestResult' });

export const deepCrawlBodySchema = z
  .object({
    links: z.array(z.string().trim().min(1).max(MAX_URL_LENGTH)).min(1).max(20).describe('seed URLs'),
    limit: z.number().int().min(1).max(5000).default(250).describe('most URLs returned'),
    maxDepth: z
      .number()
      .int()
      .min(0)
      .max(10)
      .default(3)
      .describe("clicks followed from a seed or a sitemap URL (0: the seeds and the sitemaps' URLs only)"),
    include: z
      .array(z.string().min(1).max(500))
      .max(50)
      .optional()
      .describe('globs on the path and query (`*` within a segment, `**` across); a URL must match one'),
    exclude: z.array(z.string().min(1).max(500)).max(50).optional().describe('globs; matching URLs are neither listed nor followed'),
  })
  .strict()
  .meta({ examples: [{ links: ['https://help.example.com/'], limit: 250, exclude: ['/blog/**'] }] });

export const deepCrawlResponseSchema = z.object({ data: z.array(z.string()), message: z.string() }).meta({ id: 'CrawlResult' });

export const patchSourceBodySchema = z
  .object({
    syncInterval: recurrenceSchema
      .nullable()
      .describe('`off`, `hourly`, `daily`, `weekly`, a five-field cron expression in UTC, or null to follow the defaults'),
  })
  .strict()
  .meta({ examples: [{ syncInterval: 'daily' }, { syncInterval: '0 6 * * 1-5' }, { syncInterval: null }] });

export const refreshBodySchema = z
  .object({ documentIds: z.array(uuidSchema).min(1).max(MAX_BATCH) })
  .strict()
  .meta({ examples: [{ documentIds: ['5b0f4c1e-2d3a-4b5c-8d7e-9f0a1b2c3d4e'] }] });

export const refreshResponseSchema = z.array(z.uuid()).describe('the accepted source ids');

export const deleteBodySchema = z
  .object({
    documentIds: z.array(uuidSchema).min(1).max(MAX_BATCH),
    deleteArticles: z.boolean().default(false).describe('also delete the articles the sources are linked to'),
  })
  .strict()
  .meta({ examples: [{ documentIds: ['5b0f4c1e-2d3a-4b5c-8d7e-9f0a1b2c3d4e'], deleteArticles: false }] });

export const deleteResponseSchema = z
  .object({
    deletedDocuments: z.array(z.object({ id: z.uuid(), title: z.string(), originalUrl: z.string() })),
    deletedArticles: z.array(z.object({ id: z.uuid(), title: z.string(), parentFolderId: z.uuid() })),
  })
  .meta({ id: 'DeleteDocumentsResult' });

export const uploadFieldsSchema = z
  .object({
    title: z.string().trim().min(1).max(500).optional().describe('defaults to the extracted title, then the file name'),
    english: queryBooleanSchema.optional(),
  })
  .strict();

export const resourceParamsSchema = z
  .object({ provider: z.enum(PROVIDERS).describe('`notion`, `zendesk`, `confluence` or `googledrive` (no discovery: register files by id)') })
  .strict();

const notionResourceSchema = z
  .object({
    externalId: z.string(),
    title: z.string(),
    originalUrl: z.string(),
    mimeType: z.string(),
    iconLink: z.string().nullable(),
    object: z.enum(['page', 'database']),
  })
  .meta({ id: 'NotionResource' });

const helpCenterArticleSchema = z.object({ externalId: z.string(), title: z.string(), originalUrl: z.string(), type: z.literal('article') });
const helpCenterSectionSchema = z.object({ externalId: z.string(), title: z.string(), type: z.literal('section'), children: z.array(helpCenterArticleSchema) });
const helpCenterCategorySchema = z
  .object({ externalId: z.string(), title: z.string(), type: z.literal('category'), children: z.array(helpCenterSectionSchema) })
  .meta({ id: 'HelpCenterCategory' });

const wikiSpaceSchema = z
  .object({
    key: z.string(),
    title: z.string(),
    originalUrl: z.string(),
    pages: z.array(z.object({ externalId: z.string(), title: z.string(), originalUrl: z.string() })),
  })
  .meta({ id: 'WikiSpace' });

export const discoveryResponseSchema = z
  .union([z.array(notionResourceSchema), z.array(helpCenterCategorySchema), z.array(wikiSpaceSchema)])
  .describe('notion: a flat array of pages and databases; zendesk: categories > sections > articles; confluence: spaces with their pages');

export const registerBodySchema = z
  .object({
    resources: z
      .array(
        z
          .object({
            originalUrl: z.string().trim().min(1).max(MAX_URL_LENGTH),
            title: z.string().trim().min(1).max(500),
            externalId: z.string().trim().min(1).max(500),
            mimeType: z.string().trim().min(1).max(255),
            storageUrl: z.string().max(MAX_URL_LENGTH).optional(),
            object: z.string().trim().min(1).max(100).optional().describe('the provider type: `page` or `database` (notion), `article`, a Drive MIME type...'),
            type: z.string().trim().min(1).max(100).optional().describe('as discovery answers it (zendesk `article`): taken for `object` when that is absent'),
            iconLink: z.string().max(MAX_URL_LENGTH).nullable().optional().describe('as discovery answers it (notion); not stored'),
          })
          .strict(),
      )
      .min(1)
      .max(MAX_BATCH),
  })
  .strict()
  .meta({
    examples: [
      {
        resources: [
          {
            externalId: '1f2e3d4c-5b6a-4789-8abc-def012345678',
            title: 'Refund policy',
            originalUrl: 'https://www.notion.so/Refund-policy-1f2e3d4c5b6a47898abcdef012345678',
            mimeType: 'text/markdown',
            object: 'page',
          },
        ],
      },
    ],
  });
export type RegisterBody = z.output<typeof registerBodySchema>;

export const registerResponseSchema = z
  .object({
    addedDocumentIds: z.array(z.uuid()).describe('sources registered now'),
    updatedDocumentIds: z.array(z.uuid()).describe('sources that existed, their metadata updated'),
  })
  .meta({ id: 'RegisterResourcesResult' });
