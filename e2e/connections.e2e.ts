// Provider connections: Notion, Zendesk and Google Drive connected to the fakes of
// test/support/fake-providers.ts (their real wire formats, on 127.0.0.1), a wrong token refused in
// the provider's words, the connection tested (ok, then refused), resources discovered, picked and
// imported as sources, ingested with their text; secrets masked and kept; disconnect; a read-only key.
//
// A provider's base URL goes through the private-address policy of web fetches, which the run's
// shared server keeps (sources.e2e.ts checks it): like crawl.e2e.ts, this file starts a server of
// its own with PARLEY_FETCH_ALLOW_PRIVATE=true on its own PGlite data folder, and a read-only key
// for it through the admin API (as global-setup.ts does for the shared one). The last test runs on
// the shared server, to see its refusal of a loopback base URL.
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { type RunningServer, startServer, tempDataDir } from '../bench/support.js';
import { CREDENTIALS, type FakeProviders, notionId, startFakeProviders } from '../test/support/fake-providers.js';
import { checkPage, expect, signIn, test as base } from './fixtures.js';

interface Private {
  server: RunningServer;
  readKey: string;
  fake: FakeProviders;
}

const REFUNDS = 'A refund reaches the card within 5 working days of the return.';
const SHIPPING = 'Orders ship from Rotterdam within two working days.';
const ARTICLE = 'Kettles can be descaled with white vinegar once a month.';
const WARRANTY = 'A warranty claim needs the receipt and a photo of the kettle.';
const EDITED = '2026-11-01T10:00:00.000Z';

/** The fakes' content: three Notion pages, a Help Center with two articles, a wiki space, a Drive file. */
function seed(fake: FakeProviders): void {
  const pages = [
    [notionId(0x101), 'Refund policy', REFUNDS],
    [notionId(0x102), 'Shipping times', SHIPPING],
    [notionId(0x103), 'Careers', 'We are hiring support engineers.'],
  ] as const;
  for (const [id, title, text] of pages) {
    fake.notion.pages.set(id, { id, title, lastEdited: EDITED, blocks: [{ type: 'heading_1', text: title }, { type: 'paragraph', text }] });
    fake.notion.searchable.push(id);
  }
  fake.zendesk.categories.push({ id: 1, name: 'Kettles' });
  fake.zendesk.sections.push({ id: 11, categoryId: 1, name: 'Care' }, { id: 12, categoryId: 1, name: 'Orders' });
  fake.zendesk.articles.set(501, { id: 501, sectionId: 11, title: 'Descaling your kettle', body: `<h1>Descaling</h1><p>${ARTICLE}</p>`, updatedAt: EDITED });
  fake.zendesk.articles.set(502, { id: 502, sectionId: 12, title: 'Cancelling an order', body: '<p>An order can be cancelled until it ships.</p>', updatedAt: EDITED });
  fake.confluence.spaces.push({ key: 'HELP', name: 'Help desk' });
  fake.confluence.pages.set('701', { id: '701', spaceKey: 'HELP', title: 'Warranty claims', body: `<h1>Warranty claims</h1><p>${WARRANTY}</p>`, version: 1 });
  fake.confluence.pages.set('702', { id: '702', spaceKey: 'HELP', title: 'Opening hours', body: '<p>Open weekdays from 9 to 18.</p>', version: 1 });
  fake.drive.files.set('1ReturnsGuideMd', { id: '1ReturnsGuideMd', name: 'returns.md', mimeType: 'text/markdown', modifiedTime: EDITED, content: '# Returns guide\n\nPrint the free label from your account page.\n' });
}

