// The Tests page and the publish gate (docs/testing.md): a test case created through the form (a
// turn, answers yes, says a phrase, a tag), run 3 times and passing (the built-in engine: one run
// stands for all three); an article draft that breaks a case refused with the case named and the
// expectation it misses, then published with Publish anyway (force: true), the gate's run recorded
// as published anyway.
import { agentWithKnowledge, apiCall, ARTICLE_CONTENT, checkPage, expect, signIn, test, unique } from './fixtures.js';

const REFUNDS = {
  title: 'Refunds of annual plans',
  mainKnowledge: 'Annual plans can be refunded within 30 days of purchase.',
  questions: ['Can I get a refund on my annual plan?'],
};

interface TestRun {
  id: string;
  state: string;
  trigger: string;
  gate: { kind: string; targetId: string; blocked: boolean; forced: boolean } | null;
  cases: { name: string; passes: number; k: number; passK: boolean }[];
}

/** The knowledge of the live article, as the API answers it. */
async function liveKnowledge(articleId: string): Promise<string | undefined> {
  const [article] = await apiCall<{ mainKnowledge: string }[]>('POST', '/v2/hc-articles/ids/public', { articleIds: [articleId] });
  return article?.mainKnowledge;
}

test('a test case is created through the form, run three times and passes', async ({ page }) => {
  const { agentId, agentName } = await agentWithKnowledge(REFUNDS);
  const name = unique('Annual refund');
  await signIn(page);
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Tests' }).click();
  await expect(page.getByRole('heading', { name: 'Tests', level: 1 })).toBeVisible();
  // /console/tests opens the most recently updated agent's page; then this test's agent is picked.
  await expect(page).toHaveURL(/\/console\/tests\/[0-9a-f-]{36}$/);
  await page.getByRole('combobox', { name: 'Agent', exact: true }).click();
  await page.getByRole('option', { name: agentName, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/console/tests/${agentId}$`));
  await expect(page.getByText('No test case yet')).toBeVisible();
  await expect(page.getByText('No run yet.')).toBeVisible();
  await checkPage(page, 'tests-empty');

  await page.getByRole('button', { name: 'New test case' }).click();
  await expect(page.getByRole('heading', { name: 'New test case', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('combobox', { name: 'Tags' }).fill('billing');
  await page.getByRole('combobox', { name: 'Tags' }).press('Enter');
  await page.getByRole('group', { name: 'Turn 1' }).getByRole('textbox', { name: 'Customer message' }).fill('Can I get a refund on my annual plan?');
  const last = page.getByRole('group', { name: 'What the reply to the last turn meets' });
  await last.getByRole('radio', { name: 'Yes: an answer citing an article' }).check();
  await last.getByRole('textbox', { name: 'Says', exact: true }).fill('30 days');
  await last.getByRole('textbox', { name: 'Never says' }).fill('45 days');
  await checkPage(page, 'tests-new-case');
  await page.getByRole('button', { name: 'Create test case' }).click();

  const cases = page.getByRole('table', { name: 'Test cases' });
  await expect(cases.getByRole('row')).toHaveText([/^Case/, new RegExp(`^${name}1answers; says “30 days”; never says “45 days”billing`)]);
  const listed = await apiCall<{ testCases: { name: string; turns: unknown[]; expect: unknown; tags: string[] }[] }>('GET', `/v2/bots/${agentId}/test-cases/public`);
  expect(listed.testCases.map(({ name, turns, expect, tags }) => ({ name, turns, expect, tags })), 'the case as the API keeps it').toEqual([
    { name, turns: [{ content: 'Can I get a refund on my annual plan?' }], expect: { answers: true, contains: ['30 days'], notContains: ['45 days'] }, tags: ['billing'] },
  ]);

  // The tag filter: another tag shows none, the case's own shows it.
  await page.getByRole('textbox', { name: 'Tag', exact: true }).fill('shipping');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByText('No test case has the tag “shipping”.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Tag', exact: true }).fill('billing');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(cases.getByRole('link', { name })).toBeVisible();

  // Run it three times: the run's page follows it until it has completed.
  const run = page.getByRole('region', { name: 'Run the cases' });
  await run.getByRole('textbox', { name: 'Runs of each case (k)' }).fill('3');
  await run.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByRole('heading', { name: /^Test run of/, level: 1 })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Progress' })).toHaveText('1 of 1 case ran', { timeout: 30_000 });
  await expect(page.getByText('Completed', { exact: true })).toBeVisible();
  const results = page.getByRole('table', { name: 'Cases' });
  await expect(results.getByRole('row').nth(1)).toHaveText(`${name}3 of 3PassedNoNone`);
  await expect(page.getByRole('definition')).toHaveText(['100%', '100%', '0']);
  const runId = page.url().split('/').pop() ?? '';
  const stored = await apiCall<TestRun>('GET', `/v2/test-runs/${runId}/public`);
  expect(stored).toMatchObject({ state: 'completed', trigger: 'api', cases: [{ name, passes: 3, k: 3, passK: true }] });
  await checkPage(page, 'tests-run');

  // The history lists it.
  await page.getByRole('link', { name: "← Back to the agent's tests" }).click();
  await expect(page.getByRole('table', { name: 'Runs' }).getByRole('row').nth(1)).toHaveText(/RunCompleted1 of 13100%100%0$/);
});

test('an article draft that breaks a test case is refused naming the case, then published anyway', async ({ page }) => {
  // Each publish runs the gate (the case with the draft, then on what is live) before it answers.
  test.setTimeout(300_000);
  const { agentId, articleId } = await agentWithKnowledge(REFUNDS);
  const name = unique('Refund window');
  await apiCall('POST', `/v2/bots/${agentId}/test-cases/public`, {
    name,
    turns: [{ content: 'Can I get a refund on my annual plan?' }],
    expect: { answers: true, contains: '30 days' },
  });
  const draft = await apiCall<{ id: string }>('POST', `/v2/hc-articles/${articleId}/draft/public`, {
    ...ARTICLE_CONTENT,
    title: REFUNDS.title,
    questions: REFUNDS.questions,
    keywords: [],
    mainKnowledge: 'Annual plans can be refunded within 45 days of purchase.',
  });

  await signIn(page);
  await page.goto(`/console/knowledge/articles/${draft.id}`);
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'Not published: the drafts break test cases' });
  await expect(refusal).toContainText('the drafts break 1 test case that passes today', { timeout: 120_000 });
  await expect(refusal).toContainText(`"${name}" (contains "30 days": said "`);
  await expect(refusal).toContainText('45 days');
  await checkPage(page, 'tests-gate-refused');
  expect(await liveKnowledge(articleId), 'nothing went live').toBe(REFUNDS.mainKnowledge);

  await refusal.getByRole('button', { name: 'Publish anyway' }).click();
  await expect(page).toHaveURL(new RegExp(`/articles/${articleId}$`), { timeout: 120_000 });
  await expect(page.getByText('Annual plans can be refunded within 45 days of purchase.')).toBeVisible();
  expect(await liveKnowledge(articleId)).toBe('Annual plans can be refunded within 45 days of purchase.');

  // Both gate runs are in the agent's history: the refused one and the one published anyway.
  const runs = await apiCall<{ testRuns: TestRun[] }>('GET', `/v2/bots/${agentId}/test-runs/public`);
  expect(runs.testRuns.map((r) => ({ trigger: r.trigger, gate: r.gate && { kind: r.gate.kind, blocked: r.gate.blocked, forced: r.gate.forced } }))).toEqual([
    { trigger: 'gate', gate: { kind: 'article_draft', blocked: false, forced: true } },
    { trigger: 'gate', gate: { kind: 'article_draft', blocked: true, forced: false } },
  ]);
  await page.goto(`/console/tests/${agentId}`);
  await expect(page.getByRole('table', { name: 'Runs' }).getByRole('row')).toHaveText([/^Run/, /Publish gate \(published anyway\)/, /Publish gate \(refused\)/]);
});
