// The MCP server over Streamable HTTP (POST /mcp), driven by the SDK's own client: the tools and
// resources answer what the API answers, in the key's workspace only, with its scopes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AUTH_MESSAGES } from '../../src/http/errors.js';
import { type Event, type Interaction, interaction, KB, type Setup, setupAgent, UNKNOWN } from '../conversations/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { assertError, expectStatus } from '../support/security.js';
import { type Article, callTool, type CallResult, expectToolError, markdownOf, type ProposeFixResult, TOOL_NAMES } from './support.js';

describe('MCP over Streamable HTTP', () => {
  let t: TestApp;
  let s: Setup;
  let other: Setup;
  let shippingFolderId: string;
  let shippingArticleId: string;
  const clients: Client[] = [];

  before(async () => {
    t = await startTestApp({ work: true });
    s = await setupAgent(t);
    other = await setupAgent(t);
    // A folder the agent does not answer from, with an article of its own.
    shippingFolderId = (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/hc-folders/public', s.w.key, { title: 'Shipping', description: '' })).id;
    shippingArticleId = (
      await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/hc-articles/public', s.w.key, {
        title: 'Shipping to Canada', mainKnowledge: 'We ship to Canada within 5 business days.', agentInstruction: 'Mention customs fees.',
        questions: ['Do you ship to Canada?'], keywords: ['shipping', 'canada'], escalation: false, parentFolderId: shippingFolderId,
      })
    ).id;
  });
  after(async () => {
    for (const client of clients) await client.close();
    await t.close();
  });

  /** An SDK client connected to POST /mcp with a key. */
  const connect = async (key: string) => {
    const client = new Client({ name: 'parley-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    clients.push(client);
    return client;
  };

  it('lists the seven tools with their fixed names and arguments, and the resource templates', async () => {
    const client = await connect(s.w.readKey);
    assert.equal(client.getServerVersion()?.name, 'parley');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), [...TOOL_NAMES].sort());
    const args = Object.fromEntries(tools.map((tool) => [tool.name, { properties: Object.keys(tool.inputSchema.properties ?? {}), required: tool.inputSchema.required ?? [] }]));
    assert.deepEqual(args, {
      search_knowledge: { properties: ['query', 'botId', 'folderId', 'limit'], required: ['query'] },
      get_article: { properties: ['id'], required: ['id'] },
      ask_agent: { properties: ['botId', 'message', 'conversationId'], required: ['botId', 'message'] },
      list_conversations: { properties: ['botId', 'status', 'limit'], required: [] },
      get_conversation: { properties: ['id'], required: ['id'] },
      create_article_draft: { properties: ['articleId', 'title', 'mainKnowledge', 'parentFolderId'], required: ['mainKnowledge'] },
      propose_fix: { properties: ['eventId', 'feedback'], required: ['eventId', 'feedback'] },
    });
    const readOnly = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint]));
    assert.deepEqual(readOnly, {
      search_knowledge: true, get_article: true, ask_agent: false, list_conversations: true, get_conversation: true, create_article_draft: false, propose_fix: false,
    });
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((r) => [r.uriTemplate, r.mimeType]), [['parley://articles/{id}', 'text/markdown'], ['parley://fix-sessions/{id}', 'application/json']]);
  });

  it('search_knowledge ranks as the search route does, narrowed to an agent or a folder, with links to the articles', async () => {
    const client = await connect(s.w.readKey);
    const args = { query: 'refund for an annual plan', limit: 5 };
    const result = await callTool<{ results: { article: { id: string; title: string }; score: number; highlights: { field: string; snippet: string }[]; uri: string }[] }>(client, 'search_knowledge', args);
    const route = await expectStatus<{ results: unknown[] }>(t, 200, 'POST', '/v2/knowledge/public/search', s.w.readKey, args);
    const hits = result.structured.results;
    assert.equal(hits[0]?.article.id, s.articleIds[1]);
    assert.equal(hits[0]?.article.title, 'Refund policy for annual plans');
    assert.ok(hits[0]!.score > 0);
    assert.ok(hits[0]!.highlights.some((h) => h.field === 'title' && h.snippet.includes('<mark>Refund</mark>')), JSON.stringify(hits[0]!.highlights));
    assert.deepEqual(hits.map(({ uri: _uri, ...hit }) => hit), route.results, 'the hits are the search route\'s');
    assert.deepEqual(hits.map((h) => h.uri), hits.map((h) => `parley://articles/${h.article.id}`));
    assert.deepEqual(result.links, hits.map((h) => ({ type: 'resource_link', uri: h.uri, name: h.article.title, mimeType: 'text/markdown' })));

    const canada = { query: 'Do you ship to Canada?' };
    assert.deepEqual((await callTool<{ results: { article: { id: string } }[] }>(client, 'search_knowledge', canada)).structured.results.map((r) => r.article.id), [shippingArticleId]);
    const inFolder = (await callTool<{ results: { article: { id: string } }[] }>(client, 'search_knowledge', { ...canada, folderId: shippingFolderId })).structured.results;
    assert.deepEqual(inFolder.map((r) => r.article.id), [shippingArticleId]);
    const otherFolder = (await callTool<{ results: unknown[] }>(client, 'search_knowledge', { ...canada, folderId: s.folderId })).structured.results;
    assert.deepEqual(otherFolder, [], 'the help-center folder does not hold the shipping article');
    const agentAndFolder = (await callTool<{ results: unknown[] }>(client, 'search_knowledge', { ...canada, botId: s.agentId, folderId: shippingFolderId })).structured.results;
    assert.deepEqual(agentAndFolder, [], 'the agent does not answer from the shipping folder');

    await expectToolError(client, 'search_knowledge', { ...canada, folderId: other.folderId }, 'folder not found');
    await expectToolError(client, 'search_knowledge', { ...canada, botId: other.agentId }, 'agent not found');
    await expectToolError(client, 'search_knowledge', { query: '' }, /Input validation error: .*query/);
  });

  it('the search route takes folderId too (404 for a folder of another workspace)', async () => {
    const res = await expectStatus<{ results: { article: { id: string } }[] }>(t, 200, 'POST', '/v2/knowledge/public/search', s.w.readKey, { query: 'ship to Canada', folderId: shippingFolderId });
    assert.deepEqual(res.results.map((r) => r.article.id), [shippingArticleId]);
    assertError(await t.request('POST', '/v2/knowledge/public/search', { key: s.w.readKey, body: { query: 'ship', folderId: other.folderId } }), 404, 'folder not found');
  });

  it('get_article and the article resource answer what the API holds; another workspace\'s article is not found', async () => {
    const client = await connect(s.w.readKey);
    const result = await callTool<{ article: Article; uri: string }>(client, 'get_article', { id: shippingArticleId });
    const [fromApi] = await expectStatus<Article[]>(t, 200, 'POST', '/v2/hc-articles/ids/public', s.w.readKey, { articleIds: [shippingArticleId] });
    assert.deepEqual(result.structured, { article: fromApi, uri: `parley://articles/${shippingArticleId}` });

    const resource = await client.readResource({ uri: `parley://articles/${shippingArticleId}` });
    assert.deepEqual(resource.contents, [{
      uri: `parley://articles/${shippingArticleId}`,
      mimeType: 'text/markdown',
      text: '# Shipping to Canada\n\nWe ship to Canada within 5 business days.\n\n## Questions customers ask\n- Do you ship to Canada?\n\nKeywords: shipping, canada\n\n## Instruction for the agent\n\nMention customs fees.\n',
    }]);
    assert.equal(await markdownOf(client, s.articleIds[1]!), `# ${KB[1]!.title}\n\n${KB[1]!.mainKnowledge}\n`);

    await expectToolError(client, 'get_article', { id: other.articleIds[0] }, 'article not found');
    await expectToolError(client, 'get_article', { id: UNKNOWN }, 'article not found');
    await assert.rejects(client.readResource({ uri: `parley://articles/${other.articleIds[0]}` }), (error: Error & { code?: number }) => {
      assert.equal(error.code, -32002);
      assert.match(error.message, /article not found/);
      return true;
    });
    await assert.rejects(client.readResource({ uri: 'parley://articles/not-a-uuid' }), /the id must be a UUID/);
  });

  it('ask_agent goes through Generate Answer: a reply with its cited articles, a conversation continued, a hand-over', async () => {
    const client = await connect(s.w.key);
    type Asked = { conversationId: string; replyEventId: string | null; reply: string | null; replyType: string | null; handover: boolean; escalationReason: string | null; citedArticles: { id: string; title: string; documentUrl: string | null; uri: string }[]; events: Event[] };
    const first = await callTool<Asked>(client, 'ask_agent', { botId: s.agentId, message: 'How can I reset my password?' });
    const asked = first.structured;
    assert.deepEqual([asked.handover, asked.escalationReason, asked.replyType], [false, null, 'message']);
    assert.match(asked.reply ?? '', /1\. Click "Forgot password" on the sign-in page\./);
    assert.deepEqual(asked.citedArticles, [{ id: s.articleIds[0], title: KB[0]!.title, documentUrl: null, uri: `parley://articles/${s.articleIds[0]}` }]);
    assert.deepEqual(first.links, [{ type: 'resource_link', uri: `parley://articles/${s.articleIds[0]}`, name: KB[0]!.title, mimeType: 'text/markdown' }]);
    assert.deepEqual(asked.events.map((e) => [e.role, e.interactionId]), [['user', asked.conversationId], ['parleybot', asked.conversationId]]);
    assert.equal(asked.replyEventId, asked.events[1]!.id);

    const next = (await callTool<Asked>(client, 'ask_agent', { botId: s.agentId, message: 'Can my cat catch the flu from me?', conversationId: asked.conversationId })).structured;
    assert.equal(next.conversationId, asked.conversationId);
    assert.deepEqual([next.handover, next.escalationReason, next.citedArticles], [true, 'missing_knowledge', []]);

    const conversation = await expectStatus<Interaction>(t, 200, 'GET', interaction(asked.conversationId), s.w.readKey);
    assert.deepEqual(conversation.events?.map((e) => e.message), ['How can I reset my password?', asked.reply, 'Can my cat catch the flu from me?', next.reply]);
    assert.equal(conversation.status, 'Escalated to Human Agent');

    await expectToolError(client, 'ask_agent', { botId: other.agentId, message: 'Hello' }, 'agent not found');
    await expectToolError(client, 'ask_agent', { botId: s.agentId, message: 'Hello', conversationId: UNKNOWN }, 'conversation not found');
    const reader = await connect(s.w.readKey);
    await expectToolError(reader, 'ask_agent', { botId: s.agentId, message: 'Hello' }, AUTH_MESSAGES.scope);
  });

  it('list_conversations and get_conversation answer the routes\' conversations of the key\'s workspace only', async () => {
    const writer = await connect(s.w.key);
    const mine = (await callTool<{ conversationId: string }>(writer, 'ask_agent', { botId: s.agentId, message: 'How do I export an invoice as PDF?' })).structured.conversationId;
    const theirs = (await callTool<{ conversationId: string }>(await connect(other.w.key), 'ask_agent', { botId: other.agentId, message: 'How do I export an invoice as PDF?' })).structured.conversationId;

    const client = await connect(s.w.readKey);
    const listed = (await callTool<{ interactions: Interaction[]; hasMore: boolean }>(client, 'list_conversations', {})).structured;
    const route = await expectStatus<{ interactions: Interaction[] }>(t, 200, 'GET', '/v2/hc-interactions/public', s.w.readKey);
    assert.deepEqual(listed.interactions, route.interactions);
    assert.equal(listed.interactions[0]?.id, mine, 'newest first');
    assert.ok(!listed.interactions.some((c) => c.id === theirs));
    assert.equal(listed.hasMore, false);

    const one = (await callTool<{ interactions: Interaction[]; hasMore: boolean }>(client, 'list_conversations', { botId: s.agentId, limit: 1 })).structured;
    assert.deepEqual([one.interactions.map((c) => c.id), one.hasMore], [[mine], true]);
    const escalated = (await callTool<{ interactions: Interaction[] }>(client, 'list_conversations', { status: ['Escalated to Human Agent'] })).structured.interactions;
    assert.ok(escalated.length > 0 && escalated.every((c) => c.status === 'Escalated to Human Agent'), JSON.stringify(escalated.map((c) => c.status)));
    assert.deepEqual((await callTool<{ interactions: unknown[] }>(client, 'list_conversations', { botId: other.agentId })).structured.interactions, []);

    const got = (await callTool<{ conversation: Interaction }>(client, 'get_conversation', { id: mine })).structured.conversation;
    assert.deepEqual(got, await expectStatus<Interaction>(t, 200, 'GET', interaction(mine), s.w.readKey));
    await expectToolError(client, 'get_conversation', { id: theirs }, 'conversation not found');
  });

  it('create_article_draft writes drafts with a write key only: of a live article, or of a new one', async () => {
    const reader = await connect(s.w.readKey);
    const writer = await connect(s.w.key);
    await expectToolError(reader, 'create_article_draft', { title: 'Gift cards', mainKnowledge: 'Gift cards never expire.', parentFolderId: s.folderId }, AUTH_MESSAGES.scope);

    const fresh = (await callTool<{ article: Article; uri: string }>(writer, 'create_article_draft', { title: 'Gift cards', mainKnowledge: 'Gift cards never expire.', parentFolderId: s.folderId })).structured;
    assert.deepEqual(
      [fresh.article.title, fresh.article.mainKnowledge, fresh.article.isDraft, fresh.article.originalArticleId, fresh.article.parentFolderId, fresh.article.origin, fresh.article.questions],
      ['Gift cards', 'Gift cards never expire.', true, null, s.folderId, 'API_CREATED', []],
    );
    const [stored] = await expectStatus<Article[]>(t, 200, 'POST', '/v2/hc-articles/ids/public', s.w.readKey, { articleIds: [fresh.article.id] });
    assert.deepEqual(fresh.article, stored);

    const draft = (await callTool<{ article: Article }>(writer, 'create_article_draft', { articleId: shippingArticleId, mainKnowledge: 'We ship to Canada within 3 business days.' })).structured.article;
    assert.deepEqual(
      [draft.isDraft, draft.originalArticleId, draft.originalArticleVersion, draft.title, draft.mainKnowledge, draft.questions, draft.agentInstruction, draft.parentFolderId],
      [true, shippingArticleId, 1, 'Shipping to Canada', 'We ship to Canada within 3 business days.', ['Do you ship to Canada?'], 'Mention customs fees.', shippingFolderId],
    );
    const [live] = await expectStatus<Article[]>(t, 200, 'POST', '/v2/hc-articles/ids/public', s.w.readKey, { articleIds: [shippingArticleId] });
    assert.equal(live?.mainKnowledge, 'We ship to Canada within 5 business days.', 'nothing is published');

    await expectToolError(writer, 'create_article_draft', { articleId: other.articleIds[0], mainKnowledge: 'x' }, 'article not found');
    await expectToolError(writer, 'create_article_draft', { mainKnowledge: 'x', parentFolderId: s.folderId }, 'title: required for a new article (without articleId)');
    await expectToolError(writer, 'create_article_draft', { title: 'x', mainKnowledge: 'x' }, 'parentFolderId: required for a new article (without articleId)');
    await expectToolError(writer, 'create_article_draft', { title: 'x', mainKnowledge: 'x', parentFolderId: other.folderId }, `parentFolderId: folder ${other.folderId} not found in this workspace`);
    await expectToolError(writer, 'create_article_draft', { articleId: draft.id, mainKnowledge: 'x' }, 'article is a draft; drafts are made from live articles');
  });

  it('propose_fix runs Refine with AI on a reply and waits for the iteration; the session reads as a resource', async () => {
    const writer = await connect(s.w.key);
    const asked = (await callTool<{ replyEventId: string; conversationId: string }>(writer, 'ask_agent', { botId: s.agentId, message: 'Can my dog catch a cold from me?' })).structured;
    const reader = await connect(s.w.readKey);
    await expectToolError(reader, 'propose_fix', { eventId: asked.replyEventId, feedback: 'Say that we do not give veterinary advice.' }, AUTH_MESSAGES.scope);

    const fixed = (await callTool<ProposeFixResult>(writer, 'propose_fix', { eventId: asked.replyEventId, feedback: 'Say that we do not give veterinary advice.' })).structured;
    assert.equal(fixed.finished, true);
    assert.ok(['ready', 'no_change'].includes(fixed.status), fixed.status);
    assert.deepEqual(
      [fixed.session.id, fixed.session.interactionId, fixed.session.targetEventId, fixed.session.latestIteration?.id, fixed.session.latestIteration?.status],
      [fixed.sessionId, asked.conversationId, asked.replyEventId, fixed.iterationId, fixed.status],
    );
    assert.deepEqual(fixed.poll, { resource: `parley://fix-sessions/${fixed.sessionId}`, route: `GET /v2/fix-review/sessions/${fixed.sessionId}/public` });
    const fromApi = await expectStatus(t, 200, 'GET', `/v2/fix-review/sessions/${fixed.sessionId}/public`, s.w.readKey);
    assert.deepEqual(fixed.session, fromApi);
    const polled = await reader.readResource({ uri: fixed.poll.resource });
    assert.deepEqual(polled.contents.map((c) => [c.mimeType, 'text' in c ? JSON.parse(c.text) : c.blob]), [['application/json', fromApi]]);

    await expectToolError(writer, 'propose_fix', { eventId: UNKNOWN, feedback: 'x' }, 'event not found');
    const theirs = (await callTool<{ replyEventId: string }>(await connect(other.w.key), 'ask_agent', { botId: other.agentId, message: 'Can my dog catch a cold from me?' })).structured;
    await expectToolError(writer, 'propose_fix', { eventId: theirs.replyEventId, feedback: 'x' }, 'event not found');
    await assert.rejects(reader.readResource({ uri: `parley://fix-sessions/${UNKNOWN}` }), /fix-review session not found/);
  });

  it('answers 401 without a valid key, 403 to a widget key and to a key without read, 405 to GET and DELETE', async () => {
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const headers = { accept: 'application/json, text/event-stream' };
    assertError(await t.request('POST', '/mcp', { body: ping, headers }), 401, AUTH_MESSAGES.missing);
    assertError(await t.request('POST', '/mcp', { key: 'parley_not-a-real-key-but-the-right-shape-0000000', body: ping, headers }), 401);
    assertError(await t.request('POST', '/mcp', { key: s.w.writeKey, body: ping, headers }), 403, AUTH_MESSAGES.scope);
    const widget = await expectStatus<{ key: string }>(t, 201, 'POST', `/v2/bots/${s.agentId}/widget-keys/public`, s.w.key, { name: 'Shop', allowedOrigins: ['https://shop.example'] });
    assertError(await t.request('POST', '/mcp', { key: widget.key, body: ping, headers }), 403, AUTH_MESSAGES.widgetScope);
    await assert.rejects(connect(widget.key), /403/);

    const pong = await t.request<{ jsonrpc: string; id: number; result: unknown }>('POST', '/mcp', { key: s.w.readKey, body: ping, headers });
    assert.deepEqual([pong.status, pong.body], [200, { jsonrpc: '2.0', id: 1, result: {} }]);
    assert.ok(pong.headers.get('x-request-id'));
    assert.equal(pong.headers.get('x-ratelimit-limit'), '1200');
    assertError(await t.request('POST', '/mcp', { key: s.w.readKey, body: { hello: 'world' }, headers }), 400);
    const notAcceptable = await t.request<{ error: { message: string } }>('POST', '/mcp', { key: s.w.readKey, body: ping, headers: { accept: 'application/json' } });
    assert.equal(notAcceptable.status, 406);
    assert.match(notAcceptable.body.error.message, /Not Acceptable/);

    for (const method of ['GET', 'DELETE']) {
      const res = await t.request(method, '/mcp', { key: s.w.readKey });
      assertError(res, 405, /stateless/);
      assert.equal(res.headers.get('allow'), 'POST');
    }
  });

  it('is tenant-bound: one key\'s client never sees another workspace\'s results', async () => {
    const client = await connect(other.w.readKey);
    const hits = (await callTool<{ results: { article: { id: string } }[] }>(client, 'search_knowledge', { query: 'Do you ship to Canada?' })).structured.results;
    assert.deepEqual(hits, [], 'the shipping article is the first workspace\'s');
    const result: CallResult = await client.callTool({ name: 'get_article', arguments: { id: shippingArticleId } });
    assert.equal(result.isError, true);
  });
});
