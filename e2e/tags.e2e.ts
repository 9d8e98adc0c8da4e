// The Tags page: a tag group created, edited and deleted with its tags (a duplicate name refused on
// its field), a validation message on its field, the system groups read-only, a read-only key.
import { apiCall, checkPage, expect, server, signIn, test, unique } from './fixtures.js';

interface Group {
  id: string;
  title: string;
  description: string;
  prompt: string;
  multiselect: boolean;
  mandatory: boolean;
  isOutputTagGroup: boolean;
}

test('a tag group is created with its tags, edited, and deleted with them', async ({ page }) => {
  const title = unique('Topic');
  await signIn(page);
  await page.getByRole('link', { name: 'Tags' }).click();
  const form = page.getByRole('region', { name: 'New tag group' });
  await form.getByRole('textbox', { name: 'Group title' }).fill(title);
  await form.getByRole('textbox', { name: 'Description' }).fill('What the conversation is about');
  await form.getByRole('textbox', { name: 'How the agent chooses' }).fill('Pick the main topic.');
  await form.getByRole('checkbox', { name: 'Several tags may apply' }).check();
  await form.getByRole('button', { name: 'Create group' }).click();

  const group = page.getByRole('region', { name: `Tag group ${title}` });
  await expect(group.getByText('What the conversation is about')).toBeVisible();
  await expect(group.getByText('How the agent chooses: Pick the main topic.')).toBeVisible();
  await expect(group.getByText('Several tags', { exact: true })).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'Group title' }), 'the form is emptied for the next group').toHaveValue('');
  const created = (await apiCall<Group[]>('GET', '/v2/tag-groups/public')).find((g) => g.title === title);
  expect(created, 'the group as the API keeps it').toMatchObject({ description: 'What the conversation is about', prompt: 'Pick the main topic.', multiselect: true, mandatory: false, isOutputTagGroup: false });

  await group.getByRole('textbox', { name: 'Tag name' }).fill('Billing');
  await group.getByRole('textbox', { name: 'Tag description' }).fill('Invoices and payments');
  await group.getByRole('button', { name: 'Add tag' }).click();
  await expect(group.getByRole('table', { name: `Tags of ${title}` }).getByRole('row', { name: 'Billing Invoices and payments' })).toBeVisible();
  await group.getByRole('textbox', { name: 'Tag name' }).fill('Refund');
  await group.getByRole('button', { name: 'Add tag' }).click();
  await expect(group.getByRole('cell', { name: 'Refund', exact: true })).toBeVisible();

  // Names are unique in a group whatever their case: the 409 is shown on the name.
  await group.getByRole('textbox', { name: 'Tag name' }).fill('BILLING');
  await group.getByRole('button', { name: 'Add tag' }).click();
  await expect(group.getByRole('textbox', { name: 'Tag name' })).toHaveAccessibleDescription(/BILLING|Billing/);
  await expect(group.getByRole('textbox', { name: 'Tag name' })).toHaveAttribute('aria-invalid', 'true');
  await checkPage(page, 'tags');

  await group.getByRole('button', { name: 'Edit tag Billing' }).click();
  await group.getByRole('textbox', { name: 'Tag name' }).first().fill('Billing and invoices');
  await group.getByRole('button', { name: 'Save tag' }).click();
  await expect(group.getByRole('cell', { name: 'Billing and invoices', exact: true })).toBeVisible();
  const tags = await apiCall<{ id: string; tagName: string; tagDescription: string }[]>('GET', `/v2/tag-groups/${created?.id}/tags/public`);
  expect(tags.map((t) => [t.tagName, t.tagDescription])).toEqual([
    ['Billing and invoices', 'Invoices and payments'],
    ['Refund', ''],
  ]);

  await group.getByRole('button', { name: 'Delete tag Refund' }).click();
  await page.getByRole('dialog', { name: 'Delete tag' }).getByRole('button', { name: 'Delete tag' }).click();
  await expect(group.getByRole('cell', { name: 'Refund', exact: true })).toHaveCount(0);
  expect((await apiCall<{ tagName: string }[]>('GET', `/v2/tag-groups/${created?.id}/tags/public`)).map((t) => t.tagName)).toEqual(['Billing and invoices']);

  await group.getByRole('button', { name: 'Edit group' }).click();
  await group.getByRole('textbox', { name: 'Group title' }).fill(`${title} EU`);
  await group.getByRole('checkbox', { name: 'Mandatory: every conversation gets one' }).check();
  await group.getByRole('checkbox', { name: 'Outcome: chosen after the answer' }).check();
  await group.getByRole('button', { name: 'Save group' }).click();
  const renamed = page.getByRole('region', { name: `Tag group ${title} EU` });
  await expect(renamed.getByText('Mandatory', { exact: true })).toBeVisible();
  await expect(renamed.getByText('Outcome (after the answer)')).toBeVisible();
  expect(await apiCall<Group>('GET', `/v2/tag-groups/${created?.id}/public`)).toMatchObject({ title: `${title} EU`, mandatory: true, isOutputTagGroup: true, multiselect: true });

  await renamed.getByRole('button', { name: 'Delete group' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete group' });
  await expect(dialog).toContainText(`Delete the group “${title} EU” and its tag?`);
  await dialog.getByRole('button', { name: 'Delete group' }).click();
  await expect(renamed).toHaveCount(0);
  const gone = await fetch(`${server.url}/v2/tag-groups/${created?.id}/public`, { headers: { authorization: `Bearer ${server.key}` } });
  expect(gone.status, 'the group is deleted').toBe(404);
});

