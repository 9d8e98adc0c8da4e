import { z } from 'zod';

/** The `select_tags` task (docs/conversations.md): the tags of a conversation's input and output groups. */

export const tagGroupChoiceSchema = z.object({
  title: z.string(),
  prompt: z.string(),
  description: z.string(),
  multiselect: z.boolean(),
  mandatory: z.boolean(),
  tags: z.array(z.object({ name: z.string(), description: z.string() })),
});
export type TagGroupChoice = z.infer<typeof tagGroupChoiceSchema>;

export const selectTagsInputSchema = z.object({
  message: z.string(),
  answer: z.string().nullable(),
  inputGroups: z.array(tagGroupChoiceSchema),
  outputGroups: z.array(tagGroupChoiceSchema),
});
export type SelectTagsInput = z.infer<typeof selectTagsInputSchema>;

const tagSelectionSchema = z.object({
  reasoning: z.string(),
  chosenTags: z.array(z.object({ group: z.string().describe('the tag group title'), tags: z.array(z.string()).describe('tag names of that group') })),
});
export type TagSelection = z.infer<typeof tagSelectionSchema>;

export const selectTagsOutputSchema = z.object({ input: tagSelectionSchema, output: tagSelectionSchema });
export type SelectTagsOutput = z.infer<typeof selectTagsOutputSchema>;
