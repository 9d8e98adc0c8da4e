// The answer pipeline through Generate Answer on a small fixed knowledge base: grounded answers,
// hand-overs and their reasons, small talk, the trace of each stage, statuses and tags.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { conversationEvents } from '../../src/db/schema/index.js';
import { answerTraceSchema } from '../../src/modules/conversations/index.js';
import { SYSTEM_TAG_IDS } from '../../src/modules/tags/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectStatus } from '../support/security.js';
import { takeMismatches, validatingResponses } from '../support/response-validation.js';
import { type Event, type Interaction, interaction, metadataOf, say, type Setup, setupAgent, type Trace } from './support.js';

describe('answer pipeline (built-in engine)', () => {
  let t: TestApp;
  let s: Setup;
  before(async () => {
    t = await startTestApp();
    s = await setupAgent(t);
  });
  after(() => t.close());

  it('answers a question from the best article, steps in order, and records the trace', async () => {
    const events = await say(t, s.w.key, { content: 'How can I reset my password?', botId: s.agentId, metadata: { user_attributes: { email: 'ada@example.com' } } });
    assert.equal(events.length, 2);
    const [user, reply] = events as [Event, Event];
    assert.deepEqual([user.role, user.type, user.message, user.userEventId], ['user', 'message', 'How can I reset my password?', null]);
    assert.deepEqual([reply.role, reply.type, reply.userEventId, reply.handover, reply.escalationReason], ['parleybot', 'message', user.id, false, null]);
    assert.equal(reply.interactionId, user.interactionId);
    assert.match(reply.message, /1\. Click "Forgot password" on the sign-in page\.\n2\. Enter the e-mail address of your account\.\n3\. Open the link/);
    assert.deepEqual(reply.usedArticles, [{ id: s.articleIds[0], title: 'How do I reset my password?', documentUrl: null }]);
    assert.deepEqual(reply.tags.map((x) => x.id), [SYSTEM_TAG_IDS['Waiting for Customer']]);

    const trace = await expectStatus<Trace>(t, 200, 'GET', metadataOf(reply.id), s.w.readKey);
    assert.deepEqual(trace.planning, { reasoning: trace.planning.reasoning, performKnowledgeSearch: true });
    assert.match(trace.planning.reasoning, /search the knowledge base/);
    assert.equal(trace.knowledgeSearch.articles[0].id, s.articleIds[0]);
    // Exactly the specification's { id, title, version }: Parley's additions go under new top-level keys.
    assert.deepEqual(Object.keys(trace.knowledgeSearch.articles[0]).sort(), ['id', 'title', 'version']);
    assert.equal(answerTraceSchema.safeParse(trace).success, true, 'the stored trace reads through answerTraceSchema');
    assert.match(trace.knowledgeSearch.topOneReasoning, /"How do I reset my password\?" ranks first/);
    assert.equal(trace.generateAnswer.reasoning[0].name, 'answer');
    assert.match(trace.generateAnswer.reasoning[0].reasoning, /^Answered from best article "How do I reset my password\?"/);
    assert.deepEqual(trace.relevantMemories, []);
    assert.deepEqual(trace.executedUserAttributes, []);
    assert.equal(trace.executedRules, null);
    assert.deepEqual(trace.replyRule, { replyType: 'DIRECT_REPLY', matched: false });
    assert.deepEqual(trace.outputTagSelection.chosenTags, { 'Conversation Status': ['Waiting for Customer'] });
    assert.deepEqual(trace.configVersion.articles, [{ id: s.articleIds[0], version: 1 }]);
    assert.equal(trace.model.provider, 'builtin');
    assert.ok(trace.confidence >= 0.6, String(trace.confidence));
    assert.equal(trace.evaluationContext.conversation.turn, 1);
    assert.equal(trace.evaluationContext.userAttributes.email, 'ada@example.com');
    for (const stage of ['planning', 'knowledgeSearch', 'generateAnswer', 'tags', 'total']) assert.equal(typeof trace.timings[stage], 'number', stage);

    const conv = await expectStatus<Interaction>(t, 200, 'GET', interaction(reply.interactionId), s.w.readKey);
    assert.deepEqual([conv.status, conv.resolved, conv.source, conv.channel, conv.subjectPreview], ['Waiting for Customer', null, 'api', 'chat', 'How can I reset my password?']);
    assert.deepEqual(conv.usedSubfolders, [{ id: s.folderId, title: 'Help center' }]);
    assert.deepEqual(conv.events?.map((e) => e.id), [user.id, reply.id]);
  });

  it("sends a trace stored before the wire fix with knowledgeSearch.articles cut to { id, title, version }", async () => {
    const [, reply] = await say(t, s.w.key, { content: 'How can I reset my password?', botId: s.agentId });
    assert.ok(reply);
    const stored = await expectStatus<Trace>(t, 200, 'GET', metadataOf(reply.id), s.w.readKey);
    const older = Object.fromEntries(Object.entries(stored).filter(([key]) => key !== 'sentiment'));
    const legacy = { ...older, knowledgeSearch: { ...stored.knowledgeSearch, articles: stored.knowledgeSearch.articles.map((a: object) => ({ ...a, score: 0.42 })) }, somethingOld: true };
    await t.database.db.update(conversationEvents).set({ metadata: legacy as never }).where(eq(conversationEvents.id, reply.id));
    const sent = await expectStatus<Trace>(t, 200, 'GET', metadataOf(reply.id), s.w.readKey);
    assert.deepEqual(sent.knowledgeSearch.articles, stored.knowledgeSearch.articles);
    assert.equal(sent.somethingOld, true, 'a trace of an older shape goes out as stored, apart from the cut');
    // Such a trace is not the documented shape: under PARLEY_TEST_VALIDATE_RESPONSES=1 it is the one
    // answer of this test that does not match /openapi.json, taken here as expected.
    if (validatingResponses) {
      const mismatches = takeMismatches();
      assert.equal(mismatches.length, 1, mismatches.join('\n'));
      assert.match(mismatches[0]!, /getEventMetadata\) answered 200[\s\S]*#\/somethingOld \(true\)/);
    }
  });

  it('hands over when the knowledge does not answer, with the reason tag', async () => {
    const [, reply] = await say(t, s.w.key, { content: 'Can my cat catch the flu from me?', botId: s.agentId });
    assert.ok(reply);
    assert.deepEqual([reply.handover, reply.escalationReason, reply.usedArticles], [true, 'missing_knowledge', []]);
    assert.match(reply.message, /colleague/);
    assert.deepEqual(reply.tags.map((x) => x.id).sort(), [SYSTEM_TAG_IDS.missing_knowledge, SYSTEM_TAG_IDS['Escalated to Human Agent']].sort());
    const conv = await expectStatus<Interaction>(t, 200, 'GET', interaction(reply.interactionId), s.w.readKey);
    assert.deepEqual([conv.status, conv.escalationReason], ['Escalated to Human Agent', 'missing_knowledge']);
  });

  it('answers small talk without a search and hands over on request', async () => {
    const [, hello] = await say(t, s.w.key, { content: 'Hi there!', botId: s.agentId });
    assert.equal(hello?.message, 'Hello! How can I help you today?');
    const trace = await expectStatus<Trace>(t, 200, 'GET', metadataOf(hello!.id), s.w.readKey);
    assert.equal(trace.planning.performKnowledgeSearch, false);
    assert.equal(trace.knowledgeSearch, null);
    const [, human] = await say(t, s.w.key, { content: 'I want to talk to a real person please', interactionId: hello!.interactionId });
    assert.deepEqual([human?.handover, human?.escalationReason], [true, 'customer_request']);
  });

  it('stores events of other roles without running the agent', async () => {
    const [, first] = await say(t, s.w.key, { content: 'How do I export an invoice?', botId: s.agentId });
    for (const role of ['agent', 'otherbot', 'parleybot']) {
      const events = await say(t, s.w.key, { content: `note by ${role}`, role, type: 'internal_comment', interactionId: first!.interactionId });
      assert.deepEqual(events.map((e) => [e.role, e.type, e.message]), [[role, 'internal_comment', `note by ${role}`]]);
    }
    const conv = await expectStatus<Interaction>(t, 200, 'GET', interaction(first!.interactionId), s.w.readKey);
    assert.equal(conv.events?.length, 5);
  });
});
