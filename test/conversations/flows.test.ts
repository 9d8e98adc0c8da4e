// The agent running a team's rules and actions: an attribute fetched every message, a multi-turn
// collect flow that calls an action on a fake customer API and answers with its output, and the
// hand-over when the action fails.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.js';
import { type FakeApi, startFakeApi } from '../support/fake-api.js';
import { expectStatus } from '../support/security.js';
import { type Event, type Interaction, interaction, metadataOf, say, type Setup, setupAgent, type Trace } from './support.js';

describe('rules and actions in conversations', () => {
  let t: TestApp;
  let api: FakeApi;
  let s: Setup;
  let ruleId: string;
  before(async () => {
    api = await startFakeApi();
    t = await startTestApp({ env: { PARLEY_FETCH_ALLOW_PRIVATE: 'true', PARLEY_ACTION_TIMEOUT_MS: '1000' } });
    s = await setupAgent(t);
    const ok = <T>(status: number, method: string, path: string, body?: unknown) => expectStatus<T>(t, status, method, path, s.w.key, body);
    const lookup = (await ok<{ id: string }>(201, 'POST', '/v2/hc-tools/public', { name: 'orderLookup', description: 'Finds an order by number' })).id;
    await ok(200, 'PATCH', `/v2/hc-tools/${lookup}/public`, { inputFields: [{ name: 'orderNumber', type: 'string', required: true }], outputFields: [{ name: 'status', type: 'string' }] });
    await ok(201, 'POST', '/v2/api-function-configs/public', { toolId: lookup, name: 'order', requestMethod: 'GET', requestUrl: `${api.url}/orders/\${orderNumber}`, responseMapping: { status: 'data.status' } });
    const profile = (await ok<{ id: string }>(201, 'POST', '/v2/hc-tools/public', { name: 'profile', alwaysGet: true })).id;
    await ok(200, 'PATCH', `/v2/hc-tools/${profile}/public`, { inputFields: [{ name: 'customerId', type: 'string', required: true }], outputFields: [{ name: 'name', type: 'string' }, { name: 'plan', type: 'string' }] });
    await ok(201, 'POST', '/v2/api-function-configs/public', { toolId: profile, name: 'customer', requestMethod: 'GET', requestUrl: `${api.url}/customers/\${customerId}`, responseMapping: { name: 'name', plan: 'plan' } });
    await ok(200, 'POST', `/v2/hc-tools/${profile}/assign/public`, { botIds: [s.agentId], action: 'ADD' });
    ruleId = (
      await ok<{ id: string }>(201, 'POST', '/v2/hc-rules/public', {
        name: 'Order status',
        description: 'The customer asks where their order is or about its shipping status',
        botIds: [s.agentId],
        flowConfig: {
          type: 'collect',
          field: 'orderNumber',
          question: 'What is your order number?',
          dataType: 'string',
          required: true,
          next: {
            type: 'tool',
            toolId: lookup,
            inputs: { orderNumber: '${rule.orderNumber}' },
            onSuccess: { type: 'message', message: 'Your order ${rule.orderNumber} is ${rule.orderLookup.status}, ${attributes.profile.name}.' },
            onFailure: { type: 'escalate', reason: 'tool_failure', message: 'I could not find that order; a colleague will look into it.' },
          },
        },
      })
    ).id;
  });
  after(async () => {
    await t.close();
    await api.close();
  });

  it('asks for the order number, calls the action with it on the next message, and answers with its output', async () => {
    const [, ask] = (await say(t, s.w.key, { content: 'Where is my order?', botId: s.agentId, metadata: { user_attributes: { customerId: 'c_42' } } })) as [Event, Event];
    assert.equal(ask.message, 'What is your order number?');
    let trace = await expectStatus<Trace>(t, 200, 'GET', metadataOf(ask.id), s.w.readKey);
    assert.deepEqual([trace.executedRules.ruleId, trace.executedRules.ruleName], [ruleId, 'Order status']);
    assert.deepEqual(trace.executedRules.results.map((r: { type: string; success: boolean }) => [r.type, r.success]), [['COLLECT', true]]);
    assert.deepEqual(trace.executedUserAttributes.map((a: { name: string; success: boolean; extractedData: unknown }) => [a.name, a.success, a.extractedData]), [['profile', true, { name: 'Ada Lovelace', plan: 'pro' }]]);
    assert.equal(trace.planning.performKnowledgeSearch, false);
    assert.match(trace.planning.reasoning, /triggers the rule "Order status"/);

    const [, answer] = (await say(t, s.w.key, { content: 'A-1001', interactionId: ask.interactionId })) as [Event, Event];
    assert.equal(answer.message, 'Your order A-1001 is shipped, Ada Lovelace.');
    assert.ok(api.requests.some((r) => r.method === 'GET' && r.path === '/orders/A-1001'));
    trace = await expectStatus<Trace>(t, 200, 'GET', metadataOf(answer.id), s.w.readKey);
    assert.deepEqual(trace.executedRules.results.map((r: { type: string }) => r.type), ['COLLECT', 'TOOL', 'MESSAGE']);
    assert.match(trace.planning.reasoning, /waits for the customer's answer/);
    const conv = await expectStatus<Interaction>(t, 200, 'GET', interaction(ask.interactionId), s.w.readKey);
    assert.equal(conv.status, 'Waiting for Customer');

    // The flow is over: the next question is answered from knowledge again.
    const [, next] = (await say(t, s.w.key, { content: 'How do I reset my password?', interactionId: ask.interactionId })) as [Event, Event];
    assert.equal(next.usedArticles[0]?.id, s.articleIds[0]);
  });

  it('counts the rule in analytics: conversations, resolutions, escalations and ratings', async () => {
    const [, ask] = (await say(t, s.w.key, { content: 'Where is my order?', botId: s.agentId })) as [Event, Event];
    const [, answer] = (await say(t, s.w.key, { content: 'A-1002', interactionId: ask.interactionId })) as [Event, Event];
    await expectStatus(t, 200, 'POST', `/v2/hc-events/${answer.id}/feedback/public`, s.w.key, { csatRating: 4, resolved: true });
    const now = Math.floor(Date.now() / 1000);
    const a = await expectStatus<{ ruleAnalytics: { ruleId: string; ruleName: string; conversations: number; resolved: number; escalated: number; averageCsatRating: number }[] }>(
      t, 200, 'GET', `/v2/bots/${s.agentId}/hc-analytics/public?startEpoch=${now - 3600}&endEpoch=${now + 3600}&ruleIds=${ruleId}`, s.w.readKey,
    );
    const row = a.ruleAnalytics.find((r) => r.ruleId === ruleId);
    assert.ok(row);
    assert.equal(row.ruleName, 'Order status');
    // The first test's conversation (waiting) and this one (resolved by feedback).
    assert.deepEqual([row.conversations, row.resolved, row.escalated, row.averageCsatRating], [2, 1, 0, 4]);
  });

  it('hands over with the flow escalation when the action fails', async () => {
    const [, ask] = (await say(t, s.w.key, { content: 'Where is my order?', botId: s.agentId })) as [Event, Event];
    const [, reply] = (await say(t, s.w.key, { content: 'missing', interactionId: ask.interactionId })) as [Event, Event];
    assert.deepEqual([reply.handover, reply.escalationReason, reply.message], [true, 'tool_failure', 'I could not find that order; a colleague will look into it.']);
    const trace = await expectStatus<Trace>(t, 200, 'GET', metadataOf(reply.id), s.w.readKey);
    assert.deepEqual(trace.executedRules.results.map((r: { type: string; success: boolean }) => [r.type, r.success]), [['COLLECT', true], ['TOOL', false], ['ESCALATE', true]]);
    assert.deepEqual(trace.executedUserAttributes.map((a: { success: boolean }) => a.success), [false]);
    assert.ok(trace.errors.some((e: { stage: string }) => e.stage === 'attributes'));
  });
});
