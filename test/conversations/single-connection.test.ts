// The answer pipeline on one connection: a widget visitor's first message is answered on the
// connection that holds the conversation's lock (db/key-locks.ts), where node-postgres must never
// be given a second query while one runs (deprecated, an error from pg@9). Every query sent to a
// PostgreSQL client that is already busy is recorded, as is pg's DeprecationWarning; on PGlite the
// same answers are checked, and nothing can be recorded.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startTestApp, type TestApp } from '../support/app.js';
import { type FakeApi, startFakeApi } from '../support/fake-api.js';
import { expectStatus } from '../support/security.js';
import { createKey, send, start, type VisitorEvent, type WidgetKey } from '../widget/support.js';
import { metadataOf, type Setup, setupAgent, type Trace } from './support.js';

/** The statements sent to a pg client while it was running or queueing another. */
const overlaps: string[] = [];
const warnings: string[] = [];
const query = pg.Client.prototype.query;
const busy = (client: pg.Client) => {
  const state = client as unknown as { _activeQuery: unknown; _queryQueue: unknown[] };
  return Boolean(state._activeQuery) || state._queryQueue.length > 0;
};
const onWarning = (warning: Error) => {
  if (warning.name === 'DeprecationWarning' && warning.message.includes('client.query()')) warnings.push(warning.message);
};

describe('the answer pipeline on one connection', () => {
  let t: TestApp;
  let api: FakeApi;
  let s: Setup;
  let widget: WidgetKey;
  before(async () => {
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      if (busy(this)) overlaps.push(String(typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text).slice(0, 200));
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    process.on('warning', onWarning);
    api = await startFakeApi();
    t = await startTestApp({ env: { PARLEY_FETCH_ALLOW_PRIVATE: 'true' } });
    s = await setupAgent(t);
    widget = await createKey(t, s.w.key, s.agentId);
    // Two attributes: their runs go at once, so what they read must be read before.
    for (const name of ['profile', 'account']) {
      const id = (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/hc-tools/public', s.w.key, { name, alwaysGet: true })).id;
      await expectStatus(t, 200, 'PATCH', `/v2/hc-tools/${id}/public`, s.w.key, { inputFields: [{ name: 'customerId', type: 'string', required: true }], outputFields: [{ name: 'plan', type: 'string' }] });
      await expectStatus(t, 201, 'POST', '/v2/api-function-configs/public', s.w.key, { toolId: id, name: 'customer', requestMethod: 'GET', requestUrl: `${api.url}/customers/\${customerId}`, responseMapping: { plan: 'plan' } });
      await expectStatus(t, 200, 'POST', `/v2/hc-tools/${id}/assign/public`, s.w.key, { botIds: [s.agentId], action: 'ADD' });
    }
  });
  after(async () => {
    pg.Client.prototype.query = query;
    process.off('warning', onWarning);
    await t.close();
    await api.close();
  });

  it('answers first messages, several at once, without a second query on a busy client', async () => {
    const visitors = await Promise.all([1, 2, 3].map(() => start(t, widget.key, { userAttributes: { customerId: 'c_42' } })));
    const replies = await Promise.all(visitors.map((c) => send(t, widget.key, c, 'How do I reset my password?')));
    for (const events of replies) {
      const reply = events[1] as VisitorEvent;
      assert.match(reply.message, /Forgot password/);
      const trace = await expectStatus<Trace>(t, 200, 'GET', metadataOf(reply.id), s.w.readKey);
      assert.deepEqual(trace.executedUserAttributes.map((a: { name: string; success: boolean; extractedData: unknown }) => [a.name, a.success, a.extractedData]), [
        ['profile', true, { plan: 'pro' }],
        ['account', true, { plan: 'pro' }],
      ]);
    }
    // Let a warning emitted on the last request reach its listener.
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(overlaps, []);
    assert.deepEqual(warnings, []);
  });
});
