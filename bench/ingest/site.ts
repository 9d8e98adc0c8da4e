// The generated help-center site of the ingestion benchmarks: pages of about 3 KB with the usual
// navigation, cookie banner, sidebar and footer around the article, served on 127.0.0.1.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const TOPICS = ['billing', 'refunds', 'shipping', 'accounts', 'passwords', 'invoices', 'teams', 'exports', 'integrations', 'security'];
/** The sentences of the site's pages (also the filler of bench:scale's generated articles). */
export const SENTENCES = [
  'Open the settings page and choose the section that matches your question.',
  'Changes take effect immediately and are recorded in the audit log of your workspace.',
  'If the option is greyed out, ask an administrator of your team to grant you the permission.',
  'Customers on the annual plan are billed once a year on the anniversary of their subscription.',
  'You can download a copy of every document as a PDF from the history tab.',
  'Our support team answers within one business day, and faster for urgent incidents.',
  'When an import fails, the error message names the line and the column that could not be read.',
  'Refunds are processed to the original payment method within five to ten business days.',
];

/** Page `i` of the site (deterministic). */
export function page(i: number): string {
  const topic = TOPICS[i % TOPICS.length]!;
  const paragraphs = Array.from({ length: 8 + (i % 5) }, (_, p) => `${SENTENCES[(i + p) % SENTENCES.length]} ${SENTENCES[(i * 3 + p) % SENTENCES.length]} (${topic} note ${i}.${p})`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>How ${topic} works, part ${i} | Example Help Center</title>
<link rel="stylesheet" href="/style.css"><script>window.analytics = { page: ${i} };</script></head><body>
<div class="cookie-banner">We use cookies to improve your experience. <button>Accept</button></div>
<header><a href="/">Example</a><nav><ul>${TOPICS.map((t) => `<li><a href="/topics/${t}">${t}</a></li>`).join('')}</ul></nav></header>
<main><article><h1>How ${topic} works, part ${i}</h1>
${paragraphs.map((p, n) => (n === 3 ? `<h2>Step by step</h2><ol><li>${p}</li><li>${SENTENCES[n % SENTENCES.length]}</li></ol>` : `<p>${p}</p>`)).join('\n')}
<table><tr><th>Plan</th><th>Limit</th></tr><tr><td>Starter</td><td>${i % 50} seats</td></tr><tr><td>Business</td><td>${100 + i} seats</td></tr></table>
</article><aside class="related"><h3>Related articles</h3><ul><li><a href="/articles/${i + 1}">Next</a></li><li><a href="/articles/${i + 2}">More</a></li></ul></aside></main>
<footer><p>© 2026 Example Inc.</p><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></footer></body></html>`;
}

/** What a benchmark asks of the site beyond the default (any /articles/<i>, nothing else). */
export interface HelpSiteOptions {
  /**
   * A site of exactly this many articles that a crawl can find: a home page linking the topics,
   * one page per topic listing its articles, and a sitemap named in robots.txt; /articles/<i> at
   * or past the count answer 404.
   */
  pages?: number;
  /** Called with the path of every request, when it arrives (the kill bench counts pages fetched twice). */
  onRequest?: (path: string) => void;
}

/** The home page: the topics, as a help center's front page lists its categories. */
function homePage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Example Help Center</title></head><body>
<header><a href="/">Example</a></header><main><h1>How can we help?</h1><ul>${TOPICS.map((t) => `<li><a href="/topics/${t}">${t}</a></li>`).join('')}</ul></main></body></html>`;
}

/** A topic's page: links to every article of that topic among the first `pages`. */
function topicPage(topic: string, pages: number): string {
  const index = TOPICS.indexOf(topic);
  const links: string[] = [];
  for (let i = index; i < pages; i += TOPICS.length) links.push(`<li><a href="/articles/${i}">How ${topic} works, part ${i}</a></li>`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${topic} | Example Help Center</title></head><body>
<header><a href="/">Example</a></header><main><h1>${topic}</h1><ul>${links.join('')}</ul></main></body></html>`;
}

/** The sitemap of the first `pages` articles. */
function sitemap(origin: string, pages: number): string {
  const urls = Array.from({ length: pages }, (_, i) => `<url><loc>${origin}/articles/${i}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`;
}

/**
 * Serves /articles/<i> and an open robots.txt on a free loopback port; with `pages`, a bounded
 * site with its home page, topic pages and sitemap (HelpSiteOptions).
 */
export async function startHelpSite(options: HelpSiteOptions = {}): Promise<{ origin: string; server: Server }> {
  const { pages, onRequest } = options;
  let origin = '';
  const server = createServer((req, res) => {
    const url = req.url ?? '';
    onRequest?.(url);
    const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (url === '/robots.txt') {
      const sitemapLine = pages === undefined ? '' : `Sitemap: ${origin}/sitemap.xml\n`;
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\nAllow: /\n${sitemapLine}`);
    }
    const match = /^\/articles\/(\d+)$/.exec(url);
    if (match && (pages === undefined || Number(match[1]) < pages)) return html(page(Number(match[1])));
    if (pages !== undefined) {
      if (url === '/') return html(homePage());
      const topic = /^\/topics\/([a-z]+)$/.exec(url)?.[1];
      if (topic && TOPICS.includes(topic)) return html(topicPage(topic, pages));
      if (url === '/sitemap.xml') return void res.writeHead(200, { 'content-type': 'application/xml' }).end(sitemap(origin, pages));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, server };
}
