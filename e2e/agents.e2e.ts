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
});
