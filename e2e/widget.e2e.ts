// The chat widget as a customer meets it: a shop's page on its own origin (a server of this test on
// 127.0.0.1) embeds <script src=".../widget.js" data-key="pk_..." async>. The customer asks and
// gets the answer, gives a thumbs down, asks for a person, and sees a person's reply arrive live;
// a reload keeps the conversation; Markdown in a reply formats but injects nothing; a page of an
// origin the key does not allow gets no chat. Accessibility is checked with the panel open, and
// at a phone's width the panel fills the screen.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { fakeModelEnv, startFakeLlm, taskOf } from '../test/support/fake-llm.js';
import { allowPort } from '../test/support/network-guard.js';
import { agentWithKnowledge, apiCall, checkPage, expect, server, startOwnServer, test } from './fixtures.js';

const RETURNS = {
  title: 'Returning an item',
  mainKnowledge: 'You can return an item within 45 days of delivery. Print the prepaid label from your Orders page and drop the parcel at any post office.',
  questions: ['How do I return an item?', 'What is the return window?'],
};

interface Shop {
  origin: string;
  close: () => Promise<void>;
}

/**
 * A shop's page on 127.0.0.1 (its own origin, not the server's) that embeds the widget. The page's
 * own styles try to reach into the widget (red buttons, hidden messages): they must not.
 */
