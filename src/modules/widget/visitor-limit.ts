import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { ExtraLimit } from '../../http/rate-limit.js';

/** The visitor token a request presents (header, or the stream's query). */
export function presentedVisitorToken(request: FastifyRequest): string | undefined {
  const header = request.headers['x-visitor-token'];
  if (typeof header === 'string' && header) return header;
  const query = (request.query as Record<string, unknown> | undefined)?.visitorToken;
  return typeof query === 'string' && query ? query : undefined;
}

/**
 * The per-visitor limit of widget keys, besides the per-key one every key has: a visitor is a
 * conversation's token, or before one the client's address (starting conversations). The key's
 * `visitorRateLimit`, else the deployment's default, per rate-limit window.
 */
export function visitorRateLimit(defaultMax: number): ExtraLimit {
  return (request) => {
    const principal = request.principal;
    if (!principal?.widget) return undefined;
    const token = presentedVisitorToken(request);
    const who = token ? `t:${createHash('sha256').update(token).digest('base64url')}` : `ip:${request.ip}`;
    return { bucket: `visitor:${principal.apiKeyId}:${who}`, max: principal.widget.visitorRateLimit ?? defaultMax };
  };
}
