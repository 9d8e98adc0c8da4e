// The deep crawl on the Sources page: a tiny site served on 127.0.0.1 is crawled, its links shown,
// filtered and picked, and the picked pages added as sources and ingested.
//
// Parley refuses to fetch private addresses unless its operator allows them
// (PARLEY_FETCH_ALLOW_PRIVATE), and the run's shared server keeps that refusal (sources.e2e.ts checks
// it). So this file starts a server of its own that allows them, on its own PGlite data folder,
// with the same startServer global-setup.ts uses; the site never leaves the loopback.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RunningServer, startServer, tempDataDir } from '../bench/support.js';
import { checkPage, expect, signIn, test as base } from './fixtures.js';

/** The site: a start page linking to two help pages and a blog post, and a robots.txt. */
const PAGES: Record<string, string> = {
  '/': '<h1>Kettle shop help</h1><p>Start here.</p><a href="/help/returns">Returns</a> <a href="/help/warranty">Warranty</a> <a href="/blog/launch">Launch</a>',
  '/help/returns': '<h1>Returns</h1><p>Any kettle can be returned within 30 days of delivery, unused and in its box.</p><a href="/">Home</a>',
  '/help/warranty': '<h1>Warranty</h1><p>Every kettle has a two-year warranty from the date of purchase.</p><a href="/">Home</a>',
  '/blog/launch': '<h1>Our launch</h1><p>We opened the shop in spring with three kettles.</p><a href="/">Home</a>',
};

async function serveSite(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    if (path === '/robots.txt') return void response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    const body = PAGES[path];
    if (body === undefined) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><title>${path}</title></head><body>${body}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const test = base.extend<{ site: string }, { fetching: RunningServer }>({
  fetching: [
    async ({}, use) => {
      const data = await tempDataDir('parley-e2e-crawl-');
      const server = await startServer({
        env: { PARLEY_DATA_DIR: data.path, PARLEY_LOG_LEVEL: 'warn', PARLEY_JOB_POLL_SECONDS: '0.5', PARLEY_FETCH_ALLOW_PRIVATE: 'true' },
      });
      await use(server);
      await server.stop();
      await data.remove();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ fetching }, use) => {
    await use(fetching.url);
  },
  site: async ({}, use) => {
    const { url, server } = await serveSite();
    await use(url);
    await new Promise((resolve) => server.close(resolve));
  },
});

test('a site is crawled, its links filtered and picked, and the picked pages added as sources', async ({ page, fetching, site }) => {
  await signIn(page, fetching.apiKey);
  await page.getByRole('link', { name: 'Sources', exact: true }).click();
  await page.getByRole('link', { name: 'Crawl a site and pick its pages' }).click();
  await expect(page.getByRole('heading', { name: 'Crawl a site', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Site URLs' }).fill(`${site}/`);
  await page.getByRole('button', { name: 'Crawl' }).click();

  const links = page.getByRole('table', { name: 'Links found' });
  for (const path of ['/help/returns', '/help/warranty', '/blog/launch']) await expect(links.getByText(`${site}${path}`, { exact: true }), `found ${path}`).toBeVisible();
  await expect(page.getByRole('region', { name: 'Pages found' }).getByRole('status').first()).not.toBeEmpty();
  await checkPage(page, 'crawl');

  await page.getByRole('textbox', { name: 'Filter links' }).fill('/help/');
  await expect(links.getByRole('row')).toHaveCount(3);
  await page.getByRole('button', { name: 'Select all shown' }).click();
  await expect(page.getByText(/^2 of \d+ picked$/)).toBeVisible();
  await page.getByRole('button', { name: 'Select none' }).click();
  await expect(page.getByText(/^0 of \d+ picked$/)).toBeVisible();
  await page.getByRole('button', { name: 'Select all shown' }).click();
  await page.getByRole('textbox', { name: 'Filter links' }).fill('');
  await expect(page.getByRole('checkbox', { name: `Pick ${site}/blog/launch` }), 'the blog post stays unpicked').not.toBeChecked();
  await page.getByRole('button', { name: 'Add 2 picked pages as sources' }).click();
  await expect(page.getByText('2 new, 0 already known and refreshed.')).toBeVisible();

  await page.getByRole('link', { name: 'Sources list' }).click();
  const table = page.getByRole('table', { name: 'Sources' });
  for (const path of ['/help/returns', '/help/warranty']) {
    await expect(table.getByRole('row').filter({ hasText: `${site}${path}` }).getByText('completed'), `${path} ingested`).toBeVisible({ timeout: 30_000 });
  }
  await expect(table.getByRole('row').filter({ hasText: '/blog/launch' })).toHaveCount(0);
  await table.getByRole('row').filter({ hasText: `${site}/help/warranty` }).getByRole('link').click();
  await expect(page.getByRole('region', { name: 'Extracted text' })).toContainText('two-year warranty');
});
