// The Agents page: create, rename, assign folders (the agent then answers from them), the prompts
// with Parley's defaults, delete; and a read-only key.
import { apiCall, checkPage, expect, server, signIn, test, unique } from './fixtures.js';

test('an agent is created, renamed, given a folder to answer from, and deleted', async ({ page }) => {
  const folder = await apiCall<{ id: string }>('POST', '/v2/hc-folders/public', { title: unique('Returns'), description: '' });
  const folderTitle = (await apiCall<{ snapshotObjV2: { id: string; title: string }[] }>('GET', '/v2/hc-folders/public')).snapshotObjV2.find((f) => f.id === folder.id)?.title ?? '';
  await apiCall('POST', '/v2/hc-articles/public', {
    title: 'Return window',
    mainKnowledge: 'You can return any item within 30 days of delivery.',
    agentInstruction: '',
    questions: ['How long do I have to return an item?'],
    keywords: ['return'],
    escalation: false,
    parentFolderId: folder.id,
  });
  const name = unique('Returns agent');
  await signIn(page);
  await page.getByRole('link', { name: 'Agents' }).click();
  await page.getByRole('textbox', { name: 'New agent name' }).fill(name);
  await page.getByRole('button', { name: 'Create agent' }).click();
  await expect(page.getByRole('heading', { name })).toBeVisible();
  const agentId = new URL(page.url()).pathname.split('/').pop() ?? '';

  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`${name} EU`);
  await page.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('heading', { name: `${name} EU` })).toBeVisible();
  await page.getByRole('link', { name: '← Back to the agents' }).click();
  await expect(page.getByRole('table', { name: 'Agents' }).getByRole('link', { name: `${name} EU` })).toBeVisible();
  await checkPage(page, 'agents');
  await page.getByRole('link', { name: `${name} EU` }).click();

  await page.getByRole('checkbox', { name: folderTitle }).check();
  await page.getByRole('button', { name: 'Save folders' }).click();
  await expect(page.getByText('Folders saved.')).toBeVisible();
  await checkPage(page, 'agent-folders');
  const answer = await apiCall<{ role: string; message: string }[]>('POST', '/v2/hc-interactions/events/public', {
    content: 'How long do I have to return an item?',
    botId: agentId,
  });
  expect(answer[1]?.message).toContain('30 days');

  await page.getByRole('tab', { name: 'Prompts' }).click();
  await expect(page.getByText("Parley's default prompts")).toBeVisible();
  await expect(page.getByRole('region', { name: 'Planning' })).not.toBeEmpty();
  await page.getByRole('tab', { name: 'Versions' }).click();
  await expect(page.getByText("The prompts were never saved: the agent uses Parley's defaults.")).toBeVisible();
  await checkPage(page, 'agent-prompts');

  await page.getByRole('button', { name: 'Delete agent' }).click();
  await page.getByRole('dialog', { name: 'Delete agent' }).getByRole('button', { name: 'Delete agent' }).click();
  await expect(page.getByRole('heading', { name: 'Agents', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: `${name} EU` })).toHaveCount(0);
  expect((await apiCall<{ id: string }[]>('GET', '/v2/bots/public')).map((a) => a.id)).not.toContain(agentId);
});

test('a read-only key sees agents and their folders but changes nothing', async ({ page }) => {
  const agent = await apiCall<{ id: string }>('POST', '/v2/bots/public', { name: unique('Read agent') });
  await signIn(page, server.readKey);
  await page.goto(`/console/agents/${agent.id}`);
  await expect(page.getByRole('button', { name: 'Delete agent' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save folders' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Create agent' })).toHaveCount(0);
  await apiCall('POST', `/v2/bots/${agent.id}/hc-prompt/drafts/public`, { note: 'Shorter answers' });
  await page.getByRole('tab', { name: 'Prompts' }).click();
  await page.getByRole('tab', { name: 'Drafts' }).click();
  await expect(page.getByRole('textbox', { name: 'Note (optional)' })).toHaveValue('Shorter answers');
  await expect(page.getByRole('button', { name: 'New draft from the live prompts' })).toBeDisabled();
  await expect(page.getByRole('group', { name: 'Guidelines: Tone' }).getByRole('textbox', { name: 'Content' }), 'the draft reads, read-only').toBeDisabled();
  await expect(page.getByRole('textbox', { name: 'Note (optional)' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Publish draft' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Discard draft' })).toBeDisabled();
});

