import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import type { Metrics } from '../../http/metrics.js';
import type { JobQueue } from '../../jobs/queue.js';
import { defineRoute } from '../../http/route.js';
import { healthSchema, metricsSchema, openApiSchema, readySchema } from './system.schemas.js';
import { readiness as checkReadiness } from './system.service.js';

const tags = ['Operations'];

/** Health, readiness, metrics and the OpenAPI document: no key, not rate limited. */
export function systemRoutes(app: FastifyInstance, database: Database, queue: JobQueue, metrics: Metrics, workerTimeoutSeconds: number) {
  return [
    defineRoute({
      method: 'GET',
      url: '/healthz',
      auth: 'none',
      rateLimit: false,
      tags,
      summary: 'Liveness: the process is up',
      response: healthSchema,
      handler: async () => ({ status: 'ok' as const }),
    }),
    defineRoute({
      method: 'GET',
      url: '/readyz',
      auth: 'none',
      rateLimit: false,
      tags,
      summary: 'Readiness: database reachable and every migration applied',
      description:
        'Answers 503 with the error body and the reason while not ready. Answers 200 with `status: ' +
        "'degraded'` and a `reason` when jobs are due and no job worker has been seen for " +
        '`PARLEY_WORKER_TIMEOUT_SECONDS`: this process still serves (a load balancer keeps it), but ' +
        'ingestion, generation and Refine wait until a worker runs.',
      errors: [503],
      response: readySchema,
      handler: async () => {
        const readiness = await checkReadiness(database, queue, workerTimeoutSeconds);
        if (!readiness.ready) throw new AppError('service_unavailable', `not ready: ${readiness.reason}`);
        if (readiness.degraded) return { status: 'degraded' as const, database: database.kind, reason: readiness.degraded };
        return { status: 'ready' as const, database: database.kind };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/metrics',
      auth: 'none',
      rateLimit: false,
      tags,
      summary: 'Prometheus metrics',
      description:
        'Requests by route template and status, a latency histogram, job queue depth and oldest-job age ' +
        'by job name, and process metrics.',
      produces: 'text/plain; version=0.0.4; charset=utf-8',
      response: metricsSchema,
      handler: async () => metrics.registry.metrics(),
    }),
    defineRoute({
      method: 'GET',
      url: '/openapi.json',
      auth: 'none',
      rateLimit: false,
      tags,
      summary: 'This OpenAPI 3 document',
      description: 'A browsable version is served at `/docs`.',
      response: openApiSchema,
      handler: async () => app.swagger() as unknown as Record<string, unknown>,
    }),
  ];
}
