// The built-in engine's sentence encoder (src/ai/encoder.ts) and the semantic signal it
// gives answers: vectors read from the npm package's own files, deterministic, stored per article
// (article_embeddings, model BUILTIN_ENCODER_MODEL) by the answer and by `knowledge.embed`, and
// off with PARLEY_BUILTIN_ENCODER=off.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { BUILTIN_ENCODER_MODEL, encodeTexts, similarity } from '../../src/ai/encoder.js';
import { queryRows } from '../../src/db/sql.js';
import { embedPendingArticles } from '../../src/modules/knowledge/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { makeTenant } from '../support/factories.js';
import { expectStatus } from '../support/security.js';
import { type Event, metadataOf, say, type Setup, setupAgent, type Trace } from '../conversations/support.js';

const SHIPPING = {
  title: 'Shipping times',
  mainKnowledge: 'Standard shipping takes 3 to 5 business days. Express shipping takes 1 to 2 business days.',
};

describe('the built-in sentence encoder', () => {
  it('gives each text a 512-number unit vector, the same every time and whatever it is encoded with', async () => {
    const [a, b] = await encodeTexts(['When will my parcel get here?', 'Payment methods: we accept Visa and PayPal.']);
    const [again] = await encodeTexts(['When will my parcel get here?']);
    assert.equal(a!.length, 512, 'dimensions');
    const norm = Math.sqrt(a!.reduce((s, v) => s + v * v, 0));
    assert.ok(Math.abs(norm - 1) < 1e-5, `unit length, got ${norm}`);
    assert.deepEqual(Array.from(again!), Array.from(a!), 'encoded alone or with another text, the same vector');
    assert.notDeepEqual(Array.from(b!), Array.from(a!), 'another text, another vector');
  });

  it('places a question nearer the article that answers it than others, with no word in common', async () => {
    const [question, shipping, payment, password] = await encodeTexts([
      'When will my parcel get here?',
      `${SHIPPING.title}\n\n${SHIPPING.mainKnowledge}`,
      'Payment methods\n\nWe accept Visa, Mastercard and PayPal.',
      'Reset your password\n\nClick Forgot password on the sign-in page.',
    ]);
    const near = similarity(question!, shipping!);
    assert.ok(near > similarity(question!, payment!), `shipping ${near} above payment ${similarity(question!, payment!)}`);
    assert.ok(near > similarity(question!, password!), `shipping ${near} above password ${similarity(question!, password!)}`);
    assert.equal(similarity(shipping!, shipping!), 1, 'a text is its own nearest');
  });
});

