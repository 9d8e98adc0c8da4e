// `parley mcp`: the MCP server on stdio, spawned as a child process by the SDK's own client, as an
// assistant starts it. While `parley serve` runs on the data folder (PGlite: one process per folder)
// it relays to the server's POST /mcp; on PostgreSQL, or with no server, it opens the database itself
// and works the job queue, so propose_fix's iteration runs in it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AUTH_MESSAGES } from '../../src/http/errors.js';
import { KB } from '../conversations/support.js';
import { backend } from '../support/database.js';
import { poll } from '../support/poll.js';
import { TEST_ADMIN_TOKEN } from '../support/app.js';
import { freePort, type Proc, processTestEnv, reportViolations, runCli, scriptCommand, spawnScript, stop } from '../support/processes.js';
import { callTool, expectToolError, markdownOf, type ProposeFixResult, TOOL_NAMES } from './support.js';

/** How long a spawned process may take to start (tsx, migrations) before the test gives up on it. */
const STARTUP_MS = 180_000;

interface McpProcess {
  client: Client;
  stderr(): string;
}

/** `parley mcp` started by the SDK's stdio transport, with PARLEY_API_KEY = key. */
async function startMcp(env: Record<string, string | undefined>, key: string): Promise<McpProcess> {
  const transport = new StdioClientTransport({ ...scriptCommand('src/main.ts', ['mcp'], { ...env, PARLEY_API_KEY: key }), stderr: 'pipe' });
  let text = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    reportViolations('parley mcp', chunk.toString('utf8'));
  });
  const client = new Client({ name: 'parley-test', version: '1.0.0' });
  try {
    // The process loads the whole app under tsx first: on a busy machine that alone can take a minute.
    await client.connect(transport, { timeout: STARTUP_MS });
  } catch (error) {
    throw new Error(`parley mcp did not start: ${String(error)}\n${text}`);
  }
  return { client, stderr: () => text };
}

