import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import { isWidgetOrigin } from './widget-keys.service.js';

/** The visitor routes, the only ones a browser page of another origin may call. */
export const VISITOR_PATH_PREFIX = '/v2/widget/';
const ALLOWED_HEADERS = ['authorization', 'content-type', 'x-visitor-token', 'last-event-id', 'x-request-id'];
const EXPOSED_HEADERS = ['retry-after', 'x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
/** Seconds a browser may reuse a preflight's answer. */
const PREFLIGHT_MAX_AGE = 600;

type CorsAnswer = { origin: string | false; [option: string]: unknown };

/**
 * CORS for the widget's visitor routes, and for nothing else (the rest of the API is for servers
 * and the console, which is same-origin). A preflight carries no key, so it is answered for an
 * origin that some widget key allows, and 403 for any other or none; the request that follows is
 * checked against its own key's origins by auth.ts (403 there). Registered before authentication,
 * so a visitor's 401, 403 and 429 are readable by the page too.
 */
export async function registerWidgetCors(app: FastifyInstance, db: Db): Promise<void> {
  await app.register(cors, {
    hook: 'onRequest',
    delegator: (request: FastifyRequest, callback: (error: Error | null, options?: CorsAnswer) => void) => {
      if (!request.url.startsWith(VISITOR_PATH_PREFIX)) return callback(null, { origin: false });
      const origin = request.headers.origin;
      if (request.method !== 'OPTIONS') return callback(null, origin ? { origin, exposedHeaders: EXPOSED_HEADERS } : { origin: false });
      if (!origin) return callback(new AppError('forbidden', 'missing Origin: the visitor routes answer pages of the origins widget keys allow'));
      isWidgetOrigin(db, origin).then(
        (allowed) =>
          allowed
            ? callback(null, { origin, methods: ['GET', 'POST'], allowedHeaders: ALLOWED_HEADERS, maxAge: PREFLIGHT_MAX_AGE, strictPreflight: false })
            : callback(new AppError('forbidden', `origin ${origin} is not allowed by any widget key`)),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
  });
}
