import { z } from 'zod';
import { workspaceNameSchema, workspaceSchema } from '../workspaces/index.js';

export const scopeSchema = z.enum(['read', 'write']);

export const createWorkspaceBodySchema = z
  .object({ name: workspaceNameSchema })
  .strict()
  .meta({ examples: [{ name: 'Support EU' }] });

export const workspaceListSchema = z.array(workspaceSchema);

export const workspaceIdParamsSchema = z.object({ id: z.uuid() });
export const keyIdParamsSchema = z.object({ id: z.uuid() });

export const createApiKeyBodySchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    scopes: z.array(scopeSchema).min(1),
    expiresAt: z.iso.datetime({ offset: true }).optional(),
  })
  .strict()
  .meta({ examples: [{ name: 'ci', scopes: ['read', 'write'], expiresAt: '2027-01-01T00:00:00Z' }] });

export const createdApiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    key: z.string().meta({ description: 'The secret. Shown only in this answer; store it now.' }),
    prefix: z.string(),
    scopes: z.array(scopeSchema),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime().nullable(),
  })
  .meta({
    id: 'CreatedApiKey',
    examples: [
      {
        id: '5d0b6f0e-8a3b-4e4b-9a43-0c2f7c8e1d22',
        name: 'ci',
        key: 'parley_Ab3dE9xQ0vGJ2m8s1Lr7yT4kPzWc5NhUo6BfDiRaXe0',
        prefix: 'parley_Ab3dE9',
        scopes: ['read', 'write'],
        createdAt: '2026-11-21T10:00:00.000Z',
        expiresAt: null,
      },
    ],
  });

export const apiKeySchema = z
  .object({
    id: z.uuid(),
    workspaceId: z.uuid(),
    name: z.string(),
    prefix: z.string(),
    scopes: z.array(scopeSchema),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime().nullable(),
    lastUsedAt: z.iso.datetime().nullable(),
    revokedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ApiKey' });

export const apiKeyListSchema = z.array(apiKeySchema);