async function call<T>(base: string, method: string, path: string, key: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

describe('MCP over stdio (parley mcp)', { timeout: 900_000 }, () => {
  let env: Record<string, string | undefined>;
  let cleanup: () => Promise<void>;
  let server: Proc | undefined;
  let key: string;
  let readKey: string;
  let otherKey: string;
  let agentId: string;
  let widgetKey: string;
  const articleIds: string[] = [];

  before(async () => {
    ({ env, cleanup } = await processTestEnv('parley-mcp-', { PARLEY_MCP_FIX_WAIT_SECONDS: '0', PARLEY_ADMIN_TOKEN: TEST_ADMIN_TOKEN }));
    const port = await freePort();
    server = spawnScript('src/main.ts', ['serve', '--port', String(port)], env);
    await server.waitForOutput(/Server listening/, STARTUP_MS);
    const base = `http://127.0.0.1:${port}`;
    // Workspaces and keys through the admin API (the operator's token), the rest with the key.
    const tenant = async (name: string, scopes: string[][]) => {
      const workspace = await call<{ id: string }>(base, 'POST', '/v2/admin/workspaces', TEST_ADMIN_TOKEN, { name });
      const keys: string[] = [];
      for (const scope of scopes) keys.push((await call<{ key: string }>(base, 'POST', `/v2/admin/workspaces/${workspace.id}/api-keys`, TEST_ADMIN_TOKEN, { scopes: scope })).key);
      return keys;
    };
    [key, readKey] = (await tenant('mcp', [['read', 'write'], ['read']])) as [string, string];
    [otherKey] = (await tenant('other', [['read', 'write']])) as [string];

    agentId = (await call<{ id: string }>(base, 'POST', '/v2/bots/public', key, { name: 'Support' })).id;
    widgetKey = (await call<{ key: string }>(base, 'POST', `/v2/bots/${agentId}/widget-keys/public`, key, { name: 'Shop', allowedOrigins: ['https://shop.example'] })).key;
    const folderId = (await call<{ id: string }>(base, 'POST', '/v2/hc-folders/public', key, { title: 'Help center', description: '' })).id;
    await call(base, 'POST', '/v2/hc-bot-folder-junctions/public', key, { junctions: [{ folderId, botId: agentId, action: 'ADD' }] });
    for (const article of KB) {
      const body = { ...article, agentInstruction: '', questions: [], keywords: [], escalation: false, parentFolderId: folderId };
      articleIds.push((await call<{ id: string }>(base, 'POST', '/v2/hc-articles/public', key, body)).id);
    }
  });
  after(async () => {
    if (server) await stop(server);
    await cleanup();
  });

  it(`serves the tools while parley serve runs (${backend === 'pglite' ? 'relayed to its POST /mcp' : 'on the database'})`, async () => {
    const mcp = await startMcp(env, readKey);
    try {
      assert.match(mcp.stderr(), backend === 'pglite' ? /relayed to the running server/ : /"msg":"MCP over stdio"/);
      assert.deepEqual((await mcp.client.listTools()).tools.map((t) => t.name).sort(), [...TOOL_NAMES].sort());
      const hits = (await callTool<{ results: { article: { id: string } }[] }>(mcp.client, 'search_knowledge', { query: 'refund an annual plan', botId: agentId })).structured.results;
      assert.equal(hits[0]?.article.id, articleIds[1]);
      assert.equal(await markdownOf(mcp.client, articleIds[0]!), `# ${KB[0]!.title}\n\n${KB[0]!.mainKnowledge}\n`);
      await expectToolError(mcp.client, 'ask_agent', { botId: agentId, message: 'How do I reset my password?' }, AUTH_MESSAGES.scope);
      await expectToolError(mcp.client, 'create_article_draft', { articleId: articleIds[0], mainKnowledge: 'x' }, AUTH_MESSAGES.scope);
    } finally {
      await mcp.client.close();
    }
    const others = await startMcp(env, otherKey);
    try {
      await expectToolError(others.client, 'get_article', { id: articleIds[0] }, 'article not found');
      assert.deepEqual((await callTool<{ results: unknown[] }>(others.client, 'search_knowledge', { query: 'refund an annual plan' })).structured.results, []);
    } finally {
      await others.client.close();
    }
  });

  it('refuses to start with an unknown key or a widget key, with the API\'s message', async () => {
    const unknown = await runCli(['mcp'], { ...env, PARLEY_API_KEY: 'parley_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    assert.equal(unknown.code, 1);
    assert.ok(unknown.output.includes(`parley: PARLEY_API_KEY: ${AUTH_MESSAGES.invalid}\n`), unknown.output);
    const widget = await runCli(['mcp'], { ...env, PARLEY_API_KEY: widgetKey });
    assert.equal(widget.code, 1);
    assert.ok(widget.output.includes(`parley: PARLEY_API_KEY: ${AUTH_MESSAGES.widgetScope}\n`), widget.output);
  });

  it('opens the database itself when no server runs: ask_agent, then propose_fix\'s iteration runs in it and is polled as a resource', async () => {
    if (server) assert.equal(await stop(server), 0);
    server = undefined;
    const mcp = await startMcp(env, key);
    try {
      assert.match(mcp.stderr(), /"msg":"MCP over stdio"/);
      const asked = (await callTool<{ replyEventId: string; conversationId: string; handover: boolean; citedArticles: { id: string }[] }>(mcp.client, 'ask_agent', { botId: agentId, message: 'How can I reset my password?' })).structured;
      assert.deepEqual([asked.handover, asked.citedArticles.map((a) => a.id)], [false, [articleIds[0]]]);
      const listed = (await callTool<{ interactions: { id: string }[] }>(mcp.client, 'list_conversations', { botId: agentId })).structured.interactions;
      assert.deepEqual(listed.map((c) => c.id), [asked.conversationId]);

      // PARLEY_MCP_FIX_WAIT_SECONDS=0: the tool answers at once with what to poll.
      const queued = (await callTool<ProposeFixResult>(mcp.client, 'propose_fix', { eventId: asked.replyEventId, feedback: 'Also say the link expires after 24 hours.' })).structured;
      assert.deepEqual([queued.finished, queued.status, queued.session.latestIteration?.id], [false, 'queued', queued.iterationId]);
      const ended = await poll(
        async () => {
          const { contents } = await mcp.client.readResource({ uri: queued.poll.resource });
          const [content] = contents;
          return content && 'text' in content ? (JSON.parse(content.text) as ProposeFixResult['session']) : undefined;
        },
        (session) => ['ready', 'no_change', 'failed'].includes(session?.latestIteration?.status ?? ''),
        { what: `iteration ${queued.iterationId} to end in the parley mcp process`, timeoutMs: 60_000, intervalMs: 250 },
      );
      assert.ok(['ready', 'no_change'].includes(ended?.latestIteration?.status ?? ''), JSON.stringify(ended?.latestIteration));
    } finally {
      await mcp.client.close();
    }
    // The client closed stdin: the process stopped by itself, gracefully, and released the data folder.
    await poll(() => mcp.stderr(), (text) => /"msg":"stopped"/.test(text), { what: 'parley mcp to stop', timeoutMs: 30_000 });
  });
});
