// The Knowledge page: folders (create, rename, delete with the API's 409 and the cascade), articles
// per folder, a draft published, an edit saved as a version, the diff between two versions, a
// draft against the live article with the 409 of a stale draft, revert; and a read-only key.
import { ARTICLE_CONTENT, apiCall, checkPage, expect, server, signIn, test, unique } from './fixtures.js';

interface Folder {
  id: string;
}
interface Article {
  id: string;
  version: number;
}

test('an empty folder says so, and a folder with content is deleted only with everything inside', async ({ page }) => {
  await signIn(page);
  const title = unique('Billing');
  await page.getByRole('button', { name: 'New folder' }).click();
  const dialog = page.getByRole('dialog', { name: 'New folder' });
  await dialog.getByLabel('Folder title').fill(title);
  await dialog.getByLabel('Description').fill('Invoices and refunds');
  await dialog.getByRole('button', { name: 'Create folder' }).click();
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(page.getByText('No live articles in this folder.')).toBeVisible();
  await expect(page.getByText('No open drafts in this folder.')).toBeVisible();
  await checkPage(page, 'knowledge-empty-folder');

  await page.getByRole('button', { name: 'Rename folder' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename folder' });
  await rename.getByLabel('Folder title').fill(`${title} EU`);
  await rename.getByRole('button', { name: 'Save folder' }).click();
  await expect(page.getByRole('heading', { name: `${title} EU` })).toBeVisible();

  const folderId = new URL(page.url()).pathname.split('/').pop() ?? '';
  await apiCall('POST', '/v2/hc-articles/public', { ...ARTICLE_CONTENT, title: 'Refund times', parentFolderId: folderId });
  await page.getByRole('button', { name: 'Delete folder' }).click();
  const remove = page.getByRole('dialog', { name: 'Delete folder' });
  await remove.getByRole('button', { name: 'Delete folder' }).click();
  await expect(remove.getByRole('alert')).toContainText('1 article');
  await remove.getByRole('button', { name: 'Delete it with everything inside' }).click();
  await expect(page.getByRole('link', { name: new RegExp(`^${title} EU`) })).toHaveCount(0);
  await expect(page, 'back to the tree without a folder picked').toHaveURL(/\/console\/knowledge\/?$/);
});

test('a new article is drafted, published, edited into a new version and compared with the first', async ({ page }) => {
  const folder = await apiCall<Folder>('POST', '/v2/hc-folders/public', { title: unique('Shipping'), description: '' });
  await signIn(page);
  await page.goto(`/console/knowledge/folders/${folder.id}`);
  await page.getByRole('button', { name: 'New article' }).click();
  const form = page.getByRole('dialog');
  await form.getByRole('textbox', { name: 'Title', exact: true }).fill('Where is my parcel?');
  await form.getByRole('textbox', { name: 'Knowledge', exact: true }).fill('Parcels ship within 2 days.\nTracking links arrive by **email**.');
  await expect(form.getByRole('region', { name: 'Preview of the knowledge' }).locator('strong')).toHaveText('email');
  await form.getByLabel('Questions').fill('Where is my order?\nHas my parcel shipped?');
  await form.getByLabel('Keywords').fill('parcel\ntracking');
  await form.getByRole('button', { name: 'Save as draft' }).click();

  await expect(page.getByRole('heading', { name: 'Where is my parcel?' })).toBeVisible();
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();
  await checkPage(page, 'knowledge-draft');
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  await expect(page.getByText('Version 1', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('textbox', { name: 'Knowledge', exact: true }).fill('Parcels ship within 1 day.\nTracking links arrive by **email**.');
  await page.getByRole('button', { name: 'Save as new version' }).click();
  await expect(page.getByText('Version 2', { exact: true })).toBeVisible();
  await expect(page.getByText('Parcels ship within 1 day.')).toBeVisible();
  await expect(page.getByRole('tabpanel').locator('strong')).toHaveText('email');

  await page.getByRole('tab', { name: 'Versions' }).click();
  const diff = page.getByRole('region', { name: 'Differences from version 1 to version 2' });
  await expect(diff.locator('del')).toHaveText('− Parcels ship within 2 days.');
  await expect(diff.locator('ins')).toHaveText('+ Parcels ship within 1 day.');
  await expect(diff.getByText('Title (unchanged)')).toBeVisible();
  await checkPage(page, 'knowledge-versions-diff');

  await page.getByRole('button', { name: 'Revert to version 1' }).click();
  await expect(page.getByText('Version 3', { exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Article' }).click();
  await expect(page.getByText('Parcels ship within 2 days.')).toBeVisible();

  await page.getByRole('link', { name: '← Back to the folder' }).click();
  await expect(page.getByRole('region', { name: 'Live articles' }).getByRole('link', { name: 'Where is my parcel?' })).toBeVisible();
  await checkPage(page, 'knowledge-folder');
});

test('a draft of a live article shows its changes, and a stale one is published only on purpose', async ({ page }) => {
  const folder = await apiCall<Folder>('POST', '/v2/hc-folders/public', { title: unique('Accounts'), description: '' });
  const live = await apiCall<Article>('POST', '/v2/hc-articles/public', { ...ARTICLE_CONTENT, title: 'Reset your password', parentFolderId: folder.id });
  await signIn(page);
  await page.goto(`/console/knowledge/articles/${live.id}`);
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Reset your password in Settings');
  await page.getByRole('button', { name: 'Save as draft' }).click();
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();
  const draftUrl = page.url();
  expect(draftUrl).not.toContain(live.id);

  await page.getByRole('tab', { name: 'Changes against live' }).click();
  const titleDiff = page.getByRole('region', { name: 'Changes in Title' });
  await expect(titleDiff.locator('del')).toHaveText('− Reset your password');
  await expect(titleDiff.locator('ins')).toHaveText('+ Reset your password in Settings');
  await checkPage(page, 'knowledge-draft-against-live');

  // Someone changes the live article meanwhile: publishing the draft is refused with the API's 409.
  await apiCall('PUT', `/v2/hc-articles/${live.id}/public`, { ...ARTICLE_CONTENT, title: 'Reset your password (new)' });
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('The live article changed since this draft was made');
  await page.getByRole('button', { name: 'Publish anyway (overwrite the live article)' }).click();
  await expect(page).toHaveURL(new RegExp(`/articles/${live.id}$`));
  await expect(page.getByRole('heading', { name: 'Reset your password in Settings' })).toBeVisible();
  await expect(page.getByText('Version 3', { exact: true })).toBeVisible();
});

test('a read-only key reads everything and changes nothing', async ({ page }) => {
  const folder = await apiCall<Folder>('POST', '/v2/hc-folders/public', { title: unique('Read only'), description: '' });
  const article = await apiCall<Article>('POST', '/v2/hc-articles/public', { ...ARTICLE_CONTENT, title: 'Opening hours', parentFolderId: folder.id });
  await signIn(page, server.readKey);
  await expect(page.getByText('Read-only key')).toBeVisible();
  await expect(page.getByRole('button', { name: 'New folder' })).toBeDisabled();
  await page.goto(`/console/knowledge/folders/${folder.id}`);
  await expect(page.getByRole('link', { name: 'Opening hours' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New article' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Rename folder' })).toBeDisabled();
  await page.getByRole('link', { name: 'Opening hours' }).click();
  await expect(page).toHaveURL(new RegExp(`/articles/${article.id}$`));
  await expect(page.getByRole('button', { name: 'Edit' })).toBeDisabled();
  await checkPage(page, 'knowledge-read-only');
});

test('an unknown article shows the API message', async ({ page }) => {
  await signIn(page);
  await page.goto('/console/knowledge/articles/5d0b6f0e-8a3b-4e4b-9a43-0c2f7c8e1d22');
  await expect(page.getByRole('alert')).toContainText('article 5d0b6f0e-8a3b-4e4b-9a43-0c2f7c8e1d22 not found');
});

test('knowledge search ranks live articles with scores and highlights what matched', async ({ page }) => {
  const folder = await apiCall<Folder>('POST', '/v2/hc-folders/public', { title: unique('Search'), description: '' });
  const word = `zorbex${Math.random().toString(36).slice(2, 6)}`;
  const article = await apiCall<Article>('POST', '/v2/hc-articles/public', {
    ...ARTICLE_CONTENT,
    title: `Pairing the ${word} scanner`,
    mainKnowledge: `Hold the ${word} button for 3 seconds to pair the scanner.`,
    parentFolderId: folder.id,
  });
  await signIn(page);
  await page.getByRole('link', { name: 'Search knowledge' }).click();
  await page.getByRole('textbox', { name: 'Question' }).fill(`How do I pair my ${word}?`);
  await page.getByRole('button', { name: 'Search' }).click();
  const results = page.getByRole('list', { name: 'Results' });
  await expect(results.getByRole('listitem')).toHaveCount(1);
  await expect(results.getByText(/^Score \d+\.\d{3}$/)).toBeVisible();
  await expect(results.locator('mark').filter({ hasText: new RegExp(`^${word}$`) }).first()).toBeVisible();
  await expect(results.locator('mark').filter({ hasText: /^Pairing$/ })).toBeVisible();
  await checkPage(page, 'knowledge-search');
  await results.getByRole('link', { name: `Pairing the ${word} scanner` }).click();
  await expect(page).toHaveURL(new RegExp(`/articles/${article.id}$`));
});
