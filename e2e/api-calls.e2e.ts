// How many API calls each page makes to render: at most 5 (issue 26's aim), counted on a full load
// of the page with the key kept in the tab, so its check (GET /v2/workspace/public) is one of them.
// How long pages take is measured at scale by `npm run bench:console`, not here.
import type { Request } from '@playwright/test';
import { apiCall, expect, refineThroughApi, RETURNS_NOTE, server, signIn, test, wrongAnswer } from './fixtures.js';

const MAX_CALLS = 5;

test('every page renders with at most 5 API calls', async ({ page }) => {
  // 25 pages loaded in full, after seeding a Refine iteration: more than the default minute on a busy machine.
  test.setTimeout(150_000);
  const { conversationId, eventId, articleId } = await wrongAnswer();
  expect(await refineThroughApi(conversationId, eventId, RETURNS_NOTE), 'the iteration ends ready').toBe('ready');
  const [article] = await apiCall<{ parentFolderId: string }[]>('POST', '/v2/hc-articles/ids/public', { articleIds: [articleId] });
  const [agent] = await apiCall<{ id: string }[]>('GET', '/v2/bots/public');
  const form = new FormData();
  form.append('file', new Blob(['# Opening hours\n\nThe shop is open from 9 to 18 on weekdays.\n'], { type: 'text/markdown' }), 'opening-hours.md');
  const uploaded = await fetch(`${server.url}/v2/documents/public/files`, { method: 'POST', headers: { authorization: `Bearer ${server.key}` }, body: form });
  expect(uploaded.status, 'the source is uploaded').toBe(202);
  const [source] = ((await uploaded.json()) as { documents: { id: string }[] }).documents;
  const guardrail = await apiCall<{ id: string }>('POST', '/v2/guardrails/public', { name: 'Call count guardrail', kind: 'answer_length', stage: 'output', action: 'flag', config: { maxCharacters: 2000 } });
  const action = await apiCall<{ id: string }>('POST', '/v2/hc-tools/public', { name: 'Order lookup' });
  await apiCall('POST', '/v2/api-function-configs/public', { toolId: action.id, name: 'order', requestMethod: 'GET', requestUrl: 'https://shop.example.com/orders/${orderNumber}' });
  const rule = await apiCall<{ id: string; name: string }>('POST', '/v2/hc-rules/draft/public', { behaviorInstructions: 'Ask for the order number, then say "Thanks, we are looking into it."' });
  // Switched off at once: the shared server sends it nothing (its host is not resolved).
  const webhook = await apiCall<{ id: string }>('POST', '/v2/webhooks/public', { url: 'https://hooks.example.com/parley', events: ['conversation.released'] });
  await apiCall('PATCH', `/v2/webhooks/${webhook.id}/public`, { enabled: false });
  const transcript = page.getByRole('region', { name: 'Transcript' });
  const pages = [
    { name: 'Knowledge', path: '/console/knowledge', ready: page.getByRole('navigation', { name: 'Folder tree' }) },
    { name: "A folder's articles", path: `/console/knowledge/folders/${article?.parentFolderId}`, ready: page.getByRole('region', { name: 'Live articles' }).getByRole('link', { name: 'Returns' }) },
    { name: 'An article', path: `/console/knowledge/articles/${articleId}`, ready: page.getByRole('tabpanel', { name: 'Article' }) },
    { name: 'Knowledge search', path: '/console/knowledge/search', ready: page.getByRole('form', { name: 'Knowledge search' }) },
    { name: 'Sources', path: '/console/sources', ready: page.getByRole('table', { name: 'Sources' }).or(page.getByText('No sources match.')) },
    { name: 'A source', path: `/console/sources/${source?.id}`, ready: page.getByRole('region', { name: 'Extracted text' }) },
    { name: 'The inbox', path: '/console/conversations', ready: page.getByRole('table', { name: 'Conversations' }) },
    { name: 'A conversation', path: `/console/conversations/${conversationId}`, ready: transcript.getByRole('article', { name: /^Agent at/ }) },
    { name: 'Refine with AI', path: `/console/refine/${conversationId}/${eventId}`, ready: page.getByRole('region', { name: 'Changes in Knowledge' }) },
    { name: 'Agents', path: '/console/agents', ready: page.getByRole('table', { name: 'Agents' }) },
    { name: 'An agent', path: `/console/agents/${agent?.id}`, ready: page.getByRole('checkbox').first() },
    { name: 'Actions', path: '/console/actions', ready: page.getByRole('table', { name: 'Actions' }) },
    { name: 'An action', path: `/console/actions/${action.id}`, ready: page.getByRole('tab', { name: 'External API calls (1)' }) },
    { name: 'Rules', path: '/console/rules', ready: page.getByRole('table', { name: 'Drafts' }).getByRole('link', { name: rule.name }).first() },
    { name: 'A rule', path: `/console/rules/${rule.id}`, ready: page.getByRole('list', { name: `Flow of ${rule.name}` }) },
    { name: 'Try the agent', path: '/console/try', ready: page.getByRole('form', { name: 'Message to the agent' }) },
    { name: 'Reply rules', path: '/console/reply-rules', ready: page.getByRole('region', { name: 'Direct reply' }).getByRole('heading') },
    { name: 'Tags', path: '/console/tags', ready: page.getByRole('table', { name: 'Tags of Conversation Status' }) },
    { name: 'Guardrails', path: '/console/guardrails', ready: page.getByRole('table', { name: 'Guardrails' }) },
    { name: 'A guardrail', path: `/console/guardrails/${guardrail.id}`, ready: page.getByRole('button', { name: 'Save guardrail' }) },
    { name: 'Connections', path: '/console/connections', ready: page.getByRole('region', { name: 'Google Drive' }).getByText(/^(Not connected|Connected)$/) },
    { name: 'Import from a provider', path: '/console/connections/notion', ready: page.getByText(/Notion is not connected in this workspace|Resources found/).first() },
    { name: 'Analytics', path: `/console/analytics/${agent?.id}`, ready: page.getByRole('list', { name: 'Summary' }) },
    { name: 'Webhooks', path: '/console/webhooks', ready: page.getByRole('table', { name: 'Endpoints' }) },
    { name: 'An endpoint', path: `/console/webhooks/${webhook.id}`, ready: page.getByText('No deliveries yet.') },
  ];

  await signIn(page);
  // The page signing in lands on finishes first: its requests are not the next page's.
  await page.waitForLoadState('networkidle');
  for (const { name, path, ready } of pages) {
    const calls: string[] = [];
    const count = (request: Request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/v2/')) calls.push(`${request.method()} ${url.pathname}`);
    };
    page.on('request', count);
    await page.goto(path);
    await expect(ready, `${name} (${path}) renders`).toBeVisible();
    // Whatever the page still asks for to finish rendering counts too.
    await page.waitForLoadState('networkidle');
    page.off('request', count);
    console.log(`${name}: ${calls.length} API call(s): ${calls.join(', ')}`);
    expect.soft(calls.length, `${name} (${path}) made ${calls.length} API calls to render (at most ${MAX_CALLS}): ${calls.join(', ')}`).toBeLessThanOrEqual(MAX_CALLS);
  }
});
