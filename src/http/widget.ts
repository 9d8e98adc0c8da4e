import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { lookupWidgetKey, WIDGET_KEY_PATTERN } from '../modules/widget/index.js';
import { AppError } from './errors.js';

/** widget/dist of this installation: two folders up from src/http/ and from dist/http/ alike. */
const BUILT_WIDGET = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../widget/dist');
const SCRIPT = 'widget.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const DEMO_STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fafafa}
main{max-width:720px;margin:0 auto;padding:32px 20px 120px}h1{font-size:28px;margin:0 0 8px}
form{display:grid;gap:12px;background:#fff;border:1px solid #d5dae0;border-radius:10px;padding:20px;margin:20px 0}
label{display:grid;gap:4px;font-weight:600}input{font:inherit;padding:8px 10px;border:1px solid #8a949e;border-radius:6px}
button{justify-self:start;font:inherit;font-weight:600;padding:8px 16px;border:0;border-radius:6px;background:#2457c5;color:#fff;cursor:pointer}
.hint{font-weight:400;color:#4a5561;font-size:14px}code,pre{font:14px ui-monospace,Menlo,Consolas,monospace}
pre{background:#fff;border:1px solid #d5dae0;border-radius:6px;padding:12px;white-space:pre-wrap;overflow-wrap:anywhere}
.status{padding:10px 12px;border-radius:8px}.ok{background:#e3f4e8}.problem{background:#fdecec}`;

/**
 * The demo page's policy: its own inline style by hash, scripts from this server only, so the
 * widget is shown working under a strict policy (it styles itself with a constructed sheet).
 */
const DEMO_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  `style-src 'sha256-${createHash('sha256').update(DEMO_STYLE).digest('base64')}'`,
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

interface DemoQuery {
  key?: string;
  title?: string;
  color?: string;
  locale?: string;
}

const text = (value: unknown, max: number) => (typeof value === 'string' ? value.trim().slice(0, max) : '');

/** Where the operator stands with the key: what the widget will do on this page. */
async function keyStatus(db: Db, key: string, origin: string): Promise<{ ok: boolean; message: string }> {
  if (!WIDGET_KEY_PATTERN.test(key)) return { ok: false, message: 'This is not a widget key: a widget key is pk_ and 32 letters, digits, - or _.' };
  const principal = await lookupWidgetKey(db, key);
  if (!principal?.widget) return { ok: false, message: 'No widget key is called this (it may have been deleted).' };
  if (!principal.widget.allowedOrigins.includes(origin)) {
    return { ok: false, message: `This key does not allow this page's origin, ${origin}: add it to the key's allowedOrigins to try the key here.` };
  }
  return { ok: true, message: 'The key allows this page: the chat is at the bottom right.' };
}

function demoPage(origin: string, query: Required<DemoQuery>, status: { ok: boolean; message: string } | null): string {
  const attributes = [`data-key="${escapeHtml(query.key)}"`];
  if (query.title) attributes.push(`data-title="${escapeHtml(query.title)}"`);
  if (query.color) attributes.push(`data-color="${escapeHtml(query.color)}"`);
  if (query.locale) attributes.push(`data-locale="${escapeHtml(query.locale)}"`);
  const snippet = `<script src="${origin}/${SCRIPT}" ${attributes.join(' ')} async></script>`;
  const field = (name: keyof DemoQuery, label: string, hint: string) =>
    `<label>${label} <span class="hint">${hint}</span><input name="${name}" value="${escapeHtml(query[name])}"${name === 'key' ? ' required spellcheck="false" autocomplete="off"' : ''}></label>`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Parley chat widget demo</title><style>${DEMO_STYLE}</style></head>
<body><main>
<h1>Try a widget key</h1>
<p>This page embeds Parley's chat widget with a widget key, as a web site would. Create a key for an agent (<code>POST /v2/bots/{id}/widget-keys/public</code>, or the Widget tab of the agent in the console) whose <code>allowedOrigins</code> include this page's origin, <code>${escapeHtml(origin)}</code>.</p>
<form method="get" action="/widget/demo">
${field('key', 'Widget key', 'pk_...')}
${field('title', 'Title', 'optional: the panel\u2019s heading (data-title)')}
${field('color', 'Colour', 'optional: any CSS colour, such as #0f766e (data-color)')}
${field('locale', 'Language', 'optional: en, fr, de, es or nl (data-locale); the browser\u2019s by default')}
<button type="submit">Load the widget</button>
</form>
${status ? `<p class="status ${status.ok ? 'ok' : 'problem'}" role="status">${escapeHtml(status.message)}</p>` : ''}
${query.key ? `<h2>The snippet for your site</h2><pre>${escapeHtml(snippet)}</pre>` : ''}
</main>
${status?.ok ? `<script src="/${SCRIPT}" ${attributes.join(' ')} async></script>` : ''}
</body></html>`;
}

interface BuiltScript {
  mtimeMs: number;
  body: Buffer;
  gzipped: Buffer;
  etag: string;
}

/** The built script, read once per build (its modification time), with its gzip and ETag. */
function builtScript(file: string): () => Promise<BuiltScript> {
  let cached: BuiltScript | undefined;
  return async () => {
    const info = await stat(file).catch(() => null);
    if (!info) throw new AppError('service_unavailable', `the widget is not built (no ${file}): run npm run build`);
    if (cached?.mtimeMs !== info.mtimeMs) {
      const body = await readFile(file);
      cached = { mtimeMs: info.mtimeMs, body, gzipped: gzipSync(body, { level: 9 }), etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    }
    return cached;
  };
}

/**
 * Serves the chat widget's script (widget/, docs/widget.md) at /widget.js and the demo page at
 * /widget/demo. The script's URL has no content hash (sites embed it as it is), so browsers keep it
 * for 5 minutes and then revalidate it by its ETag; it is sent gzipped to browsers that accept it.
 * Neither is part of the API: hidden from /openapi.json and not rate limited.
 */
export function registerWidget(app: FastifyInstance, db: Db, options: { dir?: string | undefined; publicUrl?: string | undefined } = {}): void {
  const dir = options.dir ?? BUILT_WIDGET;
  const hidden = { schema: { hide: true }, config: { rateLimit: false as const } };
  const script = builtScript(path.join(dir, SCRIPT));

  app.get(`/${SCRIPT}`, hidden, async (request, reply) => {
    const built = await script();
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('etag', built.etag)
      .header('vary', 'accept-encoding')
      .header('x-content-type-options', 'nosniff')
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('access-control-allow-origin', '*');
    const known = request.headers['if-none-match'];
    if (known && known.split(',').some((tag) => tag.trim().replace(/^W\//, '') === built.etag)) return reply.code(304).send();
    if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) return reply.header('content-encoding', 'gzip').send(built.gzipped);
    return reply.send(built.body);
  });

  app.get('/widget/demo', hidden, async (request: FastifyRequest, reply) => {
    const raw = (request.query ?? {}) as Record<string, unknown>;
    const query = { key: text(raw.key, 100), title: text(raw.title, 80), color: text(raw.color, 40), locale: text(raw.locale, 35) };
    // Behind a proxy that ends TLS the request says http: PARLEY_PUBLIC_URL says what browsers see.
    const origin = options.publicUrl ? new URL(options.publicUrl).origin : `${request.protocol}://${request.host}`;
    const status = query.key ? await keyStatus(db, query.key, origin) : null;
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', DEMO_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .send(demoPage(origin, query, status));
  });
}
