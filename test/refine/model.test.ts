// Refine with AI with a configured model (the AI SDK against the fake OpenAI-compatible server): what
// the diagnosis receives, its structured changes made into drafts and replayed, and a failed
// iteration with the reason when the model's output is malformed or names an article it was not shown.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Event, say, type Setup, setupAgent } from '../conversations/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { type FakeLlm, type FakeLlmRequest, fakeModelEnv, promptOf, startFakeLlm, taskOf } from '../support/fake-llm.js';
import { poll } from '../support/poll.js';
import { expectStatus } from '../support/security.js';
import { SHIPPING_DIAGNOSIS } from './support.js';

const PLAN = { reasoning: 'A question.', performKnowledgeSearch: true, intent: 'question', smallTalkReply: null, sentiment: 'neutral', angry: false };

interface Iteration { id: string; status: string; error: string | null; summary: string | null; confidence: string | null; newAnswerSnapshot: { content: string | null } | null; changes: { changeType: string; draftArticleId: string | null; rootCause: { failureStage: string; failureMode: string; target: Record<string, unknown> } }[] }

describe('Refine with AI with a configured model', () => {
  let t: TestApp;
  let fake: FakeLlm;
  let s: Setup;
  let answerText = 'I am not sure; a colleague will follow up.';
  before(async () => {
    fake = await startFakeLlm();
    t = await startTestApp({ work: true, env: fakeModelEnv(fake.url, 'sk-test-refine', { PARLEY_LLM_MAX_RETRIES: '0' }) });
    s = await setupAgent(t);
  });
  after(async () => {
    await t.close();
    await fake.close();
  });

  const answering = (diagnosis: (request: FakeLlmRequest) => { json: unknown } | { text: string }) =>
    fake.setHandler((request) => {
      const task = taskOf(request);
      if (task === 'plan_answer') return { json: PLAN };
      if (task === 'generate_answer') return { json: { answer: answerText, usedArticleIds: [], handover: false, reason: null, confidence: 0.9, bestArticleId: null, reasoning: 'x' } };
      if (task === 'diagnose_answer') return diagnosis(request);
      return undefined;
    });
  const refine = async (reply: Event, feedbackNote: string) => {
    const { iterationId } = await expectStatus<{ iterationId: string }>(t, 200, 'POST', `/v2/fix-review/interactions/${reply.interactionId}/events/${reply.id}/sessions/iterations/public`, s.w.key, { feedbackNote });
    const session = await poll(
      () => {
        t.wakeWorkers('refine.iterate');
        return expectStatus<{ latestIteration: Iteration | null } | null>(t, 200, 'GET', `/v2/fix-review/interactions/${reply.interactionId}/events/${reply.id}/session/public`, s.w.readKey);
      },
      (x) => x?.latestIteration?.id === iterationId && ['ready', 'no_change', 'failed'].includes(x.latestIteration.status),
      { what: `iteration ${iterationId}`, timeoutMs: 30_000, intervalMs: 100 },
    );
    return session!.latestIteration!;
  };

  it('sends the reply, the feedback, the rules and the articles, and drafts and replays its changes', async () => {
    fake.reset();
    answerText = 'I am not sure; a colleague will follow up.';
    answering(() => ({ json: SHIPPING_DIAGNOSIS }));
    const [, reply] = (await say(t, s.w.key, { content: 'Do you ship to Canada?', botId: s.agentId })) as [Event, Event];
    answerText = 'Yes, we ship to Canada within 5 business days.';
    const iteration = await refine(reply, 'It should say we ship to Canada within 5 business days.');
    assert.equal(iteration.status, 'ready', iteration.error ?? '');
    assert.deepEqual([iteration.summary, iteration.confidence], ['Add the shipping article.', 'high']);
    assert.deepEqual(iteration.changes.map((c) => [c.changeType, c.rootCause.failureMode, c.rootCause.target]), [
      ['create_article', 'relevant_knowledge_not_available', { kind: 'kb_article', operation: 'create' }],
    ]);
    const [draft] = await expectStatus<{ title: string; isDraft: boolean; origin: string }[]>(t, 200, 'POST', '/v2/hc-articles/ids/public', s.w.readKey, { articleIds: [iteration.changes[0]!.draftArticleId] });
    assert.deepEqual([draft?.title, draft?.isDraft, draft?.origin], ['Shipping to Canada', true, 'FIX_REVIEW']);
    assert.equal(iteration.newAnswerSnapshot?.content, 'Yes, we ship to Canada within 5 business days.');

    const request = fake.requests.find((r) => taskOf(r) === 'diagnose_answer');
    assert.ok(request);
    const prompt = promptOf(request);
    assert.match(prompt, /Customer message:\nDo you ship to Canada\?/);
    assert.match(prompt, /Agent answer \(a hand-over: missing_knowledge\):\nI am not sure; a colleague will follow up\./);
    assert.match(prompt, /Feedback from the support lead:\nIt should say we ship to Canada within 5 business days\./);
    assert.match(prompt, /<article id="[0-9a-f-]{36}">/);
    // The replay asked the model again, with the draft among the articles it could use.
    const answers = fake.requests.filter((r) => taskOf(r) === 'generate_answer');
    assert.match(promptOf(answers.at(-1)!), /We ship to Canada within 5 business days\./);
  });

  it('fails the iteration with the reason when the output is malformed or names an article it was not shown', async () => {
    fake.reset();
    answering(() => ({ text: '{"summary": 42' }));
    const [, reply] = (await say(t, s.w.key, { content: 'Do you ship to Mexico?', botId: s.agentId })) as [Event, Event];
    const broken = await refine(reply, 'It should say we ship to Mexico.');
    assert.equal(broken.status, 'failed');
    assert.equal(broken.error, 'the model\'s answer is not valid JSON: "{\\"summary\\": 42"');
    assert.deepEqual(broken.changes, []);

    answering(() => ({
      json: {
        summary: 'Fix it.',
        confidence: 'low',
        changes: [
          {
            rootCause: { failureStage: 'knowledge_content', failureMode: 'incorrect_knowledge', reasoning: 'x', target: { kind: 'kb_article', operation: 'update', promptType: null, articleId: '00000000-0000-4000-8000-000000000000', articleFields: null, ruleId: null } },
            changeType: 'update_article',
            promptSection: null,
            article: { articleId: '00000000-0000-4000-8000-000000000000', title: 'x', mainKnowledge: 'x', questions: [] },
            rule: null,
          },
        ],
        warnings: [],
      },
    }));
    const invented = await refine(reply, 'Try again.');
    assert.equal(invented.status, 'failed');
    assert.equal(invented.error, 'the diagnosis names an article that was not among those it read (00000000-0000-4000-8000-000000000000)');
  });
});
