// Human takeover in the conversation view: a conversation the agent handed over is held by the team
// (said on its page and in the inbox) until "Release to the agent", after which the agent answers
// again; a release someone else made meanwhile is the API's 409, shown in its words; a read-only key.
import { agentWithKnowledge, apiCall, checkPage, expect, server, signIn, test } from './fixtures.js';

interface Held {
  id: string;
  status: string;
  humanTakeoverAt: string | null;
}

const REFUNDS = {
  title: 'Refund times',
  mainKnowledge: 'Refunds reach the card within 5 working days after we receive the returned item.',
  questions: ['How long does a refund take?'],
};

/** A conversation the agent handed over at the customer's request: the team holds it. */
async function heldConversation(): Promise<{ id: string; agentId: string }> {
  const { agentId } = await agentWithKnowledge(REFUNDS);
  const events = await apiCall<{ interactionId: string; role: string; handover: boolean }[]>('POST', '/v2/hc-interactions/events/public', {
    content: 'I want to talk to a person',
    botId: agentId,
  });
  expect(events.map((e) => [e.role, e.handover])).toEqual([
    ['user', false],
    ['parleybot', true],
  ]);
  const id = events[0]?.interactionId ?? '';
  expect((await apiCall<Held>('GET', `/v2/hc-interactions/${id}/public`)).humanTakeoverAt, 'the team holds it').not.toBeNull();
  return { id, agentId };
}

test('a conversation the team holds says so, and is released to the agent, which answers again', async ({ page }) => {
  const { id, agentId } = await heldConversation();
  // The customer writes again while the team holds it: stored, not answered.
  const waiting = await apiCall<{ role: string }[]>('POST', '/v2/hc-interactions/events/public', { content: 'How long does a refund take?', interactionId: id });
  expect(waiting.map((e) => e.role)).toEqual(['user']);
  const held = await apiCall<Held>('GET', `/v2/hc-interactions/${id}/public`);

  await signIn(page);
  await page.getByRole('link', { name: 'Conversations' }).click();
  await page.getByRole('combobox', { name: 'Agent', exact: true }).click();
  await page.getByRole('option', { name: (await apiCall<{ id: string; name: string }[]>('GET', '/v2/bots/public')).find((a) => a.id === agentId)?.name ?? '' }).click();
  const row = page.getByRole('table', { name: 'Conversations' }).getByRole('row').nth(1);
  await expect(row).toContainText('Held by the team');
  await row.getByRole('link').click();

  const takeover = page.getByRole('status', { name: 'The team holds this conversation' });
  await expect(takeover).toContainText('The team holds this conversation');
  await expect(takeover).toContainText(`Since ${await page.evaluate((at) => new Date(at).toLocaleString(), held.humanTakeoverAt ?? '')} the agent does not answer`);
  await checkPage(page, 'conversation-held');

  await takeover.getByRole('button', { name: 'Release to the agent' }).click();
  await expect(page.getByRole('status').filter({ hasText: "Released: the agent answers the customer's next message." })).toBeVisible();
  await expect(takeover).toHaveCount(0);
  expect(await apiCall<Held>('GET', `/v2/hc-interactions/${id}/public`)).toMatchObject({ humanTakeoverAt: null, status: 'Escalated to Human Agent' });
  const answered = await apiCall<{ role: string; message: string }[]>('POST', '/v2/hc-interactions/events/public', { content: 'How long does a refund take?', interactionId: id });
  expect(answered.map((e) => e.role), 'the agent answers again').toEqual(['user', 'parleybot']);
  expect(answered[1]?.message).toContain('5 working days');
});

test("a release someone made meanwhile shows the API's 409, and the page then shows the agent has it", async ({ page }) => {
  const { id } = await heldConversation();
  await signIn(page);
  await page.goto(`/console/conversations/${id}`);
  const takeover = page.getByRole('status', { name: 'The team holds this conversation' });
  await expect(takeover).toBeVisible();
  await apiCall('POST', `/v2/hc-interactions/${id}/release/public`);
  await takeover.getByRole('button', { name: 'Release to the agent' }).click();
  const refused = page.getByRole('alert').filter({ hasText: 'The conversation was not released' });
  await expect(refused).toContainText(/not held by the human team/);
  await expect(takeover, 'the conversation is read again').toHaveCount(0);
  await checkPage(page, 'conversation-release-refused');
});

test('a read-only key sees that the team holds a conversation and cannot release it', async ({ page }) => {
  const { id } = await heldConversation();
  await signIn(page, server.readKey);
  await page.goto(`/console/conversations/${id}`);
  const takeover = page.getByRole('status', { name: 'The team holds this conversation' });
  await expect(takeover).toContainText('The team holds this conversation');
  await expect(takeover.getByRole('button', { name: 'Release to the agent' })).toBeDisabled();
  await checkPage(page, 'conversation-held-read-only');
});
