// The Guardrails page: a guardrail created with its kind's settings and an agent, tested on a
// message (the redacted text, then a block), edited, disabled, deleted; the API's messages on the
// fields they name, and another kind's own fields; a read-only key.
import { apiCall, checkPage, expect, server, signIn, test, unique } from './fixtures.js';

interface Guardrail {
  id: string;
  name: string;
  kind: string;
  stage: string;
  action: string;
  config: Record<string, unknown>;
  isEnabled: boolean;
  botIds: string[];
}

const CARD_MESSAGE = 'My card 4111 1111 1111 1111 was charged twice';

test('a guardrail is created for an agent, tested, edited, disabled and deleted', async ({ page }) => {
  const agentName = unique('Guarded agent');
  const agent = await apiCall<{ id: string }>('POST', '/v2/bots/public', { name: agentName });
  const name = unique('No card numbers');
  await signIn(page);
  await page.getByRole('link', { name: 'Guardrails' }).click();
  await page.getByRole('link', { name: 'New guardrail' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('combobox', { name: 'Kind' }).selectOption({ label: 'Personal data' });
  await page.getByRole('checkbox', { name: 'Card numbers' }).check();
  await page.getByRole('combobox', { name: 'When it matches' }).selectOption({ label: 'Redact: replace each match with [redacted]' });
  await page.getByRole('combobox', { name: 'Agents' }).fill(agentName);
  await page.getByRole('option', { name: agentName }).click();
  // The picker stays open for more agents; Escape closes it.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('listbox')).toBeHidden();
  await checkPage(page, 'guardrail-new');
  await page.getByRole('button', { name: 'Create guardrail' }).click();

  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  const id = new URL(page.url()).pathname.split('/').pop() ?? '';
  expect(await apiCall<Guardrail>('GET', `/v2/guardrails/${id}/public`), 'the guardrail as the API keeps it').toMatchObject({
    kind: 'pii_redaction',
    stage: 'input',
    action: 'redact',
    config: { types: ['card'] },
    isEnabled: true,
    botIds: [agent.id],
  });

  const panel = page.getByRole('region', { name: 'Test' });
  await panel.getByRole('textbox', { name: 'Customer message' }).fill(CARD_MESSAGE);
  await panel.getByRole('button', { name: 'Test' }).click();
  const result = panel.getByRole('region', { name: 'Test result' });
  await expect(result.getByText('Redacted: the agent goes on with the text below')).toBeVisible();
  await expect(result.getByText('Text after redactions: My card [redacted] was charged twice')).toBeVisible();
  await expect(result.getByRole('table', { name: 'What each guardrail did' }).getByRole('row').nth(1)).toHaveText(`${name}Personal dataredactYesfound 1 cardcard at 8–27`);
  await checkPage(page, 'guardrail-test');

  await page.getByRole('combobox', { name: 'When it matches' }).selectOption({ label: 'Block: no answer, hand over' });
  await page.getByRole('button', { name: 'Save guardrail' }).click();
  await expect(page.getByText('Guardrail saved.')).toBeVisible();
  expect((await apiCall<Guardrail>('GET', `/v2/guardrails/${id}/public`)).action).toBe('block');
  await panel.getByRole('textbox', { name: 'Customer message' }).fill(CARD_MESSAGE);
  await panel.getByRole('button', { name: 'Test' }).click();
  await expect(result.getByText('Blocked: no answer, the agent hands over (guardrail_block)')).toBeVisible();

  // The list: its agent by name, and switched off in place; the agent's test then runs nothing.
  await page.getByRole('link', { name: '← Back to the guardrails' }).click();
  const row = page.getByRole('table', { name: 'Guardrails' }).getByRole('row').filter({ hasText: name });
  await expect(row).toHaveText(new RegExp(`${name}Personal dataCustomer's messageBlock: no answer, hand over${agentName}`));
  // By keyboard: the switch's track is drawn over its input, which takes no pointer.
  await row.getByRole('switch', { name: `${name} enabled` }).focus();
  await page.keyboard.press('Space');
  await expect(row.getByRole('switch', { name: `${name} enabled` })).not.toBeChecked();
  await expect.poll(async () => (await apiCall<Guardrail>('GET', `/v2/guardrails/${id}/public`)).isEnabled, { message: 'disabled through the API' }).toBe(false);
  const listPanel = page.getByRole('region', { name: 'Test' });
  await listPanel.getByRole('combobox', { name: 'Guardrails of' }).selectOption({ label: `Agent ${agentName}` });
  await listPanel.getByRole('textbox', { name: 'Customer message' }).fill(CARD_MESSAGE);
  await listPanel.getByRole('button', { name: 'Test' }).click();
  await expect(listPanel.getByText('No guardrail ran: none is enabled for this stage here.')).toBeVisible();
  await checkPage(page, 'guardrails');

  await row.getByRole('link', { name }).click();
  await page.getByRole('button', { name: 'Delete guardrail' }).click();
  await page.getByRole('dialog', { name: 'Delete guardrail' }).getByRole('button', { name: 'Delete guardrail' }).click();
  await expect(page.getByRole('heading', { name: 'Guardrails', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name })).toHaveCount(0);
  expect((await apiCall<Guardrail[]>('GET', '/v2/guardrails/public')).map((g) => g.id)).not.toContain(id);
});

test("the API's messages land on the fields they name; each kind has its own settings", async ({ page }) => {
  await signIn(page);
  await page.goto('/console/guardrails/new');
  await page.getByRole('button', { name: 'Create guardrail' }).click();
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription(/Too small: expected string to have >=1 characters/);
  await expect(page.getByRole('textbox', { name: 'Topics' })).toHaveAccessibleDescription(/Too small: expected array to have >=1 items/);
  await checkPage(page, 'guardrail-invalid');

  const name = unique('No politics');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('textbox', { name: 'Topics' }).fill('politics, elections, voting');
  await page.getByRole('button', { name: 'Create guardrail' }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  const id = new URL(page.url()).pathname.split('/').pop() ?? '';
  const panel = page.getByRole('region', { name: 'Test' });
  await panel.getByRole('textbox', { name: 'Customer message' }).fill('Who should I vote for?');
  await panel.getByRole('button', { name: 'Test' }).click();
  const result = panel.getByRole('region', { name: 'Test result' });
  await expect(result.getByText('Blocked: no answer, the agent hands over (guardrail_block)')).toBeVisible();
  await expect(result.getByRole('row').nth(1)).toHaveText(new RegExp(`^${name}Blocked topicsblockYesabout "voting" \\(vote\\)topic “voting”$`));

  // Another kind: its own field; the stage follows (an answer's length is checked on the answer).
  await page.getByRole('combobox', { name: 'Kind' }).selectOption({ label: 'Answer length' });
  await expect(page.getByRole('combobox', { name: 'Checks' })).toHaveValue('output');
  await page.getByRole('textbox', { name: 'Most characters in an answer' }).fill('0');
  await page.getByRole('button', { name: 'Save guardrail' }).click();
  await expect(page.getByRole('textbox', { name: 'Most characters in an answer' })).toHaveAccessibleDescription(/Too small: expected number to be >=1/);
  expect((await apiCall<Guardrail>('GET', `/v2/guardrails/${id}/public`)).kind, 'nothing saved').toBe('blocked_topics');
  await page.getByRole('textbox', { name: 'Most characters in an answer' }).fill('40');
  await page.getByRole('button', { name: 'Save guardrail' }).click();
  await expect(page.getByText('Guardrail saved.')).toBeVisible();
  expect(await apiCall<Guardrail>('GET', `/v2/guardrails/${id}/public`)).toMatchObject({ kind: 'answer_length', stage: 'output', config: { maxCharacters: 40 } });
  await expect(panel.getByRole('combobox', { name: 'Check' })).toHaveValue('output');
  await panel.getByRole('textbox', { name: 'Agent answer' }).fill('Refunds reach the card within five working days of the return.');
  await panel.getByRole('button', { name: 'Test' }).click();
  await expect(result.getByText('Blocked: no answer, the agent hands over (guardrail_block)')).toBeVisible();
  await expect(result.getByRole('row').nth(1)).toContainText('Answer length');

  // Required citation: no settings; the test's cited article ids decide.
  await page.getByRole('combobox', { name: 'Kind' }).selectOption({ label: 'Required citation' });
  await expect(page.getByText('No settings: it matches an answer that cites no article.')).toBeVisible();
  await page.getByRole('button', { name: 'Save guardrail' }).click();
  await expect(page.getByText('Guardrail saved.')).toBeVisible();
  expect(await apiCall<Guardrail>('GET', `/v2/guardrails/${id}/public`)).toMatchObject({ kind: 'required_citation', stage: 'output', config: {} });
  await panel.getByRole('textbox', { name: 'Agent answer' }).fill('Refunds take five days.');
  await panel.getByRole('button', { name: 'Test' }).click();
  await expect(result.getByText('Blocked: no answer, the agent hands over (guardrail_block)')).toBeVisible();
  await panel.getByRole('textbox', { name: 'Cited article ids' }).fill('c0ffee00-0000-4000-8000-000000000001');
  await panel.getByRole('button', { name: 'Test' }).click();
  await expect(result.getByText('Passes: no guardrail matched')).toBeVisible();
  await expect(result.getByRole('row').nth(1)).toContainText('Required citationblockNo');
  await apiCall('DELETE', `/v2/guardrails/${id}/public`);
});

test('a read-only key reads and tests guardrails and changes nothing', async ({ page }) => {
  const name = unique('No swearing');
  const guardrail = await apiCall<Guardrail>('POST', '/v2/guardrails/public', { name, kind: 'blocked_phrases', stage: 'output', action: 'redact', config: { phrases: ['darn'] } });
  await signIn(page, server.readKey);
  await page.goto('/console/guardrails');
  const row = page.getByRole('table', { name: 'Guardrails' }).getByRole('row').filter({ hasText: name });
  await expect(row.getByRole('switch', { name: `${name} enabled` })).toBeDisabled();
  await expect(page.getByRole('link', { name: 'New guardrail' })).toHaveCount(0);
  await row.getByRole('link', { name }).click();
  await expect(page.getByRole('textbox', { name: 'Phrases' })).toHaveValue('darn');
  await expect(page.getByRole('button', { name: 'Save guardrail' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Delete guardrail' })).toBeDisabled();
  const panel = page.getByRole('region', { name: 'Test' });
  await panel.getByRole('textbox', { name: 'Agent answer' }).fill('That darn parcel is on its way.');
  await panel.getByRole('button', { name: 'Test' }).click();
  await expect(panel.getByText('Text after redactions: That [redacted] parcel is on its way.')).toBeVisible();
  await checkPage(page, 'guardrail-read-only');
  await page.goto('/console/guardrails/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('alert')).toContainText('guardrail not found');
  await apiCall('DELETE', `/v2/guardrails/${guardrail.id}/public`);
});
