import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { articles } from '../../src/db/schema/index.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { testClock } from '../support/clock.js';
import { makeKey, makeTenant, type Tenant } from '../support/factories.js';
import { assertError, expectStatus, type SecuredRouteRow, securitySuites } from '../support/security.js';

interface Content { title: string; mainKnowledge: string; agentInstruction: string; questions: string[]; keywords: string[]; escalation: boolean }
interface Article extends Content {
  id: string; misc: Record<string, unknown>; active: boolean; public: boolean; parentFolderId: string; companyId: string;
  createdAt: string; updatedAt: string; version: number; isDraft: boolean; isDraftPublished: boolean;
  originalArticleId: string | null; originalArticleVersion: number | null; createdBy: string | null; updatedBy: string | null; origin: string;
}
interface Page { articles: Article[]; hasMore: boolean; nextCursor: string | null }
interface History { articleId: string; currentVersion: number; versions: { version: number; title: string; createdAt: string; createdBy: string | null }[] }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const ARTICLE_KEYS = [
  'active', 'agentInstruction', 'companyId', 'createdAt', 'createdBy', 'escalation', 'id', 'isDraft', 'isDraftPublished', 'keywords',
  'mainKnowledge', 'misc', 'origin', 'originalArticleId', 'originalArticleVersion', 'parentFolderId', 'public', 'questions', 'title',
  'updatedAt', 'updatedBy', 'version',
];

/** Six content fields told apart by `tag`. */
const content = (tag: string, extra: Partial<Content> = {}): Content => ({
  title: `Title ${tag}`,
  mainKnowledge: `Knowledge ${tag}`,
  agentInstruction: `Instruction ${tag}`,
  questions: [`Question one ${tag}`, `Question two ${tag}`],
  keywords: [`kw-${tag}`],
  escalation: false,
  ...extra,
});
const pick = (a: Content): Content => ({
  title: a.title, mainKnowledge: a.mainKnowledge, agentInstruction: a.agentInstruction, questions: a.questions, keywords: a.keywords, escalation: a.escalation,
});

const one = (id: string) => `/v2/hc-articles/${id}/public`;
const sub = (id: string, action: string) => `/v2/hc-articles/${id}/${action}/public`;

const ok = expectStatus;
const newFolder = async (t: TestApp, key: string, title = 'Folder') =>
  (await ok<{ id: string }>(t, 201, 'POST', '/v2/hc-folders/public', key, { title, description: `About ${title}` })).id;
const newArticle = (t: TestApp, key: string, parentFolderId: string, tag: string, extra: Record<string, unknown> = {}) =>
  ok<Article>(t, 201, 'POST', '/v2/hc-articles/public', key, { ...content(tag), parentFolderId, ...extra });
const liveIn = async (t: TestApp, w: Tenant, tag = 'live') => newArticle(t, w.key, await newFolder(t, w.key), tag);
const draftOf = async (t: TestApp, w: Tenant) => {
  const live = await liveIn(t, w);
  return { live, draft: await ok<Article>(t, 201, 'POST', sub(live.id, 'draft'), w.key, content('draft')) };
};

