import { z } from 'zod';
import { queryBooleanSchema, uuidSchema } from '../../http/schemas.js';
import { articleOriginSchema } from './articles.schemas.js';

export const FOLDER_LIMITS = { title: 200, description: 5_000 } as const;

export const folderTitleSchema = z.string().trim().min(1).max(FOLDER_LIMITS.title);
export const folderDescriptionSchema = z.string().max(FOLDER_LIMITS.description);

export const folderSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    description: z.string(),
    parentFolderId: z.uuid().nullable(),
    active: z.boolean(),
    botIds: z.array(z.uuid()).describe('agents this folder is assigned to directly'),
    companyId: z.uuid(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Folder' });

export const createFolderBodySchema = z
  .object({
    title: folderTitleSchema,
    description: folderDescriptionSchema,
    parentFolderId: uuidSchema.nullable().optional().describe('omit or null for a top-level folder'),
  })
  .strict()
  .meta({ examples: [{ title: 'Billing', description: 'Invoices, refunds and payment methods', parentFolderId: null }] });

export const updateFolderBodySchema = z
  .object({ title: folderTitleSchema, description: folderDescriptionSchema, active: z.boolean() })
  .strict()
  .meta({ examples: [{ title: 'Billing', description: 'Invoices and refunds', active: true }] });

export const moveFolderBodySchema = z
  .object({ parentFolderId: uuidSchema.nullable().describe('null moves the folder to the top level') })
  .strict()
  .meta({ examples: [{ parentFolderId: '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d' }] });

export const deleteFolderQuerySchema = z
  .object({ cascade: queryBooleanSchema.default(false).describe('also delete subfolders and every article in them') })
  .strict();

export const snapshotQuerySchema = z
  .object({ botId: uuidSchema.optional().describe("only the agent's assigned folders and their descendants") })
  .strict();

export const articleSummarySchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    active: z.boolean(),
    public: z.boolean(),
    escalation: z.boolean(),
    isDraft: z.boolean(),
    originalArticleId: z.uuid().nullable(),
    version: z.number().int(),
    origin: articleOriginSchema,
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'ArticleSummary' });

export interface SnapshotFolder extends z.infer<typeof folderSchema> {
  articles: z.infer<typeof articleSummarySchema>[];
  subfolders: SnapshotFolder[];
}

export const snapshotFolderSchema: z.ZodType<SnapshotFolder> = folderSchema
  .extend({
    articles: z.array(articleSummarySchema),
    get subfolders() {
      return z.array(snapshotFolderSchema);
    },
  })
  .meta({ id: 'SnapshotFolder' });

export const snapshotSchema = z
  .object({
    id: z.uuid().describe('the workspace id: the snapshot is the workspace knowledge tree'),
    createdAt: z.iso.datetime().describe('when this snapshot was computed'),
    updatedAt: z.iso.datetime().describe('latest change of a folder or article it contains'),
    snapshotObjV2: z.array(snapshotFolderSchema),
  })
  .meta({ id: 'KnowledgeSnapshot' });

export const junctionsBodySchema = z
  .object({
    junctions: z
      .array(z.object({ folderId: uuidSchema, botId: uuidSchema, action: z.enum(['ADD', 'DELETE']) }).strict())
      .min(1)
      .max(1000),
  })
  .strict()
  .meta({
    examples: [
      {
        junctions: [
          { folderId: '3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', botId: '7c1e4f8a-2b3d-4e5f-8a9b-0c1d2e3f4a5b', action: 'ADD' },
        ],
      },
    ],
  });

export const junctionsResultSchema = z.object({ status: z.literal(true) });
