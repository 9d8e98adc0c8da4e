import { z } from 'zod';
import { uuidSchema } from '../../http/schemas.js';

export const TAG_LIMITS = { title: 200, description: 2_000, prompt: 4_000, tagName: 200, groupsPerQuery: 100 } as const;

const title = z.string().trim().min(1).max(TAG_LIMITS.title);
const description = z.string().max(TAG_LIMITS.description);
const prompt = z.string().max(TAG_LIMITS.prompt).describe('how the agent should choose tags of this group');

export const createTagGroupBodySchema = z
  .strictObject({
    title,
    description: description.default(''),
    prompt: prompt.default(''),
    multiselect: z.boolean().default(false).describe('several tags of the group may apply at once'),
    mandatory: z.boolean().default(false).describe('every conversation gets a tag of this group'),
    isOutputTagGroup: z.boolean().default(false).describe('tags chosen after the answer (outcome) rather than from the message (input)'),
  })
  .meta({ examples: [{ title: 'Topic', description: 'What the conversation is about', prompt: 'Pick the main topic.', multiselect: false }] });

export const updateTagGroupBodySchema = z
  .strictObject({
    title: title.optional(),
    description: description.optional(),
    prompt: prompt.optional(),
    multiselect: z.boolean().optional(),
    mandatory: z.boolean().optional(),
    isOutputTagGroup: z.boolean().optional(),
  })
  .meta({ examples: [{ prompt: 'Pick the topic the customer asks about first.' }] });

const tagName = z.string().trim().min(1).max(TAG_LIMITS.tagName);

export const createTagBodySchema = z
  .strictObject({ tagName, tagDescription: description.default('') })
  .meta({ examples: [{ tagName: 'Billing', tagDescription: 'Invoices, payments and refunds' }] });

export const updateTagBodySchema = z
  .strictObject({ tagName: tagName.optional(), tagDescription: description.optional() })
  .meta({ examples: [{ tagName: 'Billing and refunds' }] });

/**
 * `tagGroupIds` as a repeated parameter only (`?tagGroupIds=a&tagGroupIds=b`), as the deployed
 * service takes it; a comma list is a 400 naming the parameter.
 */
export const tagsOfGroupsQuerySchema = z.object({
  tagGroupIds: z
    .preprocess(
      (value) => (value === undefined || Array.isArray(value) ? value : [value]),
      z
        .array(
          z
            .string()
            .refine((v) => !v.includes(','), 'a comma-separated list is not accepted: repeat the parameter (?tagGroupIds=<id>&tagGroupIds=<id>)')
            .pipe(uuidSchema),
        )
        .min(1)
        .max(TAG_LIMITS.groupsPerQuery),
    )
    .optional()
    .describe('tag group ids, as a repeated parameter; omitted: the tags of every group the workspace sees'),
});

export const tagGroupSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    description: z.string(),
    prompt: z.string(),
    multiselect: z.boolean(),
    mandatory: z.boolean(),
    isOutputTagGroup: z.boolean(),
    companyId: z.uuid().nullable().describe('the workspace; null for Parley\'s read-only system groups'),
    isSystem: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'TagGroup' });

export const tagSchema = z
  .object({
    id: z.uuid(),
    tagGroupId: z.uuid(),
    tagName: z.string(),
    tagDescription: z.string(),
    companyId: z.uuid().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Tag' });
