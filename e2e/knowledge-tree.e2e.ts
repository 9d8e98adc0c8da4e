// The Knowledge page's folder tree beyond create, rename and delete (knowledge.e2e.ts): moving a
// folder under another and back to the top, a move the API refuses (into its own subfolder),
// switching a folder inactive and active again, moving an article to another folder; and the same
// controls with a read-only key.
import type { Page } from '@playwright/test';
import { ARTICLE_CONTENT, apiCall, checkPage, expect, server, signIn, test, unique } from './fixtures.js';

interface Folder {
  id: string;
}
interface Article {
  id: string;
}

const folder = (title: string, parentFolderId?: string) => apiCall<Folder>('POST', '/v2/hc-folders/public', { title, description: '', parentFolderId });

/** Opens the picker of the Move dialog and narrows it to `search`. */
async function openPicker(page: Page, search: string) {
  const picker = page.getByRole('dialog').getByRole('combobox', { name: 'Move to' });
  await picker.click();
  await picker.fill(search);
}

/** The tree item of the folder titled `title` (its subfolders are inside it). */
const treeItem = (page: Page, title: string) =>
  page
    .getByRole('navigation', { name: 'Folder tree' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: new RegExp(`^${title} \\(`) }) })
    .last();

test('a folder moves under another folder with its articles, and back to the top level', async ({ page }) => {
  const parent = unique('Payments');
  const child = unique('Refunds');
  await folder(parent);
  const moving = await folder(child);
  await apiCall('POST', '/v2/hc-articles/public', { ...ARTICLE_CONTENT, title: 'Refund times', parentFolderId: moving.id });
  await signIn(page);
  await page.goto(`/console/knowledge/folders/${moving.id}`);
  await expect(page.getByRole('heading', { name: child })).toBeVisible();
  await expect(page.getByText('At the top level')).toBeVisible();

  await page.getByRole('button', { name: 'Move to…' }).click();
  await expect(page.getByRole('dialog', { name: `Move “${child}”` })).toContainText('moves with its subfolders and articles');
  await expect(page.getByRole('button', { name: 'Move folder' }), 'nothing picked yet').toBeDisabled();
  await openPicker(page, child);
  await expect(page.getByRole('option', { name: `${child} (the folder being moved)` })).toHaveAttribute('aria-disabled', 'true');
  await openPicker(page, 'Top level');
  await expect(page.getByRole('option', { name: 'Top level (where it is now)' })).toHaveAttribute('aria-disabled', 'true');
  await openPicker(page, parent);
  await checkPage(page, 'knowledge-move-folder');
  await page.getByRole('option', { name: parent, exact: true }).click();
  await page.getByRole('button', { name: 'Move folder' }).click();

  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText(`In ${parent}`, { exact: true })).toBeVisible();
  await expect(treeItem(page, parent).getByRole('link', { name: new RegExp(`^${child} \\(1\\)`) }), 'the folder is nested under its new parent').toBeVisible();
  await expect(page.getByRole('region', { name: 'Live articles' }).getByRole('link', { name: 'Refund times' }), 'its article moved with it').toBeVisible();

  await page.getByRole('button', { name: 'Move to…' }).click();
  await openPicker(page, child);
  await expect(page.getByRole('option', { name: `${parent} / ${child} (the folder being moved)` })).toHaveAttribute('aria-disabled', 'true');
  await openPicker(page, 'Top');
  await page.getByRole('option', { name: 'Top level', exact: true }).click();
  await page.getByRole('button', { name: 'Move folder' }).click();
  await expect(page.getByText('At the top level')).toBeVisible();
  await expect(treeItem(page, parent).getByRole('link', { name: new RegExp(`^${child}`) }), 'no longer under the parent').toHaveCount(0);
});

test('a move into the folder’s own subfolder cannot be picked, and when the tree changed meanwhile the API’s refusal is shown', async ({ page }) => {
  const top = unique('Orders');
  const sub = unique('Returns');
  const other = unique('Claims');
  const moving = await folder(top);
  const subfolder = await folder(sub, moving.id);
  const target = await folder(other);
  await signIn(page);
  await page.goto(`/console/knowledge/folders/${moving.id}`);
  await page.getByRole('button', { name: 'Move to…' }).click();
  await openPicker(page, sub);
  await expect(page.getByRole('option', { name: `${top} / ${sub} (inside the folder being moved)` })).toHaveAttribute('aria-disabled', 'true');
  await openPicker(page, other);
  await page.getByRole('option', { name: other, exact: true }).click();

  // Meanwhile someone moves the picked folder into the subfolder: the move would now be a cycle.
  await apiCall('PUT', `/v2/hc-folders/${target.id}/move/public`, { parentFolderId: subfolder.id });
  await page.getByRole('button', { name: 'Move folder' }).click();
  const refusal = page.getByRole('dialog').getByRole('alert');
  await expect(refusal).toContainText('The folder was not moved');
  await expect(refusal).toContainText('a folder cannot be moved into itself or one of its subfolders');
  await expect(page.getByRole('button', { name: 'Move folder' }), 'the refused pick is cleared').toBeDisabled();
  await checkPage(page, 'knowledge-move-folder-refused');

  // The tree was refreshed: the picker now shows the folder inside the one being moved.
  await openPicker(page, other);
  await expect(page.getByRole('option', { name: `${top} / ${sub} / ${other} (inside the folder being moved)` })).toHaveAttribute('aria-disabled', 'true');
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByText('At the top level'), 'the folder did not move').toBeVisible();
});

