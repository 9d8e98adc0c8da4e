// Knowledge generation from sources: a source picked and made into a draft article (the job's state,
// operation and reason, the draft linked), an agent without folders refused with the job's reason,
// every unlinked source at once; and a read-only key.
import { apiCall, checkPage, expect, ingestedFile, server, signIn, test, unique } from './fixtures.js';

test('a picked source becomes a draft article; an agent without folders is refused with the reason', async ({ page }) => {
  const word = Math.random().toString(36).slice(2, 8);
  const title = unique('Zorblat care');
  await apiCall('POST', '/v2/hc-folders/public', { title: unique('Care guides'), description: '' });
  await ingestedFile(title, `# Zorblat ${word} care\n\nA zorblat ${word} must be rinsed with cold water after every use and dried flat on a towel.\n`);
  const other = unique('Quimble storage');
  await ingestedFile(other, `# Quimble ${word} storage\n\nKeep a quimble ${word} in its blue tin, away from sunlight, for up to nine months.\n`);
  await signIn(page);
  await page.getByRole('link', { name: 'Knowledge', exact: true }).click();
  await page.getByRole('link', { name: 'Generate from sources' }).click();
  await expect(page.getByRole('heading', { name: 'Generate articles from sources' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Generate articles' }), 'nothing picked yet').toBeDisabled();

  await page.getByRole('textbox', { name: 'Title contains' }).fill(title);
  await page.getByRole('checkbox', { name: `Pick ${title}` }).check();
  await expect(page.getByText('1 picked')).toBeVisible();
  await checkPage(page, 'generate');
  await page.getByRole('button', { name: 'Generate articles' }).click();

  const jobs = page.getByRole('table', { name: 'Generation jobs' });
  const row = jobs.getByRole('row').filter({ hasText: title });
  await expect(row.getByText('completed'), 'the job finished').toBeVisible({ timeout: 30_000 });
  await expect(row.getByText('add article to folder')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'All jobs finished' })).toContainText('1 completed, 0 failed');
  await expect(page.getByRole('checkbox', { name: `Pick ${title}` }), 'made into an article: no longer offered').toHaveCount(0);
  await checkPage(page, 'generate-jobs');
  const article = row.getByRole('link').last();
  await expect(row.getByText('Draft', { exact: true }), 'a draft to review').toBeVisible();
  const articleTitle = (await article.textContent()) ?? '';
  await article.click();
  await expect(page.getByRole('heading', { name: articleTitle })).toBeVisible();
  await expect(page.getByText(`rinsed with cold water`).first()).toBeVisible();
  await page.goBack();
  await expect(jobs.getByText('completed'), 'the jobs are in the address: back shows them again').toBeVisible();

  // Another source, but only into the folders of an agent that has none: the job says why.
  const agentName = unique('No folders');
  await apiCall('POST', '/v2/bots/public', { name: agentName });
  await page.reload();
  await page.getByRole('textbox', { name: 'Title contains' }).fill(other);
  await page.getByRole('checkbox', { name: `Pick ${other}` }).check();
  await page.getByRole('combobox', { name: 'Folders the articles may go to' }).click();
  await page.getByRole('option', { name: `The folders of ${agentName}` }).click();
  await page.getByRole('button', { name: 'Generate articles' }).click();
  const refused = jobs.getByRole('row').filter({ hasText: other });
  await expect(refused.getByText('failed')).toBeVisible({ timeout: 30_000 });
  await expect(refused).toContainText("there is no active folder to add an article to among the agent's folders; attach a folder to the agent first");
  await checkPage(page, 'generate-refused');
});

test('every ingested source not yet made into an article at once', async ({ page }) => {
  const titles = [unique('Plimbus returns'), unique('Plimbus shipping')];
  for (const [i, title] of titles.entries()) await ingestedFile(title, `# ${title}\n\nPlimbus order ${i} ships from the north depot within ${i + 3} days.\n`);
  await signIn(page);
  await page.goto('/console/knowledge/generate');
  await page.getByRole('radio', { name: 'Every ingested source not yet made into an article' }).check();
  await page.getByRole('checkbox', { name: 'Update the article that best matches' }).uncheck();
  await page.getByRole('button', { name: 'Generate articles' }).click();
  const jobs = page.getByRole('table', { name: 'Generation jobs' });
  await expect(page.getByRole('status').filter({ hasText: 'All jobs finished' }), 'every job ends').toBeVisible({ timeout: 60_000 });
  for (const title of titles) await expect(jobs.getByRole('row').filter({ hasText: title }).getByText('completed'), `the job of ${title}`).toBeVisible();
  const unlinked = await apiCall<{ documents: { title: string }[] }>('GET', `/v2/documents/public?success=true&linkedKnowledge=false&limit=200`);
  expect(unlinked.documents.map((d) => d.title), 'the sources are now linked to articles').not.toEqual(expect.arrayContaining([titles[0]]));
});

test('a read-only key sees the page but cannot start a generation', async ({ page }) => {
  await signIn(page, server.readKey);
  await page.goto('/console/knowledge/generate');
  await expect(page.getByRole('heading', { name: 'Generate articles from sources' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Generate articles' })).toBeDisabled();
});
