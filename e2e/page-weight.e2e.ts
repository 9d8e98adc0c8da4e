// The console's first load (the sign-in page) carries at most 350 KB of gzipped JavaScript; each
// page's own code loads when the page is opened. Prints the measured weight for the CI log.
import { gzipSync } from 'node:zlib';
import { expect, server, signIn, test } from './fixtures.js';

const FIRST_LOAD_LIMIT = 350 * 1024;

test('the first load is at most 350 KB of gzipped JavaScript, and pages load their own code', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto('/console/');
  await expect(page.getByLabel('API key')).toBeVisible();
  const firstLoad = [...scripts];
  let gzipped = 0;
  for (const url of firstLoad) {
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    gzipped += gzipSync(body, { level: 9 }).length;
  }
  console.log(`console first load: ${firstLoad.length} script(s), ${(gzipped / 1024).toFixed(1)} KB gzipped JavaScript`);
  expect(gzipped).toBeLessThanOrEqual(FIRST_LOAD_LIMIT);
  expect(firstLoad.every((url) => url.startsWith(`${server.url}/console/assets/`))).toBe(true);

  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Knowledge' })).toBeAttached();
  const afterKnowledge = scripts.length;
  expect(afterKnowledge).toBeGreaterThan(firstLoad.length);
  await page.getByRole('link', { name: 'Conversations' }).click();
  await expect(page.getByRole('heading', { name: 'Conversations' })).toBeAttached();
  expect(scripts.length).toBeGreaterThan(afterKnowledge);
});
