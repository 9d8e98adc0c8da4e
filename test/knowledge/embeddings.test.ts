import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { enableVectorSupport, hasVectorSupport } from '../../src/db/vector.js';
import { queryRows } from '../../src/db/sql.js';
import { jobNamed } from '../../src/jobs/registry.js';
import { embedPendingArticles } from '../../src/modules/knowledge/index.js';
import { RRF_K } from '../../src/modules/knowledge/search.service.js';
import { searchVector } from '../../src/modules/knowledge/search.repository.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { adminDatabaseUrl, backend, createTestDatabase } from '../support/database.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { fakeEmbedding, type FakeLlm, type FakeLlmRequest, startFakeLlm } from '../support/fake-llm.js';
import { expectStatus } from '../support/security.js';

/**
 * Embeddings and vector similarity in knowledge search: on PGlite (pgvector loaded) and on a
 * PostgreSQL that has pgvector; on a PostgreSQL without it, search stays full-text only.
 */

interface Content { title: string; mainKnowledge: string; questions: string[]; keywords: string[] }
interface Article extends Content { id: string; version: number }
interface Highlight { field: string; snippet: string }
interface Result { article: { id: string; title: string }; score: number; highlights: Highlight[] }
interface EmbeddingRow { articleId: string; workspaceId: string; model: string; contentHash: string; embedding: number[]; articleVersion: number }

const SEARCH = '/v2/knowledge/public/search';
const DIMENSIONS = 8;
const MODEL = 'test-embed';

const PASSWORD: Content = {
  title: 'Reset your password',
  questions: ['I forgot my password'],
  keywords: ['password', 'login'],
  mainKnowledge: 'Open Settings and choose Reset password. We email you a link that stays valid for thirty minutes.',
};
const PROFILE: Content = {
  title: 'Profile photo',
  questions: ['How do I change my profile picture?'],
  keywords: ['profile'],
  mainKnowledge: 'Upload a square image under Settings, Profile. It appears next to your name.',
};
const SHIPPING: Content = {
  title: 'Shipping times',
  questions: ['When will my order arrive?'],
  keywords: ['delivery'],
  mainKnowledge: 'Standard shipping takes three to five business days.',
};
/** Shares no word (no lexeme) with PASSWORD; shares "profile" with PROFILE. */
const QUERY = 'locked out of my profile';

/** The text Parley embeds for an article: title, questions, keywords and body. */
const textOf = (c: Content) => [c.title, c.questions.join('\n'), c.keywords.join(', '), c.mainKnowledge].join('\n\n');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const inputsOf = (r: FakeLlmRequest) => r.body.input as string[];
const round6 = (x: number) => Math.round(x * 1_000_000) / 1_000_000;

