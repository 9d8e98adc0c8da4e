// The Webhooks page: an endpoint created with its events (the signing secret shown once and
// copied, then verified on what the receiver got), a test message delivered and one refused, an
// escalation delivered, a failed delivery redelivered with the same webhook-id, the endpoint edited
// and disabled (a redelivery then refused in the API's words), deleted; the API's validation
// messages on their fields; 26 deliveries walked in keyset pages; a read-only key.
//
// Deliveries go to a receiver on 127.0.0.1, which the run's shared server refuses (private
// addresses): like connections.e2e.ts, this file runs a server of its own that may call them.
import type { Page } from '@playwright/test';
import { Webhook as Verifier } from 'standardwebhooks';
import { startReceiver, type Receiver } from '../test/support/webhook-receiver.js';
import { apiCall, checkPage, expect, type OwnServer, signIn, startOwnServer, test as base } from './fixtures.js';

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
}
interface Delivery {
  id: string;
  eventType: string;
  status: string;
  attempts: number;
  responseStatus: number | null;
  redeliveryOf: string | null;
  messageId: string;
}

const test = base.extend<{ receiver: Receiver }, { own: OwnServer }>({
  own: [
    async ({}, use) => {
      const own = await startOwnServer('parley-e2e-webhooks-', { PARLEY_FETCH_ALLOW_PRIVATE: 'true', PARLEY_WEBHOOK_TIMEOUT_MS: '2000' });
      await use(own);
      await own.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ own }, use) => {
    await use(own.server.url);
  },
  receiver: async ({}, use) => {
    const receiver = await startReceiver(200);
    await use(receiver);
    await receiver.close();
  },
});

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const target = (own: OwnServer) => ({ url: own.server.url, key: own.server.apiKey });

async function openWebhooks(page: Page, key: string): Promise<void> {
  await signIn(page, key);
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Webhooks' }).click();
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
}

