// Rules with a configured model (the AI SDK path against the fake OpenAI-compatible server): the
// draft, refine and match tasks go out with their schema, and a bad answer is a 502.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { type FakeLlm, fakeModelEnv, startFakeLlm } from '../support/fake-llm.js';
import { assertError, expectStatus } from '../support/security.js';
import { draftPath, refinePath, type Rule, testPath } from './support.js';

const flat = (id: string, over: Record<string, unknown>) => ({
  id,
  type: 'message',
  message: null,
  field: null,
  question: null,
  dataType: null,
  required: null,
  conditions: null,
  toolId: null,
  inputs: null,
  tagIds: null,
  reason: null,
  next: null,
  then: null,
  else: null,
  onSuccess: null,
  onFailure: null,
  ...over,
});

describe('rules with a configured model', () => {
  let t: TestApp;
  let fake: FakeLlm;
  let w: Tenant;
  before(async () => {
    fake = await startFakeLlm();
    t = await startTestApp({ env: fakeModelEnv(fake.url, 'sk-test-rules') });
    w = await makeTenant(t);
  });
  after(async () => {
    await t.close();
    await fake.close();
  });

  it('drafts through the model with the task schema and builds the tree from its flat nodes', async () => {
    fake.reset();
    fake.enqueue({
      json: {
        name: 'Order status',
        description: 'The customer asks where their order is',
        rootId: 'ask',
        nodes: [
          flat('ask', { type: 'collect', field: 'orderNumber', question: 'What is your order number?', dataType: 'string', required: true, next: 'say' }),
          flat('say', { message: 'Checking ${rule.orderNumber}.' }),
        ],
        warnings: [],
      },
    });
    const rule = await expectStatus<Rule>(t, 201, 'POST', draftPath, w.key, { behaviorInstructions: 'Ask for the order number, then say you are checking it.' });
    assert.equal(rule.name, 'Order status');
    assert.deepEqual(rule.flowConfig, {
      id: 'ask',
      type: 'collect',
      field: 'orderNumber',
      question: 'What is your order number?',
      dataType: 'string',
      required: true,
      next: { id: 'say', type: 'message', message: 'Checking ${rule.orderNumber}.' },
    });
    const request = fake.requests[0]!;
    assert.equal(request.endpoint, 'chat');
    const format = request.body.response_format as { type: string; json_schema: { name: string } };
    assert.equal(format.type, 'json_schema');
    assert.equal(format.json_schema.name, 'draft_rule');
    assert.match(JSON.stringify(request.body.messages), /Ask for the order number, then say you are checking it\./);

    fake.enqueue({
      json: { name: 'Order status', description: 'The customer asks where their order is', rootId: 'say', nodes: [flat('say', { message: 'One moment.' })], warnings: [] },
    });
    const refined = await expectStatus<Rule>(t, 200, 'POST', refinePath(rule.id), w.key, { refinementInstructions: 'Do not ask anything.' });
    assert.deepEqual(refined.flowConfig, { id: 'say', type: 'message', message: 'One moment.' });
    assert.match(JSON.stringify(fake.requests[1]!.body.messages), /Do not ask anything\./);
  });

  it('answers 502 for a flow that is not a tree, an invalid flow, or a failing model, and stores nothing', async () => {
    fake.reset();
    const before = (await expectStatus<Rule[]>(t, 200, 'GET', '/v2/hc-rules/public?isDraft=true', w.key)).length;
    fake.enqueue({ json: { name: 'x', description: 'y', rootId: 'a', nodes: [flat('a', { message: 'hi', next: 'b' })], warnings: [] } });
    assertError(await t.request('POST', draftPath, { key: w.key, body: { behaviorInstructions: 'Say hi.' } }), 502, 'the drafted flow is not a tree: node "b" is named as a child but not listed');
    fake.enqueue({ json: { name: 'x', description: 'y', rootId: 'a', nodes: [flat('a', { type: 'tool', toolId: '00000000-0000-4000-8000-000000000000', inputs: [] })], warnings: [] } });
    assertError(await t.request('POST', draftPath, { key: w.key, body: { behaviorInstructions: 'Look it up.' } }), 502, /names something that does not exist: flowConfig\.toolId: action/);
    fake.enqueue({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    const failed = await t.request('POST', draftPath, { key: w.key, body: { behaviorInstructions: 'Say hi.' } });
    assert.equal(failed.status, 502);
    assert.equal((await expectStatus<Rule[]>(t, 200, 'GET', '/v2/hc-rules/public?isDraft=true', w.key)).length, before);
  });

  it('scores the trigger with the model', async () => {
    fake.reset();
    const rule = await expectStatus<Rule>(t, 201, 'POST', '/v2/hc-rules/public', w.key, { name: 'Refunds', description: 'Refund requests', flowConfig: { type: 'message', message: 'Sure.' } });
    fake.enqueue({ json: { matches: [{ ruleId: rule.id, score: 0.91, reason: 'asks for money back' }] } });
    const result = await expectStatus<{ trigger: { matched: boolean; score: number; reason: string } }>(t, 200, 'POST', testPath(rule.id), w.key, { message: 'I want my money back' });
    assert.deepEqual(result.trigger, { matched: true, score: 0.91, reason: 'asks for money back' });
    assert.equal((fake.requests[0]!.body.response_format as { json_schema: { name: string } }).json_schema.name, 'match_rules');
  });
});