const test = base.extend<object, { own: Private }>({
  own: [
    async ({}, use) => {
      const data = await tempDataDir('parley-e2e-connections-');
      const server = await startServer({
        env: { PARLEY_DATA_DIR: data.path, PARLEY_LOG_LEVEL: 'warn', PARLEY_JOB_POLL_SECONDS: '0.5', PARLEY_FETCH_ALLOW_PRIVATE: 'true', PARLEY_RATE_LIMIT_MAX: '100000' },
      });
      const fake = await startFakeProviders();
      seed(fake);
      const me = (await (await fetch(`${server.url}/v2/workspace/public`, { headers: { authorization: `Bearer ${server.apiKey}` } })).json()) as { id: string };
      const created = await fetch(`${server.url}/v2/admin/workspaces/${me.id}/api-keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${readFileSync(path.join(data.path, 'admin-token'), 'utf8').trim()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'e2e connections read-only', scopes: ['read'] }),
      });
      expect(created.status, 'the read-only key is created').toBe(201);
      await use({ server, fake, readKey: ((await created.json()) as { key: string }).key });
      await fake.close();
      await server.stop();
      await data.remove();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ own }, use) => {
    await use(own.server.url);
  },
});

const card = (page: Page, label: string) => page.getByRole('region', { name: label, exact: true });

async function openConnections(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Connections' }).click();
  await expect(page.getByRole('heading', { name: 'Connections', level: 1 })).toBeVisible();
}

/** Waits until the imported source is ingested, opens its page and finds `text` in what was extracted. */
async function openIngested(page: Page, title: string, text: string): Promise<void> {
  const imported = page.getByRole('table', { name: 'Imported sources' });
  await expectIngested(imported, [title]);
  await imported.getByRole('link', { name: title }).click();
  await expect(page.getByRole('region', { name: 'Extracted text' }), `the text of ${title}`).toContainText(text);
}

/** Waits until every row of the imported sources is ingested (`completed`). */
async function expectIngested(imported: Locator, titles: string[]): Promise<void> {
  for (const title of titles) {
    await expect(imported.getByRole('row').filter({ hasText: title }).getByText('completed'), `${title} ingested`).toBeVisible({ timeout: 30_000 });
  }
}

test('Notion: a wrong token refused, connected, tested, two pages discovered, picked and imported, then ingested', async ({ page, own }) => {
  const { fake } = own;
  await signIn(page, own.server.apiKey);
  await openConnections(page);
  const notion = card(page, 'Notion');
  await expect(notion.getByText('Not connected')).toBeVisible();
  await expect(card(page, 'Google Drive').getByText('Not connected')).toBeVisible();
  await checkPage(page, 'connections');

  await notion.getByRole('button', { name: 'Connect Notion' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect Notion' });
  await dialog.getByLabel('Integration token').fill('ntn_not_the_right_one');
  await dialog.getByRole('textbox', { name: 'Base URL (optional)' }).fill(fake.url);
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog.getByRole('alert'), 'the refusal, naming the provider').toContainText('notion: Notion refused to check the credentials: expired connection: Notion refused the credentials (HTTP 401)');
  await checkPage(page, 'connections-connect');
  await dialog.getByLabel('Integration token').fill(CREDENTIALS.notionToken);
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog).toHaveCount(0);

  const details = notion.getByRole('table', { name: 'Notion connection' });
  await expect(notion.getByText('Connected', { exact: true })).toBeVisible();
  await expect(details.getByRole('row', { name: /Account/ }), 'the workspace the fake reports').toContainText('Acme Support');
  await expect(details.getByRole('row', { name: /Base URL/ })).toContainText(fake.url);
  await expect(details.getByRole('row', { name: /Integration token/ }), 'the token masked').toContainText('********');
  await expect(notion, 'the token itself is never shown').not.toContainText(CREDENTIALS.notionToken);

  await notion.getByRole('button', { name: 'Test connection' }).click();
  await expect(notion.getByRole('status')).toContainText('Notion accepted the credentials as Acme Support.');
  await checkPage(page, 'connections-tested');
  // The provider now refuses the stored token: the test says so in its words.
  fake.fail(/^\/v1\/users\/me/, 401);
  await notion.getByRole('button', { name: 'Test connection' }).click();
  await expect(notion.getByRole('alert'), 'the refusal of the test').toContainText('Notion refused the connection');

  // Editing: the secret comes back masked, and saving it masked keeps the stored token.
  await notion.getByRole('button', { name: 'Edit connection' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit the Notion connection' });
  await expect(edit.getByLabel('Integration token'), 'the stored token masked in the form').toHaveValue('********');
  await expect(edit.getByRole('textbox', { name: 'Base URL (optional)' })).toHaveValue(fake.url);
  await checkPage(page, 'connections-edit');
  await edit.getByRole('button', { name: 'Save connection' }).click();
  await expect(edit).toHaveCount(0);
  await notion.getByRole('button', { name: 'Test connection' }).click();
  await expect(notion.getByRole('status'), 'the masked token kept the stored one').toContainText('as Acme Support');

  await notion.getByRole('link', { name: 'Discover and import resources' }).click();
  await expect(page.getByRole('heading', { name: 'Import from Notion', level: 1 })).toBeVisible();
  const resources = page.getByRole('table', { name: 'Notion resources' });
  await expect(resources.getByRole('row'), 'a header and the three pages').toHaveCount(4);
  await checkPage(page, 'connections-discover');
  await page.getByRole('textbox', { name: 'Filter resources' }).fill('i');
  await expect(resources.getByRole('row'), 'Shipping times and Careers contain an i').toHaveCount(3);
  await page.getByRole('textbox', { name: 'Filter resources' }).fill('');
  await page.getByRole('checkbox', { name: 'Pick Refund policy' }).check();
  await page.getByRole('checkbox', { name: 'Pick Shipping times' }).check();
  await expect(page.getByText('2 of 3 picked')).toBeVisible();
  await page.getByRole('button', { name: 'Import 2 picked as sources' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Imported' })).toContainText('2 new sources, 0 already known and refreshed.');
  await expect(resources.getByRole('row'), 'the imported pages leave the list').toHaveCount(2);

  const imported = page.getByRole('table', { name: 'Imported sources' });
  await expectIngested(imported, ['Refund policy', 'Shipping times']);
  await checkPage(page, 'connections-imported');
  await imported.getByRole('link', { name: 'Refund policy' }).click();
  await expect(page.getByRole('region', { name: 'Extracted text' }), "the page's text").toContainText(REFUNDS);

  // Discovery leaves out what was imported.
  await page.goto('/console/connections/notion');
  await expect(resources.getByRole('row'), 'only Careers is left').toHaveCount(2);
  await expect(resources.getByRole('link', { name: 'Careers' })).toBeVisible();
});

test('Zendesk: a missing field named on it, connected, an article imported from its section, then disconnected', async ({ page, own }) => {
  await signIn(page, own.server.apiKey);
  await openConnections(page);
  const zendesk = card(page, 'Zendesk');
  await zendesk.getByRole('button', { name: 'Connect Zendesk' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect Zendesk' });
  await dialog.getByRole('textbox', { name: 'Email' }).fill(CREDENTIALS.zendeskEmail);
  await dialog.getByLabel('API token').fill(CREDENTIALS.zendeskToken);
  await dialog.getByRole('button', { name: 'Connect' }).click();
  // Neither a subdomain nor a base URL: the API names the subdomain, and the form puts it there.
  const subdomain = dialog.getByRole('textbox', { name: 'Subdomain' });
  await expect(subdomain).toHaveAttribute('aria-invalid', 'true');
  await expect(subdomain).toHaveAccessibleDescription(/required for zendesk \(or give baseUrl\)/);
  await dialog.getByRole('textbox', { name: 'Base URL (optional)' }).fill(own.fake.url);
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(zendesk.getByRole('table', { name: 'Zendesk connection' }).getByRole('row', { name: /Account/ })).toContainText(CREDENTIALS.zendeskEmail);
  await expect(zendesk.getByRole('table', { name: 'Zendesk connection' }).getByRole('row', { name: /API token/ })).toContainText('********');

  await zendesk.getByRole('link', { name: 'Discover and import resources' }).click();
  const resources = page.getByRole('table', { name: 'Zendesk resources' });
  await expect(resources.getByRole('row').filter({ hasText: 'Descaling your kettle' }), 'an article with its category and section').toContainText('Kettles / Care');
  await page.getByRole('textbox', { name: 'Filter resources' }).fill('orders');
  await expect(resources.getByRole('row'), 'the filter matches the section').toHaveCount(2);
  await page.getByRole('textbox', { name: 'Filter resources' }).fill('care');
  await page.getByRole('button', { name: 'Select all shown' }).click();
  await page.getByRole('button', { name: 'Import 1 picked as a source' }).click();
  await openIngested(page, 'Descaling your kettle', ARTICLE);

  await page.goto('/console/connections');
  await zendesk.getByRole('button', { name: 'Disconnect' }).click();
  const confirm = page.getByRole('dialog', { name: 'Disconnect Zendesk?' });
  await expect(confirm).toContainText('Sources already imported from Zendesk stay');
  await checkPage(page, 'connections-disconnect');
  await confirm.getByRole('button', { name: 'Disconnect Zendesk' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(zendesk.getByText('Not connected')).toBeVisible();
  const answer = await fetch(`${own.server.url}/v2/providers/zendesk/connection/public`, { headers: { authorization: `Bearer ${own.server.apiKey}` } });
  expect(await answer.json(), 'the API forgot the connection').toEqual({ provider: 'zendesk', connected: false });
});

test('Confluence: connected, its listing refused then asked again, a page imported from its space', async ({ page, own }) => {
  await signIn(page, own.server.apiKey);
  await openConnections(page);
  const confluence = card(page, 'Confluence');
  await confluence.getByRole('button', { name: 'Connect Confluence' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect Confluence' });
  await dialog.getByRole('textbox', { name: 'Base URL' }).fill(`${own.fake.url}/wiki`);
  await dialog.getByRole('textbox', { name: 'Email' }).fill(CREDENTIALS.confluenceEmail);
  await dialog.getByLabel('API token').fill(CREDENTIALS.confluenceToken);
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(confluence.getByRole('table', { name: 'Confluence connection' }).getByRole('row', { name: /Account/ })).toContainText(CREDENTIALS.confluenceEmail);

  // The wiki refuses the first listing: the page says so in the API's words, and asking again lists it.
  own.fake.fail(/^\/wiki\/rest\/api\/space/, 401);
  await confluence.getByRole('link', { name: 'Discover and import resources' }).click();
  await expect(page.getByRole('alert'), "the listing's refusal").toContainText('confluence: Confluence refused to list its resources');
  await checkPage(page, 'connections-discover-refused');
  await page.getByRole('button', { name: 'Ask Confluence again' }).click();
  const resources = page.getByRole('table', { name: 'Confluence resources' });
  await expect(resources.getByRole('row').filter({ hasText: 'Warranty claims' }), 'a page with its space').toContainText('Help desk');
  await page.getByRole('checkbox', { name: 'Pick Warranty claims' }).check();
  await page.getByRole('button', { name: 'Import 1 picked as a source' }).click();
  await openIngested(page, 'Warranty claims', WARRANTY);
});

test('Google Drive: connected with an access token, a file imported by its link', async ({ page, own }) => {
  await signIn(page, own.server.apiKey);
  // The Sources page leads to the connections.
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Sources' }).click();
  await page.getByRole('link', { name: 'Import from a provider' }).click();
  await expect(page.getByRole('heading', { name: 'Connections', level: 1 })).toBeVisible();
  const drive = card(page, 'Google Drive');
  await drive.getByRole('button', { name: 'Connect Google Drive' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect Google Drive' });
  await expect(dialog.getByLabel('Service account key (JSON)'), 'one way to sign in at a time').toHaveCount(0);
  await dialog.getByRole('textbox', { name: 'Access token' }).fill(CREDENTIALS.driveToken);
  await dialog.getByRole('textbox', { name: 'Base URL (optional)' }).fill(own.fake.url);
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(drive.getByRole('table', { name: 'Google Drive connection' }).getByRole('row', { name: /Account/ })).toContainText('ops@acme.test');

  await drive.getByRole('link', { name: 'Import files' }).click();
  await expect(page.getByRole('heading', { name: 'Import from Google Drive', level: 1 })).toBeVisible();
  const form = page.getByRole('form', { name: 'Import a Drive file' });
  await form.getByRole('textbox', { name: 'File id or link' }).fill('not a file id!');
  await form.getByRole('textbox', { name: 'Title' }).fill('Returns guide');
  await form.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Markdown' }).click();
  await form.getByRole('button', { name: 'Import file' }).click();
  await expect(form.getByRole('textbox', { name: 'File id or link' }), 'the API names the id').toHaveAccessibleDescription(/not a Google Drive file id/);
  await form.getByRole('textbox', { name: 'File id or link' }).fill('https://drive.google.com/file/d/1ReturnsGuideMd/view?usp=sharing');
  await form.getByRole('button', { name: 'Import file' }).click();
  const imported = page.getByRole('table', { name: 'Imported sources' });
  // Once ingested, a Drive source is titled with the file's name in Drive.
  await expectIngested(imported, ['returns.md']);
  await checkPage(page, 'connections-drive');
  await imported.getByRole('link', { name: 'returns.md' }).click();
  await expect(page.getByRole('region', { name: 'Extracted text' })).toContainText('Print the free label from your account page.');
});

test('Google Drive: a service account key pasted in a masked field connects, and is never shown again', async ({ page, own }) => {
  // Disconnected first (the test before connects Drive with an access token).
  await fetch(`${own.server.url}/v2/providers/googledrive/connection/public`, { method: 'DELETE', headers: { authorization: `Bearer ${own.server.apiKey}` } });
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' });
  // The key file as Google writes it: JSON over several lines; a one-line input drops the line breaks, which JSON allows.
  const keyFile = JSON.stringify({ type: 'service_account', client_email: own.fake.drive.serviceAccountEmail, private_key: pem, token_uri: `${own.fake.url}/token` }, null, 2);
  await signIn(page, own.server.apiKey);
  await openConnections(page);
  const drive = card(page, 'Google Drive');
  await drive.getByRole('button', { name: 'Connect Google Drive' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect Google Drive' });
  await expect(dialog, 'the dialog does not promise that the account is hidden').toContainText('the secrets among them are never shown again');
  await dialog.getByText('Service account key', { exact: true }).click();
  const key = dialog.getByLabel('Service account key (JSON)');
  await expect(key, 'the key is hidden while pasted').toHaveAttribute('type', 'password');
  await key.fill(keyFile);
  await dialog.getByRole('textbox', { name: 'Base URL (optional)' }).fill(own.fake.url);
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(drive.getByRole('table', { name: 'Google Drive connection' }).getByRole('row', { name: /Account/ })).toContainText('ops@acme.test');
  expect(await page.content(), 'the private key is not on the page').not.toContain('PRIVATE KEY');
  await drive.getByRole('button', { name: 'Edit connection' }).click();
  await expect(page.getByRole('dialog', { name: 'Edit the Google Drive connection' }).getByLabel('Service account key (JSON)'), 'stored, it reads ********').toHaveValue('********');
});

test('a read-only key reads the connections and what they can import, and changes nothing', async ({ page, own }) => {
  // Connected through the API (as the first test left it, when it ran in this worker).
  const connected = await fetch(`${own.server.url}/v2/providers/notion/connection/public`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${own.server.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ token: CREDENTIALS.notionToken, baseUrl: own.fake.url }),
  });
  expect(connected.status, 'Notion connected through the API').toBe(200);
  await signIn(page, own.readKey);
  await openConnections(page);
  const notion = card(page, 'Notion');
  await expect(notion.getByText('Connected', { exact: true })).toBeVisible();
  for (const name of ['Edit connection', 'Test connection', 'Disconnect']) {
    await expect(notion.getByRole('button', { name }), `${name} disabled`).toBeDisabled();
    await expect(notion.getByRole('button', { name }), name).toHaveAttribute('title', 'This key is read-only');
  }
  // Zendesk is not connected (the Zendesk test disconnects it).
  await expect(card(page, 'Zendesk').getByRole('button', { name: 'Connect Zendesk' })).toBeDisabled();
  await checkPage(page, 'connections-read-only');
  await notion.getByRole('link', { name: 'Discover and import resources' }).click();
  await page.getByRole('checkbox', { name: 'Pick Careers' }).check();
  await expect(page.getByRole('button', { name: 'Import 1 picked as a source' }), 'importing is a write').toBeDisabled();
});

base('on the shared server, which refuses private addresses, a loopback base URL is refused with the reason', async ({ page }) => {
  await signIn(page);
  await openConnections(page);
  await card(page, 'Notion').getByRole('button', { name: 'Connect Notion' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect Notion' });
  await dialog.getByLabel('Integration token').fill(CREDENTIALS.notionToken);
  await dialog.getByRole('textbox', { name: 'Base URL (optional)' }).fill('http://127.0.0.1:9');
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog.getByRole('alert'), "the private-address policy, in the API's words").toContainText(/private or loopback address/);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(card(page, 'Notion').getByText('Not connected'), 'nothing stored').toBeVisible();
});