test('an endpoint is created with its secret shown once, tested, redelivered, edited, disabled and deleted', async ({ page, own, receiver }) => {
  await openWebhooks(page, own.server.apiKey);
  await expect(page.getByText('No endpoint yet: create one below.')).toBeVisible();
  const form = page.getByRole('region', { name: 'New endpoint' });
  await form.getByRole('textbox', { name: 'Endpoint URL' }).fill(receiver.url);
  const events = form.getByRole('group', { name: 'Events' });
  await expect(events.getByRole('checkbox'), 'a checkbox per event type of the API').toHaveCount(10);
  await events.getByRole('checkbox', { name: /^conversation\.escalated/ }).check();
  await events.getByRole('checkbox', { name: /^source\.failed/ }).check();
  await form.getByRole('textbox', { name: 'Description' }).fill('Escalations to the on-call channel');
  await form.getByRole('button', { name: 'Create endpoint' }).click();

  const secretNote = page.getByRole('status', { name: 'Signing secret: shown only now' });
  await expect(secretNote).toContainText('Signing secret: shown only now');
  const secret = (await secretNote.getByLabel('Secret').textContent()) ?? '';
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  await secretNote.getByRole('button', { name: 'Copy secret' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText()), 'the secret is on the clipboard').toBe(secret);
  await checkPage(page, 'webhooks-secret');
  await secretNote.getByRole('button', { name: 'I have copied it' }).click();
  await expect(secretNote).toHaveCount(0);
  await expect(form.getByRole('textbox', { name: 'Endpoint URL' }), 'the form is emptied for the next endpoint').toHaveValue('');

  const table = page.getByRole('table', { name: 'Endpoints' });
  await expect(table.getByRole('row')).toHaveText([/Endpoint\s*Events/, new RegExp(`^${receiver.url}conversation\\.escalated, source\\.failedEnabledEscalations to the on-call channel$`)]);
  const [created] = await apiCall<(Endpoint & { secret?: string })[]>('GET', '/v2/webhooks/public', undefined, target(own));
  expect(created, 'the endpoint as the API keeps it, without its secret').toEqual(
    expect.objectContaining({ url: receiver.url, events: ['conversation.escalated', 'source.failed'], description: 'Escalations to the on-call channel', enabled: true }),
  );
  expect(created?.secret).toBeUndefined();
  await checkPage(page, 'webhooks');

  // The test message reaches the receiver, signed with the secret the page showed.
  await table.getByRole('link', { name: receiver.url }).click();
  await expect(page.getByRole('heading', { name: receiver.url, level: 1 })).toBeVisible();
  await expect(page.getByText('No deliveries yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Send test' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The test message was delivered' })).toContainText(/HTTP 200 in \d+ ms/);
  expect(receiver.requests).toHaveLength(1);
  const first = receiver.requests[0]!;
  const verified = new Verifier(secret).verify(first.body, first.headers as Record<string, string>) as { type: string; data: { webhookId: string } };
  expect(verified, 'the signature verifies with the secret shown once').toMatchObject({ type: 'webhook.test', data: { webhookId: created?.id } });
  const deliveries = page.getByRole('table', { name: 'Deliveries' });
  await expect(deliveries.getByRole('row').nth(1)).toHaveText(/^webhook\.testDelivered1HTTP 200 in \d+ ms/);

  // A refused test message, then redelivered once the receiver answers again: the same webhook-id.
  receiver.otherwise = 500;
  await page.getByRole('button', { name: 'Send test' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The test message was not delivered' })).toContainText('HTTP 500');
  await expect(deliveries.getByRole('row').nth(1)).toHaveText(/^webhook\.testFailed1HTTP 500/);
  receiver.otherwise = 200;
  await deliveries.getByRole('row').nth(1).getByRole('button', { name: /^Redeliver webhook\.test/ }).click();
  await expect(deliveries.getByRole('row').nth(1), 'the redelivery is read again until it is delivered').toHaveText(/^webhook\.test \(redelivery\)Delivered1HTTP 200/);
  expect(receiver.requests.map((r) => r.headers['webhook-id']).slice(1), 'a redelivery keeps the webhook-id of the message').toEqual([
    receiver.requests[1]?.headers['webhook-id'],
    receiver.requests[1]?.headers['webhook-id'],
  ]);

  // A real event: an agent hands a conversation over. The page reads the deliveries again when it opens.
  const agent = await apiCall<{ id: string }>('POST', '/v2/bots/public', { name: 'Support' }, target(own));
  await apiCall('POST', '/v2/hc-interactions/events/public', { content: 'I want to talk to a person', botId: agent.id }, target(own));
  await expect
    .poll(async () => (await apiCall<{ deliveries: Delivery[] }>('GET', `/v2/webhooks/${created?.id}/deliveries/public`, undefined, target(own))).deliveries[0]?.status, {
      message: 'the escalation is delivered',
    })
    .toBe('delivered');
  await page.reload();
  await expect(deliveries.getByRole('row').nth(1)).toHaveText(/^conversation\.escalatedDelivered1HTTP 200/);
  expect(JSON.parse(receiver.requests.at(-1)?.body ?? '{}')).toMatchObject({ type: 'conversation.escalated', data: { botId: agent.id, reason: 'customer_request' } });
  await checkPage(page, 'webhook-deliveries');

  // The secret rotated, the old one kept for 2 hours: a test message verifies with either.
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  const rotation = page.getByRole('dialog', { name: 'Rotate the signing secret' });
  await rotation.getByRole('textbox', { name: 'Keep the current secret signing for (hours)' }).fill('2');
  await rotation.getByRole('button', { name: 'Rotate secret' }).click();
  const rotatedNote = page.getByRole('status', { name: 'Signing secret: shown only now' });
  await expect(rotatedNote).toContainText('The previous secret also signs each request until');
  const rotated = (await rotatedNote.getByLabel('Secret').textContent()) ?? '';
  expect(rotated).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  expect(rotated).not.toBe(secret);
  await checkPage(page, 'webhook-rotated');
  await rotatedNote.getByRole('button', { name: 'I have copied it' }).click();
  await expect(page.getByRole('region', { name: 'Endpoint' })).toContainText('The previous signing secret also signs until');
  await page.getByRole('button', { name: 'Send test' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The test message was delivered' })).toBeVisible();
  const signedTwice = receiver.requests.at(-1)!;
  for (const key of [secret, rotated]) expect(new Verifier(key).verify(signedTwice.body, signedTwice.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test' });

  // Edited: other events, switched off. A redelivery to a disabled endpoint is the API's 409.
  await page.getByRole('button', { name: 'Edit endpoint' }).click();
  await page.getByRole('checkbox', { name: /^source\.failed/ }).uncheck();
  await page.getByRole('checkbox', { name: /^conversation\.released/ }).check();
  await page.getByRole('switch', { name: 'Enabled' }).uncheck();
  await page.getByRole('button', { name: 'Save endpoint' }).click();
  const details = page.getByRole('region', { name: 'Endpoint' });
  await expect(details.getByText('Disabled', { exact: true })).toBeVisible();
  await expect(details.getByText('Events: conversation.escalated, conversation.released')).toBeVisible();
  expect(await apiCall<Endpoint>('GET', `/v2/webhooks/${created?.id}/public`, undefined, target(own))).toMatchObject({ enabled: false, events: ['conversation.escalated', 'conversation.released'] });
  await deliveries.getByRole('row').nth(1).getByRole('button', { name: /^Redeliver/ }).click();
  await expect(deliveries.getByRole('row').nth(1).getByRole('alert')).toContainText(/disabled/);

  await page.getByRole('button', { name: 'Delete endpoint' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete endpoint' });
  await expect(dialog).toContainText(`Delete the endpoint ${receiver.url} and its deliveries?`);
  await dialog.getByRole('button', { name: 'Delete endpoint' }).click();
  await expect(page.getByText('No endpoint yet: create one below.')).toBeVisible();
  expect(await apiCall<Endpoint[]>('GET', '/v2/webhooks/public', undefined, target(own))).toEqual([]);
});

test("the API's validation messages are shown on the URL and the events, and nothing is created", async ({ page, own }) => {
  await openWebhooks(page, own.server.apiKey);
  const form = page.getByRole('region', { name: 'New endpoint' });
  await form.getByRole('textbox', { name: 'Endpoint URL' }).fill('ftp://files.example/hooks');
  await form.getByRole('button', { name: 'Create endpoint' }).click();
  // The request's shape first (no event), then the URL (the service's check).
  const events = form.getByRole('group', { name: 'Events' });
  await expect(events).toHaveAccessibleDescription(/Too small: expected array to have >=1 items/);
  await expect(form.getByRole('textbox', { name: 'Endpoint URL' })).not.toHaveAttribute('aria-invalid', 'true');
  await events.getByRole('checkbox', { name: /^article\.published/ }).check();
  await form.getByRole('button', { name: 'Create endpoint' }).click();
  await expect(form.getByRole('textbox', { name: 'Endpoint URL' })).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByRole('textbox', { name: 'Endpoint URL' })).toHaveAccessibleDescription(/only http and https URLs can receive webhooks/);
  await expect(events).not.toHaveAccessibleDescription(/Too small/);
  await expect(form.getByRole('textbox', { name: 'Description' })).not.toHaveAttribute('aria-invalid', 'true');
  await checkPage(page, 'webhooks-invalid');
  expect(await apiCall<Endpoint[]>('GET', '/v2/webhooks/public', undefined, target(own)), 'no endpoint was created').toEqual([]);
});

test('26 deliveries are walked in keyset pages of 25, and a read-only key reads them and changes nothing', async ({ page, own, receiver }) => {
  const endpoint = await apiCall<Endpoint>('POST', '/v2/webhooks/public', { url: receiver.url, events: ['source.failed'] }, target(own));
  const sent: Delivery[] = [];
  for (let i = 0; i < 26; i++) sent.push(await apiCall<Delivery>('POST', `/v2/webhooks/${endpoint.id}/test/public`, undefined, target(own)));
  await openWebhooks(page, own.readKey);
  await page.getByRole('link', { name: receiver.url }).click();
  const deliveries = page.getByRole('table', { name: 'Deliveries' });
  await expect(deliveries.getByRole('row')).toHaveCount(26);
  await expect(page.getByRole('button', { name: 'Newer' })).toBeDisabled();
  await page.getByRole('button', { name: 'Older' }).click();
  await expect(deliveries.getByRole('row'), 'the oldest delivery alone').toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Older' })).toBeDisabled();
  await page.getByRole('button', { name: 'Newer' }).click();
  await expect(deliveries.getByRole('row')).toHaveCount(26);

  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Failed' }).click();
  await expect(page.getByText('No deliveries failed yet.')).toBeVisible();

  await expect(page.getByRole('button', { name: 'Send test' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Edit endpoint' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Delete endpoint' })).toBeDisabled();
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Delivered' }).click();
  await expect(deliveries.getByRole('button', { name: /^Redeliver/ }).first()).toBeDisabled();
  await checkPage(page, 'webhooks-read-only');
  await page.getByRole('link', { name: 'Back to the webhooks' }).click();
  await expect(page.getByRole('region', { name: 'New endpoint' })).toHaveCount(0);
  expect(sent.every((d) => d.status === 'delivered')).toBe(true);
});