test("an agent's prompts drafted, compared with the live ones, published, a stale draft published anyway, a draft discarded", async ({ page }) => {
  const name = unique('Prompt agent');
  const agent = await apiCall<{ id: string }>('POST', '/v2/bots/public', { name });
  await signIn(page);
  await page.goto(`/console/agents/${agent.id}`);
  await page.getByRole('tab', { name: 'Prompts' }).click();
  await page.getByRole('tab', { name: 'Drafts' }).click();
  await expect(page.getByText('No open draft.', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'New draft from the live prompts' }).click();

  const tone = page.getByRole('group', { name: 'Guidelines: Tone' }).getByRole('textbox', { name: 'Content' });
  await tone.fill(`${await tone.inputValue()}\nGreet the customer by name.`);
  await page.getByRole('button', { name: 'Add a guidelines section' }).click();
  const added = page.getByRole('group', { name: 'Guidelines: New section' });
  await added.getByRole('textbox', { name: 'Title' }).fill('Refund tone');
  await page.getByRole('group', { name: 'Guidelines: Refund tone' }).getByRole('textbox', { name: 'Content' }).fill('Apologise once, then explain the refund steps.');
  await page.getByRole('group', { name: 'Channels: Email format' }).getByRole('checkbox', { name: 'Enabled' }).uncheck();
  await page.getByRole('textbox', { name: 'Note (optional)' }).fill('Warmer guidelines');
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('button', { name: 'Save draft' }), 'saved: nothing left to save').toBeDisabled();
  await checkPage(page, 'agent-prompt-draft');

  await page.getByRole('tab', { name: 'Changes against live' }).click();
  const guidelines = page.getByRole('region', { name: 'Changes in Guidelines' });
  await expect(guidelines.locator('ins')).toContainText(['Greet the customer by name.']);
  await expect(guidelines.locator('ins').filter({ hasText: '## Refund tone' })).toContainText('Apologise once, then explain the refund steps.');
  await expect(page.getByRole('region', { name: 'Changes in Channels' }).locator('ins')).toContainText('## Email format (email) [disabled]');
  await expect(page.getByRole('region', { name: 'Changes in Planning' })).toContainText('Planning (unchanged)');
  await checkPage(page, 'agent-prompt-draft-changes');

  await page.getByRole('button', { name: 'Publish draft' }).click();
  await expect(page.getByText('The draft was published as version 1.')).toBeVisible();
  await page.getByRole('tab', { name: 'Live prompts' }).click();
  await expect(page.getByText('Version 1', { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Guidelines' })).toContainText('Apologise once, then explain the refund steps.');
  const live = await apiCall<{ serialized: { hcGuidelinePrompt: string; hcEmailChannelPrompt: string } }>('GET', `/v2/bots/${agent.id}/hc-prompt/public`);
  expect(live.serialized.hcGuidelinePrompt, 'the agent answers with the published guidelines').toContain('Greet the customer by name.');

  // A draft made from version 1, then version 2 saved by a script: publishing the draft is refused, then forced.
  await page.getByRole('tab', { name: 'Drafts' }).click();
  await page.getByRole('button', { name: 'New draft from the live prompts' }).click();
  await expect(page.getByText('Made from version 1', { exact: false })).toBeVisible();
  const current = await apiCall<Record<string, unknown>>('GET', `/v2/bots/${agent.id}/hc-prompt/public`);
  await apiCall('POST', `/v2/bots/${agent.id}/hc-prompt`, { hcPlanningPrompt: current.hcPlanningPrompt, hcGuidelinePrompt: [], hcChannelPrompt: current.hcChannelPrompt });
  await page.getByRole('button', { name: 'Publish draft' }).click();
  await expect(page.getByRole('alert')).toContainText('A version was saved since this draft was made');
  await page.getByRole('button', { name: 'Publish anyway (overwrite the newer version)' }).click();
  await expect(page.getByText('The draft was published as version 3.')).toBeVisible();

  await page.getByRole('button', { name: 'New draft from the live prompts' }).click();
  await page.getByRole('button', { name: 'Discard draft' }).click();
  await expect(page.getByText('The draft was discarded; the live prompts are unchanged.')).toBeVisible();
  await expect(page.getByText('No open draft.', { exact: false })).toBeVisible();

  await page.getByRole('tab', { name: 'Versions' }).click();
  await page.getByRole('combobox', { name: 'Compare a saved version with the current prompts' }).click();
  for (const version of [3, 2, 1]) await expect(page.getByRole('option', { name: new RegExp(`^Version ${version},`) }), `version ${version} in the history`).toBeVisible();
  await expect(page.getByRole('option', { name: /^Version 3,.*from a draft/ })).toBeVisible();
});
