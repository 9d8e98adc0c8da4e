// The Sources page: a file uploaded and ingested (its extracted text shown), a web page that
// cannot be fetched with the reason, the list filtered; and a read-only key.
import { checkPage, expect, server, signIn, test, unique } from './fixtures.js';

test('an uploaded file is ingested and its text shown; a refused page says why', async ({ page }) => {
  const title = unique('Warranty terms');
  await signIn(page);
  await page.getByRole('link', { name: 'Sources', exact: true }).click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'File', exact: true }).click();
  await (await chooser).setFiles({
    name: 'warranty.md',
    mimeType: 'text/markdown',
    buffer: Buffer.from('# Warranty\n\nEvery kettle has a two-year warranty from the date of purchase.\n'),
  });
  await page.getByRole('textbox', { name: 'Title (optional)' }).fill(title);
  await page.getByRole('button', { name: 'Upload' }).click();
  const table = page.getByRole('table', { name: 'Sources' });
  const row = table.getByRole('row').filter({ hasText: title });
  await expect(row.getByText('completed')).toBeVisible({ timeout: 30_000 });

  await page.getByRole('textbox', { name: 'Web page URLs' }).fill('http://127.0.0.1:9/refused-page');
  await page.getByRole('button', { name: 'Add pages' }).click();
  const refused = table.getByRole('row').filter({ hasText: '127.0.0.1:9/refused-page' });
  await expect(refused.getByText('failed')).toBeVisible({ timeout: 30_000 });
  await expect(refused).toContainText(/private|loopback|not allowed|refused/i);
  await checkPage(page, 'sources');

  await page.getByRole('combobox', { name: 'Kind' }).click();
  await page.getByRole('option', { name: 'files' }).click();
  await expect(refused).toHaveCount(0);
  await expect(row).toHaveCount(1);

  await row.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Extracted text' })).toContainText('two-year warranty');
  await expect(page.getByRole('region', { name: 'Article' })).toContainText('No article was made from this source.');
  await checkPage(page, 'source');
});

test('crawling a loopback site on a server that refuses private addresses says why', async ({ page }) => {
  await signIn(page);
  await page.goto('/console/sources/crawl');
  await page.getByRole('textbox', { name: 'Site URLs' }).fill('http://127.0.0.1:9/');
  await page.getByRole('button', { name: 'Crawl' }).click();
  const found = page.getByRole('region', { name: 'Pages found' });
  await expect(found.getByText('The crawl found no page.')).toBeVisible({ timeout: 30_000 });
  await expect(found.getByRole('status')).toContainText(/private|loopback|not allowed|refused/i);
});

test('a read-only key lists sources but cannot add any', async ({ page }) => {
  await signIn(page, server.readKey);
  await page.getByRole('link', { name: 'Sources', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Sources', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add pages' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Upload' })).toBeDisabled();
  await page.getByRole('link', { name: 'Crawl a site and pick its pages' }).click();
  await expect(page.getByRole('button', { name: 'Crawl' })).toBeDisabled();
});
