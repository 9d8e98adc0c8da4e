// Refine with AI from an agent reply: a note corrects a wrong fact, the change is shown with its root
// cause and a diff against the live article, the replayed answer beside the original, publish makes
// the article right; a stale draft's 409 names the draft; a read-only key reads the session only.
import { agentWithKnowledge, apiCall, checkPage, expect, server, signIn, test } from './fixtures.js';

const RETURNS = {
  title: 'Returns',
  mainKnowledge: 'Returns are accepted within 14 days of delivery. The return label is free.',
  questions: ['How long do I have to return an item?'],
};
const NOTE = 'This is wrong: returns are accepted within 45 days, not 14 days';

/** A conversation whose agent reply states the outdated 14 days, asked through Generate Answer. */
async function wrongAnswer(): Promise<{ conversationId: string; eventId: string; articleId: string }> {
  const { agentId, articleId } = await agentWithKnowledge(RETURNS);
  const events = await apiCall<{ interactionId: string; id: string; role: string; message: string }[]>('POST', '/v2/hc-interactions/events/public', {
    content: 'How long do I have to return an item?',
    botId: agentId,
  });
  const reply = events.find((e) => e.role === 'parleybot');
  expect(reply?.message).toContain('14 days');
  return { conversationId: reply?.interactionId ?? '', eventId: reply?.id ?? '', articleId };
}

async function liveArticle(id: string): Promise<{ mainKnowledge: string }> {
  const [article] = await apiCall<{ mainKnowledge: string }[]>('POST', '/v2/hc-articles/ids/public', { articleIds: [id] });
  if (!article) throw new Error(`article ${id} not found`);
  return article;
}

test('a note refines a wrong answer: the change, its diff and the replayed answer, then publish corrects the article', async ({ page }) => {
  const { conversationId, eventId, articleId } = await wrongAnswer();
  await signIn(page);
  await page.goto(`/console/conversations/${conversationId}`);
  const reply = page.getByRole('region', { name: 'Transcript' }).getByRole('article', { name: /^Agent at/ });
  await reply.getByRole('link', { name: 'Refine with AI' }).click();
  await expect(page).toHaveURL(`/console/refine/${conversationId}/${eventId}`);
  await expect(page.getByRole('heading', { name: 'Refine with AI' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'The reply' })).toContainText('How long do I have to return an item?');

  await page.getByRole('textbox', { name: 'What was wrong with this answer?' }).fill(NOTE);
  await page.getByRole('button', { name: 'Refine' }).click();
  const iteration = page.getByRole('region', { name: 'Iteration 1' });
  await expect(iteration.getByText('Ready to publish')).toBeVisible();

  const change = iteration.getByRole('article', { name: 'Change: Update an article' });
  const cause = change.getByRole('region', { name: 'Root cause' });
  await expect(cause).toContainText('Stage: knowledge_content');
  await expect(cause).toContainText('Mode: incorrect_knowledge');
  await expect(change).toContainText('Draft of Returns');
  const knowledge = change.getByRole('region', { name: 'Changes in Knowledge' });
  await expect(knowledge.getByRole('deletion')).toContainText('within 14 days');
  await expect(knowledge.getByRole('insertion')).toContainText('within 45 days');
  await expect(iteration.getByRole('region', { name: 'Original answer' })).toContainText('14 days');
  const replayed = iteration.getByRole('region', { name: 'Replayed answer' });
  await expect(replayed).toContainText('45 days');
  await expect(replayed).not.toContainText('14 days');
  await checkPage(page, 'refine-with-ai');

  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText(/the drafts are live/)).toBeVisible();
  await expect(iteration.getByText('Published', { exact: true })).toBeVisible();
  const article = await liveArticle(articleId);
  expect(article.mainKnowledge).toContain('within 45 days');
  expect(article.mainKnowledge).not.toContain('14 days');
  // The session has ended: a new note would start a new one.
  await expect(page.getByRole('textbox', { name: 'What was wrong with this answer?' })).toBeVisible();
});

test('publishing a draft whose live article changed shows the 409 naming the draft; another iteration; close discards it', async ({ page }) => {
  const { conversationId, eventId, articleId } = await wrongAnswer();
  await signIn(page);
  await page.goto(`/console/refine/${conversationId}/${eventId}`);
  await page.getByRole('textbox', { name: 'What was wrong with this answer?' }).fill(NOTE);
  await page.getByRole('button', { name: 'Refine' }).click();
  await expect(page.getByRole('region', { name: 'Iteration 1' }).getByText('Ready to publish')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'A new note for another iteration' })).toBeVisible();

  // The live article changes after the draft was made from it.
  await apiCall('PUT', `/v2/hc-articles/${articleId}/public`, {
    ...RETURNS,
    mainKnowledge: `${RETURNS.mainKnowledge} Exchanges are free.`,
    agentInstruction: '',
    keywords: [],
    escalation: false,
  });
  await page.getByRole('button', { name: 'Publish' }).click();
  const refused = page.getByRole('alert').filter({ hasText: 'Nothing was published' });
  await expect(refused).toContainText(/article draft [0-9a-f-]+: the live article changed since this draft was made/);
  expect((await liveArticle(articleId)).mainKnowledge).toContain('within 14 days');

  // Another iteration with a new note: followed until it ends, the first one listed under it.
  await page.getByRole('textbox', { name: 'A new note for another iteration' }).fill('Also: the return label is free and exchanges are free too.');
  await page.getByRole('button', { name: 'Start another iteration' }).click();
  const second = page.getByRole('region', { name: 'Iteration 2' });
  await expect(second).toContainText('Note: Also: the return label is free and exchanges are free too.');
  await expect(page.getByRole('textbox', { name: 'A new note for another iteration' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Earlier iterations' }).getByRole('listitem')).toContainText(['Iteration 1']);
  await expect(refused).toHaveCount(0);
  await checkPage(page, 'refine-with-ai-second-iteration');

  await page.getByRole('button', { name: 'Close the session' }).click();
  await expect(page.getByText(/its drafts were discarded/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Publish' })).toHaveCount(0);
});

test('a read-only key sees a session with its change and answers, and cannot refine, publish or close', async ({ page }) => {
  const { conversationId, eventId } = await wrongAnswer();
  const started = await apiCall<{ sessionId: string }>('POST', `/v2/fix-review/interactions/${conversationId}/events/${eventId}/sessions/iterations/public`, {
    feedbackNote: NOTE,
  });
  await expect
    .poll(async () => (await apiCall<{ latestIteration: { status: string } | null }>('GET', `/v2/fix-review/sessions/${started.sessionId}/public`)).latestIteration?.status)
    .toBe('ready');

  await signIn(page, server.readKey);
  await page.goto(`/console/conversations/${conversationId}`);
  await page.getByRole('link', { name: 'Refine with AI' }).click();
  const iteration = page.getByRole('region', { name: 'Iteration 1' });
  await expect(iteration.getByText('Ready to publish')).toBeVisible();
  await expect(iteration.getByRole('region', { name: 'Changes in Knowledge' }).getByRole('insertion')).toContainText('within 45 days');
  await expect(iteration.getByRole('region', { name: 'Replayed answer' })).toContainText('45 days');
  await expect(page.getByRole('button', { name: 'Publish' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Close the session' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Start another iteration' })).toBeDisabled();
  await checkPage(page, 'refine-with-ai-read-only');
});
