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

const runningJobSchema = z.object({
  job: z.string().meta({ description: 'The job name (its queue).' }),
  jobId: z.uuid(),
  retryCount: z.number().int().meta({ description: '0 on the first attempt.' }),
  record: z.unknown().meta({ description: "The job's payload: the record it works on (ids only)." }),
  startedAt: z.iso.datetime(),
});

export const workerSchema = z
  .object({
    id: z.uuid(),
    host: z.string(),
    pid: z.number().int(),
    version: z.string(),
    status: z.enum(['live', 'silent']).meta({
      description: '`silent`: not seen for `PARLEY_WORKER_TIMEOUT_SECONDS`; a live worker takes over its jobs at its next heartbeat.',
    }),
    queues: z
      .record(z.string(), z.object({ concurrency: z.number().int(), leaseSeconds: z.number().int() }))
      .meta({ description: 'Each queue it works: jobs at once, and the lease of one attempt.' }),
    running: z.array(runningJobSchema),
    startedAt: z.iso.datetime(),
    lastSeenAt: z.iso.datetime(),
  })
  .meta({ id: 'Worker' });

export const workerListSchema = z.array(workerSchema).meta({
  examples: [
    [
      {
        id: '0b7f9c4e-3d1a-4f53-9a8e-2f1d6c0b9e11',
        host: 'worker-1',
        pid: 4123,
        version: '0.1.0',
        status: 'live',
        queues: { 'sources.ingest': { concurrency: 4, leaseSeconds: 300 } },
        running: [
          {
            job: 'sources.ingest',
            jobId: '7c1e2a9d-5b3f-4e8a-b6d2-9f0a1c3e5d77',
            retryCount: 0,
            record: { workspaceId: '6f0c2d1e-8b4a-4c3f-9e7d-1a2b3c4d5e6f', sourceId: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', kind: 'add' },
            startedAt: '2026-11-27T10:00:05.000Z',
          },
        ],
        startedAt: '2026-11-27T09:00:00.000Z',
        lastSeenAt: '2026-11-27T10:00:10.000Z',
      },
    ],
  ],
});
