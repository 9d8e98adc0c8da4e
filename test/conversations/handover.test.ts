// The agent's judgement through Generate Answer (built-in engine, default prompts): one clearly
// angry message hands over with negative_sentiment and an apology (after the answer when the
// knowledge has one); calm refund questions do not; two moderately negative messages in a row do;
// a request for a person in customers' words hands over as customer_request, and a question put
// to a person ("can you ask an agent ...") is answered when the knowledge answers it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { handoverMessage } from '../../src/modules/conversations/handover.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectStatus } from '../support/security.js';
import { type Event, type Interaction, interaction, metadataOf, say, type Setup, setupAgent, type Trace } from './support.js';

const APOLOGY = handoverMessage({ channel: 'chat', customerName: null }, 'negative_sentiment');

describe('hand-over judgement (built-in engine)', () => {
  let t: TestApp;
  let s: Setup;
  before(async () => {
    t = await startTestApp();
    s = await setupAgent(t);
  });
  after(() => t.close());

  const reply = (events: Event[]) => events[1]!;

  it('one clearly angry message hands over with negative_sentiment and ends with an apology', async () => {
    const events = await say(t, s.w.key, { content: "THREE WEEKS and my order still hasn't arrived, useless company, I want my money back NOW!!", botId: s.agentId });
    const [user, answer] = events as [Event, Event];
    assert.equal(user.sentiment, 'negative');
    assert.deepEqual([answer.handover, answer.escalationReason], [true, 'negative_sentiment']);
    // "money back" is what the refund article is about (the sentence encoder and the thesaurus
    // agree), so its policy may come first; the message always ends with the apology.
    assert.ok(answer.message === APOLOGY || answer.message === `Annual plans can be refunded within 30 days of purchase.\n\n${APOLOGY}`, answer.message);
    const trace = await expectStatus<Trace>(t, 200, 'GET', metadataOf(answer.id), s.w.readKey);
    assert.deepEqual(trace.handover, { reason: 'negative_sentiment' });
    assert.match(trace.planning.reasoning, /angry/);
    const conv = await expectStatus<Interaction>(t, 200, 'GET', interaction(answer.interactionId), s.w.readKey);
    assert.deepEqual([conv.status, conv.escalationReason, conv.latestSentiment], ['Escalated to Human Agent', 'negative_sentiment', 'negative']);
  });

  it('an angry message the knowledge answers gets the answer first, then the apology', async () => {
    const answer = reply(await say(t, s.w.key, { content: 'How the hell do I reset my password?? This is RIDICULOUS!!', botId: s.agentId }));
    assert.deepEqual([answer.handover, answer.escalationReason], [true, 'negative_sentiment']);
    assert.match(answer.message, /Forgot password/);
    assert.ok(answer.message.endsWith(APOLOGY), answer.message);
    assert.deepEqual(answer.usedArticles.map((a) => a.id), [s.articleIds[0]]);
  });

  it('two calm refund questions in a row do not hand over for sentiment', async () => {
    const first = await say(t, s.w.key, { content: 'How do I get a refund for my annual plan?', botId: s.agentId });
    assert.equal(first[0]!.sentiment, 'neutral');
    const second = await say(t, s.w.key, { content: 'When will my refund arrive? I want to cancel the renewal too.', interactionId: first[0]!.interactionId });
    assert.notEqual(second[0]!.sentiment, 'negative');
    for (const events of [first, second]) assert.notEqual(reply(events).escalationReason, 'negative_sentiment');
    assert.equal(reply(first).handover, false);
    assert.match(reply(first).message, /30 days/);
  });

  it('two moderately negative messages in a row hand over on the second, not the first', async () => {
    const first = await say(t, s.w.key, { content: "I'm really disappointed, the PDF invoice download is broken.", botId: s.agentId });
    assert.equal(first[0]!.sentiment, 'negative');
    assert.notEqual(reply(first).escalationReason, 'negative_sentiment');
    const second = await say(t, s.w.key, { content: 'Still not working, this is frustrating.', interactionId: first[0]!.interactionId });
    assert.equal(second[0]!.sentiment, 'negative');
    assert.deepEqual([reply(second).handover, reply(second).escalationReason], [true, 'negative_sentiment']);
    assert.ok(reply(second).message.endsWith(APOLOGY));
  });

  it("a request for a person in customers' words hands over as customer_request", async () => {
    for (const content of ['can u contcat someone?', 'you arent helping, I need help talking to a human', 'human please']) {
      const answer = reply(await say(t, s.w.key, { content, botId: s.agentId }));
      assert.deepEqual([answer.handover, answer.escalationReason], [true, 'customer_request'], content);
    }
  });

  it('a question put to a person is answered when the knowledge answers it, else handed to a person', async () => {
    const answered = reply(await say(t, s.w.key, { content: 'can u ask an agent how i can reset my password?', botId: s.agentId }));
    assert.equal(answered.handover, false);
    assert.match(answered.message, /Forgot password/);
    const unanswered = reply(await say(t, s.w.key, { content: 'could you ask an agent whether you ship to Iceland?', botId: s.agentId }));
    assert.deepEqual([unanswered.handover, unanswered.escalationReason], [true, 'customer_request']);
  });
});