test("a group's title refused by the API is shown on the title, and nothing is created", async ({ page }) => {
  await signIn(page);
  await page.goto('/console/tags');
  const form = page.getByRole('region', { name: 'New tag group' });
  const before = (await apiCall<Group[]>('GET', '/v2/tag-groups/public')).length;
  await form.getByRole('textbox', { name: 'Group title' }).fill('   ');
  await form.getByRole('textbox', { name: 'Description' }).fill('Only spaces in the title');
  await form.getByRole('button', { name: 'Create group' }).click();
  await expect(form.getByRole('textbox', { name: 'Group title' })).toHaveAccessibleDescription(/Too small: expected string to have >=1 characters/);
  await expect(form.getByRole('textbox', { name: 'Description' })).not.toHaveAttribute('aria-invalid', 'true');
  await checkPage(page, 'tags-invalid');
  expect((await apiCall<Group[]>('GET', '/v2/tag-groups/public')).length, 'no group was created').toBe(before);
});

test("Parley's system groups are shown with their tags, marked read-only, without buttons", async ({ page }) => {
  await signIn(page);
  await page.goto('/console/tags');
  const status = page.getByRole('region', { name: 'Tag group Conversation Status' });
  await expect(status.getByText('System group, read-only')).toBeVisible();
  await expect(status.getByRole('table', { name: 'Tags of Conversation Status' }).getByRole('row')).toHaveText([
    /Tag\s*Description/,
    /^Waiting for Customer/,
    /^Resolved by AI/,
    /^Escalated to Human Agent/,
    /^Unresolved/,
    /^No Reply/,
  ]);
  await expect(status.getByRole('button'), 'no button at all in a system group').toHaveCount(0);
  const reasons = page.getByRole('region', { name: 'Tag group Escalation Reason' });
  await expect(reasons.getByText('System group, read-only')).toBeVisible();
  await expect(reasons.getByRole('cell', { name: 'guardrail_block' })).toBeVisible();
  await expect(reasons.getByRole('button')).toHaveCount(0);
});

test('a read-only key sees the groups and their tags and changes nothing', async ({ page }) => {
  const title = unique('Priority');
  const group = await apiCall<{ id: string }>('POST', '/v2/tag-groups/public', { title });
  await apiCall('POST', `/v2/tag-groups/${group.id}/tags/public`, { tagName: 'Urgent', tagDescription: 'Answer within the hour' });
  await signIn(page, server.readKey);
  await page.goto('/console/tags');
  const card = page.getByRole('region', { name: `Tag group ${title}` });
  await expect(card.getByRole('row', { name: 'Urgent Answer within the hour' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Edit group' })).toBeDisabled();
  await expect(card.getByRole('button', { name: 'Delete group' })).toBeDisabled();
  await expect(card.getByRole('button', { name: 'Edit tag Urgent' })).toBeDisabled();
  await expect(card.getByRole('button', { name: 'Add tag' })).toBeDisabled();
  await expect(page.getByRole('region', { name: 'New tag group' })).toHaveCount(0);
  await checkPage(page, 'tags-read-only');
});

test('a tag added on the Tags page is offered at once by the inbox, which shares its cache of the tags', async ({ page }) => {
  const title = unique('Shared topic');
  const tagName = unique('Warranty');
  await signIn(page);
  const nav = page.getByRole('navigation', { name: 'Pages' });
  // The inbox first, so the tags are in the cache (and still fresh) when the Tags page changes them.
  await nav.getByRole('link', { name: 'Conversations' }).click();
  await page.getByRole('combobox', { name: 'Tags' }).click();
  await expect(page.getByRole('option').first(), 'the tags are loaded').toBeVisible();
  await page.keyboard.press('Escape');
  await nav.getByRole('link', { name: 'Tags' }).click();
  const form = page.getByRole('region', { name: 'New tag group' });
  await form.getByRole('textbox', { name: 'Group title' }).fill(title);
  await form.getByRole('button', { name: 'Create group' }).click();
  const group = page.getByRole('region', { name: `Tag group ${title}` });
  await group.getByRole('textbox', { name: 'Tag name' }).fill(tagName);
  await group.getByRole('button', { name: 'Add tag' }).click();
  await expect(group.getByRole('cell', { name: tagName, exact: true })).toBeVisible();
  await nav.getByRole('link', { name: 'Conversations' }).click();
  await page.getByRole('combobox', { name: 'Tags' }).click();
  await expect(page.getByRole('option', { name: tagName }), 'the new tag, without reloading the page').toBeVisible();
});
