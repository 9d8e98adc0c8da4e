// A configured model's answer on the visitor's stream, token by token: the fake OpenAI-compatible
// server streams the answer in chunks, the stream relays it as growing `partial` events, then the
// stored reply and `partial_end`. No partials with an enabled output guardrail, on another API
// process, or through Generate Answer (which still asks for the whole answer at once).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.js';
import { type FakeLlm, fakeModelEnv, type FakeLlmRequest, startFakeLlm, taskOf } from '../support/fake-llm.js';
import { expectStatus } from '../support/security.js';
import { type Event, say } from '../conversations/support.js';
import { eventsOf, expectVisit, send, setupWidget, start, streamFor, type SseMessage, type SseReader, type VisitorEvent, type VisitorEvents, type WidgetSetup } from './support.js';

const PLAN = { reasoning: 'A question about passwords.', performKnowledgeSearch: true, intent: 'question', smallTalkReply: null, sentiment: 'neutral', angry: false };
const ANSWER = 'Click "Forgot password" on the sign-in page, then follow the link in the e-mail we send you.';

interface Partial {
  replyTo: string;
  from: number;
  text: string;
}
const isPartial = (m: SseMessage) => m.event === 'partial';
const isEnd = (replyTo: string) => (m: SseMessage) => m.event === 'partial_end' && (m.data as { replyTo: string }).replyTo === replyTo;
const isReply = (m: SseMessage) => m.event === 'event' && (m.data as VisitorEvent).role === 'parleybot';

/** The answer as a widget rebuilds it from the `partial` events of one message: each text so far. */
function rebuilt(messages: SseMessage[], replyTo: string): string[] {
  const texts: string[] = [];
  let text = '';
  for (const m of messages.filter(isPartial).map((p) => p.data as Partial)) {
    if (m.replyTo !== replyTo) continue;
    text = text.slice(0, m.from) + m.text;
    texts.push(text);
  }
  return texts;
}

