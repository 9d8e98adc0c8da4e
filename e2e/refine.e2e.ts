// Refine with AI from an agent reply: a note corrects a wrong fact, the change is shown with its root
// cause and a diff against the live article, the replayed answer beside the original, publish makes
// the article right; a stale draft's 409 names the draft; a read-only key reads the session only;
// an iteration that ends with no change, and one that fails.
import { apiCall, checkPage, expect, refineThroughApi, RETURNS, RETURNS_NOTE as NOTE, server, signIn, test, unique, wrongAnswer } from './fixtures.js';

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
  expect(await refineThroughApi(conversationId, eventId, NOTE), 'the iteration ends ready').toBe('ready');

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

test('a note that states no fact ends with no change: the summary and the part not understood, nothing to publish', async ({ page }) => {
  const { conversationId, eventId } = await wrongAnswer();
  await signIn(page);
  await page.goto(`/console/refine/${conversationId}/${eventId}`);
  await page.getByRole('textbox', { name: 'What was wrong with this answer?' }).fill('Be a bit friendlier.');
  await page.getByRole('button', { name: 'Refine' }).click();
  const iteration = page.getByRole('region', { name: 'Iteration 1' });
  await expect(iteration.getByText('No change', { exact: true })).toBeVisible();
  await expect(iteration).toContainText('The feedback states no fact and no step the agent should have taken: nothing to change.');
  const notUnderstood = iteration.getByRole('note').filter({ hasText: 'Parts of the note that were not understood' });
  await expect(notUnderstood).toContainText('“Be a bit friendlier.”: This reads as an instruction on how to answer, not as a fact');
  await expect(iteration.getByRole('region', { name: 'Changes' })).toContainText('No change was proposed.');
  await expect(iteration.getByRole('region', { name: 'Replayed answer' }), 'nothing was replayed').toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Publish' }), 'nothing to publish').toHaveCount(0);
  // The session stays open for a better note.
  await expect(page.getByRole('textbox', { name: 'A new note for another iteration' })).toBeVisible();
  await checkPage(page, 'refine-with-ai-no-change');
});

test('an iteration that fails shows the reason, and another note can follow', async ({ page }) => {
  // An agent without knowledge folders hands the question over; a note giving the missing fact
  // would add an article, and the agent has no folder to put it in.
  const agent = await apiCall<{ id: string }>('POST', '/v2/bots/public', { name: unique('No folders') });
  const events = await apiCall<{ interactionId: string; id: string; role: string; handover: boolean }[]>('POST', '/v2/hc-interactions/events/public', {
    content: 'Do you ship to Mexico?',
    botId: agent.id,
  });
  const reply = events.find((e) => e.role === 'parleybot');
  expect(reply?.handover, 'the agent without knowledge hands over').toBe(true);
  await signIn(page);
  await page.goto(`/console/conversations/${reply?.interactionId}`);
  await page.getByRole('region', { name: 'Transcript' }).getByRole('link', { name: 'Refine with AI' }).click();
  await page.getByRole('textbox', { name: 'What was wrong with this answer?' }).fill('We ship to Mexico: delivery takes 5 days.');
  await page.getByRole('button', { name: 'Refine' }).click();
  const iteration = page.getByRole('region', { name: 'Iteration 1' });
  await expect(iteration.getByText('Failed', { exact: true })).toBeVisible();
  await expect(iteration.getByRole('alert').filter({ hasText: 'The iteration failed' })).toContainText('the agent has no folder to add an article to');
  await expect(iteration.getByRole('region', { name: 'Changes' }), 'a failed iteration lists no changes').toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Publish' })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'A new note for another iteration' })).toBeVisible();
  await checkPage(page, 'refine-with-ai-failed');
});
