// On PostgreSQL: two `parley serve --no-worker` processes on one database; a person's reply posted
// to one reaches a visitor streaming from the other (each stream reads the database).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backend } from '../support/database.js';
import { freePort, type Proc, processTestEnv, runCli, spawnScript, stop } from '../support/processes.js';
import { ORIGIN, openStream, type SseMessage, type Started, type VisitorEvent, type WidgetKey } from './support.js';

async function call<T>(base: string, method: string, path: string, options: { key: string; body?: unknown; headers?: Record<string, string> }): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${options.key}`, ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const text = await response.text();
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

describe('visitor streams across API processes', { skip: backend !== 'postgres' && 'PGlite is one process', timeout: 240_000 }, () => {
  let env: Record<string, string | undefined>;
  let cleanup: () => Promise<void>;
  before(async () => {
    ({ env, cleanup } = await processTestEnv('parley-widget-proc-', { PARLEY_WIDGET_STREAM_POLL_MS: '100' }));
  });
  after(() => cleanup());

  it("delivers a person's reply posted to one process to a visitor streaming from the other", async () => {
    const ports = [await freePort(), await freePort()];
    const apis: Proc[] = ports.map((port) => spawnScript('src/main.ts', ['serve', '--no-worker', '--port', String(port)], env));
    const [one, two] = ports.map((port) => `http://127.0.0.1:${port}`) as [string, string];
    try {
      for (const api of apis) await api.waitForOutput(/Server listening/);
      const workspace = JSON.parse((await runCli(['workspace', 'create', '--name', 'widget', '--json'], env)).output) as { id: string };
      const { key } = JSON.parse((await runCli(['key', 'create', '--workspace', workspace.id, '--scopes', 'read,write', '--json'], env)).output) as { key: string };
      const agent = await call<{ id: string }>(one, 'POST', '/v2/bots/public', { key, body: { name: 'Support' } });
      const widget = await call<WidgetKey>(one, 'POST', `/v2/bots/${agent.id}/widget-keys/public`, { key, body: { name: 'Shop', allowedOrigins: [ORIGIN] } });
      const visitor = { key: widget.key, headers: { origin: ORIGIN } };
      const c = await call<Started>(one, 'POST', '/v2/widget/conversations', { ...visitor, body: {} });
      const sent = await call<VisitorEvent[]>(one, 'POST', `/v2/widget/conversations/${c.conversationId}/messages`, {
        ...visitor, headers: { ...visitor.headers, 'x-visitor-token': c.visitorToken }, body: { content: 'human please' },
      });
      assert.equal(sent[1]!.handover, true);

      const stream = await openStream(`${two}/v2/widget/conversations/${c.conversationId}/stream?widgetKey=${widget.key}&visitorToken=${c.visitorToken}`, { origin: ORIGIN });
      try {
        await stream.next((m: SseMessage) => m.event === 'status' && (m.data as { humanTakeover: boolean }).humanTakeover);
        const reply = await call<{ id: string }[]>(one, 'POST', '/v2/hc-interactions/events/public', { key, body: { interactionId: c.conversationId, role: 'agent', content: 'Hi, Sam from the other process.' } });
        const streamed = await stream.next((m) => m.event === 'event' && (m.data as VisitorEvent).role === 'agent');
        assert.deepEqual([streamed.id, (streamed.data as VisitorEvent).message], [reply[0]!.id, 'Hi, Sam from the other process.']);
      } finally {
        stream.close();
      }
    } finally {
      for (const api of apis) assert.equal(await stop(api), 0);
    }
  });
});