test('a folder switched inactive is marked in the tree with its subfolders, and says agents do not search it, until it is active again', async ({ page }) => {
  const top = unique('Warranty');
  const sub = unique('Repairs');
  const off = await folder(top);
  const inside = await folder(sub, off.id);
  await signIn(page);
  await page.goto(`/console/knowledge/folders/${off.id}`);
  const active = page.getByRole('switch', { name: 'Active' });
  await expect(active).toBeChecked();
  await expect(page.getByText('Agents do not search the articles of an inactive folder')).toBeVisible();

  await active.click();
  await expect(active).not.toBeChecked();
  await expect(page.getByText('This folder is inactive')).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(`^${top} \\(0\\)\\s*Inactive$`) })).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(`^${sub} \\(0\\)\\s*off with its parent$`) })).toBeVisible();
  await checkPage(page, 'knowledge-folder-inactive');

  await page.getByRole('link', { name: new RegExp(`^${sub}`) }).click();
  await expect(page).toHaveURL(new RegExp(`/folders/${inside.id}$`));
  await expect(page.getByText(`Inside the inactive folder “${top}”`)).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Active' }), 'the subfolder itself is still active').toBeChecked();

  await page.getByRole('link', { name: new RegExp(`^${top}`) }).click();
  await page.getByRole('switch', { name: 'Active' }).click();
  await expect(page.getByRole('switch', { name: 'Active' })).toBeChecked();
  await expect(page.getByText('This folder is inactive')).toHaveCount(0);
  await expect(page.getByRole('link', { name: new RegExp(`^${top} \\(0\\)$`) })).toBeVisible();
  const saved = await apiCall<{ snapshotObjV2: { id: string; active: boolean }[] }>('GET', '/v2/hc-folders/public');
  expect(saved.snapshotObjV2.find((f) => f.id === off.id)?.active, 'the API has the folder active again').toBe(true);
});

test('an article moves to another folder as a new version', async ({ page }) => {
  const from = unique('Delivery');
  const to = unique('Shipping');
  const source = await folder(from);
  const destination = await folder(to);
  const article = await apiCall<Article>('POST', '/v2/hc-articles/public', { ...ARTICLE_CONTENT, title: 'Parcel tracking', parentFolderId: source.id });
  await signIn(page);
  await page.goto(`/console/knowledge/articles/${article.id}`);
  await expect(page.getByRole('link', { name: from, exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Move to…' }).click();
  await openPicker(page, from);
  await expect(page.getByRole('option', { name: `${from} (where it is now)` })).toHaveAttribute('aria-disabled', 'true');
  await openPicker(page, to);
  await page.getByRole('option', { name: to, exact: true }).click();
  await checkPage(page, 'knowledge-move-article');
  await page.getByRole('button', { name: 'Move article' }).click();

  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('link', { name: to, exact: true })).toBeVisible();
  await expect(page.getByText('Version 2', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: to, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/folders/${destination.id}$`));
  await expect(page.getByRole('region', { name: 'Live articles' }).getByRole('link', { name: 'Parcel tracking' })).toBeVisible();
  await page.getByRole('link', { name: new RegExp(`^${from}`) }).click();
  await expect(page.getByText('No live articles in this folder.')).toBeVisible();

  // A draft of the live article moves alone: the dialog says the live article keeps its folder.
  const draft = await apiCall<Article>('POST', `/v2/hc-articles/${article.id}/draft/public`, { ...ARTICLE_CONTENT, title: 'Parcel tracking' });
  await page.goto(`/console/knowledge/articles/${draft.id}`);
  await page.getByRole('button', { name: 'Move to…' }).click();
  await expect(page.getByRole('dialog')).toContainText('Only the draft moves: the live article it was made from stays in its folder, also once the draft is published.');
});

test('a read-only key sees where folders and articles are and whether folders are active, and cannot change it', async ({ page }) => {
  const title = unique('Read only tree');
  const ro = await folder(title);
  const article = await apiCall<Article>('POST', '/v2/hc-articles/public', { ...ARTICLE_CONTENT, title: 'Store hours', parentFolderId: ro.id });
  await signIn(page, server.readKey);
  await page.goto(`/console/knowledge/folders/${ro.id}`);
  await expect(page.getByRole('button', { name: 'Move to…' })).toBeDisabled();
  await expect(page.getByRole('switch', { name: 'Active' })).toBeDisabled();
  await expect(page.getByRole('switch', { name: 'Active' })).toBeChecked();
  await expect(page.getByText('This key is read-only.')).toBeVisible();
  await checkPage(page, 'knowledge-tree-read-only');
  await page.goto(`/console/knowledge/articles/${article.id}`);
  await expect(page.getByRole('link', { name: title, exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Move to…' })).toBeDisabled();
});
