import { z } from 'zod';

export const agentNameSchema = z.string().trim().min(1).max(200);

/** An agent as listed (wire `bots`): the four prompts are the enabled sections, serialized. */
export const agentSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    createdAt: z.iso.datetime(),
    hcPlanningPrompt: z.string(),
    hcGuidelinePrompt: z.string(),
    hcEmailChannelPrompt: z.string(),
    hcChatChannelPrompt: z.string(),
  })
  .meta({
    id: 'Agent',
    examples: [
      {
        id: '7c1e4f8a-2b3d-4e5f-8a9b-0c1d2e3f4a5b',
        name: 'Support bot',
        createdAt: '2026-11-21T10:00:00.000Z',
        hcPlanningPrompt: '## When to search the knowledge base\nSearch the knowledge base before answering...',
        hcGuidelinePrompt: '## Answer only from knowledge\nAnswer only with facts from the knowledge articles...',
        hcEmailChannelPrompt: '## Email format\nWrite a complete email...',
        hcChatChannelPrompt: '## Chat format\nKeep chat replies brief...',
      },
    ],
  });

export const agentListSchema = z.array(agentSchema);

export const createAgentBodySchema = z
  .object({ name: agentNameSchema })
  .strict()
  .meta({ examples: [{ name: 'Support bot' }] });

export const updateAgentBodySchema = createAgentBodySchema;

export const deletedAgentSchema = z.object({ success: z.literal(true) });