async function shopPage(attributesFor: (origin: string) => Promise<Record<string, string>>, parley = server.url): Promise<Shop> {
  let html = '';
  const http: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const tags = Object.entries(await attributesFor(origin))
    .map(([name, value]) => `${name}='${value.replace(/&/g, '&amp;').replace(/'/g, '&#39;')}'`)
    .join(' ');
  html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Hat Shop</title><style>body{font:16px serif;color:#222} button{background:red!important} .message{display:none}</style></head>
<body><main><h1>Hat Shop</h1><p>Hats for every head.</p></main>
<script src="${parley}/widget.js" ${tags} async></script></body></html>`;
  return { origin, close: () => new Promise((resolve) => http.close(() => resolve())) };
}

const createKey = async (agentId: string, allowedOrigins: string[], target = { url: server.url, key: server.key }) =>
  (await apiCall<{ key: string }>('POST', `/v2/bots/${agentId}/widget-keys/public`, { name: 'Hat Shop', allowedOrigins }, target)).key;

// The fake model brings the tests' network guard into this file: connections from here (not the
// browser's) may go to this process's own servers (the shop pages, the fake model) and to Parley.
test.beforeAll(() => allowPort(Number(new URL(server.url).port)));

/** The widget's shadow root is open: Playwright's locators pierce it. */
const launcher = (page: Page) => page.getByRole('button', { name: /^(Open|Close) chat/ });
const panel = (page: Page) => page.getByRole('dialog', { name: 'Hat Shop help' });
const log = (page: Page) => panel(page).getByRole('log');

test('a customer asks, rates, asks for a person, gets a live reply, and finds the chat again after a reload', async ({ page }) => {
  const { agentId } = await agentWithKnowledge(RETURNS);
  let key = '';
  const shop = await shopPage(async (origin) => {
    key = await createKey(agentId, [origin]);
    return {
      'data-key': key,
      'data-title': 'Hat Shop help',
      'data-color': '#0f766e',
      'data-locale': 'en-GB',
      'data-user-attributes': '{"email":"ada@example.com","plan":"gold"}',
    };
  });
  try {
    await page.goto(shop.origin);
    await expect(launcher(page)).toHaveAttribute('aria-expanded', 'false');
    // The page's styles do not reach the widget: its launcher keeps the data-color.
    await expect(launcher(page)).toHaveCSS('background-color', 'rgb(15, 118, 110)');
    await launcher(page).click();
    await expect(panel(page)).toBeVisible();
    const input = panel(page).getByRole('textbox', { name: 'Your message' });
    await expect(input).toBeFocused();
    await checkPage(page, 'widget-open');

    await input.fill('how can i return a hat i bought?');
    await input.press('Enter');
    const answer = log(page).locator('.message.reply').first();
    await expect(answer).toContainText('45 days');
    await expect(answer).toContainText('Agent');

    const conversationId = await page.evaluate((k) => (JSON.parse(localStorage.getItem(`parley-widget:${k}`) ?? '{}') as { conversationId?: string }).conversationId, key);
    expect(conversationId).toMatch(/^[0-9a-f-]{36}$/);
    const stored = await apiCall<{ userAttributes: Record<string, unknown>; channel: string }>('GET', `/v2/hc-interactions/${conversationId}/public`);
    expect(stored.userAttributes).toMatchObject({ email: 'ada@example.com', plan: 'gold', locale: 'en-GB' });
    expect(stored.channel).toBe('chat');

    // Thumbs down on the answer: pressed, and the reply's feedback is stored as not resolved.
    const down = answer.getByRole('button', { name: 'This did not answer my question' });
    await down.click();
    await expect(down).toHaveAttribute('aria-pressed', 'true');
    await expect(answer.getByRole('status')).toHaveText('Thanks for the feedback.');
    await expect.poll(async () => (await apiCall<{ status: string }>('GET', `/v2/hc-interactions/${conversationId}/public`)).status).toBe('Unresolved');

    // "Talk to a person": the hand-over, the hold said, the button gone.
    await panel(page).getByRole('button', { name: 'Talk to a person' }).click();
    await expect(log(page).locator('.message.user').last()).toHaveText(/I would like to talk to a person\./);
    await expect(panel(page).getByRole('status').filter({ hasText: 'A person from the team will reply here.' })).toBeVisible();
    await expect(panel(page).getByRole('button', { name: 'Talk to a person' })).toBeHidden();
    const held = await apiCall<{ status: string; escalationReason: string; humanTakeoverAt: string | null }>('GET', `/v2/hc-interactions/${conversationId}/public`);
    expect([held.status, held.escalationReason, held.humanTakeoverAt !== null]).toEqual(['Escalated to Human Agent', 'customer_request', true]);

    // A person answers through the API: the reply arrives on the open page, its Markdown formatted
    // and its HTML and script link shown as text.
    const reply = 'Hi, **Sam** here. I have sent a new [return label](https://shop.example/labels/42).\n<img src=x onerror="window.parleyPwned=1"> [bad](javascript:window.parleyPwned=2)';
    await apiCall('POST', '/v2/hc-interactions/events/public', { interactionId: conversationId, role: 'agent', content: reply });
    const person = log(page).locator('.message.person');
    await expect(person).toContainText('Sam here');
    await expect(person.locator('strong')).toHaveText('Sam');
    await expect(person.getByRole('link', { name: 'return label' })).toHaveAttribute('href', 'https://shop.example/labels/42');
    await expect(person).toContainText('<img src=x onerror="window.parleyPwned=1">');
    await expect(person.locator('img')).toHaveCount(0);
    await expect(person.locator('a')).toHaveCount(1);
    expect(await page.evaluate(() => (window as unknown as { parleyPwned?: number }).parleyPwned)).toBeUndefined();
    await checkPage(page, 'widget-held');

    // Closing with Escape gives the focus back to the launcher; a reload keeps the conversation.
    await page.keyboard.press('Escape');
    await expect(panel(page)).toBeHidden();
    await expect(launcher(page)).toBeFocused();
    await page.reload();
    // By keyboard alone: Tab reaches the launcher (the page has no other control), Enter opens it.
    await page.keyboard.press('Tab');
    await expect(launcher(page)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(panel(page).getByRole('textbox', { name: 'Your message' })).toBeFocused();
    await expect(log(page).locator('.message.user')).toHaveCount(2);
    await expect(log(page).locator('.message.person')).toContainText('Sam here');
    await expect(log(page).locator('.message.reply').first().getByRole('button', { name: 'This did not answer my question' })).toHaveAttribute('aria-pressed', 'true');
    await expect(panel(page).getByRole('status').filter({ hasText: 'A person from the team will reply here.' })).toBeVisible();

    // A second reply while the panel is closed: the launcher says a new message came.
    await page.keyboard.press('Escape');
    await apiCall('POST', '/v2/hc-interactions/events/public', { interactionId: conversationId, role: 'agent', content: 'Your label is on its way.' });
    await expect(launcher(page)).toHaveAccessibleName('Open chat: Hat Shop help (New message)');

    // At a phone's width the open panel fills the screen.
    await page.setViewportSize({ width: 375, height: 700 });
    await launcher(page).click();
    const box = await panel(page).boundingBox();
    expect([box?.x, box?.y, box?.width, box?.height]).toEqual([0, 0, 375, 700]);
  } finally {
    await shop.close();
  }
});

test('a page of an origin the key does not allow gets no chat, and the script is small', async ({ page }) => {
  const { agentId } = await agentWithKnowledge(RETURNS);
  const key = await createKey(agentId, ['https://shop.example']);
  const shop = await shopPage(async () => ({ 'data-key': key, 'data-title': 'Hat Shop help' }));
  try {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(shop.origin);
    await launcher(page).click();
    const input = panel(page).getByRole('textbox', { name: 'Your message' });
    await input.fill('How do I return an item?');
    await input.press('Enter');
    await expect(panel(page).getByRole('status').filter({ hasText: 'The chat is not available on this page right now.' })).toBeVisible();
    await expect(input).toBeDisabled();
    expect(errors.some((e) => e.includes(`Parley widget: no conversation could be started from ${shop.origin}`))).toBe(true);
    expect(await page.evaluate((k) => localStorage.getItem(`parley-widget:${k}`), key)).toBeNull();
  } finally {
    await shop.close();
  }

  const script = await fetch(`${server.url}/widget.js`, { headers: { 'accept-encoding': 'identity' } });
  const body = Buffer.from(await script.arrayBuffer());
  expect(gzipSync(body, { level: 9 }).length).toBeLessThanOrEqual(40 * 1024);
});

test('the demo page loads the widget for a key that allows it', async ({ page }) => {
  const { agentId } = await agentWithKnowledge(RETURNS);
  const origin = new URL(server.url).origin;
  const key = await createKey(agentId, [origin]);
  await page.goto('/widget/demo');
  await page.getByRole('textbox', { name: /Widget key/ }).fill(key);
  await page.getByRole('textbox', { name: /Language/ }).fill('fr');
  await page.getByRole('button', { name: 'Load the widget' }).click();
  await expect(page.getByRole('status')).toHaveText('The key allows this page: the chat is at the bottom right.');
  await page.getByRole('button', { name: /^Ouvrir la discussion/ }).click();
  const input = page.getByRole('textbox', { name: 'Votre message' });
  await input.fill('What is the return window?');
  await page.getByRole('button', { name: 'Envoyer' }).click();
  await expect(page.getByRole('log').locator('.message.reply')).toContainText('45 days');
  await checkPage(page, 'widget-demo');

  // A message an input guardrail redacts is shown as stored, once, without the card number.
  await apiCall('POST', '/v2/guardrails/public', { name: 'No cards', kind: 'pii_redaction', stage: 'input', action: 'redact', config: { types: ['card'] }, botIds: [agentId] });
  await input.fill('my card is 4111 1111 1111 1111, is it refunded there?');
  await page.getByRole('button', { name: 'Envoyer' }).click();
  const mine = page.getByRole('log').locator('.message.user');
  await expect(mine.last()).toHaveText(/my card is \[redacted\], is it refunded there\?/);
  await expect(page.getByRole('log').locator('.message.reply')).toHaveCount(2);
  await expect(mine).toHaveCount(2);
  await expect(page.getByRole('log')).not.toContainText('4111');
});

test('with a configured model the answer shows as it is written, and the stored reply replaces it', async ({ page }) => {
  const fake = await startFakeLlm();
  const own = await startOwnServer('parley-e2e-model-', fakeModelEnv(fake.url, 'sk-e2e-widget', { PARLEY_LLM_MAX_RETRIES: '0' }));
  const target = { url: own.server.url, key: own.server.apiKey };
  const answer = 'You can return an item within **45 days** of delivery: print the prepaid label from your Orders page and drop the parcel at any post office.';
  try {
    const { agentId, articleId } = await agentWithKnowledge(RETURNS, target);
    fake.setHandler((request) => {
      if (taskOf(request) === 'plan_answer') {
        return { json: { reasoning: 'A question about returns.', performKnowledgeSearch: true, intent: 'question', smallTalkReply: null, sentiment: 'neutral', angry: false } };
      }
      if (taskOf(request) === 'generate_answer') {
        const json = { answer, usedArticleIds: [articleId], handover: false, reason: null, confidence: 0.9, bestArticleId: articleId, reasoning: 'The returns article.' };
        return { json, chunkSize: 12, chunkDelayMs: 40 };
      }
      return undefined;
    });
    const shop = await shopPage(async (origin) => ({ 'data-key': await createKey(agentId, [origin], target), 'data-title': 'Hat Shop help' }), own.server.url);
    try {
      await page.goto(shop.origin);
      await launcher(page).click();
      // Every text the draft shows while the answer is written, as the page sees it.
      await page.evaluate(() => {
        const root = document.querySelector('[data-parley-widget]')!.shadowRoot!;
        const seen: string[] = [];
        (window as unknown as { drafts: string[] }).drafts = seen;
        new MutationObserver(() => {
          root.querySelectorAll('.draft').forEach((draft) => seen.push(draft.textContent ?? ''));
        }).observe(root, { subtree: true, childList: true, characterData: true });
      });
      const input = panel(page).getByRole('textbox', { name: 'Your message' });
      await input.fill('what is the return window for a hat?');
      await input.press('Enter');
      const reply = log(page).locator('.message.reply:not(.draft)');
      await expect(reply).toContainText('You can return an item within 45 days of delivery');
      await expect(reply.locator('strong')).toHaveText('45 days');
      await expect(log(page).locator('.draft')).toHaveCount(0);
      const drafts = [...new Set(await page.evaluate(() => (window as unknown as { drafts: string[] }).drafts))];
      expect(drafts.length, `drafts seen: ${JSON.stringify(drafts)}`).toBeGreaterThanOrEqual(2);
      for (const text of drafts) expect('Agent' + answer.replace(/\*\*/g, '')).toContain(text.replace(/\*\*/g, ''));
      expect(fake.requests.filter((r) => taskOf(r) === 'generate_answer').map((r) => r.body.stream)).toEqual([true]);
    } finally {
      await shop.close();
    }
  } finally {
    await own.stop();
    await fake.close();
  }
});
