// The Actions page: an action created for an agent with its fields and external API call steps
// against a fake API on 127.0.0.1, tested (the request as sent, status, response, mapped output),
// its steps reordered and removed; a secret header masked and kept through an edit; validation
// messages on their fields; a delete refused while a rule calls the action; a read-only key.
//
// Parley refuses to call private addresses unless its operator allows them
// (PARLEY_FETCH_ALLOW_PRIVATE), and the run's shared server keeps that refusal. So the flows that
// call the fake run on a server of their own that allows them, as crawl.e2e.ts does.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RunningServer, startServer, tempDataDir } from '../bench/support.js';
import { type RecordedRequest, recordingServer } from '../test/support/recording-server.js';
import type { Page } from '@playwright/test';
import { apiCall, checkPage, expect, server, signIn, test as base, unique } from './fixtures.js';

/** The shop's API: `GET /orders/{id}` and `GET /customers/{id}`, recording every request. */
async function startShop(): Promise<{ url: string; requests: RecordedRequest[]; server: Server }> {
  const requests: RecordedRequest[] = [];
  const shop = recordingServer(requests, (req, res) => {
    const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    const order = /^\/orders\/([^/?]+)$/.exec(req.url ?? '');
    if (order) return json(200, { data: { id: decodeURIComponent(order[1] ?? ''), status: 'shipped', customerId: 'c_42' } });
    const customer = /^\/customers\/([^/?]+)$/.exec(req.url ?? '');
    if (customer) return json(200, { id: customer[1], name: 'Ada Lovelace' });
    json(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(shop.address() as AddressInfo).port}`, requests, server: shop };
}

const test = base.extend<{ shop: Awaited<ReturnType<typeof startShop>> }, { calling: RunningServer }>({
  calling: [
    async ({}, use) => {
      const data = await tempDataDir('parley-e2e-actions-');
      const running = await startServer({ env: { PARLEY_DATA_DIR: data.path, PARLEY_LOG_LEVEL: 'warn', PARLEY_FETCH_ALLOW_PRIVATE: 'true' } });
      await use(running);
      await running.stop();
      await data.remove();
    },
    { scope: 'worker' },
  ],
  shop: async ({}, use) => {
    const shop = await startShop();
    await use(shop);
    shop.server.closeAllConnections();
    await new Promise((resolve) => shop.server.close(resolve));
  },
});

/** Tests whose pages run on the server that may call the fake. */
const callingTest = test.extend({
  baseURL: async ({ calling }, use) => {
    await use(calling.url);
  },
});

/** A JSON request to a server with its read-write key; throws unless it answers 2xx. */
async function callOn<T>(running: { url: string; apiKey: string }, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${running.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${running.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

type Step = { id: string; name: string; headers: Record<string, unknown> };

/**
 * The secret is nowhere the page keeps it: not in its HTML (text and attributes), not in the value
 * of an input or textarea (which the HTML leaves out), and not in the URL of a request it made.
 */
async function expectSecretNowhere(page: Page, urls: string[], secret: string): Promise<void> {
  expect(await page.content(), 'the secret is not in the page').not.toContain(secret);
  const values = await page.locator('input, textarea').evaluateAll((fields) => fields.map((field) => (field as HTMLInputElement).value));
  expect(values.filter((value) => value.includes(secret)), 'no field holds the secret').toEqual([]);
  expect(urls.filter((url) => url.includes(secret)), 'no request URL holds the secret').toEqual([]);
}

callingTest('an action with a data step against a fake API on 127.0.0.1 is created for an agent and tested', async ({ page, calling, shop }) => {
  const agentName = unique('Shop agent');
  const otherName = unique('Other agent');
  await callOn(calling, 'POST', '/v2/bots/public', { name: agentName });
  await callOn(calling, 'POST', '/v2/bots/public', { name: otherName });
  const actionName = unique('Order lookup');
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));

  await signIn(page, calling.apiKey);
  await page.getByRole('link', { name: 'Actions', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Actions and attributes', level: 1 })).toBeVisible();
  await page.getByRole('combobox', { name: 'Agent' }).click();
  await page.getByRole('option', { name: agentName }).click();
  await expect(page.getByText('No actions here yet.')).toBeVisible();
  await checkPage(page, 'actions-list-empty');
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(actionName);
  await page.getByRole('textbox', { name: 'Description' }).fill('Status of an order by its number');
  await page.getByRole('button', { name: 'Create action' }).click();
  await expect(page.getByRole('heading', { name: actionName, level: 1 })).toBeVisible();
  const actionId = new URL(page.url()).pathname.split('/').pop() ?? '';

  // Its fields: one required input, two outputs.
  await page.getByRole('button', { name: 'Add an input' }).click();
  await page.getByRole('textbox', { name: 'Input 1 name' }).fill('orderNumber');
  await page.getByRole('textbox', { name: 'Input 1 description' }).fill('The order number, e.g. A-1001');
  await page.getByRole('group', { name: 'Input 1' }).getByRole('checkbox', { name: 'Required' }).check();
  for (const [index, name] of ['status', 'customerName'].entries()) {
    await page.getByRole('button', { name: 'Add an output' }).click();
    await page.getByRole('textbox', { name: `Output ${index + 1} name` }).fill(name);
  }
  await page.getByRole('button', { name: 'Save fields' }).click();
  await expect(page.getByText('Fields saved.')).toBeVisible();
  const saved = await callOn<{ inputFields: unknown[]; outputFields: unknown[] }>(calling, 'GET', `/v2/hc-tools/${actionId}/public`);
  expect(saved.inputFields, 'the input as the API stores it').toEqual([{ name: 'orderNumber', type: 'string', required: true, description: 'The order number, e.g. A-1001' }]);
  expect(saved.outputFields).toEqual([
    { name: 'status', type: 'string' },
    { name: 'customerName', type: 'string' },
  ]);
  await checkPage(page, 'action-fields');

  // Step 1: the order, with a secret Authorization header and a plain one.
  await page.getByRole('tab', { name: /^External API calls/ }).click();
  await expect(page.getByText('No external API calls yet')).toBeVisible();
  await page.getByRole('button', { name: 'Add a step' }).click();
  await page.getByRole('textbox', { name: 'Step name' }).fill('order');
  await page.getByRole('textbox', { name: 'URL' }).fill(`${shop.url}/orders/\${orderNumber}`);
  await page.getByRole('button', { name: 'Add a header' }).click();
  await page.getByRole('textbox', { name: 'Header 1 name' }).fill('Authorization');
  await page.getByRole('group', { name: 'Header 1' }).getByRole('checkbox', { name: 'Secret' }).check();
  await page.getByLabel('Header 1 value').fill('Bearer sk_test_4242');
  await page.getByRole('button', { name: 'Add a header' }).click();
  await page.getByRole('textbox', { name: 'Header 2 name' }).fill('X-Region');
  await page.getByRole('textbox', { name: 'Header 2 value' }).fill('eu');
  await page.getByRole('button', { name: 'Add a mapping' }).click();
  await page.getByRole('textbox', { name: 'Mapping 1 output' }).fill('status');
  await page.getByRole('textbox', { name: 'Mapping 1 path' }).fill('data.status');
  await page.getByRole('button', { name: 'Add a mapping' }).click();
  await page.getByRole('textbox', { name: 'Mapping 2 output' }).fill('customerId');
  await page.getByRole('textbox', { name: 'Mapping 2 path' }).fill('data.customerId');
  await page.getByRole('button', { name: 'Add step' }).click();

  const first = page.getByRole('region', { name: 'Step 1: order' });
  await expect(first.getByLabel('URL')).toHaveText(`${shop.url}/orders/\${orderNumber}`);
  await expect(first.locator('mark').first(), 'the placeholder is marked').toHaveText('${orderNumber}');
  await expect(first.getByRole('list', { name: 'Placeholders' })).toContainText('the input orderNumber (string, required)');
  const headers = first.getByRole('table', { name: 'Headers of order' });
  await expect(headers.getByRole('row', { name: /Authorization/ })).toContainText('********secret');
  await expect(headers.getByRole('row', { name: /X-Region/ })).toContainText('eu');
  await expectSecretNowhere(page, urls, 'sk_test_4242');
  let [stored] = await callOn<Step[]>(calling, 'GET', `/v2/api-function-configs/public?toolId=${actionId}`);
  expect(stored?.headers, 'the API answers the secret masked').toEqual({ Authorization: '********', 'X-Region': 'eu' });

  // Another field of the step edited: the secret header, untouched, is kept.
  await first.getByRole('button', { name: 'Edit order' }).click();
  // The API answers the headers in its own order: the rows are found by what they hold.
  const secretRow = page.getByRole('group', { name: /^Header \d+$/ }).filter({ has: page.locator('input[type="password"]') });
  await expect(secretRow.getByRole('textbox', { name: /name$/ })).toHaveValue('Authorization');
  await expect(secretRow.locator('input[type="password"]'), 'the stored secret reads ********').toHaveValue('********');
  await expect(secretRow.getByRole('checkbox', { name: 'Secret' }), 'a stored secret stays secret').toBeDisabled();
  const plainRow = page.getByRole('group', { name: /^Header \d+$/ }).filter({ hasNot: page.locator('input[type="password"]') });
  await plainRow.getByRole('textbox', { name: /value$/ }).fill('us');
  await page.getByRole('button', { name: 'Save step' }).click();
  await expect(headers.getByRole('row', { name: /X-Region/ })).toContainText('us');
  [stored] = await callOn<Step[]>(calling, 'GET', `/v2/api-function-configs/public?toolId=${actionId}`);
  expect(stored?.headers).toEqual({ Authorization: '********', 'X-Region': 'us' });

  // Step 2: the customer, from step 1's output.
  await page.getByRole('button', { name: 'Add a step' }).click();
  await page.getByRole('textbox', { name: 'Step name' }).fill('customer');
  await page.getByRole('textbox', { name: 'URL' }).fill(`${shop.url}/customers/\${order.customerId}`);
  await page.getByRole('button', { name: 'Add a mapping' }).click();
  await page.getByRole('textbox', { name: 'Mapping 1 output' }).fill('customerName');
  await page.getByRole('textbox', { name: 'Mapping 1 path' }).fill('name');
  await page.getByRole('button', { name: 'Add step' }).click();
  const second = page.getByRole('region', { name: 'Step 2: customer' });
  await expect(second.getByRole('list', { name: 'Placeholders' })).toContainText('the output customerId of step 1 “order” (data.customerId)');
  await checkPage(page, 'action-steps');

  // The test run: each step as sent, its status, response and mapped output.
  await page.getByRole('tab', { name: 'Test' }).click();
  await page.getByRole('textbox', { name: 'orderNumber' }).fill('A-1001');
  shop.requests.length = 0;
  await page.getByRole('button', { name: 'Run test' }).click();
  const result = page.getByRole('region', { name: 'Test result' });
  await expect(result.getByText('Succeeded')).toBeVisible();
  await expect(result.getByLabel('Output', { exact: true })).toContainText('"customerName": "Ada Lovelace"');
  const orderRun = result.getByRole('region', { name: 'Step 1: order as run' });
  await expect(orderRun.getByLabel('Request line')).toHaveText(`GET ${shop.url}/orders/A-1001`);
  await expect(orderRun.getByRole('table', { name: 'Request headers' }).getByRole('row', { name: /authorization/i })).toContainText('********');
  await expect(orderRun.getByLabel('Status')).toHaveText('HTTP 200');
  await expect(orderRun.getByLabel('Duration')).toHaveText(/^\d+ ms$/);
  await expect(orderRun.getByLabel('Response body')).toContainText('"status": "shipped"');
  await expect(orderRun.getByLabel('Mapped output')).toContainText('"customerId": "c_42"');
  await expect(result.getByRole('region', { name: 'Step 2: customer as run' }).getByLabel('Request line')).toHaveText(`GET ${shop.url}/customers/c_42`);
  await expectSecretNowhere(page, urls, 'sk_test_4242');
  const orderCall = shop.requests.find((r) => r.path === '/orders/A-1001');
  expect(orderCall?.headers.authorization, 'the fake received the real secret, kept through the edit').toBe('Bearer sk_test_4242');
  expect(orderCall?.headers['x-region']).toBe('us');
  await checkPage(page, 'action-test');

  // One step alone, with an earlier step's output given by hand.
  await page.getByRole('combobox', { name: 'Run' }).click();
  await page.getByRole('option', { name: 'Step 2 alone: customer' }).click();
  await page.getByRole('textbox', { name: 'Outputs of earlier steps (JSON)' }).fill('{ "order": { "customerId": "c_7" } }');
  await page.getByRole('button', { name: 'Run this step' }).click();
  const alone = page.getByRole('region', { name: 'Step customer as run' });
  await expect(alone.getByLabel('Request line')).toHaveText(`GET ${shop.url}/customers/c_7`);
  await expect(alone.getByLabel('Mapped output')).toContainText('"customerName": "Ada Lovelace"');

  // A new value typed over the stored secret replaces it (and stays masked).
  await page.getByRole('tab', { name: /^External API calls/ }).click();
  await page.getByRole('button', { name: 'Edit order' }).click();
  await secretRow.locator('input[type="password"]').fill('Bearer sk_test_rotated');
  await page.getByRole('button', { name: 'Save step' }).click();
  // Saved when the form closes and the step's details (its headers table) are back.
  await expect(page.getByRole('button', { name: 'Save step' }), 'the edit form closes once saved').toHaveCount(0);
  await expect(headers.getByRole('row', { name: /Authorization/ })).toContainText('********secret');
  await expectSecretNowhere(page, urls, 'sk_test_rotated');
  [stored] = await callOn<Step[]>(calling, 'GET', `/v2/api-function-configs/public?toolId=${actionId}`);
  expect(stored?.headers.Authorization, 'still masked after the replacement').toBe('********');
  await page.getByRole('tab', { name: 'Test' }).click();
  await page.getByRole('combobox', { name: 'Run' }).click();
  await page.getByRole('option', { name: 'Step 1 alone: order' }).click();
  await page.getByRole('textbox', { name: 'orderNumber' }).fill('A-1002');
  await page.getByRole('button', { name: 'Run this step' }).click();
  await expect(page.getByRole('region', { name: 'Step order as run' }).getByLabel('Request line')).toHaveText(`GET ${shop.url}/orders/A-1002`);
  expect(shop.requests.find((r) => r.path === '/orders/A-1002')?.headers.authorization, 'the fake receives the new secret').toBe('Bearer sk_test_rotated');

  // Reordered, the customer step runs first and names nothing: the run fails in the API's words.
  await page.getByRole('tab', { name: /^External API calls/ }).click();
  await page.getByRole('button', { name: 'Move customer up' }).click();
  const moved = page.getByRole('region', { name: 'Step 1: customer' });
  await expect(moved.getByRole('list', { name: 'Placeholders' })).toContainText('neither an input nor an output of an earlier step');
  await page.getByRole('tab', { name: 'Test' }).click();
  await page.getByRole('textbox', { name: 'orderNumber' }).fill('A-1001');
  await page.getByRole('button', { name: 'Run test' }).click();
  await expect(result.getByText('Failed', { exact: true })).toBeVisible();
  await expect(result.getByRole('alert').first()).toContainText('invalid_input');
  await expect(result.getByRole('alert').first()).toContainText('${order.customerId} is neither an input nor an output of an earlier step');
  await page.getByRole('tab', { name: /^External API calls/ }).click();
  await page.getByRole('button', { name: 'Move customer down' }).click();
  await expect(page.getByRole('region', { name: 'Step 2: customer' })).toBeVisible();
  const order = await callOn<Step[]>(calling, 'GET', `/v2/api-function-configs/public?toolId=${actionId}`);
  expect(order.map((s) => s.name), 'the run order the API keeps').toEqual(['order', 'customer']);

  await page.getByRole('button', { name: 'Remove customer' }).click();
  await page.getByRole('dialog', { name: 'Remove step' }).getByRole('button', { name: 'Remove step' }).click();
  await expect(page.getByRole('region', { name: /^Step 2/ })).toHaveCount(0);
  expect((await callOn<Step[]>(calling, 'GET', `/v2/api-function-configs/public?toolId=${actionId}`)).map((s) => s.name)).toEqual(['order']);

  // Listed for its agent, not for another.
  await page.getByRole('link', { name: '← Back to the actions and attributes' }).click();
  await page.getByRole('combobox', { name: 'Agent' }).click();
  await page.getByRole('option', { name: agentName }).click();
  await expect(page.getByRole('table', { name: 'Actions' }).getByRole('link', { name: actionName })).toBeVisible();
  await checkPage(page, 'actions-list');
  await page.getByRole('combobox', { name: 'Agent' }).click();
  await page.getByRole('option', { name: otherName }).click();
  await expect(page.getByText('No actions here yet.')).toBeVisible();

  // Deleted after a confirmation.
  await page.goto(`/console/actions/${actionId}`);
  await page.getByRole('button', { name: 'Delete action' }).click();
  await page.getByRole('dialog', { name: 'Delete action' }).getByRole('button', { name: 'Delete action' }).click();
  await expect(page.getByRole('heading', { name: 'Actions and attributes', level: 1 })).toBeVisible();
  expect((await callOn<{ id: string }[]>(calling, 'GET', '/v2/hc-tools/public')).map((t) => t.id)).not.toContain(actionId);
});

test('validation messages are shown on the fields they name', async ({ page }) => {
  const tool = await apiCall<{ id: string }>('POST', '/v2/hc-tools/public', { name: unique('Validated'), alwaysGet: true });
  await signIn(page);
  await page.goto(`/console/actions/${tool.id}`);
  await expect(page.getByText('Attribute', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Add an input' }).click();
  await page.getByRole('textbox', { name: 'Input 1 name' }).fill('order number');
  await page.getByRole('button', { name: 'Save fields' }).click();
  await expect(page.getByRole('textbox', { name: 'Input 1 name' })).toHaveAccessibleDescription(/a field name: a letter or _, then letters, digits or _/);

  await page.getByRole('tab', { name: /^External API calls/ }).click();
  await page.getByRole('button', { name: 'Add a step' }).click();
  await page.getByRole('textbox', { name: 'Step name' }).fill('order');
  await page.getByRole('textbox', { name: 'URL' }).fill('https://shop.example.com/orders/{{orderNumber}}');
  await page.getByRole('button', { name: 'Add step' }).click();
  await expect(page.getByRole('textbox', { name: 'URL' }), 'the API message on the URL field').toHaveAccessibleDescription(
    /the \{\{placeholder\}\} syntax is not supported: write \$\{fieldName\}/,
  );
  await expect(page.getByRole('textbox', { name: 'Step name' })).not.toHaveAttribute('aria-invalid', 'true');
  await checkPage(page, 'action-step-validation');
});

test('an attribute is created and assigned to an agent on its page', async ({ page }) => {
  const agentName = unique('Attribute agent');
  const agent = await apiCall<{ id: string }>('POST', '/v2/bots/public', { name: agentName });
  const name = unique('Customer plan');
  await signIn(page);
  await page.getByRole('link', { name: 'Actions', exact: true }).click();
  // A SegmentedControl's radio is visually hidden under its label: the label is what a user clicks.
  await page.getByRole('form', { name: 'New action or attribute' }).getByText('Attribute', { exact: true }).click();
  await expect(page.getByRole('radio', { name: 'Attribute' })).toBeChecked();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await page.getByRole('button', { name: 'Create attribute' }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  const id = new URL(page.url()).pathname.split('/').pop() ?? '';
  await page.getByRole('tab', { name: 'Agents (0)' }).click();
  await page.getByRole('checkbox', { name: agentName }).check();
  await page.getByRole('button', { name: 'Save agents' }).click();
  await expect(page.getByRole('tab', { name: 'Agents (1)' })).toBeVisible();
  await checkPage(page, 'attribute-agents');
  expect((await apiCall<{ botIds: string[]; alwaysGet: boolean }>('GET', `/v2/hc-tools/${id}/public`)).botIds, 'assigned through the assign route').toEqual([agent.id]);
  await page.goto(`/console/actions?agent=${agent.id}`);
  await expect(page.getByRole('table', { name: 'Attributes' }).getByRole('link', { name })).toBeVisible();
  await expect(page.getByText('No actions here yet.')).toBeVisible();
});

test('created but not assigned: the new action’s page opens with the assign error, and one action exists', async ({ page }) => {
  const agent = await apiCall<{ id: string }>('POST', '/v2/bots/public', { name: unique('Gone agent') });
  const name = unique('Half made action');
  await signIn(page);
  await page.goto(`/console/actions?agent=${agent.id}`);
  await expect(page.getByText('No actions here yet.')).toBeVisible();
  // The agent goes while the page still offers it: the create works, the assignment cannot.
  await apiCall('DELETE', `/v2/bots/${agent.id}/public`);
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await page.getByRole('button', { name: 'Create action' }).click();
  await expect(page.getByRole('heading', { name, level: 1 }), 'the page of the action that exists').toBeVisible();
  await expect(page.getByRole('alert'), 'the assign error, in the API\'s words').toContainText(agent.id);
  await expect(page.getByRole('alert')).toContainText('It was created but not assigned to the agent');
  const same = (await apiCall<{ name: string }[]>('GET', '/v2/hc-tools/public')).filter((tool) => tool.name === name);
  expect(same, 'one action, not a second one from pressing Create again').toHaveLength(1);
});

test('an action a rule calls is not deleted, and the dialog names the rule', async ({ page }) => {
  const name = unique('Called action');
  const tool = await apiCall<{ id: string }>('POST', '/v2/hc-tools/public', { name });
  const ruleName = unique('Order status rule');
  await apiCall('POST', '/v2/hc-rules/public', { name: ruleName, description: 'Order status questions', flowConfig: { type: 'tool', toolId: tool.id, inputs: {} } });
  await signIn(page);
  await page.goto(`/console/actions/${tool.id}`);
  await page.getByRole('button', { name: 'Delete action' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete action' });
  await dialog.getByRole('button', { name: 'Delete action' }).click();
  await expect(dialog.getByRole('alert'), 'the 409 names the rule').toContainText(ruleName);
  await checkPage(page, 'action-delete-refused');
  expect((await apiCall<{ id: string }[]>('GET', '/v2/hc-tools/public')).map((t) => t.id), 'the action is still there').toContain(tool.id);
});

test('a read-only key reads an action with its steps and changes nothing', async ({ page }) => {
  const name = unique('Read action');
  const tool = await apiCall<{ id: string }>('POST', '/v2/hc-tools/public', { name });
  await apiCall('PATCH', `/v2/hc-tools/${tool.id}/public`, { inputFields: [{ name: 'orderNumber', type: 'string', required: true }] });
  await apiCall('POST', '/v2/api-function-configs/public', {
    toolId: tool.id,
    name: 'order',
    requestMethod: 'GET',
    requestUrl: 'https://shop.example.com/orders/${orderNumber}',
    requestHeaders: { Authorization: { hide: true, value: 'Bearer sk_read_only' } },
    responseMapping: { status: 'data.status' },
  });
  await signIn(page, server.readKey);
  await page.getByRole('link', { name: 'Actions', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Create action' })).toBeDisabled();
  await page.getByRole('table', { name: 'Actions' }).getByRole('link', { name }).click();
  await expect(page.getByRole('button', { name: 'Delete action' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save fields' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save fields' })).toHaveAttribute('title', 'This key is read-only');
  await page.getByRole('tab', { name: /^External API calls/ }).click();
  const step = page.getByRole('region', { name: 'Step 1: order' });
  await expect(step.getByRole('table', { name: 'Headers of order' })).toContainText('********');
  for (const button of ['Edit order', 'Remove order', 'Add a step']) await expect(page.getByRole('button', { name: button }), button).toBeDisabled();
  await page.getByRole('tab', { name: 'Test' }).click();
  await expect(page.getByRole('button', { name: 'Run test' })).toBeDisabled();
  await checkPage(page, 'action-read-only');

  await page.goto('/console/actions/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('alert')).toContainText('action or attribute not found');
});
