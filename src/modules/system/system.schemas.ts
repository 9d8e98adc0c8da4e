import { z } from 'zod';

export const healthSchema = z
  .object({ status: z.literal('ok') })
  .meta({ examples: [{ status: 'ok' }] });

export const readySchema = z
  .object({ status: z.literal('ready'), database: z.enum(['pglite', 'postgres']) })
  .meta({ examples: [{ status: 'ready', database: 'pglite' }] });

export const metricsSchema = z.string().meta({
  description: 'Prometheus text exposition format.',
  examples: ['parley_http_requests_total{method="GET",route="/healthz",status="200"} 3'],
});

export const openApiSchema = z.record(z.string(), z.unknown()).meta({ description: 'This document.' });
