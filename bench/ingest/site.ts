// The generated help-center site of the ingestion benchmarks: pages of about 3 KB with the usual
// navigation, cookie banner, sidebar and footer around the article, served on 127.0.0.1.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const TOPICS = ['billing', 'refunds', 'shipping', 'accounts', 'passwords', 'invoices', 'teams', 'exports', 'integrations', 'security'];
const SENTENCES = [
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

/** Serves /articles/<i> and an open robots.txt on a free loopback port. */
export async function startHelpSite(): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    const match = /^\/articles\/(\d+)$/.exec(req.url ?? '');
    if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    if (!match) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(Number(match[1])));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
