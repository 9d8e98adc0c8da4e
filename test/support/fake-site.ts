import './network-guard.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake site answers for one path. */
export interface FakePage {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Wait this long before answering (a slow site). */
  delayMs?: number;
  /** Full control: answer however the test needs (validators, counting, hanging). */
  handle?: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
}

/**
 * A web site on 127.0.0.1 for ingestion and crawl tests. Pages can be replaced while a test runs;
 * every request is recorded with its headers. Unknown paths answer 404.
 */
export interface FakeSite {
  readonly origin: string;
  readonly requests: { path: string; headers: IncomingMessage['headers'] }[];
  set(path: string, page: FakePage | string): void;
  url(path: string): string;
  hits(path: string): number;
  close(): Promise<void>;
}

export function html(title: string, ...paragraphs: string[]): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>
<nav><a href="/">Home</a> <a href="/pricing">Pricing</a></nav>
<main><article><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}</article></main>
<footer>© 2026 Example Inc. All rights reserved.</footer></body></html>`;
}

/**
 * A page whose first request never gets an answer (its worker is to be killed while waiting) and
 * whose later requests get `body`: `started` resolves when the first request arrives.
 */
export function hangsOnce(body: string): { page: FakePage; started: Promise<void>; attempts: () => number } {
  let attempts = 0;
  let firstAttempt: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (firstAttempt = resolve));
  const page: FakePage = {
    handle: (_req, res) => {
      attempts += 1;
      if (attempts === 1) {
        firstAttempt();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    },
  };
  return { page, started, attempts: () => attempts };
}

export async function startFakeSite(initial: Record<string, FakePage | string> = {}): Promise<FakeSite> {
  const pages = new Map<string, FakePage>();
  const requests: FakeSite['requests'] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('#')[0] ?? '/';
    requests.push({ path, headers: req.headers });
    const page = pages.get(path) ?? pages.get(path.split('?')[0] ?? path);
    void (async () => {
      if (!page) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      if (page.delayMs) await new Promise((resolve) => setTimeout(resolve, page.delayMs));
      if (page.handle) {
        await page.handle(req, res);
        return;
      }
      res.writeHead(page.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...page.headers });
      res.end(page.body ?? '');
    })().catch(() => res.destroy());
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const site: FakeSite = {
    origin,
    requests,
    set(path, page) {
      pages.set(path, typeof page === 'string' ? { body: page } : page);
    },
    url: (path) => `${origin}${path}`,
    hits: (path) => requests.filter((r) => r.path === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  for (const [path, page] of Object.entries(initial)) site.set(path, page);
  return site;
}