/** Whether this PostgreSQL server can install pgvector. */
async function postgresHasVector(): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl });
  await client.connect();
  try {
    return ((await client.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`)).rowCount ?? 0) > 0;
  } finally {
    await client.end();
  }
}

const vectorAvailable = backend === 'pglite' || (await postgresHasVector());
const silent = pino({ level: 'silent' });

const llmEnv = (fake: FakeLlm): Record<string, string> => ({
  PARLEY_LLM_PROVIDER: 'openai-compatible',
  PARLEY_LLM_BASE_URL: fake.url,
  PARLEY_LLM_MODEL: 'test-model',
  PARLEY_LLM_API_KEY: 'sk-test',
  PARLEY_LLM_EMBEDDING_MODEL: MODEL,
  PARLEY_LLM_MAX_RETRIES: '0',
  PARLEY_LLM_RETRY_DELAY_MS: '1',
  PARLEY_LLM_TIMEOUT_MS: '1500',
});

function helpers(get: () => TestApp) {
  const ok = <T>(status: number, method: string, path: string, key: string, body?: unknown) => expectStatus<T>(get(), status, method, path, key, body);
  const folder = async (w: Tenant, title = 'Help') =>
    (await ok<{ id: string }>(201, 'POST', '/v2/hc-folders/public', w.key, { title, description: '' })).id;
  const article = (w: Tenant, parentFolderId: string, c: Content, extra: object = {}) =>
    ok<Article>(201, 'POST', '/v2/hc-articles/public', w.key, { agentInstruction: '', escalation: false, ...c, parentFolderId, ...extra });
  const update = (w: Tenant, id: string, c: Content, extra: object = {}) =>
    ok<Article>(200, 'PUT', `/v2/hc-articles/${id}/public`, w.key, { agentInstruction: '', escalation: false, ...c, ...extra });
  const search = async (w: Tenant, query: string, extra: object = {}) =>
    (await ok<{ results: Result[] }>(200, 'POST', SEARCH, w.readKey, { query, ...extra })).results;
  const ctx = () => ({ ...get().ports, log: silent });
  const rows = (workspaceId: string) =>
    queryRows<EmbeddingRow>(
      get().database.db,
      sql`SELECT article_id AS "articleId", workspace_id AS "workspaceId", model, content_hash AS "contentHash", embedding,
            article_version AS "articleVersion"
          FROM article_embeddings WHERE workspace_id = ${workspaceId} ORDER BY article_id`,
    );
  return { ok, folder, article, update, search, ctx, rows };
}

describe('knowledge embeddings and vector similarity', { skip: vectorAvailable ? false : 'this PostgreSQL has no pgvector (tested below without it)' }, () => {
  let t: TestApp;
  let fake: FakeLlm;
  before(async () => {
    fake = await startFakeLlm({ dimensions: DIMENSIONS });
    t = await startTestApp({ env: llmEnv(fake) });
  });
  beforeEach(() => fake.reset());
  after(async () => {
    await t?.close();
    await fake?.close();
  });
  const h = helpers(() => t);
  const embeddingRequests = () => fake.requests.filter((r) => r.endpoint === 'embeddings');

  it('has the vector extension and says so at start', () => {
    assert.equal(hasVectorSupport(t.database.db), true);
    assert.ok(t.logs.some((l) => typeof l.msg === 'string' && l.msg.startsWith('vector similarity is on')));
  });

  it('embeds live articles once, with the configured model, and not drafts', async () => {
    const w = await makeTenant(t);
    const folderId = await h.folder(w);
    const password = await h.article(w, folderId, PASSWORD);
    const shipping = await h.article(w, folderId, SHIPPING);
    await h.article(w, folderId, PROFILE, { isDraft: true });

    assert.deepEqual(await embedPendingArticles(h.ctx(), w.workspaceId), { embedded: 2, unchanged: 0, failed: 0 });
    const requests = embeddingRequests();
    assert.equal(requests.length, 1);
    assert.equal(requests[0]!.body.model, MODEL);
    assert.deepEqual([...inputsOf(requests[0]!)].sort(), [textOf(PASSWORD), textOf(SHIPPING)].sort());

    const stored = await h.rows(w.workspaceId);
    assert.deepEqual(
      stored.map((r) => r.articleId),
      [password.id, shipping.id].sort(),
    );
    for (const row of stored) {
      const content = row.articleId === password.id ? PASSWORD : SHIPPING;
      assert.equal(row.model, MODEL);
      assert.equal(row.workspaceId, w.workspaceId);
      assert.equal(row.embedding.length, DIMENSIONS);
      assert.equal(row.contentHash, sha256(textOf(content)));
      assert.equal(row.articleVersion, 1);
      fakeEmbedding(textOf(content), DIMENSIONS).forEach((v, i) => assert.ok(Math.abs(v - row.embedding[i]!) < 1e-6));
    }

    fake.reset();
    assert.deepEqual(await embedPendingArticles(h.ctx(), w.workspaceId), { embedded: 0, unchanged: 0, failed: 0 });
    assert.equal(embeddingRequests().length, 0, 'nothing is embedded again while unchanged');
  });

  it('embeds an article again when its text changes, not when only other fields change', async () => {
    const w = await makeTenant(t);
    const folderId = await h.folder(w);
    const a = await h.article(w, folderId, PASSWORD);
    await embedPendingArticles(h.ctx(), w.workspaceId);
    const [before] = await h.rows(w.workspaceId);

    fake.reset();
    await h.update(w, a.id, PASSWORD, { agentInstruction: 'Be brief.', escalation: true });
    assert.deepEqual(await embedPendingArticles(h.ctx(), w.workspaceId), { embedded: 0, unchanged: 1, failed: 0 });
    assert.equal(embeddingRequests().length, 0);
    const [kept] = await h.rows(w.workspaceId);
    assert.equal(kept!.articleVersion, 2);
    assert.equal(kept!.contentHash, before!.contentHash);

    const changed = { ...PASSWORD, title: 'Reset or change your password' };
    await h.update(w, a.id, changed);
    assert.deepEqual(await embedPendingArticles(h.ctx(), w.workspaceId), { embedded: 1, unchanged: 0, failed: 0 });
    assert.deepEqual(embeddingRequests().map(inputsOf), [[textOf(changed)]]);
    const [after] = await h.rows(w.workspaceId);
    assert.equal(after!.contentHash, sha256(textOf(changed)));
    assert.equal(after!.articleVersion, 3);
  });

  it('the scheduled job embeds every workspace, and a failing model leaves articles for the next run', async () => {
    const [w1, w2] = [await makeTenant(t), await makeTenant(t)];
    const [a1, a2] = [await h.article(w1, await h.folder(w1), SHIPPING), await h.article(w2, await h.folder(w2), PROFILE)];
    fake.setHandler((r) => (r.endpoint === 'embeddings' ? { status: 400 } : undefined));
    const logged: { level: number; msg: string }[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line) as { level: number; msg: string }) });
    const jobCtx = { ports: { ...t.ports, log }, id: randomUUID(), retryCount: 0, signal: new AbortController().signal, log };
    await jobNamed('knowledge.embed').handler(jobCtx, {});
    assert.deepEqual(await h.rows(w1.workspaceId), []);
    assert.ok(logged.some((l) => l.level === 50 && l.msg.startsWith('embedding articles failed')), JSON.stringify(logged));

    fake.setHandler(undefined);
    await jobNamed('knowledge.embed').handler(jobCtx, {});
    assert.deepEqual((await h.rows(w1.workspaceId)).map((r) => r.articleId), [a1.id]);
    assert.deepEqual((await h.rows(w2.workspaceId)).map((r) => r.articleId), [a2.id]);
  });

  it('an article the model refuses is tried alone, and the rest of its batch is embedded', async () => {
    const w = await makeTenant(t);
    const folder = await h.folder(w);
    const good = await h.article(w, folder, SHIPPING);
    const bad = await h.article(w, folder, { ...PROFILE, title: 'POISON profile' });
    fake.setHandler((r) => {
      if (r.endpoint !== 'embeddings') return undefined;
      const inputs = inputsOf(r);
      if (inputs.some((x) => x.includes('POISON'))) return { status: 400, body: { error: { message: 'maximum context length exceeded', type: 'invalid_request_error' } } };
      return { embeddings: inputs.map((x) => fakeEmbedding(x, DIMENSIONS)) };
    });
    try {
      const result = await embedPendingArticles(h.ctx(), w.workspaceId);
      assert.deepEqual(result, { embedded: 1, unchanged: 0, failed: 1 });
      assert.deepEqual((await h.rows(w.workspaceId)).map((r) => r.articleId), [good.id]);
      assert.notEqual(good.id, bad.id);
    } finally {
      fake.setHandler(undefined);
    }
  });

  describe('search', () => {
    let w: Tenant;
    let other: Tenant;
    let ids: { password: string; profile: string; shipping: string; inactive: string; theirs: string };
    before(async () => {
      w = await makeTenant(t);
      other = await makeTenant(t);
      const folderId = await h.folder(w);
      const password = await h.article(w, folderId, PASSWORD);
      const profile = await h.article(w, folderId, PROFILE);
      const shipping = await h.article(w, folderId, SHIPPING);
      // An inactive article with the very embedding of the query is never found.
      const inactive = await h.article(w, folderId, { ...SHIPPING, title: 'Old shipping times' }, { active: false });
      // Another workspace's article, embedded exactly like the query, is never found either.
      const theirs = await h.article(other, await h.folder(other), { ...PASSWORD, title: 'Their password page' });
      ids = { password: password.id, profile: profile.id, shipping: shipping.id, inactive: inactive.id, theirs: theirs.id };
      await embedPendingArticles(h.ctx());
    });

    /** The query's embedding equals PASSWORD's (which shares no word with it). */
    const queryLikePassword = (dimensions = DIMENSIONS) =>
      fake.setHandler((r) => (r.endpoint === 'embeddings' && inputsOf(r)[0] === QUERY ? { embeddings: [fakeEmbedding(textOf(PASSWORD), dimensions)] } : undefined));

    it('finds an article by vector similarity alone, without highlights, and still ranks the lexical match', async () => {
      queryLikePassword();
      const results = await h.search(w, QUERY);
      const requests = embeddingRequests();
      assert.equal(requests.length, 1, 'the query is embedded once');
      assert.equal(requests[0]!.body.model, MODEL);
      assert.deepEqual(inputsOf(requests[0]!), [QUERY]);

      const [first, second] = results;
      assert.equal(first?.article.id, ids.profile, 'the lexical match is found by both and ranks first');
      assert.ok(first.highlights.some((x) => x.snippet.includes('<mark>')));
      assert.equal(second?.article.id, ids.password, 'the vector-only hit ranks next');
      assert.deepEqual(second.highlights, []);
      assert.equal(second.score, round6(1 / (RRF_K + 1)), 'the score is the fused score');
      assert.ok(first.score > second.score);
      const found = results.map((r) => r.article.id);
      assert.ok(!found.includes(ids.inactive), 'inactive articles are not found');
      assert.ok(!found.includes(ids.theirs), "another workspace's articles are not found");
      for (let i = 1; i < results.length; i += 1) assert.ok(results[i - 1]!.score >= results[i]!.score);
    });

    it("never compares with another workspace's embeddings", async () => {
      queryLikePassword();
      const theirs = await h.search(other, QUERY);
      assert.deepEqual(theirs.map((r) => r.article.id), [ids.theirs]);
      assert.deepEqual(theirs[0]!.highlights, []);

      const theirVector = fakeEmbedding(textOf({ ...PASSWORD, title: 'Their password page' }), DIMENSIONS);
      const nearest = await searchVector(t.database.db, w.workspaceId, {}, MODEL, theirVector, 50);
      assert.deepEqual(nearest.map((n) => n.articleId).sort(), [ids.password, ids.profile, ids.shipping].sort());
    });

    it('falls back to full-text search when the embedding call fails or times out', async () => {
      const lexical = await (async () => {
        fake.setHandler((r) => (r.endpoint === 'embeddings' ? { status: 400 } : undefined));
        return h.search(w, 'password settings');
      })();
      assert.deepEqual(lexical.map((r) => r.article.id).sort(), [ids.password, ids.profile].sort());
      assert.ok(lexical.every((r) => r.highlights.length > 0 && r.score > 0.1), 'full-text scores (BM25), not fused ones');
      assert.ok(t.logs.some((l) => l.level === 40 && typeof l.msg === 'string' && l.msg.startsWith('vector similarity failed')));

      fake.setHandler((r) => (r.endpoint === 'embeddings' ? { status: 500 } : undefined));
      assert.deepEqual(await h.search(w, 'password settings'), lexical);

      fake.setHandler((r) => (r.endpoint === 'embeddings' ? { embeddings: [fakeEmbedding('x', DIMENSIONS)], delayMs: 4_000 } : undefined));
      const started = Date.now();
      assert.deepEqual(await h.search(w, 'password settings'), lexical);
      assert.ok(Date.now() - started < 3_500, 'the search does not wait for a slow model');
    });

    it('answers (full-text matches only) when the query embedding has other dimensions', async () => {
      queryLikePassword(DIMENSIONS * 2);
      const results = await h.search(w, QUERY);
      assert.deepEqual(results.map((r) => r.article.id), [ids.profile]);
      assert.equal(results[0]!.score, round6(1 / (RRF_K + 1)));
    });
  });
});

describe('knowledge search without the vector extension', () => {
  const pgliteWithoutVector = backend === 'pglite' ? false : 'a PGlite test';
  it('PGlite opened without pgvector: one warning, vector similarity off', { skip: pgliteWithoutVector }, async () => {
    const testDb = await createTestDatabase();
    try {
      const warnings: unknown[][] = [];
      const log = { warn: (...args: unknown[]) => warnings.push(args), info: () => undefined };
      assert.equal(await enableVectorSupport(testDb.database, log), false);
      assert.equal(await enableVectorSupport(testDb.database, log), false);
      assert.equal(hasVectorSupport(testDb.database.db), false);
      assert.equal(warnings.length, 1, 'warned once');
      assert.match(String(warnings[0]![1]), /^vector similarity is off: .*full-text search only$/);
    } finally {
      await testDb.drop();
    }
  });

  describe('PostgreSQL without pgvector', { skip: backend === 'postgres' && !vectorAvailable ? false : 'needs PostgreSQL without pgvector' }, () => {
    let t: TestApp;
    let fake: FakeLlm;
    before(async () => {
      fake = await startFakeLlm({ dimensions: DIMENSIONS });
      t = await startTestApp({ env: llmEnv(fake) });
    });
    after(async () => {
      await t?.close();
      await fake?.close();
    });
    const h = helpers(() => t);

    it('warns at start and searches by full-text only, without calling the embedding model', async () => {
      const warnings = t.logs.filter((l) => l.level === 40 && typeof l.msg === 'string' && l.msg.startsWith('vector similarity is off'));
      assert.equal(warnings.length, 1);
      assert.equal(hasVectorSupport(t.database.db), false);

      const w = await makeTenant(t);
      const folderId = await h.folder(w);
      const password = await h.article(w, folderId, PASSWORD);
      await h.article(w, folderId, SHIPPING);
      assert.deepEqual(await embedPendingArticles(h.ctx()), { embedded: 0, unchanged: 0, failed: 0 });
      const results = await h.search(w, 'forgot password');
      assert.deepEqual(results.map((r) => r.article.id), [password.id]);
      assert.ok(results[0]!.highlights.length > 0);
      assert.equal(fake.requests.length, 0, 'no model call');
      assert.deepEqual(await h.rows(w.workspaceId), []);
    });
  });
});
