import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import type { Metrics } from '../../http/metrics.js';
import { defineRoute } from '../../http/route.js';
import { healthSchema, metricsSchema, openApiSchema, readySchema } from './system.schemas.js';
import { readiness as checkReadiness } from './system.service.js';

const tags = ['Operations'];

/** Health, readiness, metrics and the OpenAPI document: no key, not rate limited. */
export function systemRoutes(app: FastifyInstance, database: Database, metrics: Metrics) {
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
      description: 'Answers 503 with the error body and the reason while not ready.',
      errors: [503],
      response: readySchema,
      handler: async () => {
        const readiness = await checkReadiness(database);
        if (!readiness.ready) throw new AppError('service_unavailable', `not ready: ${readiness.reason}`);
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
