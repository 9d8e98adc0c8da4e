// The Reply rules page: a slot's condition groups set through the form and shown in words, tested
// with a sample message, disabled, deleted; the API's validation messages on the fields they name;
// a read-only key. The slots are the workspace's (one per reply type): each test leaves them unset.
import { type Page } from '@playwright/test';
import { apiCall, checkPage, expect, server, signIn, test } from './fixtures.js';

const SLOTS = ['NO_REPLY', 'INTERNAL_COMMENT', 'DIRECT_REPLY'];

async function clearSlots(): Promise<void> {
  for (const slot of SLOTS) {
    const response = await fetch(`${server.url}/v2/reply-behavior/${slot}/public`, { method: 'DELETE', headers: { authorization: `Bearer ${server.key}` } });
    expect([200, 404], `unsetting ${slot}`).toContain(response.status);
  }
}

test.beforeEach(clearSlots);
test.afterEach(clearSlots);

async function fillCondition(page: Page, name: string, condition: { field: string; type?: string; operator: string; value?: string }) {
  const group = page.getByRole('group', { name });
  await group.getByRole('textbox', { name: 'Field' }).fill(condition.field);
  if (condition.type) await group.getByRole('combobox', { name: 'Type' }).selectOption(condition.type);
  await group.getByRole('combobox', { name: 'Operator' }).selectOption({ label: condition.operator });
  if (condition.value !== undefined) await group.getByRole('textbox', { name: 'Value' }).fill(condition.value);
}

