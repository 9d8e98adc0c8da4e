import { z } from 'zod';
import { documentedAs } from '../../http/schemas.js';

export const healthSchema = z
  .object({ status: z.literal('ok') })
  .meta({ examples: [{ status: 'ok' }] });

export const readySchema = z
  .object({
    status: z.enum(['ready', 'degraded']).meta({
      description: '`degraded`: this process serves, but jobs are due and no job worker has been seen for `PARLEY_WORKER_TIMEOUT_SECONDS`.',
    }),
    database: z.enum(['pglite', 'postgres']),
    reason: z.string().optional().meta({ description: 'Why the deployment is degraded; only with `degraded`.' }),
  })
  .meta({
    examples: [
      { status: 'ready', database: 'pglite' },
      {
        status: 'degraded',
        database: 'postgres',
        reason: 'no job worker has been seen for 95 s while 12 job(s) are due: they wait until a worker runs (parley worker, or parley serve without --no-worker)',
      },
    ],
  });

export const metricsSchema = z.string().meta({
  description: 'Prometheus text exposition format.',
  examples: ['parley_http_requests_total{method="GET",route="/healthz",status="200"} 3'],
});

/** What /openapi.json answers, documented as an OpenAPI 3.1 document's top level (its fields are the specification's). */
const openApiDocumentSchema = z
  .looseObject({
    openapi: z.string().regex(/^3\.1\.\d+$/),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    servers: z.array(z.looseObject({ url: z.string() })),
    tags: z.array(z.looseObject({ name: z.string(), description: z.string() })),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
    components: z.record(z.string(), z.record(z.string(), z.unknown())),
  })
  .meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document (https://spec.openapis.org/oas/v3.1).' });
export const openApiSchema = documentedAs(z.record(z.string(), z.unknown()), openApiDocumentSchema).meta({ description: 'This document.' });
