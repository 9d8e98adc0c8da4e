import { z } from 'zod';
import { uuidSchema } from '../../http/schemas.js';

const MAX_SECTIONS = 50;

const sectionFields = {
  id: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits and . _ : - only'),
  title: z.string().trim().min(1).max(200),
  content: z.string().max(20_000),
  enabled: z.boolean(),
};

export const promptSectionSchema = z.object(sectionFields).strict().meta({ id: 'PromptSection' });
export const channelPromptSectionSchema = z
  .object({ ...sectionFields, channel: z.enum(['email', 'chat']) })
  .strict()
  .meta({ id: 'ChannelPromptSection', description: 'A channel section applies to email or to chat.' });

function sectionList<S extends z.ZodType<{ id: string }>>(section: S) {
  return z
    .array(section)
    .max(MAX_SECTIONS)
    .superRefine((sections, ctx) => {
      const seen = new Set<string>();
      sections.forEach((s, i) => {
        if (seen.has(s.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicate section id "${s.id}"` });
        seen.add(s.id);
      });
    });
}

export const planningSectionsSchema = sectionList(promptSectionSchema);
export const guidelineSectionsSchema = sectionList(promptSectionSchema);
export const channelSectionsSchema = sectionList(channelPromptSectionSchema);

const exampleSet = {
  hcPlanningPrompt: [{ id: 'planning.search-knowledge', title: 'When to search', content: 'Search before answering.', enabled: true }],
  hcGuidelinePrompt: [{ id: 'guideline.tone', title: 'Tone', content: 'Be friendly and direct.', enabled: true }],
  hcChannelPrompt: [
    { id: 'channel.email.format', title: 'Email format', content: 'Write a complete email.', enabled: true, channel: 'email' },
    { id: 'channel.chat.format', title: 'Chat format', content: 'Keep it brief.', enabled: false, channel: 'chat' },
  ],
};

/** Saving prompts: all three arrays, each complete (a section left out is removed). */
export const savePromptBodySchema = z
  .object({
    hcPlanningPrompt: planningSectionsSchema,
    hcGuidelinePrompt: guidelineSectionsSchema,
    hcChannelPrompt: channelSectionsSchema,
  })
  .strict()
  .meta({ examples: [exampleSet] });

const promptArrays = {
  hcPlanningPrompt: z.array(promptSectionSchema),
  hcGuidelinePrompt: z.array(promptSectionSchema),
  hcChannelPrompt: z.array(channelPromptSectionSchema),
};

/** The prompts an agent answers with, and where they come from. */
export const agentPromptSchema = z
  .object({
    botId: z.uuid(),
    isDefault: z.boolean().describe('true while the agent has never saved prompts: these are the workspace defaults'),
    version: z.number().int().nullable().describe('number of the saved version shown; null for the defaults'),
    versionId: z.uuid().nullable(),
    createdAt: z.iso.datetime().nullable(),
    createdBy: z.string().nullable(),
    ...promptArrays,
    serialized: z
      .object({
        hcPlanningPrompt: z.string(),
        hcGuidelinePrompt: z.string(),
        hcEmailChannelPrompt: z.string(),
        hcChatChannelPrompt: z.string(),
      })
      .describe('the enabled sections as text, exactly as the agent listing shows them'),
  })
  .meta({ id: 'AgentPrompt' });

export const savedPromptSchema = agentPromptSchema
  .extend({
    isDefault: z.literal(false),
    version: z.number().int(),
    versionId: z.uuid(),
    createdAt: z.iso.datetime(),
    draftId: z.uuid().nullable().describe('the draft this version was published from, if any'),
  })
  .meta({ id: 'SavedPrompt' });

export const promptHistorySchema = z
  .array(savedPromptSchema)
  .describe("The agent's saved prompts, newest first, as the current-prompt route shows one; empty when never saved.")
  .meta({ id: 'PromptHistory' });

export const promptDraftStatusSchema = z.enum(['draft', 'published', 'discarded']);

export const promptDraftSchema = z
  .object({
    id: z.uuid(),
    botId: z.uuid(),
    status: promptDraftStatusSchema,
    baseVersion: z.number().int().nullable().describe('saved version the draft was based on; null for the defaults'),
    note: z.string(),
    origin: z.string(),
    publishedVersionId: z.uuid().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    createdBy: z.string().nullable(),
    updatedBy: z.string().nullable(),
    ...promptArrays,
  })
  .meta({ id: 'PromptDraft' });

/** A draft names the prompts it changes; the others are copied from the current prompts. */
export const promptDraftBodySchema = z
  .object({
    hcPlanningPrompt: planningSectionsSchema.optional(),
    hcGuidelinePrompt: guidelineSectionsSchema.optional(),
    hcChannelPrompt: channelSectionsSchema.optional(),
    note: z.string().max(2000).optional(),
  })
  .strict()
  .nullish()
  .meta({ examples: [{ hcGuidelinePrompt: exampleSet.hcGuidelinePrompt, note: 'Friendlier tone' }] });

export const promptDraftListQuerySchema = z.object({ status: promptDraftStatusSchema.default('draft') }).strict();
export const promptDraftListSchema = z.object({ drafts: z.array(promptDraftSchema) });

export const draftParamsSchema = z.object({ id: uuidSchema, draftId: uuidSchema });

export const publishBodySchema = z
  .object({
    overwrite: z
      .boolean()
      .default(false)
      .describe('publish even when a newer version was saved since the draft was made (409 otherwise)'),
    force: z
      .boolean()
      .default(false)
      .describe('publish even when the test gate finds test cases this draft breaks (409 otherwise; docs/testing.md)'),
  })
  .strict()
  .nullish();
