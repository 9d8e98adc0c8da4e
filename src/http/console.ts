import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from './errors.js';

/** console/dist of this installation: two folders up from src/http/ and from dist/http/ alike. */
const BUILT_CONSOLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../console/dist');

/**
 * The console's pages may run only the scripts and styles it ships. Mantine writes its theme into
 * a <style> element at run time, so styles (never scripts) may be inline.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Vite names every file under assets/ by its content hash: a changed file is a new URL. */
const ASSETS = 'assets/';

/**
 * Serves the built console (console/, docs/console.md) at /console/ and redirects / there. Hashed
 * assets are cached for a year; any other path is the single page's index.html, never cached, so
 * a deep link opens the page it names and a new build is picked up at the next load. None of these
 * routes is part of the API: they are hidden from /openapi.json and not rate limited.
 */
export async function registerConsole(app: FastifyInstance, dir: string = BUILT_CONSOLE): Promise<void> {
  await app.register(fastifyStatic, { root: dir, serve: false });
  const hidden = { schema: { hide: true }, config: { rateLimit: false as const } };

  const sendIndex = (reply: FastifyReply) => {
    if (!existsSync(path.join(dir, 'index.html'))) {
      throw new AppError('service_unavailable', `the console is not built (no index.html in ${dir}): run npm run build`);
    }
    return reply
      .header('cache-control', 'no-cache')
      .header('content-security-policy', CONSOLE_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .sendFile('index.html', { cacheControl: false });
  };

  app.get('/', hidden, async (_request, reply) => reply.redirect('/console/', 302));
  // With the router's ignoreTrailingSlash, this is /console/ too.
  app.get('/console', hidden, async (_request, reply) => sendIndex(reply));
  app.get('/console/*', hidden, async (request, reply) => {
    const file = (request.params as { '*': string })['*'];
    if (!file.startsWith(ASSETS)) return sendIndex(reply);
    return reply.header('x-content-type-options', 'nosniff').sendFile(file, { maxAge: '365d', immutable: true });
  });
}