describe('article routes', () => {
  let t: TestApp;
  /** Advanced where "most recently updated" must be unambiguous. */
  const clock = testClock();
  before(async () => {
    t = await startTestApp({ clock });
  });
  after(() => t.close());

  const get = <T>(w: Tenant, path: string) => ok<T>(t, 200, 'GET', path, w.readKey);
  const list = (w: Tenant, query = '') => get<Page>(w, `/v2/hc-articles/public${query ? `?${query}` : ''}`);
  const titles = async (w: Tenant, query: string) => (await list(w, query)).articles.map((a) => a.title).sort();
  const byIds = (w: Tenant, articleIds: string[]) => ok<Article[]>(t, 200, 'POST', '/v2/hc-articles/ids/public', w.readKey, { articleIds });
  const update = (w: Tenant, id: string, body: object) => ok<Article>(t, 200, 'PUT', one(id), w.key, body);
  const publish = (w: Tenant, id: string, body?: object) => ok<Article>(t, 200, 'POST', sub(id, 'publish'), w.key, body);
  const history = (w: Tenant, id: string) => get<History>(w, sub(id, 'history'));
  const atVersion = (w: Tenant, id: string, version: number) => ok<Article>(t, 200, 'POST', sub(id, 'history'), w.readKey, { version });
  const keyId = async (key: string) => (await ok<{ apiKey: { id: string } }>(t, 200, 'GET', '/v2/workspace/public', key)).apiKey.id;
  /** Follows nextCursor to the end (at most 20 pages). */
  const walk = async (w: Tenant, query: string) => {
    const pages: Page[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await list(w, `${query}${cursor ? `&cursor=${cursor}` : ''}`);
      pages.push(page);
      cursor = page.nextCursor;
    } while (cursor && pages.length < 20);
    return { pages, seen: pages.flatMap((p) => p.articles.map((a) => a.id)) };
  };
  const fail = async (w: Tenant, method: string, path: string, status: number, message?: string | RegExp, body?: unknown) =>
    assertError(await t.request(method, path, { key: w.key, body }), status, message);

  describe('security', () => {
    type Build = (t: TestApp, owner: Tenant) => Promise<{ path: string; body?: unknown }>;
    const onLive = (action: string | null, body?: unknown): Build => async (app, o) => {
      const live = await liveIn(app, o);
      return { path: action ? sub(live.id, action) : one(live.id), body };
    };
    const moveBody: Build = async (app, o) => {
      const live = await liveIn(app, o);
      return { path: sub(live.id, 'move'), body: { parentFolderId: await newFolder(app, o.key, 'Other') } };
    };
    const onDraft: Build = async (app, o) => ({ path: sub((await draftOf(app, o)).draft.id, 'publish'), body: {} });
    const create: Build = async (app, o) => ({ path: '/v2/hc-articles/public', body: { ...content('c'), parentFolderId: await newFolder(app, o.key) } });
    // [label, method, scope, request, status for a resource of another workspace]
    const routes: SecuredRouteRow[] = [
      ['list', 'GET', 'read', async () => ({ path: '/v2/hc-articles/public' }), undefined],
      ['by ids', 'POST', 'read', async (app, o) => ({ path: '/v2/hc-articles/ids/public', body: { articleIds: [(await liveIn(app, o)).id] } }), undefined],
      ['create', 'POST', 'write', create, 400],
      ['update', 'PUT', 'write', onLive(null, content('u')), 404],
      ['draft', 'POST', 'write', onLive('draft', content('d')), 404],
      ['publish', 'POST', 'write', onDraft, 404],
      ['history', 'GET', 'read', onLive('history'), 404],
      ['version', 'POST', 'read', onLive('history', { version: 1 }), 404],
      ['revert', 'POST', 'write', onLive('revert', { version: 1 }), 404],
      ['move', 'PUT', 'write', moveBody, 404],
      ['delete', 'DELETE', 'write', onLive(null), 404],
    ];
    securitySuites(() => t, routes);
  });

  describe('create and read', () => {
    it('creates a live article at version 1 with defaults, trimmed, stamped with the key', async () => {
      const w = await makeTenant(t);
      const folderId = await newFolder(t, w.key);
      const before = Date.now();
      const a = await newArticle(t, w.key, folderId, 'x', { title: '  Reset password  ', questions: ['  q  '] });
      assert.deepEqual(Object.keys(a).sort(), ARTICLE_KEYS);
      assert.match(a.id, UUID);
      assert.match(a.createdAt, ISO);
      assert.ok(Date.parse(a.createdAt) >= before - 1000 && Date.parse(a.createdAt) <= Date.now() + 1000);
      const id = await keyId(w.key);
      assert.deepEqual(a, {
        ...content('x'), title: 'Reset password', questions: ['q'], id: a.id, misc: {}, active: true, public: false, parentFolderId: folderId,
        companyId: w.workspaceId, createdAt: a.createdAt, updatedAt: a.createdAt, version: 1, isDraft: false, isDraftPublished: false,
        originalArticleId: null, originalArticleVersion: null, createdBy: id, updatedBy: id, origin: 'API_CREATED',
      });
      assert.deepEqual(await history(w, a.id), { articleId: a.id, currentVersion: 1, versions: [{ version: 1, title: 'Reset password', createdAt: a.createdAt, createdBy: id }] });
      const flagged = await newArticle(t, w.key, folderId, 'y', { isDraft: true, origin: 'MAGIC_ARTICLE', active: false, public: true, escalation: true });
      assert.deepEqual([flagged.isDraft, flagged.origin, flagged.active, flagged.public, flagged.escalation, flagged.originalArticleId], [true, 'MAGIC_ARTICLE', false, true, true, null]);
    });

    it('fetches by ids in request order, skipping unknown and other-workspace ids', async () => {
      const w = await makeTenant(t);
      const other = await makeTenant(t);
      const folderId = await newFolder(t, w.key);
      const [a, b, c] = [await newArticle(t, w.key, folderId, 'a'), await newArticle(t, w.key, folderId, 'b'), await newArticle(t, w.key, folderId, 'c')];
      const foreign = await liveIn(t, other, 'foreign');
      const got = await byIds(w, [c!.id, UNKNOWN, a!.id, foreign.id, b!.id]);
      assert.deepEqual(got.map((x) => x.id), [c!.id, a!.id, b!.id]);
      assert.deepEqual(got[0], c);
      assert.deepEqual(await byIds(w, [foreign.id]), []);
      assert.deepEqual((await byIds(other, [a!.id, foreign.id])).map((x) => x.id), [foreign.id]);
    });
  });

  describe('validation', () => {
    it('answers 400 naming the field', async () => {
      const w = await makeTenant(t);
      const folderId = await newFolder(t, w.key);
      const live = await newArticle(t, w.key, folderId, 'v');
      const create = (body: object, message: string | RegExp) => fail(w, 'POST', '/v2/hc-articles/public', 400, message, { ...content('v'), parentFolderId: folderId, ...body });
      await create({ title: undefined }, 'body.title: Invalid input: expected string, received undefined');
      await create({ mainKnowledge: '' }, /^body\.mainKnowledge: Too small/);
      await create({ mainKnowledge: '   ' }, /^body\.mainKnowledge: Too small/);
      await create({ title: 'x'.repeat(501) }, /^body\.title: Too big.*500/);
      await create({ questions: Array.from({ length: 101 }, (_, i) => `q${i}`) }, /^body\.questions: Too big.*100/);
      await create({ keywords: ['ok', ' '] }, /^body\.keywords\.1: Too small/);
      await create({ origin: 'SOMETHING' }, /^body\.origin: Invalid option/);
      await create({ parentFolderId: 'not-a-uuid' }, /^body\.parentFolderId: Invalid UUID/);
      await create({ colour: 'red' }, /^body: Unrecognized key: "colour"/);
      await create({ parentFolderId: UNKNOWN }, `parentFolderId: folder ${UNKNOWN} not found in this workspace`);
      await fail(w, 'PUT', one(live.id), 400, /^body: Unrecognized key: "parentFolderId"/, { ...content('v'), parentFolderId: folderId });
      await fail(w, 'PUT', one(live.id), 400, /^body\.escalation: /, { ...content('v'), escalation: undefined });
      await fail(w, 'POST', sub(live.id, 'draft'), 400, /^body\.title: /, {});
      await fail(w, 'POST', sub(live.id, 'revert'), 400, /^body\.version: Too small/, { version: 0 });
      await fail(w, 'POST', sub(live.id, 'history'), 400, /^body\.version: /, { version: 1.5 });
      await fail(w, 'PUT', sub(live.id, 'move'), 400, /^body\.parentFolderId: Invalid UUID/, { parentFolderId: 'x' });
      await fail(w, 'POST', '/v2/hc-articles/ids/public', 400, /^body\.articleIds: Too small/, { articleIds: [] });
      await fail(w, 'POST', '/v2/hc-articles/ids/public', 400, /^body\.articleIds\.0: Invalid UUID/, { articleIds: ['nope'] });
      await fail(w, 'GET', '/v2/hc-articles/public?type=draft&isDraftPublished=maybe', 400, /^query\.isDraftPublished: Invalid option/);
      for (const [method, path] of [['PUT', one('nope')], ['DELETE', one('nope')], ['GET', sub('nope', 'history')], ['POST', sub('nope', 'publish')]]) {
        await fail(w, method!, path!, 400, /^path\.id: Invalid UUID/);
      }
      for (const [query, message] of [
        ['limit=0', /^query\.limit: Too small/], ['limit=201', /^query\.limit: Too big/], ['limit=ten', /^query\.limit: /],
        ['type=archived', /^query\.type: Invalid option/], ['origin=NOPE', /^query\.origin: Invalid option/],
        ['isDraftPublished=yes', /^query\.isDraftPublished: /], ['parentFolderId=x', /^query\.parentFolderId: Invalid UUID/],
        ['sort=title', /^query: Unrecognized key: "sort"/], ['cursor=%21%21%21', /^query\.cursor: malformed cursor/],
        [`cursor=${Buffer.from('yesterday|abc').toString('base64url')}`, /^query\.cursor: malformed cursor/],
      ] as const) {
        await fail(w, 'GET', `/v2/hc-articles/public?${query}`, 400, message);
      }
      await fail(w, 'PUT', one(UNKNOWN), 404, 'article not found', content('v'));
      assert.deepEqual(await history(w, live.id), { articleId: live.id, currentVersion: 1, versions: [{ version: 1, title: 'Title v', createdAt: live.createdAt, createdBy: live.createdBy }] });
    });

    it('answers 400, not 500, for a well-encoded cursor holding a non-UUID id or an unstorable date', async () => {
      const w = await makeTenant(t);
      const cursor = (raw: string) => `/v2/hc-articles/public?cursor=${Buffer.from(raw).toString('base64url')}`;
      await fail(w, 'GET', cursor(`${new Date().toISOString()}|${'-'.repeat(36)}`), 400, /^query\.cursor: malformed cursor/);
      await fail(w, 'GET', cursor(`-271821-04-20T00:00:00.000Z|${UNKNOWN}`), 400, /^query\.cursor: malformed cursor/);
      await fail(w, 'GET', cursor(`0000-01-01T00:00:00.000Z|${UNKNOWN}`), 400, /^query\.cursor: malformed cursor/);
      await fail(w, 'GET', cursor(`2026-02-30T00:00:00.000Z|${UNKNOWN}`), 400, /^query\.cursor: malformed cursor/);
    });

    it('answers 400, not 500, for text the database cannot store and for versions beyond its integers', async () => {
      const w = await makeTenant(t);
      const folderId = await newFolder(t, w.key);
      const nul = { ...content('n'), title: 'a\u0000b', parentFolderId: folderId };
      await fail(w, 'POST', '/v2/hc-articles/public', 400, 'body.title: contains a NUL character or invalid Unicode, which cannot be stored', nul);
      const lone = await t.request('POST', '/v2/hc-articles/public', {
        key: w.key,
        raw: JSON.stringify({ ...content('s'), parentFolderId: folderId }).replace('"Knowledge s', '"Knowledge \\ud800 s'),
        headers: { 'content-type': 'application/json' },
      });
      assertError(lone, 400, /^body\.mainKnowledge: contains a NUL character or invalid Unicode/);
      await fail(w, 'GET', '/v2/hc-articles/public?q=a%00b', 400, /^query\.q: contains a NUL/);
      const live = await newArticle(t, w.key, folderId, 'v');
      await fail(w, 'POST', sub(live.id, 'revert'), 400, /^body\.version: /, { version: 1099511627776 });
      assert.equal((await list(w)).articles.length, 1, 'nothing half-written');
    });
  });

  describe('versions, drafts and publishing', () => {
    it('runs update, draft, conflicting publish, overwrite, history, version fetch and revert end to end', async () => {
      const w = await makeTenant(t);
      const me = await keyId(w.key);
      const folderId = await newFolder(t, w.key);
      const v1 = await newArticle(t, w.key, folderId, 'one', { public: true });
      clock.advance();
      const v2 = await update(w, v1.id, { ...content('two'), active: false });
      assert.deepEqual({ ...pick(v2), version: v2.version, active: v2.active, public: v2.public }, { ...content('two'), version: 2, active: false, public: true });
      assert.equal(v2.createdAt, v1.createdAt);
      assert.ok(v2.updatedAt > v1.updatedAt);
      assert.deepEqual([v2.createdBy, v2.updatedBy], [me, me]);

      const draft = await ok<Article>(t, 201, 'POST', sub(v1.id, 'draft'), w.key, content('draft'));
      assert.deepEqual(draft, {
        ...content('draft'), id: draft.id, misc: {}, active: false, public: true, parentFolderId: folderId, companyId: w.workspaceId,
        createdAt: draft.createdAt, updatedAt: draft.createdAt, version: 1, isDraft: true, isDraftPublished: false,
        originalArticleId: v1.id, originalArticleVersion: 2, createdBy: me, updatedBy: me, origin: 'API_CREATED',
      });
      assert.deepEqual(pick((await byIds(w, [v1.id]))[0]!), content('two'), 'the live article is unchanged by the draft');

      clock.advance();
      const other = await makeKey(t, w.workspaceId, { scopes: ['write'] });
      const v3 = await ok<Article>(t, 200, 'PUT', one(v1.id), other.key, content('three'));
      assert.deepEqual([v3.version, v3.active, v3.public, v3.createdBy, v3.updatedBy], [3, false, true, me, other.id]);

      await fail(w, 'POST', sub(draft.id, 'publish'), 409,
        'the live article changed since this draft was made (draft of version 2, live version 3); publish with overwrite=true to replace it', {});
      await fail(w, 'POST', sub(draft.id, 'publish'), 409, /draft of version 2, live version 3/);
      assert.equal((await byIds(w, [draft.id]))[0]!.isDraftPublished, false, 'a refused publish changes nothing');

      clock.advance();
      const v4 = await publish(w, draft.id, { overwrite: true });
      assert.deepEqual({ ...pick(v4), id: v4.id, version: v4.version, isDraft: v4.isDraft, updatedBy: v4.updatedBy }, { ...content('draft'), id: v1.id, version: 4, isDraft: false, updatedBy: me });
      const [published] = await byIds(w, [draft.id]);
      assert.deepEqual([published!.isDraftPublished, published!.version, published!.originalArticleId], [true, 1, v1.id]);
      await fail(w, 'POST', sub(draft.id, 'publish'), 409, 'draft is already published and can no longer change', { overwrite: true });
      await fail(w, 'PUT', one(draft.id), 409, 'draft is already published and can no longer change', content('late'));
      await fail(w, 'POST', sub(draft.id, 'revert'), 409, 'draft is already published and can no longer change', { version: 1 });
      await fail(w, 'PUT', sub(draft.id, 'move'), 409, 'draft is already published and can no longer change', { parentFolderId: folderId });

      const h = await history(w, v1.id);
      assert.equal(h.articleId, v1.id);
      assert.equal(h.currentVersion, 4);
      assert.deepEqual(h.versions.map((v) => [v.version, v.title, v.createdBy]), [[4, 'Title draft', me], [3, 'Title three', other.id], [2, 'Title two', me], [1, 'Title one', me]]);
      assert.deepEqual(h.versions.map((v) => v.createdAt), [v4.updatedAt, v3.updatedAt, v2.updatedAt, v1.updatedAt]);

      const at2 = await atVersion(w, v1.id, 2);
      assert.deepEqual(at2, { ...v4, ...content('two'), active: false, public: true, version: 2, updatedAt: v2.updatedAt, updatedBy: me });
      assert.deepEqual(pick(await atVersion(w, v1.id, 3)), content('three'));
      await fail(w, 'POST', sub(v1.id, 'history'), 404, 'version 9 of this article not found', { version: 9 });

      clock.advance();
      const v5 = await ok<Article>(t, 200, 'POST', sub(v1.id, 'revert'), w.key, { version: 1 });
      assert.deepEqual({ ...pick(v5), version: v5.version, active: v5.active, public: v5.public }, { ...content('one'), version: 5, active: true, public: true });
      assert.ok(v5.updatedAt > v4.updatedAt);
      assert.deepEqual((await history(w, v1.id)).versions.map((v) => [v.version, v.title]), [[5, 'Title one'], [4, 'Title draft'], [3, 'Title three'], [2, 'Title two'], [1, 'Title one']]);
      await fail(w, 'POST', sub(v1.id, 'revert'), 404, 'version 6 of this article not found', { version: 6 });
    });

    it('publishes an up-to-date draft without overwrite, with no body at all', async () => {
      const w = await makeTenant(t);
      const { live, draft } = await draftOf(t, w);
      const res = await t.request<Article>('POST', sub(draft.id, 'publish'), { key: w.key });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual({ ...pick(res.body), id: res.body.id, version: res.body.version }, { ...content('draft'), id: live.id, version: 2 });
      await fail(w, 'POST', sub(draft.id, 'publish'), 409, 'draft is already published and can no longer change');
      await fail(w, 'POST', sub(live.id, 'publish'), 400, 'article is not a draft', {});
      await fail(w, 'POST', sub(draft.id, 'draft'), 400, 'article is a draft; drafts are made from live articles', content('x'));
      await fail(w, 'POST', sub(live.id, 'publish'), 400, /^body\.overwrite: /, { overwrite: 'yes' });
      await fail(w, 'POST', sub(UNKNOWN, 'publish'), 404, 'article not found', {});
    });

    it('publishes the content a client of the deployed service sends with the publish, and takes active, public and origin on a draft', async () => {
      const w = await makeTenant(t);
      const live = await liveIn(t, w);
      // Exactly what such a client sends: create's fields on both routes.
      const draft = await ok<Article>(t, 201, 'POST', sub(live.id, 'draft'), w.key, { ...content('draft'), active: false, public: true, origin: 'FIX_REVIEW' });
      assert.deepEqual([draft.active, draft.public, draft.origin, draft.originalArticleId], [false, true, 'FIX_REVIEW', live.id]);
      const body = { ...content('sent'), active: true, public: false, origin: 'API_CREATED' };
      const published = await publish(w, draft.id, body);
      assert.deepEqual({ ...pick(published), id: published.id, version: published.version, active: published.active, public: published.public, origin: published.origin },
        { ...content('sent'), id: live.id, version: 2, active: true, public: false, origin: 'API_CREATED' });
      const [kept] = await byIds(w, [draft.id]);
      assert.deepEqual({ ...pick(kept!), isDraftPublished: kept!.isDraftPublished, version: kept!.version }, { ...content('sent'), isDraftPublished: true, version: 2 });

      // Fields left out are the draft's; a new live article takes the body's origin.
      const folderId = await newFolder(t, w.key);
      const standalone = await newArticle(t, w.key, folderId, 'own', { isDraft: true });
      const fresh = await publish(w, standalone.id, { title: 'Only the title', origin: 'FIX_REVIEW', overwrite: false });
      assert.deepEqual({ ...pick(fresh), origin: fresh.origin }, { ...content('own'), title: 'Only the title', origin: 'FIX_REVIEW' });

      const another = (await draftOf(t, w)).draft;
      await fail(w, 'POST', sub(another.id, 'publish'), 400, /^body\.title: /, { title: '' });
      await fail(w, 'POST', sub(another.id, 'publish'), 400, /^body\.origin: /, { origin: 'SOMEWHERE' });
      await fail(w, 'POST', sub(another.id, 'publish'), 400, /unrecognized key.*"color"/i, { color: 'red' });
      assert.equal((await byIds(w, [another.id]))[0]!.version, 1, 'a refused publish changes nothing');
    });

    it('keeps the live article in its current folder when an overwriting publish lands after a move', async () => {
      const w = await makeTenant(t);
      const { live, draft } = await draftOf(t, w);
      const elsewhere = await newFolder(t, w.key, 'Elsewhere');
      const moved = await ok<Article>(t, 200, 'PUT', sub(live.id, 'move'), w.key, { parentFolderId: elsewhere });
      assert.equal(moved.version, 2);
      await fail(w, 'POST', sub(draft.id, 'publish'), 409, /draft of version 1, live version 2/, {});
      const published = await publish(w, draft.id, { overwrite: true });
      assert.deepEqual([published.version, published.title, published.parentFolderId], [3, content('draft').title, elsewhere]);
    });

    it('echoes ids in the stored lower case whatever case the path used', async () => {
      const w = await makeTenant(t);
      const live = await liveIn(t, w);
      const upper = live.id.toUpperCase();
      assert.equal((await history(w, upper)).articleId, live.id);
      assert.equal((await list(w, `parentFolderId=${live.parentFolderId.toUpperCase()}`)).articles[0]?.id, live.id);
      assert.deepEqual((await byIds(w, [upper])).map((a) => a.id), [live.id]);
      const same = await ok<Article>(t, 200, 'PUT', sub(live.id, 'move'), w.key, { parentFolderId: live.parentFolderId.toUpperCase() });
      assert.equal(same.version, 1, 'a move to its own folder, spelled in upper case, changes nothing');
    });

    it('publishes a draft without an original as a new live article, and edits open drafts as versions', async () => {
      const w = await makeTenant(t);
      const folderId = await newFolder(t, w.key);
      const draft = await newArticle(t, w.key, folderId, 'd', { isDraft: true, origin: 'SOURCE_IMPORT', public: true });
      const edited = await update(w, draft.id, content('d2'));
      assert.deepEqual([edited.version, edited.isDraft, edited.public, edited.title], [2, true, true, 'Title d2']);
      const live = await publish(w, draft.id, {});
      assert.notEqual(live.id, draft.id);
      assert.deepEqual({ ...pick(live), version: live.version, isDraft: live.isDraft, origin: live.origin, folder: live.parentFolderId, public: live.public, original: live.originalArticleId },
        { ...content('d2'), version: 1, isDraft: false, origin: 'SOURCE_IMPORT', folder: folderId, public: true, original: null });
      assert.deepEqual((await history(w, live.id)).versions.map((v) => [v.version, v.title]), [[1, 'Title d2']]);
      assert.deepEqual((await list(w, 'type=draft&isDraftPublished=true')).articles.map((a) => a.id), [draft.id]);
      assert.deepEqual((await list(w, 'type=draft&isDraftPublished=false')).articles, []);
      assert.deepEqual((await list(w, 'type=draft')).articles, [], 'type=draft lists open drafts only');
      const open = await newArticle(t, w.key, folderId, 'open', { isDraft: true });
      assert.deepEqual((await list(w, 'type=draft')).articles.map((a) => a.id), [open.id]);
      assert.deepEqual((await list(w, '')).articles.map((a) => a.id).sort(), [draft.id, live.id, open.id].sort(), 'no type lists everything');
    });

    it('serialises concurrent updates into consecutive versions', async () => {
      const w = await makeTenant(t);
      const live = await liveIn(t, w);
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => update(w, live.id, content(`c${i}`))));
      assert.deepEqual(results.map((r) => r.version).sort((a, b) => a - b), [2, 3, 4, 5, 6, 7]);
      const h = await history(w, live.id);
      assert.deepEqual(h.versions.map((v) => v.version), [7, 6, 5, 4, 3, 2, 1]);
      assert.equal(h.versions[0]!.title, results.find((r) => r.version === 7)!.title);
    });
  });

  describe('move, revert and delete', () => {
    it('moves as a new version, keeps the folder on revert and refuses unknown folders', async () => {
      const w = await makeTenant(t);
      const other = await makeTenant(t);
      const a = await newFolder(t, w.key, 'A');
      const b = await newFolder(t, w.key, 'B');
      const v1 = await newArticle(t, w.key, a, 'm');
      const same = await ok<Article>(t, 200, 'PUT', sub(v1.id, 'move'), w.key, { parentFolderId: a });
      assert.deepEqual(same, v1, 'moving to the same folder is not a new version');
      clock.advance();
      const v2 = await ok<Article>(t, 200, 'PUT', sub(v1.id, 'move'), w.key, { parentFolderId: b });
      assert.deepEqual({ ...pick(v2), version: v2.version, folder: v2.parentFolderId }, { ...content('m'), version: 2, folder: b });
      assert.ok(v2.updatedAt > v1.updatedAt);
      await fail(w, 'PUT', sub(v1.id, 'move'), 400, `parentFolderId: folder ${UNKNOWN} not found in this workspace`, { parentFolderId: UNKNOWN });
      const foreign = await newFolder(t, other.key);
      await fail(w, 'PUT', sub(v1.id, 'move'), 400, `parentFolderId: folder ${foreign} not found in this workspace`, { parentFolderId: foreign });
      await fail(w, 'POST', '/v2/hc-articles/public', 400, `parentFolderId: folder ${foreign} not found in this workspace`, { ...content('z'), parentFolderId: foreign });
      assert.equal((await atVersion(w, v1.id, 1)).parentFolderId, a);
      const v3 = await update(w, v1.id, { ...content('m3'), public: true });
      const v4 = await ok<Article>(t, 200, 'POST', sub(v1.id, 'revert'), w.key, { version: 1 });
      assert.deepEqual({ ...pick(v4), version: v4.version, folder: v4.parentFolderId, public: v4.public }, { ...content('m'), version: 4, folder: b, public: false });
      assert.equal(v3.version, 3);
      assert.deepEqual((await list(w, `parentFolderId=${a}`)).articles, []);
      assert.deepEqual((await list(w, `parentFolderId=${b}`)).articles.map((x) => x.id), [v1.id]);
    });

    it('deletes an article and its history, unlinking its drafts', async () => {
      const w = await makeTenant(t);
      const { live, draft } = await draftOf(t, w);
      const v2 = await update(w, live.id, content('v2'));
      const deleted = await ok<Article>(t, 200, 'DELETE', one(live.id), w.key);
      assert.deepEqual(deleted, v2);
      await fail(w, 'GET', sub(live.id, 'history'), 404, 'article not found');
      await fail(w, 'POST', sub(live.id, 'history'), 404, 'article not found', { version: 1 });
      await fail(w, 'DELETE', one(live.id), 404, 'article not found');
      await fail(w, 'PUT', one(live.id), 404, 'article not found', content('gone'));
      assert.deepEqual(await byIds(w, [live.id]), []);
      const [orphan] = await byIds(w, [draft.id]);
      assert.deepEqual(orphan, { ...draft, originalArticleId: null, originalArticleVersion: null });
      const republished = await publish(w, draft.id, {});
      assert.notEqual(republished.id, live.id);
      assert.deepEqual([republished.version, republished.title, republished.isDraft], [1, 'Title draft', false]);
      const removedDraft = await ok<Article>(t, 200, 'DELETE', one(draft.id), w.key);
      assert.equal(removedDraft.isDraftPublished, true);
      assert.deepEqual((await list(w)).articles.map((a) => a.id), [republished.id]);
    });
  });

  describe('listing', () => {
    it('narrows by type, folder, origin, isDraftPublished and title match, never showing another workspace', async () => {
      const w = await makeTenant(t);
      const other = await makeTenant(t);
      const f1 = await newFolder(t, w.key, 'One');
      const f2 = await newFolder(t, w.key, 'Two');
      const mk = (folder: string, title: string, extra: Record<string, unknown> = {}) => newArticle(t, w.key, folder, title, { title, ...extra });
      await mk(f1, 'Refund policy');
      await mk(f1, 'REFUND window', { origin: 'MANUAL_ARTICLE' });
      await mk(f2, '100% refund guarantee', { isDraft: true });
      await mk(f2, '100 refunds a day', { origin: 'MANUAL_ARTICLE' });
      await mk(f2, 'snake_case title', { isDraft: true, origin: 'FIX_REVIEW' });
      await mk(f2, 'snakeXcase title');
      await mk(f1, 'C:\\path to files');
      await newArticle(t, other.key, await newFolder(t, other.key), 'x', { title: 'Refund policy elsewhere' });

      const all = ['100 refunds a day', '100% refund guarantee', 'C:\\path to files', 'REFUND window', 'Refund policy', 'snakeXcase title', 'snake_case title'];
      assert.deepEqual(await titles(w, ''), all);
      assert.deepEqual(await titles(w, 'type=live'), ['100 refunds a day', 'C:\\path to files', 'REFUND window', 'Refund policy', 'snakeXcase title']);
      assert.deepEqual(await titles(w, 'type=draft'), ['100% refund guarantee', 'snake_case title']);
      assert.deepEqual(await titles(w, `parentFolderId=${f1}`), ['C:\\path to files', 'REFUND window', 'Refund policy']);
      assert.deepEqual(await titles(w, `parentFolderId=${f2}&type=draft`), ['100% refund guarantee', 'snake_case title']);
      assert.deepEqual(await titles(w, `parentFolderId=${UNKNOWN}`), []);
      assert.deepEqual(await titles(w, 'origin=MANUAL_ARTICLE'), ['100 refunds a day', 'REFUND window']);
      assert.deepEqual(await titles(w, 'origin=FIX_REVIEW'), ['snake_case title']);
      assert.deepEqual(await titles(w, 'origin=FINI_SCOUT'), []);
      assert.deepEqual(await titles(w, 'q=rEfUnD'), ['100 refunds a day', '100% refund guarantee', 'REFUND window', 'Refund policy']);
      assert.deepEqual(await titles(w, `q=${encodeURIComponent('  refund  ')}&type=live&origin=API_CREATED`), ['Refund policy']);
      assert.deepEqual(await titles(w, 'q=%25'), ['100% refund guarantee']);
      assert.deepEqual(await titles(w, 'q=100%25'), ['100% refund guarantee']);
      assert.deepEqual(await titles(w, 'q=_'), ['snake_case title']);
      assert.deepEqual(await titles(w, 'q=e_c'), ['snake_case title']);
      assert.deepEqual(await titles(w, `q=${encodeURIComponent('\\')}`), ['C:\\path to files']);
      assert.deepEqual(await titles(w, 'q=elsewhere'), []);
      assert.deepEqual(await titles(w, 'isDraftPublished=false&type=draft'), ['100% refund guarantee', 'snake_case title']);
      assert.deepEqual(await titles(w, 'isDraftPublished=1'), []);
      const page = await list(w);
      assert.equal(page.hasMore, false);
      assert.equal(page.nextCursor, null);
      for (const a of page.articles) assert.equal(a.companyId, w.workspaceId);
      assert.deepEqual(await titles(other, ''), ['Refund policy elsewhere']);
    });

    it('pages through ~25 articles newest change first, each exactly once, ties broken by id', async () => {
      const w = await makeTenant(t);
      const other = await makeTenant(t);
      await liveIn(t, other, 'noise');
      const folderId = await newFolder(t, w.key);
      const created: Article[] = [];
      for (let i = 0; i < 25; i += 1) created.push(await newArticle(t, w.key, folderId, `p${i}`, { isDraft: i % 5 === 0 }));
      // Groups of three share an updatedAt, so page boundaries fall inside a tie.
      const base = Date.now() - 60_000;
      const stamps = new Map<string, number>();
      for (const [i, a] of created.entries()) {
        const at = base - Math.floor(i / 3) * 1000;
        stamps.set(a.id, at);
        await t.database.db.update(articles).set({ updatedAt: new Date(at) }).where(eq(articles.id, a.id));
      }
      const expected = [...created].sort((x, y) => stamps.get(y.id)! - stamps.get(x.id)! || (x.id < y.id ? 1 : -1)).map((a) => a.id);

      const { seen, pages } = await walk(w, 'limit=10');
      assert.deepEqual(pages.map((p) => [p.articles.length, p.hasMore, p.nextCursor === null]), [[10, true, false], [10, true, false], [5, false, true]]);
      assert.deepEqual(seen, expected);
      assert.equal(new Set(seen).size, 25);
      assert.equal(pages[0]!.articles[0]!.updatedAt, new Date(base).toISOString());

      const exact = await list(w, 'limit=25');
      assert.deepEqual([exact.articles.length, exact.hasMore, exact.nextCursor], [25, false, null]);
      const drafts = await walk(w, 'type=draft&limit=2');
      assert.deepEqual(drafts.pages.map((p) => [p.articles.length, p.hasMore]), [[2, true], [2, true], [1, false]]);
      assert.deepEqual(drafts.seen, expected.filter((id) => created.find((a) => a.id === id)!.isDraft));
      assert.deepEqual(drafts.pages.flatMap((p) => p.articles.map((a) => a.title)).sort(), ['Title p0', 'Title p10', 'Title p15', 'Title p20', 'Title p5']);

      const last = created[24]!;
      const touched = await update(w, last.id, content('touched'));
      const top = await list(w, 'limit=1');
      assert.deepEqual([top.articles[0]!.id, top.articles[0]!.updatedAt], [last.id, touched.updatedAt]);
    });
  });
});
