import { z } from 'zod';
import { recurrenceSchema } from '../../jobs/recurrence.js';

export const workspaceNameSchema = z.string().trim().min(1).max(200);

export const workspaceSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    createdAt: z.iso.datetime(),
  })
  .meta({
    id: 'Workspace',
    examples: [{ id: '0b7f5a8e-3c1d-4a59-9d1e-7f0c2b6a4e11', name: 'default', createdAt: '2026-11-21T10:00:00.000Z' }],
  });

export const currentKeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.enum(['read', 'write'])),
  expiresAt: z.iso.datetime().nullable(),
});

export const currentWorkspaceSchema = workspaceSchema
  .extend({
    sourceSyncInterval: z
      .string()
      .describe("how often sources re-sync when neither they nor their provider connection set it: `off` (the default), `hourly`, `daily`, `weekly` or a cron expression (docs/sources.md)"),
    apiKey: currentKeySchema,
  })
  .meta({
    id: 'CurrentWorkspace',
    examples: [
      {
        id: '0b7f5a8e-3c1d-4a59-9d1e-7f0c2b6a4e11',
        name: 'default',
        createdAt: '2026-11-21T10:00:00.000Z',
        sourceSyncInterval: 'off',
        apiKey: {
          id: '5d0b6f0e-8a3b-4e4b-9a43-0c2f7c8e1d22',
          name: 'ci',
          prefix: 'parley_Ab3dE9',
          scopes: ['read', 'write'],
          expiresAt: null,
        },
      },
    ],
  });

export type CurrentWorkspace = z.output<typeof currentWorkspaceSchema>;

export const updateWorkspaceBodySchema = z
  .object({
    name: workspaceNameSchema.optional(),
    sourceSyncInterval: recurrenceSchema.optional().describe("the default re-sync of the workspace's sources (docs/sources.md)"),
  })
  .strict()
  .refine((body) => body.name !== undefined || body.sourceSyncInterval !== undefined, { message: 'give name, sourceSyncInterval or both' })
  .meta({ examples: [{ name: 'Support EU' }] });
export type UpdateWorkspaceBody = z.output<typeof updateWorkspaceBodySchema>;
