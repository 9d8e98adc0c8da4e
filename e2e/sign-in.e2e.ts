// Signing in with a workspace API key: kept in sessionStorage only, verified by the API, forgotten
// at sign-out; a wrong key shows the API's message.
import { checkPage, expect, server, signIn, test } from './fixtures.js';

test('a wrong key is refused with the API message', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/console\/$/);
  await expect(page.getByRole('heading', { name: 'Parley console' })).toBeVisible();
  await checkPage(page, 'sign-in');
  await page.getByLabel('API key').fill('parley_not-a-real-key');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('Sign-in failed');
  await expect(page.getByRole('alert')).toContainText(/key/i);
});

test('the key is kept in sessionStorage for the tab and forgotten at sign-out', async ({ page }) => {
  await signIn(page);
  await expect(page.getByLabel('Workspace')).toHaveText('default');
  const stored = await page.evaluate(() => ({ session: sessionStorage.getItem('parley.apiKey'), local: localStorage.length }));
  expect(stored).toEqual({ session: server.key, local: 0 });
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByLabel('API key')).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('parley.apiKey'))).toBeNull();
  await page.reload();
  await expect(page.getByLabel('API key')).toBeVisible();
});
