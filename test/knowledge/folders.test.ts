import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { and, eq, inArray } from 'drizzle-orm';
import { agentFolders, articleVersions } from '../../src/db/schema/index.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { testClock } from '../support/clock.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { assertError, expectStatus, securitySuite } from '../support/security.js';

interface Folder {
  id: string; title: string; description: string; parentFolderId: string | null; active: boolean;
  botIds: string[]; companyId: string; createdAt: string; updatedAt: string;
}
interface Article {
  id: string; title: string; active: boolean; public: boolean; escalation: boolean; isDraft: boolean; isDraftPublished: boolean;
  originalArticleId: string | null; version: number; origin: string; updatedAt: string; parentFolderId: string;
}
type Summary = Pick<Article, 'id' | 'title' | 'active' | 'public' | 'escalation' | 'isDraft' | 'originalArticleId' | 'version' | 'origin' | 'updatedAt'>;
interface SnapFolder extends Folder { articles: Summary[]; subfolders: SnapFolder[] }
interface Snapshot { id: string; createdAt: string; updatedAt: string; snapshotObjV2: SnapFolder[] }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const FOLDER_KEYS = ['active', 'botIds', 'companyId', 'createdAt', 'description', 'id', 'parentFolderId', 'title', 'updatedAt'];
const folderPath = (id: string) => `/v2/hc-folders/${id}/public`;
const movePath = (id: string) => `/v2/hc-folders/${id}/move/public`;
const notFoundIn = (id: string) => `parentFolderId: folder ${id} not found in this workspace`;
const CYCLE = 'parentFolderId: a folder cannot be moved into itself or one of its subfolders';

/** The summary the snapshot should show for an article, written from the article itself. */
const summary = (a: Article): Summary => ({
  id: a.id, title: a.title, active: a.active, public: a.public, escalation: a.escalation, isDraft: a.isDraft,
  originalArticleId: a.originalArticleId, version: a.version, origin: a.origin, updatedAt: a.updatedAt,
});
const node = (f: Folder, articles: Article[] = [], subfolders: SnapFolder[] = []): SnapFolder => ({ ...f, articles: articles.map(summary), subfolders });
/** Titles only, to compare the shape of a tree. */
type Shape = [string, string[], Shape[]];
const shape = (nodes: SnapFolder[]): Shape[] => nodes.map((n) => [n.title, n.articles.map((a) => a.title), shape(n.subfolders)]);
const maxIso = (values: string[]) => values.reduce((a, b) => (a > b ? a : b));

