// Try the agent (a chat through Generate Answer with the trace beside each reply) and Conversations
// (the inbox with its filters, a transcript by role, a reply's trace, feedback, a human reply).
import { agentWithKnowledge, apiCall, checkPage, expect, server, signIn, test } from './fixtures.js';

const REFUNDS = {
  title: 'Refund times',
  mainKnowledge: 'Refunds reach the card within 5 working days after we receive the returned item.',
  questions: ['How long does a refund take?'],
};

test('Try the agent answers from the knowledge and shows the trace beside the reply', async ({ page }) => {
  const { agentName } = await agentWithKnowledge(REFUNDS);
  await signIn(page);
  await page.getByRole('link', { name: 'Try the agent' }).click();
  await page.getByRole('combobox', { name: 'Agent', exact: true }).click();
  await page.getByRole('option', { name: agentName }).click();
  await page.getByRole('textbox', { name: 'Your message' }).fill('How long does a refund take?');
  await page.getByRole('button', { name: 'Send' }).click();

  const chat = page.getByRole('region', { name: 'Chat' });
  await expect(chat.getByRole('article', { name: /^Agent at/ })).toContainText('Refunds reach the card within 5 working days');
  const trace = chat.getByRole('complementary', { name: 'Trace of this reply' });
  const hits = trace.getByRole('region', { name: 'Knowledge hits' });
  await expect(hits.getByRole('listitem').filter({ hasText: 'Refund times' })).toContainText('Used in the answer');
  await expect(trace.getByRole('region', { name: 'Planning' })).toContainText('Searched the knowledge.');
  await expect(trace.getByRole('region', { name: 'Timings' }).getByRole('row')).not.toHaveCount(0);
  await checkPage(page, 'try-the-agent');

  await page.getByRole('link', { name: 'Open in Conversations' }).click();
  await expect(page.getByRole('region', { name: 'Transcript' }).getByRole('article')).toHaveCount(2);
});

test('the inbox filters by status and opens a transcript where a reply gets feedback and a human answers', async ({ page }) => {
  const { agentId, agentName } = await agentWithKnowledge(REFUNDS);
  const answered = await apiCall<{ interactionId: string }[]>('POST', '/v2/hc-interactions/events/public', { content: 'How long does a refund take?', botId: agentId });
  const conversationId = answered[0]?.interactionId ?? '';
  await apiCall('POST', '/v2/hc-interactions/events/public', { content: 'I want to talk to a person', interactionId: conversationId });
  await apiCall('POST', '/v2/hc-interactions/events/public', { content: 'Refund approved by finance', role: 'agent', type: 'internal_comment', interactionId: conversationId });
  const other = await apiCall<{ interactionId: string }[]>('POST', '/v2/hc-interactions/events/public', { content: 'How long does a refund take?', botId: agentId });

  await signIn(page);
  await page.getByRole('link', { name: 'Conversations' }).click();
  await page.getByRole('combobox', { name: 'Agent', exact: true }).click();
  await page.getByRole('option', { name: agentName }).click();
  const table = page.getByRole('table', { name: 'Conversations' });
  await expect(table.getByRole('row')).toHaveCount(3);
  await page.getByRole('combobox', { name: 'Status', exact: true }).click();
  await page.getByRole('option', { name: 'Escalated to Human Agent' }).click();
  await page.keyboard.press('Escape');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('link', { name: 'How long does a refund take?' })).toHaveAttribute('href', `/console/conversations/${conversationId}`);
  await checkPage(page, 'conversations-inbox');
  expect(other[0]?.interactionId).not.toEqual(conversationId);

  await table.getByRole('link', { name: 'How long does a refund take?' }).click();
  const transcript = page.getByRole('region', { name: 'Transcript' });
  await expect(transcript.getByRole('article')).toHaveCount(5);
  await expect(transcript.getByRole('article', { name: /^Internal comment/ })).toContainText('Refund approved by finance');
  await expect(transcript.getByRole('article', { name: /^Agent at/ }).last()).toContainText('Handed over');

  const reply = transcript.getByRole('article', { name: /^Agent at/ }).first();
  await reply.getByRole('button', { name: 'Show trace' }).click();
  await expect(reply.getByRole('region', { name: 'Knowledge hits' })).toContainText('Used in the answer');
  await checkPage(page, 'conversation-trace');
  await reply.getByRole('button', { name: 'Feedback' }).click();
  await reply.getByRole('combobox', { name: 'Rating' }).click();
  await page.getByRole('option', { name: '5' }).click();
  await reply.getByRole('checkbox', { name: 'Resolved the question' }).check();
  await reply.getByRole('button', { name: 'Save feedback' }).click();
  await expect(reply.getByText('Rated 5/5')).toBeVisible();
  await checkPage(page, 'conversation-transcript');

  await page.getByRole('textbox', { name: 'Reply as a human agent' }).fill('I have asked finance to speed it up.');
  await page.getByRole('button', { name: 'Send reply' }).click();
  await expect(transcript.getByRole('article', { name: /^Human agent at/ }).last()).toContainText('I have asked finance to speed it up.');

  const stored = await apiCall<{ events: { role: string; csatRating: number | null; resolved: boolean | null }[] }>('GET', `/v2/hc-interactions/${conversationId}/public`);
  expect(stored.events.map((e) => e.role)).toEqual(['user', 'parleybot', 'user', 'parleybot', 'agent', 'agent']);
  expect(stored.events[1]).toMatchObject({ csatRating: 5, resolved: true });
});

test('a read-only key reads conversations but cannot reply or talk to the agent', async ({ page }) => {
  const { agentId } = await agentWithKnowledge(REFUNDS);
  const answered = await apiCall<{ interactionId: string }[]>('POST', '/v2/hc-interactions/events/public', { content: 'How long does a refund take?', botId: agentId });
  await signIn(page, server.readKey);
  await page.goto(`/console/conversations/${answered[0]?.interactionId}`);
  await expect(page.getByRole('region', { name: 'Transcript' }).getByRole('article')).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Send reply' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Evaluate the answers' })).toBeDisabled();
  await page.getByRole('link', { name: 'Try the agent' }).click();
  await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
});