describe('visitor stream with a configured model', () => {
  let t: TestApp;
  let fake: FakeLlm;
  let s: WidgetSetup;
  const open: SseReader[] = [];
  const answerWith = (answer: string, plan: Record<string, unknown> = PLAN) =>
    fake.setHandler((request) => {
      if (taskOf(request) === 'plan_answer') return { json: plan };
      if (taskOf(request) === 'generate_answer') {
        return { json: { answer, usedArticleIds: [s.articleIds[0]], handover: false, reason: null, confidence: 0.9, bestArticleId: s.articleIds[0], reasoning: 'The password article.' }, chunkSize: 10 };
      }
      return undefined;
    });
  const answerRequests = () => fake.requests.filter((r) => taskOf(r) === 'generate_answer');
  const streamed = (r: FakeLlmRequest) => r.body.stream === true;
  const openFor = async (app: TestApp, setup: WidgetSetup, c: Awaited<ReturnType<typeof start>>) => {
    const stream = await streamFor(app, setup.widget.key, c);
    open.push(stream);
    await stream.next((m) => m.event === 'status');
    return stream;
  };

  before(async () => {
    fake = await startFakeLlm();
    t = await startTestApp({ env: fakeModelEnv(fake.url, 'sk-test-stream', { PARLEY_LLM_MAX_RETRIES: '0', PARLEY_WIDGET_STREAM_POLL_MS: '100' }) });
    s = await setupWidget(t);
  });
  after(async () => {
    for (const reader of open) reader.close();
    await t.close();
    await fake.close();
  });

  it('relays the answer as growing partial events, then the stored reply, then partial_end', async () => {
    fake.reset();
    answerWith(ANSWER);
    const c = await start(t, s.widget.key);
    const stream = await openFor(t, s, c);
    const [user, reply] = (await send(t, s.widget.key, c, 'How do I reset my password?')) as [VisitorEvent, VisitorEvent];
    await stream.next(isEnd(user.id));

    const texts = rebuilt(stream.messages, user.id);
    assert.ok(new Set(texts).size >= 2, `partials: ${JSON.stringify(texts)}`);
    for (const [i, text] of texts.entries()) {
      assert.ok(ANSWER.startsWith(text), `${JSON.stringify(text)} is not a prefix of the answer`);
      if (i > 0) assert.ok(text.length >= (texts[i - 1] ?? '').length, 'the answer so far never shrinks');
    }
    assert.equal(texts.at(-1), ANSWER);
    // Each partial sends only what is new: no text twice.
    const partials = stream.messages.filter(isPartial).map((m) => m.data as Partial);
    assert.equal(partials.map((p) => p.text).join(''), ANSWER);
    // Order: every partial, then the stored reply (the same as the route's and the events' reply), then partial_end.
    const at = (match: (m: SseMessage) => boolean) => stream.messages.findIndex(match);
    const lastPartial = stream.messages.findLastIndex(isPartial);
    assert.ok(lastPartial < at(isReply) && at(isReply) < at(isEnd(user.id)));
    const streamedReply = stream.messages[at(isReply)]!;
    assert.deepEqual([streamedReply.id, streamedReply.data], [reply.id, reply]);
    assert.equal(reply.message, ANSWER);
    const stored = await expectVisit<VisitorEvents>(t, 200, 'GET', eventsOf(c.conversationId), { key: s.widget.key, token: c.visitorToken });
    assert.deepEqual(stored.events.at(-1), reply);

    assert.deepEqual(answerRequests().map(streamed), [true]);
    assert.equal(fake.requests.find((r) => taskOf(r) === 'plan_answer')?.body.stream, undefined);
  });

  it('replaces the partial answer when the agent hands over with a different text', async () => {
    fake.reset();
    answerWith(ANSWER, { ...PLAN, sentiment: 'negative', angry: true });
    const c = await start(t, s.widget.key);
    const stream = await openFor(t, s, c);
    const [user, reply] = (await send(t, s.widget.key, c, 'HOW DO I RESET MY PASSWORD?? this is useless')) as [VisitorEvent, VisitorEvent];
    await stream.next(isEnd(user.id));
    assert.equal(rebuilt(stream.messages, user.id).at(-1), ANSWER);
    // The stored reply is what counts: the answer with the apology, a hand-over.
    assert.equal(reply.handover, true);
    assert.match(reply.message, /^Click "Forgot password" .*\n\nI'm sorry about this/s);
    assert.deepEqual((stream.messages.find(isReply)?.data as VisitorEvent).message, reply.message);
    await stream.next((m) => m.event === 'status' && (m.data as { humanTakeover: boolean }).humanTakeover);
  });

  it('sends no partials to a stream on another API process: the stored reply only', async () => {
    fake.reset();
    answerWith(ANSWER);
    const sibling = await t.sibling();
    try {
      const c = await start(t, s.widget.key);
      const elsewhere = await openFor(sibling, s, c);
      const here = await openFor(t, s, c);
      const [user, reply] = (await send(t, s.widget.key, c, 'How do I reset my password?')) as [VisitorEvent, VisitorEvent];
      await here.next(isEnd(user.id));
      const streamedReply = await elsewhere.next(isReply);
      assert.equal(streamedReply.id, reply.id);
      assert.ok(!elsewhere.messages.some((m) => isPartial(m) || m.event === 'partial_end'));
      elsewhere.close();
    } finally {
      await sibling.close();
    }
  });

  it('asks Generate Answer for the whole answer, as before', async () => {
    fake.reset();
    answerWith(ANSWER);
    const [, reply] = (await say(t, s.w.key, { content: 'How do I reset my password?', botId: s.agentId })) as [Event, Event];
    assert.equal(reply.message, ANSWER);
    assert.deepEqual(answerRequests().map(streamed), [false]);
  });

  /** Runs `fn` with the agent of a new workspace as `s`, for settings that must not reach the other tests. */
  const inNewWorkspace = async (fn: (g: WidgetSetup) => Promise<void>) => {
    const kept = s;
    s = await setupWidget(t);
    try {
      await fn(s);
    } finally {
      s = kept;
    }
  };

  it('sends no partials while the agent has an enabled output guardrail (it may change the answer)', async () => {
    fake.reset();
    await inNewWorkspace(async (g) => {
      answerWith('Write to help@shop.example and we reset it for you.');
      await expectStatus(t, 201, 'POST', '/v2/guardrails/public', g.w.key, { name: 'No e-mails', kind: 'pii_redaction', stage: 'output', action: 'redact', config: { types: ['email'] }, botIds: [g.agentId] });
      const c = await start(t, g.widget.key);
      const stream = await openFor(t, g, c);
      const [, reply] = (await send(t, g.widget.key, c, 'How do I reset my password?')) as [VisitorEvent, VisitorEvent];
      assert.equal(reply.message, 'Write to [redacted] and we reset it for you.');
      const streamedReply = await stream.next(isReply);
      assert.equal((streamedReply.data as VisitorEvent).message, reply.message);
      assert.ok(!stream.messages.some((m) => isPartial(m) || m.event === 'partial_end'));
      assert.ok(!JSON.stringify(stream.messages).includes('help@shop.example'));
      assert.deepEqual(answerRequests().map(streamed), [false]);
    });
  });

  it('sends no partials of a reply that an INTERNAL_COMMENT reply rule makes a note for the team', async () => {
    fake.reset();
    await inNewWorkspace(async (g) => {
      answerWith(ANSWER);
      await expectStatus(t, 200, 'PUT', '/v2/reply-behavior/INTERNAL_COMMENT/public', g.w.key, {
        conditions: [{ scope: 'SCALAR', predicate: [{ left: { path: 'message.content', dataType: 'string' }, operator: 'contains', right: { value: 'password' } }] }],
      });
      const c = await start(t, g.widget.key);
      const stream = await openFor(t, g, c);
      const created = await send(t, g.widget.key, c, 'How do I reset my password?');
      assert.deepEqual(created.map((e) => e.role), ['user']);
      await stream.next((m) => m.event === 'event' && m.id === created[0]!.id);
      assert.ok(!JSON.stringify(stream.messages).includes('Forgot password'));
      assert.deepEqual(answerRequests().map(streamed), [false]);
    });
  });
});
