// An agent's widget keys on its Widget tab: a key created (origins one per line, a visitor rate
// limit), listed with the embed snippet copied and the demo page's link, deleted after the
// confirmation; an origin refused on its field naming the line; a read-only key.
import { apiCall, checkPage, expect, server, signIn, test, unique } from './fixtures.js';

interface WidgetKey {
  id: string;
  name: string;
  key: string;
  allowedOrigins: string[];
  visitorRateLimit: number | null;
}

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

async function newAgent(): Promise<{ id: string; name: string }> {
  const name = unique('Widget agent');
  const agent = await apiCall<{ id: string }>('POST', '/v2/bots/public', { name });
  return { id: agent.id, name };
}

test("a widget key is created on the agent's Widget tab, its snippet copied, and deleted", async ({ page }) => {
  const agent = await newAgent();
  await signIn(page);
  await page.getByRole('link', { name: 'Agents' }).click();
  await page.getByRole('link', { name: agent.name }).click();
  await page.getByRole('tab', { name: 'Widget' }).click();
  await expect(page.getByText('No widget key for this agent yet: create one below.')).toBeVisible();

  const form = page.getByRole('region', { name: 'New widget key' });
  await form.getByRole('textbox', { name: 'Key name' }).fill('Shop');
  await form.getByRole('textbox', { name: 'Allowed origins' }).fill('https://shop.example\n\nhttp://localhost:3000\n');
  await form.getByRole('textbox', { name: 'Visitor rate limit (optional)' }).fill('30');
  await form.getByRole('button', { name: 'Create widget key' }).click();

  const card = page.getByRole('region', { name: 'Widget key Shop' });
  await expect(card.getByText('Allowed origins: https://shop.example, http://localhost:3000')).toBeVisible();
  await expect(card.getByText('Visitor rate limit: 30 requests per window')).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'Key name' }), 'the form is emptied for the next key').toHaveValue('');
  const [created] = await apiCall<WidgetKey[]>('GET', `/v2/bots/${agent.id}/widget-keys/public`);
  expect(created, 'the key as the API keeps it').toMatchObject({ name: 'Shop', allowedOrigins: ['https://shop.example', 'http://localhost:3000'], visitorRateLimit: 30 });
  expect(created?.key).toMatch(/^pk_[A-Za-z0-9_-]{32}$/);
  await expect(card.getByText(`Key: ${created?.key}`)).toBeVisible();

  const snippet = `<script src="${server.url}/widget.js" data-key="${created?.key}" async></script>`;
  await expect(card.getByLabel('Embed snippet of Shop')).toHaveText(snippet);
  await card.getByRole('button', { name: 'Copy snippet' }).click();
  await expect(card.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText()), 'the snippet is on the clipboard').toBe(snippet);
  await expect(card.getByRole('link', { name: 'Open the demo page with this key' })).toHaveAttribute('href', `${server.url}/widget/demo?key=${created?.key}`);
  await checkPage(page, 'widget-keys');

  // A second key without a limit: the server's default.
  await form.getByRole('textbox', { name: 'Key name' }).fill('Help center');
  await form.getByRole('textbox', { name: 'Allowed origins' }).fill('https://help.shop.example');
  await form.getByRole('button', { name: 'Create widget key' }).click();
  const second = page.getByRole('region', { name: 'Widget key Help center' });
  await expect(second.getByText("Visitor rate limit: the server's default")).toBeVisible();
  await expect(page.getByRole('region', { name: /^Widget key / }), 'listed oldest first').toHaveText([/^Shop/, /^Help center/]);

  await card.getByRole('button', { name: 'Delete key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete widget key' });
  await expect(dialog).toContainText('Delete the widget key “Shop”?');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(card).toBeVisible();
  await card.getByRole('button', { name: 'Delete key' }).click();
  await dialog.getByRole('button', { name: 'Delete widget key' }).click();
  await expect(card).toHaveCount(0);
  expect((await apiCall<WidgetKey[]>('GET', `/v2/bots/${agent.id}/widget-keys/public`)).map((k) => k.name), 'only the second key is left').toEqual(['Help center']);
});

test('an origin the API refuses is shown on the origins naming its line, and nothing is created', async ({ page }) => {
  const agent = await newAgent();
  await signIn(page);
  await page.goto(`/console/agents/${agent.id}`);
  await page.getByRole('tab', { name: 'Widget' }).click();
  const form = page.getByRole('region', { name: 'New widget key' });
  await form.getByRole('textbox', { name: 'Key name' }).fill('Shop');
  await form.getByRole('textbox', { name: 'Allowed origins' }).fill('https://shop.example\nhttps://shop.example/checkout');
  await form.getByRole('button', { name: 'Create widget key' }).click();
  const origins = form.getByRole('textbox', { name: 'Allowed origins' });
  await expect(origins).toHaveAccessibleDescription(/Line 2 \(https:\/\/shop\.example\/checkout\): must be an origin as browsers send it/);
  await expect(origins).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByRole('textbox', { name: 'Key name' })).not.toHaveAttribute('aria-invalid', 'true');
  await checkPage(page, 'widget-keys-invalid');

  await form.getByRole('textbox', { name: 'Allowed origins' }).fill('');
  await form.getByRole('button', { name: 'Create widget key' }).click();
  await expect(origins).toHaveAccessibleDescription(/Too small: expected array to have >=1 items/);
  expect(await apiCall<WidgetKey[]>('GET', `/v2/bots/${agent.id}/widget-keys/public`), 'no key was created').toEqual([]);
});

test("a read-only key sees an agent's widget keys and their snippets and changes nothing", async ({ page }) => {
  const agent = await newAgent();
  const key = await apiCall<WidgetKey>('POST', `/v2/bots/${agent.id}/widget-keys/public`, { name: 'Shop', allowedOrigins: ['https://shop.example'] });
  await signIn(page, server.readKey);
  await page.goto(`/console/agents/${agent.id}`);
  await page.getByRole('tab', { name: 'Widget' }).click();
  const card = page.getByRole('region', { name: 'Widget key Shop' });
  await expect(card.getByLabel('Embed snippet of Shop')).toContainText(`data-key="${key.key}"`);
  await expect(card.getByRole('button', { name: 'Copy snippet' })).toBeEnabled();
  await expect(card.getByRole('button', { name: 'Delete key' })).toBeDisabled();
  await expect(page.getByRole('region', { name: 'New widget key' })).toHaveCount(0);
  await checkPage(page, 'widget-keys-read-only');
});