/** Creates a folder as `owner` through the API (for the security suites). */
async function folderOf(t: TestApp, owner: Tenant, title = 'Folder'): Promise<Folder> {
  const res = await t.request<Folder>('POST', '/v2/hc-folders/public', { key: owner.key, body: { title, description: '' } });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

describe('knowledge folders', () => {
  let t: TestApp;
  const clock = testClock();
  before(async () => {
    t = await startTestApp({ clock });
  });
  after(() => t.close());

  securitySuite(() => t, { method: 'GET', scope: 'read', request: async () => ({ path: '/v2/hc-folders/public' }) });
  securitySuite(() => t, {
    method: 'POST',
    scope: 'write',
    request: async () => ({ path: '/v2/hc-folders/public', body: { title: 'A', description: '' } }),
  });
  securitySuite(() => t, {
    method: 'PUT',
    scope: 'write',
    request: async (app, w) => ({ path: folderPath((await folderOf(app, w)).id), body: { title: 'B', description: '', active: true } }),
    otherWorkspace: {
      request: async (app, owner) => ({ path: folderPath((await folderOf(app, owner)).id), body: { title: 'B', description: '', active: true } }),
    },
  });
  securitySuite(() => t, {
    method: 'PUT',
    scope: 'write',
    request: async (app, w) => ({ path: movePath((await folderOf(app, w)).id), body: { parentFolderId: null } }),
    otherWorkspace: { request: async (app, owner) => ({ path: movePath((await folderOf(app, owner)).id), body: { parentFolderId: null } }) },
  });
  securitySuite(() => t, {
    method: 'DELETE',
    scope: 'write',
    request: async (app, w) => ({ path: folderPath((await folderOf(app, w)).id) }),
    otherWorkspace: { request: async (app, owner) => ({ path: folderPath((await folderOf(app, owner)).id) }) },
  });
  securitySuite(() => t, {
    method: 'POST',
    scope: 'write',
    request: async () => ({ path: '/v2/hc-bot-folder-junctions/public', body: { junctions: [{ folderId: UNKNOWN, botId: UNKNOWN, action: 'ADD' }] } }),
  });

  const ok = <T>(status: number, method: string, path: string, key: string, body?: unknown) =>
    expectStatus<T>(t, status, method, path, key, body);
  const fail = async (key: string, method: string, path: string, status: number, message?: string | RegExp, body?: unknown) =>
    assertError(await t.request(method, path, { key, body }), status, message);
  /** Creates a folder; advancing the clock keeps creation order (the snapshot's order) unambiguous. */
  const folder = async (w: Tenant, title: string, parentFolderId?: string | null, description = '') => {
    const created = await ok<Folder>(201, 'POST', '/v2/hc-folders/public', w.writeKey, { title, description, parentFolderId });
    clock.advance();
    return created;
  };
  const article = (w: Tenant, parentFolderId: string, title: string, extra: object = {}) =>
    ok<Article>(201, 'POST', '/v2/hc-articles/public', w.writeKey, {
      title, mainKnowledge: `About ${title}`, agentInstruction: '', questions: [], keywords: [], escalation: false, parentFolderId, ...extra,
    });
  const agent = async (w: Tenant, name = 'Bot') => (await ok<{ id: string }>(201, 'POST', '/v2/bots/public', w.writeKey, { name })).id;
  const snapshot = (w: Tenant, botId?: string) =>
    ok<Snapshot>(200, 'GET', `/v2/hc-folders/public${botId ? `?botId=${botId}` : ''}`, w.readKey);
  const junctions = (w: Tenant, items: { folderId: string; botId: string; action: 'ADD' | 'DELETE' }[]) =>
    t.request<{ status: boolean }>('POST', '/v2/hc-bot-folder-junctions/public', { key: w.writeKey, body: { junctions: items } });
  const assign = async (w: Tenant, botId: string, ...folderIds: string[]) => {
    const res = await junctions(w, folderIds.map((folderId) => ({ folderId, botId, action: 'ADD' as const })));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { status: true });
  };
  const rename = (w: Tenant, f: Folder) =>
    ok<Folder>(200, 'PUT', folderPath(f.id), w.writeKey, { title: f.title, description: f.description, active: f.active });

  /** Billing > Refunds > Cards, Billing > Invoices, Shipping; with live articles, drafts and a published draft. */
  async function buildTree(w: Tenant) {
    const billing = await folder(w, 'Billing', null, 'Money');
    const refunds = await folder(w, 'Refunds', billing.id);
    const cards = await folder(w, 'Cards', refunds.id, 'Card payments');
    const invoices = await folder(w, 'Invoices', billing.id);
    const shipping = await folder(w, 'Shipping');
    const window = await article(w, refunds.id, 'Refund window');
    const chargeback = await article(w, cards.id, 'Chargebacks', { escalation: true, public: true });
    const draft = await ok<Article>(201, 'POST', `/v2/hc-articles/${chargeback.id}/draft/public`, w.writeKey, {
      title: 'Chargebacks v2', mainKnowledge: 'Newer', agentInstruction: '', questions: [], keywords: [], escalation: false,
    });
    const newDraft = await article(w, cards.id, 'A draft', { isDraft: true, active: false });
    const toPublish = await article(w, shipping.id, 'Published draft', { isDraft: true });
    const published = await ok<Article>(200, 'POST', `/v2/hc-articles/${toPublish.id}/publish/public`, w.writeKey);
    return { billing, refunds, cards, invoices, shipping, window, chargeback, draft, newDraft, published };
  }

  it('creates folders with the documented shape and checks the parent', async () => {
    const w = await makeTenant(t);
    const other = await makeTenant(t);
    const top = await folder(w, '  Billing  ', undefined, 'Invoices and refunds');
    assert.deepEqual(Object.keys(top).sort(), FOLDER_KEYS);
    assert.match(top.id, UUID);
    assert.match(top.createdAt, ISO);
    assert.deepEqual({ ...top, id: '', createdAt: '', updatedAt: '' }, {
      id: '', title: 'Billing', description: 'Invoices and refunds', parentFolderId: null, active: true, botIds: [],
      companyId: w.workspaceId, createdAt: '', updatedAt: '',
    });
    assert.equal(top.updatedAt, top.createdAt);
    const child = await folder(w, 'Refunds', top.id);
    assert.equal(child.parentFolderId, top.id);
    assert.equal((await folder(w, 'Null parent', null)).parentFolderId, null);
    const foreign = await folderOf(t, other);
    await fail(w.writeKey, 'POST', '/v2/hc-folders/public', 400, notFoundIn(UNKNOWN), { title: 'X', description: '', parentFolderId: UNKNOWN });
    await fail(w.writeKey, 'POST', '/v2/hc-folders/public', 400, notFoundIn(foreign.id), { title: 'X', description: '', parentFolderId: foreign.id });
    await fail(w.writeKey, 'POST', '/v2/hc-folders/public', 400, /^body\.description: /, { title: 'X' });
    await fail(w.writeKey, 'POST', '/v2/hc-folders/public', 400, /^body\.title: /, { title: '   ', description: '' });
    await fail(w.writeKey, 'POST', '/v2/hc-folders/public', 400, /^body\.title: /, { title: 'x'.repeat(201), description: '' });
    await fail(w.writeKey, 'POST', '/v2/hc-folders/public', 400, /^body\.parentFolderId: /, { title: 'X', description: '', parentFolderId: 'nope' });
    await fail(w.writeKey, 'POST', '/v2/hc-folders/public', 400, /body/, { title: 'X', description: '', active: false });
    assert.deepEqual(shape((await snapshot(w)).snapshotObjV2), [['Billing', [], [['Refunds', [], []]]], ['Null parent', [], []]]);
  });

  it('snapshots the whole tree nested exactly, without published drafts', async () => {
    const w = await makeTenant(t);
    const empty = await snapshot(w);
    assert.equal(empty.id, w.workspaceId);
    assert.deepEqual(empty.snapshotObjV2, []);
    assert.equal(empty.updatedAt, empty.createdAt, 'an empty tree changed last when computed');

    const tree = await buildTree(w);
    const before = Date.now();
    const snap = await snapshot(w);
    assert.deepEqual(Object.keys(snap).sort(), ['createdAt', 'id', 'snapshotObjV2', 'updatedAt']);
    assert.equal(snap.id, w.workspaceId);
    assert.ok(Math.abs(Date.parse(snap.createdAt) - before) < 5_000);
    const { billing, refunds, cards, invoices, shipping, window, chargeback, draft, newDraft, published } = tree;
    // Articles are ordered by title; the published draft is left out, its live article is not.
    const expected = [
      node(billing, [], [node(refunds, [window], [node(cards, [newDraft, chargeback, draft])]), node(invoices)]),
      node(shipping, [published]),
    ];
    assert.deepEqual(snap.snapshotObjV2, expected);
    const stamps = [billing, refunds, cards, invoices, shipping, window, chargeback, draft, newDraft, published].map((x) => x.updatedAt);
    assert.equal(snap.updatedAt, maxIso(stamps));
    assert.equal(snap.snapshotObjV2[1]?.articles[0]?.isDraft, false);
    assert.equal(draft.originalArticleId, chargeback.id);
  });

  it('filters the snapshot by agent: assigned folders with all their descendants, each once', async () => {
    const w = await makeTenant(t);
    const other = await makeTenant(t);
    const tree = await buildTree(w);
    const bot = await agent(w);
    const idle = await agent(w, 'Idle');
    await assign(w, bot, tree.cards.id, tree.refunds.id, tree.shipping.id);
    const mine = await snapshot(w, bot);
    const withBot = (f: Folder) => ({ ...f, botIds: [bot] });
    assert.deepEqual(mine.snapshotObjV2, [
      node(withBot(tree.refunds), [tree.window], [node(withBot(tree.cards), [tree.newDraft, tree.chargeback, tree.draft])]),
      node(withBot(tree.shipping), [tree.published]),
    ]);
    const shown = [tree.refunds, tree.cards, tree.shipping, tree.window, tree.newDraft, tree.chargeback, tree.draft, tree.published];
    assert.equal(mine.updatedAt, maxIso(shown.map((x) => x.updatedAt)));
    // The full snapshot now reports the assignments on the folders.
    const all = await snapshot(w);
    assert.deepEqual(all.snapshotObjV2[0]?.botIds, []);
    assert.deepEqual(all.snapshotObjV2[0]?.subfolders[0]?.botIds, [bot]);
    assert.deepEqual(all.snapshotObjV2[1]?.botIds, [bot]);

    const none = await snapshot(w, idle);
    assert.deepEqual(none.snapshotObjV2, []);
    assert.equal(none.updatedAt, none.createdAt);
    await fail(w.readKey, 'GET', `/v2/hc-folders/public?botId=${UNKNOWN}`, 404, 'agent not found');
    await fail(w.readKey, 'GET', `/v2/hc-folders/public?botId=${await agent(other)}`, 404, 'agent not found');
    await fail(w.readKey, 'GET', '/v2/hc-folders/public?botId=nope', 400, /^query\.botId: /);
    await fail(w.readKey, 'GET', '/v2/hc-folders/public?other=1', 400);
    await ok(200, 'DELETE', `/v2/bots/${bot}/public`, w.writeKey);
    await fail(w.readKey, 'GET', `/v2/hc-folders/public?botId=${bot}`, 404, 'agent not found');
  });

  it('updates title, description and active state', async () => {
    const w = await makeTenant(t);
    const f = await folder(w, 'Old', null, 'old');
    const bot = await agent(w);
    await assign(w, bot, f.id);
    const updated = await ok<Folder>(200, 'PUT', folderPath(f.id), w.writeKey, { title: ' New ', description: 'new', active: false });
    assert.deepEqual({ ...updated, updatedAt: '' }, { ...f, title: 'New', description: 'new', active: false, botIds: [bot], updatedAt: '' });
    assert.ok(updated.updatedAt > f.updatedAt);
    const [top] = (await snapshot(w)).snapshotObjV2;
    assert.deepEqual(top, node(updated));
    for (const body of [{ title: 'X', description: '' }, { title: 'X', active: true }, { description: '', active: true }, { title: 'X', description: '', active: 'no' }]) {
      await fail(w.writeKey, 'PUT', folderPath(f.id), 400, /^body\./, body);
    }
    await fail(w.writeKey, 'PUT', folderPath(UNKNOWN), 404, 'folder not found', { title: 'X', description: '', active: true });
    await fail(w.writeKey, 'PUT', folderPath('nope'), 400, /^path\.id: /, { title: 'X', description: '', active: true });
  });

  it('moves folders with their subtree and refuses cycles and unknown targets', async () => {
    const w = await makeTenant(t);
    const other = await makeTenant(t);
    const tree = await buildTree(w);
    const bot = await agent(w);
    await assign(w, bot, tree.cards.id);
    const moved = await ok<Folder>(200, 'PUT', movePath(tree.refunds.id), w.writeKey, { parentFolderId: tree.shipping.id });
    assert.deepEqual({ ...moved, updatedAt: '' }, { ...tree.refunds, parentFolderId: tree.shipping.id, updatedAt: '' });
    assert.ok(moved.updatedAt > tree.refunds.updatedAt);
    assert.deepEqual(shape((await snapshot(w)).snapshotObjV2), [
      ['Billing', [], [['Invoices', [], []]]],
      ['Shipping', ['Published draft'], [['Refunds', ['Refund window'], [['Cards', ['A draft', 'Chargebacks', 'Chargebacks v2'], []]]]]],
    ]);
    const top = await ok<Folder>(200, 'PUT', movePath(tree.cards.id), w.writeKey, { parentFolderId: null });
    assert.deepEqual(top.botIds, [bot]);
    assert.equal(top.parentFolderId, null);
    assert.deepEqual(shape((await snapshot(w)).snapshotObjV2), [
      ['Billing', [], [['Invoices', [], []]]],
      ['Cards', ['A draft', 'Chargebacks', 'Chargebacks v2'], []],
      ['Shipping', ['Published draft'], [['Refunds', ['Refund window'], []]]],
    ]);
    assert.deepEqual(shape((await snapshot(w, bot)).snapshotObjV2), [['Cards', ['A draft', 'Chargebacks', 'Chargebacks v2'], []]]);

    const before = await snapshot(w);
    await fail(w.writeKey, 'PUT', movePath(tree.shipping.id), 400, CYCLE, { parentFolderId: tree.shipping.id });
    await fail(w.writeKey, 'PUT', movePath(tree.shipping.id), 400, CYCLE, { parentFolderId: tree.refunds.id });
    await fail(w.writeKey, 'PUT', movePath(tree.billing.id), 400, CYCLE, { parentFolderId: tree.invoices.id });
    await fail(w.writeKey, 'PUT', movePath(tree.billing.id), 400, notFoundIn(UNKNOWN), { parentFolderId: UNKNOWN });
    const foreign = await folderOf(t, other);
    await fail(w.writeKey, 'PUT', movePath(tree.billing.id), 400, notFoundIn(foreign.id), { parentFolderId: foreign.id });
    await fail(w.writeKey, 'PUT', movePath(tree.billing.id), 400, /^body\.parentFolderId: /, {});
    await fail(w.writeKey, 'PUT', movePath(tree.billing.id), 400, /^body\.parentFolderId: /, { parentFolderId: 'nope' });
    await fail(w.writeKey, 'PUT', movePath(UNKNOWN), 404, 'folder not found', { parentFolderId: null });
    assert.deepEqual((await snapshot(w)).snapshotObjV2, before.snapshotObjV2, 'a refused move changes nothing');
  });

  it('deletes an empty folder and refuses a non-empty one without cascade', async () => {
    const w = await makeTenant(t);
    const tree = await buildTree(w);
    const bot = await agent(w);
    await assign(w, bot, tree.invoices.id);
    const deleted = await ok<Folder>(200, 'DELETE', folderPath(tree.invoices.id), w.writeKey);
    assert.deepEqual(deleted, { ...tree.invoices, botIds: [bot] });
    await fail(w.writeKey, 'DELETE', folderPath(tree.invoices.id), 404, 'folder not found');
    const before = await snapshot(w);
    const refused = 'folder is not empty (%f subfolder(s), %a article(s)); delete with cascade=true to delete them too';
    const msg = (f: number, a: number) => refused.replace('%f', String(f)).replace('%a', String(a));
    await fail(w.writeKey, 'DELETE', folderPath(tree.billing.id), 409, msg(1, 0));
    await fail(w.writeKey, 'DELETE', `${folderPath(tree.refunds.id)}?cascade=false`, 409, msg(1, 1));
    // Live article, open draft and new draft count; so does the published draft in Shipping.
    await fail(w.writeKey, 'DELETE', folderPath(tree.cards.id), 409, msg(0, 3));
    await fail(w.writeKey, 'DELETE', `${folderPath(tree.shipping.id)}?cascade=0`, 409, msg(0, 2));
    await fail(w.writeKey, 'DELETE', `${folderPath(tree.shipping.id)}?cascade=yes`, 400, /^query\.cascade: /);
    await fail(w.writeKey, 'DELETE', folderPath(UNKNOWN), 404, 'folder not found');
    assert.deepEqual((await snapshot(w)).snapshotObjV2, before.snapshotObjV2);
  });

  it('cascades over the subtree, its articles, their history and assignments, keeping drafts elsewhere', async () => {
    const w = await makeTenant(t);
    const tree = await buildTree(w);
    const bot = await agent(w);
    await assign(w, bot, tree.cards.id, tree.billing.id, tree.shipping.id);
    // A draft of an article in the subtree, moved out of it.
    const outside = await ok<Article>(201, 'POST', `/v2/hc-articles/${tree.window.id}/draft/public`, w.writeKey, {
      title: 'Window draft', mainKnowledge: 'Draft body', agentInstruction: '', questions: [], keywords: [], escalation: false,
    });
    await ok(200, 'PUT', `/v2/hc-articles/${outside.id}/move/public`, w.writeKey, { parentFolderId: tree.shipping.id });
    const doomed = [tree.window, tree.chargeback, tree.draft, tree.newDraft].map((a) => a.id);

    const deleted = await ok<Folder>(200, 'DELETE', `${folderPath(tree.refunds.id)}?cascade=true`, w.writeKey);
    assert.deepEqual(deleted, tree.refunds);
    const snap = await snapshot(w);
    assert.deepEqual(shape(snap.snapshotObjV2), [
      ['Billing', [], [['Invoices', [], []]]],
      ['Shipping', ['Published draft', 'Window draft'], []],
    ]);
    const kept = await ok<Article[]>(200, 'POST', '/v2/hc-articles/ids/public', w.readKey, { articleIds: [...doomed, outside.id] });
    assert.deepEqual(kept.map((a) => [a.id, a.originalArticleId, a.isDraft]), [[outside.id, null, true]]);
    const versions = await t.database.db.select().from(articleVersions).where(inArray(articleVersions.articleId, doomed));
    assert.deepEqual(versions, []);
    await fail(w.readKey, 'GET', `/v2/hc-articles/${tree.window.id}/history/public`, 404);
    const rows = await t.database.db.select().from(agentFolders).where(and(eq(agentFolders.workspaceId, w.workspaceId), eq(agentFolders.agentId, bot)));
    assert.deepEqual(rows.map((r) => r.folderId).sort(), [tree.billing.id, tree.shipping.id].sort());
    // The kept draft publishes as a new live article.
    const live = await ok<Article>(200, 'POST', `/v2/hc-articles/${outside.id}/publish/public`, w.writeKey);
    assert.notEqual(live.id, tree.window.id);
    assert.equal(live.parentFolderId, tree.shipping.id);

    const top = await ok<Folder>(200, 'DELETE', `${folderPath(tree.billing.id)}?cascade=1`, w.writeKey);
    assert.deepEqual(top.botIds, [bot]);
    assert.deepEqual(shape((await snapshot(w)).snapshotObjV2), [['Shipping', ['Published draft', 'Window draft'], []]]);
  });

  it('assigns and unassigns folders to agents, idempotently, last item winning', async () => {
    const w = await makeTenant(t);
    const [a, b] = [await folder(w, 'A'), await folder(w, 'B')];
    const [bot1, bot2] = [await agent(w, 'one'), await agent(w, 'two')];
    await assign(w, bot1, a.id, a.id);
    await assign(w, bot1, a.id);
    await assign(w, bot2, a.id);
    assert.deepEqual((await rename(w, a)).botIds, [bot1, bot2]);
    const res = await junctions(w, [
      { folderId: a.id, botId: bot1, action: 'DELETE' },
      { folderId: b.id, botId: bot2, action: 'ADD' },
      { folderId: b.id, botId: bot1, action: 'ADD' },
      { folderId: b.id, botId: bot1, action: 'DELETE' },
      { folderId: b.id, botId: bot2, action: 'DELETE' },
      { folderId: b.id, botId: bot2, action: 'ADD' },
    ]);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { status: true });
    const snap = await snapshot(w);
    assert.deepEqual(snap.snapshotObjV2.map((f) => [f.title, f.botIds]), [['A', [bot2]], ['B', [bot2]]]);
    // Deleting an assignment that does not exist changes nothing.
    assert.equal((await junctions(w, [{ folderId: b.id, botId: bot1, action: 'DELETE' }])).status, 200);
    assert.deepEqual((await rename(w, b)).botIds, [bot2]);
    // Ids are case-insensitive: an upper-case spelling names the same pair.
    const mixed = await junctions(w, [
      { folderId: b.id.toUpperCase(), botId: bot1.toUpperCase(), action: 'ADD' },
      { folderId: b.id, botId: bot1, action: 'DELETE' },
    ]);
    assert.equal(mixed.status, 200, mixed.text);
    assert.deepEqual((await rename(w, b)).botIds, [bot2]);
  });

  it('applies junctions all or nothing, naming the bad item', async () => {
    const w = await makeTenant(t);
    const other = await makeTenant(t);
    const [a, b] = [await folder(w, 'A'), await folder(w, 'B')];
    const bot = await agent(w);
    const foreignFolder = await folderOf(t, other);
    const foreignBot = await agent(other);
    const gone = await agent(w, 'gone');
    await ok(200, 'DELETE', `/v2/bots/${gone}/public`, w.writeKey);
    const good = [
      { folderId: a.id, botId: bot, action: 'ADD' as const },
      { folderId: b.id, botId: bot, action: 'ADD' as const },
    ];
    const cases: [object, string][] = [
      [{ folderId: UNKNOWN, botId: bot, action: 'ADD' }, `junctions.2.folderId: folder ${UNKNOWN} not found in this workspace`],
      [{ folderId: foreignFolder.id, botId: bot, action: 'DELETE' }, `junctions.2.folderId: folder ${foreignFolder.id} not found in this workspace`],
      [{ folderId: a.id, botId: UNKNOWN, action: 'ADD' }, `junctions.2.botId: agent ${UNKNOWN} not found in this workspace`],
      [{ folderId: a.id, botId: foreignBot, action: 'ADD' }, `junctions.2.botId: agent ${foreignBot} not found in this workspace`],
      [{ folderId: b.id, botId: gone, action: 'ADD' }, `junctions.2.botId: agent ${gone} not found in this workspace`],
    ];
    for (const [bad, message] of cases) {
      assertError(await junctions(w, [...good, bad as (typeof good)[number]]), 400, message);
    }
    const res = await t.request('POST', '/v2/hc-bot-folder-junctions/public', {
      key: w.writeKey, body: { junctions: [good[0], { folderId: a.id, botId: UNKNOWN, action: 'ADD' }, { folderId: UNKNOWN, botId: bot, action: 'ADD' }] },
    });
    assertError(res, 400, `junctions.1.botId: agent ${UNKNOWN} not found in this workspace`);
    for (const body of [{ junctions: [] }, {}, { junctions: [{ ...good[0], action: 'REMOVE' }] }, { junctions: [{ ...good[0], botId: 'x' }] }]) {
      await fail(w.writeKey, 'POST', '/v2/hc-bot-folder-junctions/public', 400, /^body\.junctions/, body);
    }
    const snap = await snapshot(w);
    assert.deepEqual(snap.snapshotObjV2.map((f) => f.botIds), [[], []], 'nothing applied');
    assert.deepEqual((await snapshot(w, bot)).snapshotObjV2, []);
    const rows = await t.database.db.select().from(agentFolders).where(eq(agentFolders.workspaceId, w.workspaceId));
    assert.deepEqual(rows, []);
  });

  it('drops a soft-deleted agent from botIds', async () => {
    const w = await makeTenant(t);
    const f = await folder(w, 'Shared');
    const [keep, drop] = [await agent(w, 'keep'), await agent(w, 'drop')];
    await assign(w, keep, f.id);
    await assign(w, drop, f.id);
    assert.deepEqual((await rename(w, f)).botIds, [keep, drop]);
    await ok(200, 'DELETE', `/v2/bots/${drop}/public`, w.writeKey);
    assert.deepEqual((await rename(w, f)).botIds, [keep]);
    assert.deepEqual((await snapshot(w)).snapshotObjV2[0]?.botIds, [keep]);
    assert.deepEqual((await ok<Folder>(200, 'PUT', movePath(f.id), w.writeKey, { parentFolderId: null })).botIds, [keep]);
    assert.deepEqual((await ok<Folder>(200, 'DELETE', folderPath(f.id), w.writeKey)).botIds, [keep]);
  });
});