test('a slot set with two groups is shown in words, tested with a sample message, disabled and deleted', async ({ page }) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Reply rules' }).click();
  const slot = page.getByRole('region', { name: 'Internal comment' });
  await expect(slot.getByText('Not set: this slot never applies.')).toBeVisible();
  await checkPage(page, 'reply-rules-empty');

  await slot.getByRole('button', { name: 'Set conditions' }).click();
  await fillCondition(page, 'Group 1, condition 1', { field: 'conversation.channel', operator: 'is', value: 'email' });
  await slot.getByRole('button', { name: 'Add a condition to group 1 (AND)' }).click();
  await fillCondition(page, 'Group 1, condition 2', { field: 'userAttributes.sentiment', operator: 'is', value: 'negative' });
  await slot.getByRole('button', { name: 'Add a group (OR)' }).click();
  await fillCondition(page, 'Group 2, condition 1', { field: 'userAttributes.plan', operator: 'is one of', value: 'enterprise, vip' });
  await checkPage(page, 'reply-rules-edit');
  await slot.getByRole('button', { name: 'Save conditions' }).click();

  const rows = slot.getByRole('list', { name: 'Conditions' }).getByRole('listitem');
  await expect(rows).toHaveText(["If Channel is email AND customer's sentiment is negative", "OR Customer's plan is one of enterprise, vip"]);
  await expect(slot.getByRole('switch', { name: 'Enabled' })).toBeChecked();
  const stored = await apiCall<{ conditions: unknown; isEnabled: boolean }>('GET', '/v2/reply-behavior/INTERNAL_COMMENT/public');
  expect(stored.conditions, 'the groups as the API keeps them').toEqual([
    {
      scope: 'SCALAR',
      predicate: [
        { left: { path: 'conversation.channel', dataType: 'string' }, operator: '==', right: { value: 'email' } },
        { left: { path: 'userAttributes.sentiment', dataType: 'string' }, operator: '==', right: { value: 'negative' } },
      ],
    },
    { scope: 'SCALAR', predicate: [{ left: { path: 'userAttributes.plan', dataType: 'string' }, operator: 'in', right: { value: ['enterprise', 'vip'] } }] },
  ]);

  const panel = page.getByRole('region', { name: 'Test with a sample message' });
  await panel.getByRole('textbox', { name: 'Customer message' }).fill('My parcel arrived broken');
  await panel.getByRole('textbox', { name: 'Channel' }).fill('email');
  await panel.getByRole('textbox', { name: 'Customer attributes' }).fill('sentiment = negative');
  await panel.getByRole('button', { name: 'Test' }).click();
  const result = panel.getByRole('region', { name: 'Test result' });
  await expect(result.getByText('Internal comment applies')).toBeVisible();
  const first = result.getByRole('table', { name: 'Internal comment, group 1: holds' });
  await expect(first.getByRole('row')).toHaveText([/Group 1: holds/, /^channel is email\s*email\s*Yes$/, /^customer's sentiment is negative\s*negative\s*Yes$/]);
  const second = result.getByRole('table', { name: 'Internal comment, group 2: does not hold' });
  await expect(second.getByRole('row').nth(1), 'no plan in the sample: the condition says why it is false').toHaveText(/customer's plan is one of enterprise, vip\s*\(none\)\s*No: not in the message/);
  await checkPage(page, 'reply-rules-test');

  await slot.getByRole('switch', { name: 'Enabled' }).click();
  await expect(slot.getByText('Disabled: it is not evaluated.')).toBeVisible();
  expect((await apiCall<{ isEnabled: boolean }>('GET', '/v2/reply-behavior/INTERNAL_COMMENT/public')).isEnabled).toBe(false);
  await panel.getByRole('button', { name: 'Test' }).click();
  await expect(result.getByText('No slot held: Direct reply')).toBeVisible();
  await expect(result.getByText('Disabled, not evaluated')).toBeVisible();

  await slot.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete the Internal comment slot' }).getByRole('button', { name: 'Delete the Internal comment slot' }).click();
  await expect(slot.getByText('Not set: this slot never applies.')).toBeVisible();
  const gone = await fetch(`${server.url}/v2/reply-behavior/INTERNAL_COMMENT/public`, { headers: { authorization: `Bearer ${server.key}` } });
  expect(gone.status, 'the slot is unset').toBe(404);
});

test("the API's validation messages are shown on the fields they name", async ({ page }) => {
  await signIn(page);
  await page.goto('/console/reply-rules');
  const slot = page.getByRole('region', { name: 'No reply' });
  await slot.getByRole('button', { name: 'Set conditions' }).click();
  await fillCondition(page, 'Group 1, condition 1', { field: 'weather.today', operator: 'is', value: 'sunny' });
  await slot.getByRole('button', { name: 'Add a condition to group 1 (AND)' }).click();
  await fillCondition(page, 'Group 1, condition 2', { field: 'conversation.turn', type: 'number', operator: 'is more than', value: 'three' });
  await slot.getByRole('button', { name: 'Save conditions' }).click();

  const first = page.getByRole('group', { name: 'Group 1, condition 1' });
  await expect(first.getByRole('textbox', { name: 'Field' })).toHaveAccessibleDescription(/"weather\.today" is outside the evaluation context/);
  await expect(first.getByRole('textbox', { name: 'Value' }), 'the other fields of the condition are fine').not.toHaveAttribute('aria-invalid', 'true');
  const second = page.getByRole('group', { name: 'Group 1, condition 2' });
  await expect(second.getByRole('textbox', { name: 'Value' })).toHaveAccessibleDescription(/right\.value must be a number for dataType number/);
  await expect(second.getByRole('textbox', { name: 'Field' })).not.toHaveAttribute('aria-invalid', 'true');
  await checkPage(page, 'reply-rules-invalid');
  const unset = await fetch(`${server.url}/v2/reply-behavior/NO_REPLY/public`, { headers: { authorization: `Bearer ${server.key}` } });
  expect(unset.status, 'nothing was saved').toBe(404);

  await fillCondition(page, 'Group 1, condition 1', { field: 'message.content', operator: 'matches the pattern', value: '^(thanks|thank you)[.!]*$' });
  await second.getByRole('textbox', { name: 'Value' }).fill('3');
  await slot.getByRole('button', { name: 'Save conditions' }).click();
  await expect(slot.getByRole('listitem')).toHaveText('If Message matches the pattern ^(thanks|thank you)[.!]*$ AND turn is more than 3');
});

test('a read-only key reads the slots and tests them, and changes nothing', async ({ page }) => {
  await apiCall('PUT', '/v2/reply-behavior/NO_REPLY/public', {
    conditions: [{ scope: 'SCALAR', predicate: [{ left: { path: 'message.content', dataType: 'string' }, operator: 'matches', right: { value: '^thanks!?$' } }] }],
  });
  await signIn(page, server.readKey);
  await page.goto('/console/reply-rules');
  const slot = page.getByRole('region', { name: 'No reply' });
  await expect(slot.getByRole('listitem')).toHaveText('If Message matches the pattern ^thanks!?$');
  await expect(slot.getByRole('button', { name: 'Edit conditions' })).toBeDisabled();
  await expect(slot.getByRole('button', { name: 'Delete' })).toBeDisabled();
  await expect(slot.getByRole('switch', { name: 'Enabled' })).toBeDisabled();
  await expect(page.getByRole('region', { name: 'Direct reply' }).getByRole('button', { name: 'Set conditions' })).toBeDisabled();

  const panel = page.getByRole('region', { name: 'Test with a sample message' });
  await panel.getByRole('textbox', { name: 'Customer message' }).fill('Thanks!');
  await panel.getByRole('button', { name: 'Test' }).click();
  await expect(panel.getByRole('region', { name: 'Test result' }).getByText('No reply applies')).toBeVisible();
  await checkPage(page, 'reply-rules-read-only');
});
