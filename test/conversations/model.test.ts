// Generate Answer with a configured model (the AI SDK against the fake OpenAI-compatible server):
// what the model receives (prompts, business rules, grounding articles), its structured answer,
// and the hand-over instead of a 500 when its output is malformed or it does not answer in time.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.js';
import { type FakeLlm, fakeModelEnv, promptOf, startFakeLlm, taskOf } from '../support/fake-llm.js';
import { expectStatus } from '../support/security.js';
import { type Event, metadataOf, say, type Setup, setupAgent, type Trace } from './support.js';

const PLAN = { reasoning: 'A question about passwords.', performKnowledgeSearch: true, intent: 'question', smallTalkReply: null, sentiment: 'neutral', angry: false };

describe('answers with a configured model', () => {
  let t: TestApp;
  let fake: FakeLlm;
  let s: Setup;
  before(async () => {
    fake = await startFakeLlm();
    t = await startTestApp({ env: fakeModelEnv(fake.url, 'sk-test-answers', { PARLEY_LLM_MAX_RETRIES: '0', PARLEY_ANSWER_STAGE_TIMEOUT_MS: '400' }) });
    s = await setupAgent(t);
    await expectStatus(t, 201, 'POST', '/v2/hc-rules/public', s.w.key, { type: 'business', name: 'No discounts', description: 'Never promise discounts or coupons.', botIds: [s.agentId] });
  });
  after(async () => {
    await t.close();
    await fake.close();
  });

  it('sends the prompts, business rules and grounding articles, and stores the structured answer', async () => {
    fake.reset();
    fake.setHandler((request) => {
      if (taskOf(request) === 'plan_answer') return { json: PLAN };
      if (taskOf(request) === 'generate_answer') {
        return { json: { answer: 'Click "Forgot password" on the sign-in page and follow the e-mail.', usedArticleIds: [s.articleIds[0]], handover: false, reason: null, confidence: 0.92, bestArticleId: s.articleIds[0], reasoning: 'The password article answers it.' } };
      }
      return undefined;
    });
    const [, reply] = (await say(t, s.w.key, { content: 'How can I reset my password?', botId: s.agentId })) as [Event, Event];
    assert.equal(reply.message, 'Click "Forgot password" on the sign-in page and follow the e-mail.');
    assert.deepEqual(reply.usedArticles.map((a) => a.id), [s.articleIds[0]]);
    assert.equal(reply.handover, false);
    const answerRequest = fake.requests.find((r) => taskOf(r) === 'generate_answer');
    assert.ok(answerRequest);
    const prompt = promptOf(answerRequest);
    assert.match(prompt, /Answer only from knowledge/);
    assert.match(prompt, /- No discounts: Never promise discounts or coupons\./);
    assert.match(prompt, new RegExp(`<article id="${s.articleIds[0]}">\\nTitle: How do I reset my password\\?`));
    assert.match(prompt, /The link expires after 24 hours\./);
    const trace = await expectStatus<Trace>(t, 200, 'GET', metadataOf(reply.id), s.w.readKey);
    assert.deepEqual(trace.generateAnswer.reasoning, [
      { name: 'answer', reasoning: 'The password article answers it.' },
      { name: 'No discounts', reasoning: 'Business rule applied to the answer: Never promise discounts or coupons.' },
    ]);
    assert.equal(trace.model.model, 'test-model');
    assert.ok(trace.model.usage.totalTokens > 0);
  });

  it("hands an angry customer over when the model's plan says so, after the answer, and asks for angry in the schema it sends", async () => {
    fake.reset();
    fake.setHandler((request) => {
      if (taskOf(request) === 'plan_answer') return { json: { ...PLAN, sentiment: 'negative', angry: true } };
      if (taskOf(request) === 'generate_answer') {
        return { json: { answer: 'Click "Forgot password" on the sign-in page.', usedArticleIds: [s.articleIds[0]], handover: false, reason: null, confidence: 0.9, bestArticleId: s.articleIds[0], reasoning: 'x' } };
      }
      return undefined;
    });
    const [, reply] = (await say(t, s.w.key, { content: 'HOW DO I RESET MY PASSWORD?? third time I ask, this is useless', botId: s.agentId })) as [Event, Event];
    assert.deepEqual([reply.handover, reply.escalationReason], [true, 'negative_sentiment']);
    assert.match(reply.message, /^Click "Forgot password" on the sign-in page\.\n\nI'm sorry about this/);
    // The plan's schema, as the model receives it, requires angry (strict structured output).
    const plan = fake.requests.find((r) => taskOf(r) === 'plan_answer')!;
    const schema = (plan.body.response_format as { json_schema: { schema: { required: string[] } } }).json_schema.schema;
    assert.ok(schema.required.includes('angry'));
  });

  it('drops article ids the model made up', async () => {
    fake.reset();
    fake.setHandler((request) =>
      taskOf(request) === 'plan_answer' ? { json: PLAN } : { json: { answer: 'Use the sign-in page.', usedArticleIds: ['made-up', s.articleIds[0]], handover: false, reason: null, confidence: 0.8, bestArticleId: null, reasoning: 'x' } },
    );
    const [, reply] = (await say(t, s.w.key, { content: 'How can I reset my password?', botId: s.agentId })) as [Event, Event];
    assert.deepEqual(reply.usedArticles.map((a) => a.id), [s.articleIds[0]]);
  });

  it('hands over with low_confidence when the model answers malformed output', async () => {
    fake.reset();
    fake.setHandler((request) => (taskOf(request) === 'plan_answer' ? { json: PLAN } : { text: '{"answer": 42' }));
    const res = await t.request<Event[]>('POST', '/v2/hc-interactions/events/public', { key: s.w.key, body: { content: 'How can I reset my password?', botId: s.agentId } });
    assert.equal(res.status, 200, res.text);
    const reply = res.body[1]!;
    assert.deepEqual([reply.handover, reply.escalationReason], [true, 'low_confidence']);
    const trace = await expectStatus<Trace>(t, 200, 'GET', metadataOf(reply.id), s.w.readKey);
    assert.equal(trace.errors[0].stage, 'generateAnswer');
  });

  it('hands over with tool_failure when the model does not answer in time, and plans without a failed planning call', async () => {
    fake.reset();
    fake.setHandler((request) => (taskOf(request) === 'plan_answer' ? { status: 500 } : { json: { answer: 'late', usedArticleIds: [], handover: false, reason: null, confidence: 1, bestArticleId: null, reasoning: 'x' }, delayMs: 2_000 }));
    const [, reply] = (await say(t, s.w.key, { content: 'How can I reset my password?', botId: s.agentId })) as [Event, Event];
    assert.deepEqual([reply.handover, reply.escalationReason], [true, 'tool_failure']);
    const trace = await expectStatus<Trace>(t, 200, 'GET', metadataOf(reply.id), s.w.readKey);
    assert.deepEqual(trace.errors.map((e: { stage: string }) => e.stage), ['planning', 'generateAnswer']);
    assert.equal(trace.planning.performKnowledgeSearch, true);
  });
});