describe('the semantic signal in answers', () => {
  let t: TestApp;
  let s: Setup;
  let shippingId: string;
  const rows = (workspaceId: string) =>
    queryRows<{ articleId: string; model: string; articleVersion: number }>(
      t.database.db,
      sql`SELECT article_id AS "articleId", model, article_version AS "articleVersion" FROM article_embeddings WHERE workspace_id = ${workspaceId} ORDER BY article_id`,
    );
  before(async () => {
    t = await startTestApp();
    s = await setupAgent(t);
    shippingId = (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/hc-articles/public', s.w.key, {
      ...SHIPPING, agentInstruction: '', questions: [], keywords: [], escalation: false, parentFolderId: s.folderId,
    })).id;
  });
  after(() => t.close());

  it('compares the message with the articles found, says so in the trace, and stores their vectors', async () => {
    const [, reply] = (await say(t, s.w.key, { content: 'How long does standard shipping take?', botId: s.agentId })) as [Event, Event];
    assert.equal(reply.handover, false, `answered: ${reply.message}`);
    assert.match(reply.message, /3 to 5 business days/);
    const trace = await expectStatus<Trace>(t, 200, 'GET', metadataOf(reply.id), s.w.readKey);
    assert.match(trace.knowledgeSearch.topOneReasoning, /^"Shipping times" ranks first \(score [\d.]+, similarity 0\.\d+/);
    const stored = await rows(s.w.workspaceId);
    assert.ok(stored.some((r) => r.articleId === shippingId && r.model === BUILTIN_ENCODER_MODEL && r.articleVersion === 1), `the shipping article's vector is stored: ${JSON.stringify(stored)}`);
  });

  it('the scheduled job encodes the other live articles, not drafts, and again after an edit', async () => {
    const draft = (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/hc-articles/public', s.w.key, {
      title: 'Gift cards', mainKnowledge: 'Gift cards never expire.', agentInstruction: '', questions: [], keywords: [], escalation: false, parentFolderId: s.folderId, isDraft: true,
    })).id;
    const ctx = { ...t.ports, log: pino({ level: 'silent' }) };
    const first = await embedPendingArticles(ctx, s.w.workspaceId);
    assert.equal(first.failed, 0, 'no failure');
    const stored = await rows(s.w.workspaceId);
    assert.deepEqual(stored.map((r) => r.articleId).sort(), [...s.articleIds, shippingId].sort(), 'every live article, not the draft');
    assert.ok(!stored.some((r) => r.articleId === draft), 'no vector for a draft');
    assert.ok(stored.every((r) => r.model === BUILTIN_ENCODER_MODEL), 'all of the built-in model');

    await expectStatus(t, 200, 'PUT', `/v2/hc-articles/${shippingId}/public`, s.w.key, {
      title: SHIPPING.title, mainKnowledge: 'Standard shipping takes 2 to 4 business days.', agentInstruction: '', questions: [], keywords: [], escalation: false,
    });
    const second = await embedPendingArticles(ctx, s.w.workspaceId);
    assert.deepEqual([second.embedded, second.failed], [1, 0], 'only the edited article is encoded again');
    assert.equal((await rows(s.w.workspaceId)).find((r) => r.articleId === shippingId)?.articleVersion, 2, 'its vector is of version 2');
  });

  it("never reads another workspace's vectors: the same article text elsewhere gets its own", async () => {
    // The first workspace's password article has its vector (read and kept in memory); another
    // workspace with the same articles must make and store its own, not use those.
    await say(t, s.w.key, { content: 'How can I reset my password?', botId: s.agentId });
    const other = await setupAgent(t, await makeTenant(t));
    const [, reply] = (await say(t, other.w.key, { content: 'How can I reset my password?', botId: other.agentId })) as [Event, Event];
    assert.equal(reply.handover, false, `answered: ${reply.message}`);
    const theirs = await rows(other.w.workspaceId);
    assert.ok(theirs.some((r) => r.articleId === other.articleIds[0]), `its own vector of its password article: ${JSON.stringify(theirs)}`);
    const ours = new Set([...s.articleIds, shippingId]);
    assert.ok(theirs.every((r) => !ours.has(r.articleId)), 'none of the first workspace\'s articles');
    assert.ok((await rows(s.w.workspaceId)).every((r) => ours.has(r.articleId)), 'and the first workspace holds only its own');
  });
});

describe('the semantic signal switched off', () => {
  let t: TestApp;
  let s: Setup;
  before(async () => {
    t = await startTestApp({ env: { PARLEY_BUILTIN_ENCODER: 'off' } });
    s = await setupAgent(t);
  });
  after(() => t.close());

  it('answers from words alone and stores no vector', async () => {
    const [, reply] = (await say(t, s.w.key, { content: 'How can I reset my password?', botId: s.agentId })) as [Event, Event];
    assert.equal(reply.handover, false, `answered: ${reply.message}`);
    const trace = await expectStatus<Trace>(t, 200, 'GET', metadataOf(reply.id), s.w.readKey);
    assert.match(trace.knowledgeSearch.topOneReasoning, /ranks first \(score [\d.]+[;)]/, 'no similarity in the reasoning');
    assert.doesNotMatch(trace.knowledgeSearch.topOneReasoning, /similarity/, 'no similarity in the reasoning');
    const stored = await queryRows(t.database.db, sql`SELECT 1 FROM article_embeddings WHERE workspace_id = ${s.w.workspaceId}`);
    assert.equal(stored.length, 0, 'no vector stored');
    await embedPendingArticles({ ...t.ports, log: pino({ level: 'silent' }) }, s.w.workspaceId);
    assert.equal((await queryRows(t.database.db, sql`SELECT 1 FROM article_embeddings WHERE workspace_id = ${s.w.workspaceId}`)).length, 0, 'the job stores none either');
  });
});
