import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.js';

/** Text PostgreSQL cannot store: NUL, and UTF-16 surrogates without their pair (refused by jsonb). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE = new RegExp(`\\u0000|${LONE_SURROGATE.source}`);

/** Replaces what PostgreSQL cannot store: NUL dropped, an unpaired surrogate becomes U+FFFD. */
export function storableText(text: string): string {
  return text.replace(/\u0000/g, '').replace(new RegExp(LONE_SURROGATE.source, 'g'), '\ufffd');
}

/** The path of the first string (or object key) in `value` that cannot be stored, if any. */
export function unstorableTextPath(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > 64) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = unstorableTextPath(value[i], `${path}.${i}`, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    if (UNSTORABLE.test(key)) return `${path}.${key}`;
    const found = unstorableTextPath(item, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Refuses, before validation, any body, query or path string the database would reject: without
 * this a NUL in an article title is a 500 from PostgreSQL instead of a 400 naming the field.
 */
export function registerTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const found =
      unstorableTextPath(request.body, 'body') ?? unstorableTextPath(request.query, 'query') ?? unstorableTextPath(request.params, 'path');
    if (found) throw new AppError('bad_request', `${found}: contains a NUL character or invalid Unicode, which cannot be stored`);
  });
}
