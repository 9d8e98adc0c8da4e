// The Sources routes (wire name "documents") through HTTP on a real database: security of every
// route, listing filters and keyset pagination, the exact record shape, deep crawl discovery, and
// the ingestion edge cases the fixture site carries (spider trap, bogus charset, private addresses).
// The ingestion pipeline itself (states, failure reasons, refresh, uploads, delete) is covered by
// ingestion.test.ts.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { type NewSource, sources } from '../../src/db/schema/index.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { type FakeSite, startFakeSite } from '../support/fake-site.js';
import { crawlFixtures } from '../support/processes.js';
import { assertError, expectStatus, type SecuredRouteRow, securitySuites } from '../support/security.js';
import { ensureArticle, INGEST_ENV, type IngestResult, ingestUrls, type Source, waitForSource } from '../support/sources.js';

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const LIST = '/v2/documents/public';
const CRAWL = '/v2/documents/public/deep-crawl/links';
const REFRESH = '/v2/documents/public/refresh';
const UPLOAD = '/v2/documents/public/files';
const one = (id: string) => `${LIST}/${id}`;
const fileOf = (id: string) => `/v2/documents/${id}/file/public`;

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const ARTICLE_1 = '7d1e4a4b-8a2c-4c8e-9a57-3f0f0c1d2e3f';
const ARTICLE_2 = '0b9a6a51-3c1d-4e4f-8a7b-2c3d4e5f6a7b';
/** The other workspace's articles (an article id belongs to one workspace). */
const THEIR_ARTICLE_1 = '5c6d7e8f-9a0b-4c1d-8e2f-3a4b5c6d7e8f';
const THEIR_ARTICLE_2 = '6d7e8f9a-0b1c-4d2e-9f3a-4b5c6d7e8f9a';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DOCUMENT_KEYS = [
  'baser', 'changed', 'companyId', 'createdAt', 'english', 'error', 'externalId', 'id', 'linkedJobId', 'linkedJobStatus',
  'linkedKnowledgeId', 'linkedOperation', 'linkedReason', 'mimeType', 'oldParagraphs', 'originalUrl', 'paragraphs', 'source',
  'storageUrl', 'success', 'title', 'type', 'updatedAt', 'url',
];

const NUTCH_SITE = path.join(crawlFixtures, 'nutch-fetch-test-site');

interface Page {
  documents: Source[];
  hasMore: boolean;
}
interface CrawlResult {
  data: string[];
  message: string;
}

const suffix = () => randomBytes(4).toString('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const idsOf = (page: Page) => page.documents.map((s) => s.id);
const sortedIds = (ids: string[]) => [...ids].sort();

/** An app without workers: ingested records stay PENDING and updatedAt changes only when a test changes it. */
function startAppWithoutWorkers(env?: Record<string, string>): Promise<TestApp> {
  return startTestApp(env ? { env } : {});
}

/** GET /v2/documents/public with a raw query string; asserts 200 and the answer's shape. */
async function list(t: TestApp, key: string, query = ''): Promise<Page> {
  const page = await expectStatus<Page>(t, 200, 'GET', `${LIST}${query ? `?${query}` : ''}`, key);
  assert.deepEqual(Object.keys(page).sort(), ['documents', 'hasMore'], JSON.stringify(page));
  return page;
}

/** Writes columns of a source directly (linkage and timestamps are not settable through the API yet). */
async function setSource(t: TestApp, id: string, values: Partial<NewSource>): Promise<void> {
  if (values.linkedKnowledgeId) {
    const [row] = await t.database.db.select({ workspaceId: sources.workspaceId }).from(sources).where(eq(sources.id, id));
    if (row) await ensureArticle(t, row.workspaceId, values.linkedKnowledgeId);
  }
  const rows = await t.database.db.update(sources).set(values).where(eq(sources.id, id)).returning({ id: sources.id });
  assert.equal(rows.length, 1, `no source ${id} to update`);
}

/** Ingests web URLs (202) and returns their ids by normalised URL. */
async function addWeb(t: TestApp, key: string, urls: string[], extra: Record<string, unknown> = {}): Promise<Map<string, string>> {
  const result = await ingestUrls(t, key, urls, extra);
  assert.equal(result.addedDocumentIds.length, urls.length, JSON.stringify(result));
  return new Map(result.documents.map((d) => [d.externalId, d.id]));
}

async function addOneWeb(t: TestApp, key: string, url = `https://docs.acme.test/page-${suffix()}`): Promise<string> {
  const [id] = [...(await addWeb(t, key, [url])).values()];
  return id!;
}

/** POST /v2/documents/public/files as multipart form data. */
async function upload(
  t: TestApp,
  key: string,
  content: string,
  filename: string,
  type: string,
  fields: Record<string, string> = {},
): Promise<IngestResult> {
  const form = new FormData();
  form.append('file', new Blob([content], { type }), filename);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const res = await fetch(`${t.url}${UPLOAD}`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  const text = await res.text();
  assert.equal(res.status, 202, text);
  return JSON.parse(text) as IngestResult;
}

async function addFile(t: TestApp, key: string, filename = 'guide.md', content = '# Guide\n\nSome text that is long enough.'): Promise<string> {
  return (await upload(t, key, content, filename, 'text/markdown')).addedDocumentIds[0]!;
}

async function crawl(t: TestApp, key: string, body: Record<string, unknown>): Promise<CrawlResult> {
  const result = await expectStatus<CrawlResult>(t, 200, 'POST', CRAWL, key, body);
  assert.deepEqual(Object.keys(result).sort(), ['data', 'message'], JSON.stringify(result));
  assert.equal(typeof result.message, 'string');
  assert.ok(result.message.length > 0, 'message is a non-empty string');
  assert.equal(new Set(result.data).size, result.data.length, `no URL listed twice: ${JSON.stringify(result.data)}`);
  return result;
}

/** Order-insensitive comparison of URL lists (the lists must not hold duplicates). */
function assertSameUrls(actual: string[], expected: string[], context = ''): void {
  assert.deepEqual([...actual].sort(), [...expected].sort(), context);
}

/** A small HTML page with distinct content and the given links. */
function pageHtml(title: string, links: string[] = []): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>` +
    `<p>This page explains ${title} in enough words to be a real page of the site.</p>` +
    `${links.map((href) => `<a href="${href}">link to ${href}</a>`).join('\n')}</main></body></html>`;
}

// ---------------------------------------------------------------------------------------------
// 1. Security
// ---------------------------------------------------------------------------------------------

describe('sources routes: security', () => {
  let t: TestApp;
  before(async () => {
    t = await startAppWithoutWorkers();
  });
  after(() => t.close());

  type Build = (app: TestApp, owner: Tenant) => Promise<{ path: string; body?: unknown }>;
  const getOne: Build = async (app, o) => ({ path: one(await addOneWeb(app, o.key)) });
  const download: Build = async (app, o) => ({ path: fileOf(await addFile(app, o.key)) });
  // [label, method, scope, request, status for a resource of another workspace]
  const routes: SecuredRouteRow[] = [
    ['list', 'GET', 'read', async () => ({ path: LIST }), undefined],
    ['get', 'GET', 'read', getOne, 404],
    ['ingest', 'POST', 'write', async () => ({ path: LIST, body: { documentIdsToAdd: ['https://docs.acme.test/security'] } }), undefined],
    ['deep crawl', 'POST', 'write', async () => ({ path: CRAWL, body: { links: ['https://docs.acme.test/'] } }), undefined],
    ['refresh', 'POST', 'write', async (app, o) => ({ path: REFRESH, body: { documentIds: [await addOneWeb(app, o.key)] } }), undefined],
    ['delete', 'DELETE', 'write', async (app, o) => ({ path: LIST, body: { documentIds: [await addOneWeb(app, o.key)] } }), undefined],
    // The suite sends JSON: the key must be judged before the body's type (401/403, not 415).
    ['upload (JSON body)', 'POST', 'write', async () => ({ path: UPLOAD, body: { file: 'not a multipart form' } }), undefined],
    ['download', 'GET', 'read', download, 404],
  ];
  securitySuites(() => t, routes);

  describe('another workspace', () => {
    it('cannot refresh a source of another workspace (400 "no source"); the record is untouched', async () => {
      const [owner, caller] = [await makeTenant(t), await makeTenant(t)];
      const id = await addOneWeb(t, owner.key);
      const original = await expectStatus<Source>(t, 200, 'GET', one(id), owner.key);
      await sleep(5);
      assertError(await t.request('POST', REFRESH, { key: caller.key, body: { documentIds: [id] } }), 400, `body.documentIds.0: no source ${id} in this workspace`);
      assert.deepEqual(await expectStatus<Source>(t, 200, 'GET', one(id), owner.key), original);
    });

    it('cannot refresh another workspace\'s web source by URL through the ingest route', async () => {
      const [owner, caller] = [await makeTenant(t), await makeTenant(t)];
      const url = `https://docs.acme.test/shared-${suffix()}`;
      const id = await addOneWeb(t, owner.key, url);
      const original = await expectStatus<Source>(t, 200, 'GET', one(id), owner.key);
      assertError(await t.request('POST', LIST, { key: caller.key, body: { documentIdsToRefresh: [url] } }), 400, /documentIdsToRefresh\.0: no web source/);
      // Adding the same URL creates the caller's own record; the owner's is not touched.
      const added = await ingestUrls(t, caller.key, [url]);
      assert.equal(added.addedDocumentIds.length, 1);
      assert.notEqual(added.addedDocumentIds[0], id);
      assert.equal(added.documents[0]!.companyId, caller.workspaceId);
      assert.deepEqual(await expectStatus<Source>(t, 200, 'GET', one(id), owner.key), original);
    });

    it('cannot delete a source of another workspace (400 "no source"), alone or with one of its own; nothing is deleted', async () => {
      const [owner, caller] = [await makeTenant(t), await makeTenant(t)];
      const theirs = await addOneWeb(t, owner.key);
      const mine = await addOneWeb(t, caller.key);
      const original = await expectStatus<Source>(t, 200, 'GET', one(theirs), owner.key);
      assertError(await t.request('DELETE', LIST, { key: caller.key, body: { documentIds: [theirs] } }), 400, `body.documentIds.0: no source ${theirs} in this workspace`);
      assertError(await t.request('DELETE', LIST, { key: caller.key, body: { documentIds: [mine, theirs] } }), 400, /documentIds\.1: no source/);
      assert.deepEqual(await expectStatus<Source>(t, 200, 'GET', one(theirs), owner.key), original);
      await expectStatus(t, 200, 'GET', one(mine), caller.key);
    });

    it('does not list or serve another workspace\'s records or files', async () => {
      const [owner, caller] = [await makeTenant(t), await makeTenant(t)];
      const web = await addOneWeb(t, owner.key);
      const file = await addFile(t, owner.key);
      assert.deepEqual(idsOf(await list(t, caller.key)), []);
      assert.deepEqual(idsOf(await list(t, caller.key, `id=${web}`)), []);
      assert.deepEqual(idsOf(await list(t, caller.key, 'source=files')), []);
      assert.deepEqual(sortedIds(idsOf(await list(t, owner.key))), sortedIds([web, file]));
      assertError(await t.request('GET', one(web), { key: caller.key }), 404, `source ${web} not found`);
      assertError(await t.request('GET', fileOf(file), { key: caller.key }), 404);
      assertError(await t.request('GET', fileOf(web), { key: owner.key }), 404, `no uploaded file for source ${web}`);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// 2. Listing filters
// ---------------------------------------------------------------------------------------------

/** The named records of one workspace; the other workspace holds a mirror image of them. */
const FIXTURE_NAMES = ['w1', 'w2', 'w3', 'w4', 'w5', 'f1', 'f2'] as const;
type Name = (typeof FIXTURE_NAMES)[number];
type Fixture = Record<Name, string>;

const W1 = 'https://help.acme.test/Refunds/Policy';
const W2 = 'https://help.acme.test/shipping';
const W3 = 'https://www.acme.test/about_us';
const W4 = 'https://www.acme.test/aboutXus';
const W5 = 'https://acme.test/contact';

/**
 * w1 web help.acme.test  "Save 100% today"         success  linked ARTICLE_1 UPDATE_ARTICLE         changed
 * w2 web help.acme.test  "Save 1000 today"         success  linked ARTICLE_1 ADD_ARTICLE_TO_FOLDER
 * w3 web www.acme.test   "About snake_case names"  failed   unlinked                                 english=false
 * w4 web www.acme.test   "About snakeXcase names"  failed   linked ARTICLE_2 DO_NOTHING              english=false
 * w5 web acme.test       "Contact"                 success  unlinked, changed (flag without a link)
 * f1 files guide.md      "Returns guide"           success  unlinked
 * f2 files notes.txt     "Team notes"              failed   linked ARTICLE_2 UPDATE_ARTICLE          changed, english=false
 */
async function buildFixture(t: TestApp, w: Tenant, [ARTICLE_1, ARTICLE_2]: [string, string]): Promise<Fixture> {
  const english = await addWeb(t, w.key, [W1, W2, W5]);
  const other = await addWeb(t, w.key, [W3, W4], { english: false });
  const f1 = (await upload(t, w.key, '# Returns guide\n\nItems can be returned.', 'guide.md', 'text/markdown')).addedDocumentIds[0]!;
  const f2 = (await upload(t, w.key, 'Team notes\n\nSecond paragraph.', 'notes.txt', 'text/plain', { english: 'false' })).addedDocumentIds[0]!;
  const f: Fixture = {
    w1: english.get(W1)!, w2: english.get(W2)!, w5: english.get(W5)!, w3: other.get(W3)!, w4: other.get(W4)!, f1, f2,
  };
  const done = { linkedJobStatus: 'COMPLETED', success: true, error: '' };
  const failed = { linkedJobStatus: 'FAILED', success: false, error: 'page not found (HTTP 404)' };
  await setSource(t, f.w1, { ...done, title: 'Save 100% today', linkedKnowledgeId: ARTICLE_1, linkedOperation: 'UPDATE_ARTICLE', changed: true });
  await setSource(t, f.w2, { ...done, title: 'Save 1000 today', linkedKnowledgeId: ARTICLE_1, linkedOperation: 'ADD_ARTICLE_TO_FOLDER' });
  await setSource(t, f.w3, { ...failed, title: 'About snake_case names' });
  await setSource(t, f.w4, { ...failed, title: 'About snakeXcase names', linkedKnowledgeId: ARTICLE_2, linkedOperation: 'DO_NOTHING' });
  await setSource(t, f.w5, { ...done, title: 'Contact', changed: true });
  await setSource(t, f.f1, { ...done, title: 'Returns guide' });
  await setSource(t, f.f2, { ...failed, title: 'Team notes', linkedKnowledgeId: ARTICLE_2, linkedOperation: 'UPDATE_ARTICLE', changed: true });
  return f;
}

describe('GET /v2/documents/public: filters', () => {
  let t: TestApp;
  let own: Tenant;
  let other: Tenant;
  let mine: Fixture;
  let theirs: Fixture;
  before(async () => {
    t = await startAppWithoutWorkers();
    own = await makeTenant(t);
    other = await makeTenant(t);
    mine = await buildFixture(t, own, [ARTICLE_1, ARTICLE_2]);
    theirs = await buildFixture(t, other, [THEIR_ARTICLE_1, THEIR_ARTICLE_2]);
  });
  after(() => t.close());

  const ALL: Name[] = [...FIXTURE_NAMES];
  // [query, expected records] — every query is run in both workspaces and must show exactly that
  // workspace's records, so each filter combination also checks workspace isolation.
  const cases: [string, Name[]][] = [
    ['', ALL],
    ['source=web', ['w1', 'w2', 'w3', 'w4', 'w5']],
    ['source=files', ['f1', 'f2']],
    ['source=provider_wiki', []],
    ['english=false', ['w3', 'w4', 'f2']],
    ['english=true', ['w1', 'w2', 'w5', 'f1']],
    ['english=0', ['w3', 'w4', 'f2']],
    ['success=true', ['w1', 'w2', 'w5', 'f1']],
    ['success=false', ['w3', 'w4', 'f2']],
    ['success=true&success=false', ALL],
    ['title=SAVE', ['w1', 'w2']],
    ['title=100%25', ['w1']],
    ['title=%25', ['w1']],
    ['title=snake_case', ['w3']],
    ['title=_', ['w3']],
    ['title=nothing-like-this', []],
    ['url=HELP.ACME', ['w1', 'w2']],
    ['url=refunds%2FPOLICY', ['w1']],
    ['url=about_', ['w3']],
    ['url=acme.test', ['w1', 'w2', 'w3', 'w4', 'w5']],
    ['url=guide.md', ['f1']],
    ['source=web&domain=help.acme.test', ['w1', 'w2']],
    ['source=web&domain=HELP.ACME.TEST', ['w1', 'w2']],
    ['source=web&domain=acme.test', ['w5']],
    ['source=web&domain=www.acme.test', ['w3', 'w4']],
    ['source=web&domain=acme', []],
    ['articleId={A1}', ['w1', 'w2']],
    ['articleId={A2}', ['w4', 'f2']],
    ['articleId={A2-UPPER}', ['w4', 'f2']],
    [`articleId=${UNKNOWN}`, []],
    ['linkedKnowledge=true', ['w1', 'w2', 'w4', 'f2']],
    ['linkedKnowledge=false', ['w3', 'w5', 'f1']],
    ['linkedKnowledge=true&linkedKnowledge=false', ALL],
    ['linkedOperation=UPDATE_ARTICLE', ['w1', 'f2']],
    ['linkedOperation=ADD_ARTICLE_TO_FOLDER', ['w2']],
    ['linkedOperation=DO_NOTHING', ['w4']],
    // changed=true: linked AND flagged (w5 carries the flag without a link and is left out).
    ['changed=true', ['w1', 'f2']],
    ['changed=false', ['w2', 'w3', 'w4', 'f1']],
    ['source=web&success=true&linkedKnowledge=true', ['w1', 'w2']],
    ['source=files&changed=true', ['f2']],
    ['source=web&domain=www.acme.test&english=false&success=false', ['w3', 'w4']],
    ['title=save&linkedOperation=ADD_ARTICLE_TO_FOLDER', ['w2']],
    ['source=web&linkedKnowledge=false&success=true', ['w5']],
    ['url=acme.test&changed=false', ['w2', 'w3', 'w4']],
    ['articleId={A2}&source=files&english=false', ['f2']],
  ];
  for (const [query, names] of cases) {
    it(`?${query || '(no filter)'} lists exactly ${names.length ? names.join(', ') : 'nothing'}, in each workspace`, async () => {
      // Article ids are the workspace's own: {A1} and {A2} stand for each workspace's two articles.
      const withArticles = (a1: string, a2: string) =>
        query.replace('{A1}', a1).replace('{A2-UPPER}', a2.toUpperCase()).replace('{A2}', a2);
      const ownPage = await list(t, own.key, withArticles(ARTICLE_1, ARTICLE_2));
      assert.deepEqual(sortedIds(idsOf(ownPage)), sortedIds(names.map((n) => mine[n])), `own workspace, ?${query}`);
      assert.equal(ownPage.hasMore, false);
      assert.ok(ownPage.documents.every((s) => s.companyId === own.workspaceId));
      const otherPage = await list(t, other.readKey, withArticles(THEIR_ARTICLE_1, THEIR_ARTICLE_2));
      assert.deepEqual(sortedIds(idsOf(otherPage)), sortedIds(names.map((n) => theirs[n])), `other workspace, ?${query}`);
    });
  }

  it("?articleId= of another workspace's article lists nothing", async () => {
    assert.deepEqual(idsOf(await list(t, own.key, `articleId=${THEIR_ARTICLE_1}`)), []);
    assert.deepEqual(idsOf(await list(t, other.readKey, `articleId=${ARTICLE_2}`)), []);
  });

  it('?id= finds exactly one record of the workspace, never one of another workspace', async () => {
    assert.deepEqual(idsOf(await list(t, own.key, `id=${mine.w3}`)), [mine.w3]);
    assert.deepEqual(idsOf(await list(t, own.key, `id=${mine.w3.toUpperCase()}`)), [mine.w3]);
    assert.deepEqual(idsOf(await list(t, own.key, `id=${mine.f2}&source=files`)), [mine.f2]);
    assert.deepEqual(idsOf(await list(t, own.key, `id=${mine.f2}&source=web`)), []);
    assert.deepEqual(idsOf(await list(t, own.key, `id=${theirs.w3}`)), []);
    assert.deepEqual(idsOf(await list(t, own.key, `id=${UNKNOWN}`)), []);
  });

  it('lists the records with the values the filters matched on', async () => {
    const [w1] = (await list(t, own.key, `id=${mine.w1}`)).documents;
    assert.equal(w1!.title, 'Save 100% today');
    assert.equal(w1!.originalUrl, W1);
    assert.equal(w1!.linkedKnowledgeId, ARTICLE_1);
    assert.equal(w1!.linkedOperation, 'UPDATE_ARTICLE');
    assert.equal(w1!.changed, true);
    const [f2] = (await list(t, own.key, `id=${mine.f2}`)).documents;
    assert.equal(f2!.source, 'files');
    assert.equal(f2!.english, false);
    assert.equal(f2!.originalUrl, 'notes.txt');
  });

  const invalid: [string, string | RegExp][] = [
    ['source=ftp', /^query\.source: /],
    ['source=WEB', /^query\.source: /],
    ['id=nope', /^query\.id: /],
    ['id=00000000-0000-0000-0000-00000000000g', /^query\.id: /],
    ['articleId=123', /^query\.articleId: /],
    ['cursor=nope', /^query\.cursor: /],
    ['limit=0', /^query\.limit: /],
    ['limit=abc', /^query\.limit: /],
    ['limit=201', /^query\.limit: /],
    ['limit=-1', /^query\.limit: /],
    ['limit=2.5', /^query\.limit: /],
    ['foo=bar', /foo/],
    ['direction=sideways', /^query\.direction: /],
    ['order=up', /^query\.order: /],
    ['linkedOperation=DELETE_ARTICLE', /^query\.linkedOperation: /],
    ['success=maybe', /^query\.success/],
    ['english=yes', /^query\.english: /],
    ['changed=2', /^query\.changed: /],
    ['linkedKnowledge=sometimes', /^query\.linkedKnowledge/],
    ['domain=help.acme.test', 'query.domain: domain is only valid with source=web'],
    ['source=files&domain=help.acme.test', 'query.domain: domain is only valid with source=web'],
    [`cursor=${UNKNOWN}`, 'query.cursor: no source with this id in the workspace'],
  ];
  for (const [query, message] of invalid) {
    it(`answers 400 for ?${query}`, async () => {
      assertError(await t.request('GET', `${LIST}?${query}`, { key: own.key }), 400, message);
    });
  }

  it('answers 400 for a cursor that is a source of another workspace', async () => {
    assertError(await t.request('GET', `${LIST}?cursor=${theirs.w1}`, { key: own.key }), 400, 'query.cursor: no source with this id in the workspace');
    assertError(await t.request('GET', `${LIST}?cursor=${theirs.w1}&direction=previous`, { key: own.key }), 400, /query\.cursor/);
  });

  it('accepts the limit bounds 1 and 200', async () => {
    const first = await list(t, own.key, 'limit=1');
    assert.equal(first.documents.length, 1);
    assert.equal(first.hasMore, true);
    const all = await list(t, own.key, 'limit=200');
    assert.equal(all.documents.length, FIXTURE_NAMES.length);
    assert.equal(all.hasMore, false);
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Pagination
// ---------------------------------------------------------------------------------------------

describe('GET /v2/documents/public: ordering and pagination', () => {
  // No workers: records stay PENDING, so updatedAt changes only when the test changes it.
  let t: TestApp;
  before(async () => {
    t = await startAppWithoutWorkers();
  });
  after(() => t.close());

  const DAY = 86_400_000;
  const urlOf = (host: string, n: number) => `https://${host}/p${String(n).padStart(2, '0')}`;

  /**
   * Twelve records p01..p12 with updatedAt p01 < p02 < ... and ties: p04 = p05 = p06 (externalId
   * decides), p10 = p11, and p09 turned into a provider_notes record with p08's externalId and
   * updatedAt (only the id decides). Returns the ids in the expected default order (desc).
   */
  async function orderedFixture(w: Tenant) {
    const host = `pages-${suffix()}.acme.test`;
    const byUrl = await addWeb(t, w.key, Array.from({ length: 12 }, (_, i) => urlOf(host, i + 1)));
    const p = (n: number) => byUrl.get(urlOf(host, n))!;
    const base = Date.now() - DAY;
    const at = (n: number) => new Date(base + n * 1000);
    const time: Record<number, Date> = {};
    for (let n = 1; n <= 12; n++) time[n] = at(n);
    time[5] = time[4]!;
    time[6] = time[4]!;
    time[11] = time[10]!;
    time[9] = time[8]!;
    for (let n = 1; n <= 12; n++) await setSource(t, p(n), { updatedAt: time[n] });
    await setSource(t, p(9), { source: 'provider_notes', externalId: urlOf(host, 8), originalUrl: urlOf(host, 8), domain: null });
    const [hi, lo] = p(8) > p(9) ? [p(8), p(9)] : [p(9), p(8)];
    const desc = [p(12), p(11), p(10), hi, lo, p(7), p(6), p(5), p(4), p(3), p(2), p(1)];
    return { p, desc, host };
  }

  it('orders by updatedAt desc, then externalId desc, then id; order=asc reverses all three', async () => {
    const w = await makeTenant(t);
    const { desc } = await orderedFixture(w);
    const page = await list(t, w.key);
    assert.deepEqual(idsOf(page), desc);
    assert.equal(page.hasMore, false);
    assert.deepEqual(idsOf(await list(t, w.key, 'order=desc&direction=next')), desc);
    const asc = await list(t, w.key, 'order=asc');
    assert.deepEqual(idsOf(asc), [...desc].reverse());
    assert.equal(asc.hasMore, false);
    // The wire timestamps agree with the order.
    const stamps = page.documents.map((s) => Date.parse(s.updatedAt));
    assert.deepEqual(stamps, [...stamps].sort((a, b) => b - a));
  });

  it('pages forwards with cursor=<last id>&direction=next and back with cursor=<first id>&direction=previous', async () => {
    const w = await makeTenant(t);
    const { desc } = await orderedFixture(w);
    const p1 = await list(t, w.key, 'limit=5');
    assert.deepEqual(idsOf(p1), desc.slice(0, 5));
    assert.equal(p1.hasMore, true);
    const p2 = await list(t, w.key, `limit=5&cursor=${desc[4]}&direction=next`);
    assert.deepEqual(idsOf(p2), desc.slice(5, 10));
    assert.equal(p2.hasMore, true);
    // direction defaults to next.
    assert.deepEqual(idsOf(await list(t, w.key, `limit=5&cursor=${desc[4]}`)), desc.slice(5, 10));
    const p3 = await list(t, w.key, `limit=5&cursor=${desc[9]}&direction=next`);
    assert.deepEqual(idsOf(p3), desc.slice(10));
    assert.equal(p3.hasMore, false);

    const back2 = await list(t, w.key, `limit=5&cursor=${idsOf(p3)[0]}&direction=previous`);
    assert.deepEqual(idsOf(back2), idsOf(p2));
    assert.equal(back2.hasMore, true);
    const back1 = await list(t, w.key, `limit=5&cursor=${idsOf(back2)[0]}&direction=previous`);
    assert.deepEqual(idsOf(back1), idsOf(p1));
    assert.equal(back1.hasMore, false);

    // Both ends.
    const beforeFirst = await list(t, w.key, `limit=5&cursor=${desc[0]}&direction=previous`);
    assert.deepEqual(beforeFirst, { documents: [], hasMore: false });
    const afterLast = await list(t, w.key, `limit=5&cursor=${desc[11]}&direction=next`);
    assert.deepEqual(afterLast, { documents: [], hasMore: false });
    // A page that ends exactly at the last record says there is no more.
    const half = await list(t, w.key, `limit=6&cursor=${desc[5]}`);
    assert.deepEqual(idsOf(half), desc.slice(6));
    assert.equal(half.hasMore, false);
    const previousHalf = await list(t, w.key, `limit=6&cursor=${desc[6]}&direction=previous`);
    assert.deepEqual(idsOf(previousHalf), desc.slice(0, 6));
    assert.equal(previousHalf.hasMore, false);
  });

  it('pages through ties inside a page boundary without skipping or repeating (limit 1 walk)', async () => {
    const w = await makeTenant(t);
    const { desc } = await orderedFixture(w);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 20; i++) {
      const page = await list(t, w.key, `limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...idsOf(page));
      assert.equal(page.hasMore, seen.length < desc.length, `hasMore after ${seen.length}`);
      if (!page.hasMore) break;
      cursor = idsOf(page).at(-1);
    }
    assert.deepEqual(seen, desc);
    // And backwards from the oldest record, one at a time.
    const back: string[] = [];
    cursor = desc.at(-1);
    for (let i = 0; i < 20; i++) {
      const page = await list(t, w.key, `limit=1&cursor=${cursor}&direction=previous`);
      back.unshift(...idsOf(page));
      if (!page.hasMore) break;
      cursor = idsOf(page)[0];
    }
    assert.deepEqual(back, desc.slice(0, -1));
  });

  it('pages in ascending order with order=asc, forwards and back', async () => {
    const w = await makeTenant(t);
    const { desc } = await orderedFixture(w);
    const asc = [...desc].reverse();
    const p1 = await list(t, w.key, 'order=asc&limit=5');
    assert.deepEqual(idsOf(p1), asc.slice(0, 5));
    assert.equal(p1.hasMore, true);
    const p2 = await list(t, w.key, `order=asc&limit=5&cursor=${asc[4]}&direction=next`);
    assert.deepEqual(idsOf(p2), asc.slice(5, 10));
    assert.equal(p2.hasMore, true);
    const p3 = await list(t, w.key, `order=asc&limit=5&cursor=${asc[9]}`);
    assert.deepEqual(idsOf(p3), asc.slice(10));
    assert.equal(p3.hasMore, false);
    const back = await list(t, w.key, `order=asc&limit=5&cursor=${asc[10]}&direction=previous`);
    assert.deepEqual(idsOf(back), asc.slice(5, 10));
    assert.equal(back.hasMore, true);
    const first = await list(t, w.key, `order=asc&limit=5&cursor=${asc[5]}&direction=previous`);
    assert.deepEqual(idsOf(first), asc.slice(0, 5));
    assert.equal(first.hasMore, false);
  });

  it('paginates a filtered listing, also from a cursor the filter leaves out', async () => {
    const w = await makeTenant(t);
    const { desc, p } = await orderedFixture(w);
    const web = desc.filter((id) => id !== p(9));
    const p1 = await list(t, w.key, 'source=web&limit=4');
    assert.deepEqual(idsOf(p1), web.slice(0, 4));
    assert.equal(p1.hasMore, true);
    const p2 = await list(t, w.key, `source=web&limit=4&cursor=${web[3]}`);
    assert.deepEqual(idsOf(p2), web.slice(4, 8));
    // p09 (provider_notes) is not listed with source=web, but still marks a position.
    const from9 = await list(t, w.key, `source=web&cursor=${p(9)}`);
    assert.deepEqual(idsOf(from9), desc.slice(desc.indexOf(p(9)) + 1).filter((id) => id !== p(9)));
    const before9 = await list(t, w.key, `source=web&cursor=${p(9)}&direction=previous`);
    assert.deepEqual(idsOf(before9), desc.slice(0, desc.indexOf(p(9))));
    assert.equal(before9.hasMore, false);
  });

  it('returns 50 records by default, with hasMore, and the rest on the next page', async () => {
    const w = await makeTenant(t);
    const host = `many-${suffix()}.acme.test`;
    const urls = Array.from({ length: 55 }, (_, i) => urlOf(host, i + 1));
    const byUrl = await addWeb(t, w.key, urls);
    // One request, one timestamp: externalId (the URL) decides.
    const expected = [...urls].sort().reverse().map((u) => byUrl.get(u)!);
    const p1 = await list(t, w.key);
    assert.equal(p1.documents.length, 50);
    assert.equal(p1.hasMore, true);
    assert.deepEqual(idsOf(p1), expected.slice(0, 50));
    const p2 = await list(t, w.key, `cursor=${expected[49]}`);
    assert.deepEqual(idsOf(p2), expected.slice(50));
    assert.equal(p2.hasMore, false);
    const all = await list(t, w.key, 'limit=200');
    assert.deepEqual(idsOf(all), expected);
    assert.equal(all.hasMore, false);
  });

  it('stays consistent when rows are inserted and updated between pages', async () => {
    const w = await makeTenant(t);
    const host = `moving-${suffix()}.acme.test`;
    const byUrl = await addWeb(t, w.key, Array.from({ length: 10 }, (_, i) => urlOf(host, i + 1)));
    const q = (n: number) => byUrl.get(urlOf(host, n))!;
    const base = Date.now() - DAY;
    for (let n = 1; n <= 10; n++) await setSource(t, q(n), { updatedAt: new Date(base + n * 1000) });
    const desc = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map(q);

    const p1 = await list(t, w.key, 'limit=4');
    assert.deepEqual(idsOf(p1), desc.slice(0, 4));
    assert.equal(p1.hasMore, true);

    // Between pages: a new record, a refresh of one not yet seen (q04) and of one already seen (q09).
    const fresh = await addOneWeb(t, w.key, urlOf(host, 11));
    const accepted = await expectStatus<string[]>(t, 200, 'POST', REFRESH, w.key, { documentIds: [q(4), q(9)] });
    assert.deepEqual(accepted, [q(4), q(9)]);

    const p2 = await list(t, w.key, `limit=4&cursor=${idsOf(p1).at(-1)}&direction=next`);
    assert.deepEqual(idsOf(p2), [q(6), q(5), q(3), q(2)]);
    assert.equal(p2.hasMore, true);
    const p3 = await list(t, w.key, `limit=4&cursor=${idsOf(p2).at(-1)}&direction=next`);
    assert.deepEqual(idsOf(p3), [q(1)]);
    assert.equal(p3.hasMore, false);

    const seen = [...idsOf(p1), ...idsOf(p2), ...idsOf(p3)];
    assert.equal(new Set(seen).size, seen.length, 'no record is repeated');
    for (const n of [10, 8, 7, 6, 5, 3, 2, 1]) assert.equal(seen.filter((id) => id === q(n)).length, 1, `untouched q${n} seen once`);
    assert.ok(!seen.includes(fresh), 'the inserted record is at the front, not on later pages');
    assert.ok(!seen.includes(q(4)), 'the updated record moved to the front');

    // The front now holds the three touched records; going back from page 2 shows what precedes it now.
    const now = await list(t, w.key, 'limit=50');
    assert.deepEqual(sortedIds(idsOf(now).slice(0, 3)), sortedIds([fresh, q(4), q(9)]));
    assert.deepEqual(idsOf(now).slice(3), [10, 8, 7, 6, 5, 3, 2, 1].map(q));
    const back = await list(t, w.key, `limit=4&cursor=${idsOf(p2)[0]}&direction=previous`);
    const at = idsOf(now).indexOf(q(6));
    assert.deepEqual(idsOf(back), idsOf(now).slice(at - 4, at));
    assert.equal(back.hasMore, true);
  });

  // An id alone locates the cursor record where it is now; a record updated since the page was read
  // has moved to the front, so its updatedAt as seen (cursorUpdatedAt) pins where the page ended.
  it('continues from where the cursor row was with cursorUpdatedAt, even when that row was updated between pages', async () => {
    const w = await makeTenant(t);
    const host = `cursor-${suffix()}.acme.test`;
    const byUrl = await addWeb(t, w.key, Array.from({ length: 8 }, (_, i) => urlOf(host, i + 1)));
    const q = (n: number) => byUrl.get(urlOf(host, n))!;
    const base = Date.now() - DAY;
    for (let n = 1; n <= 8; n++) await setSource(t, q(n), { updatedAt: new Date(base + n * 1000) });
    const p1 = await list(t, w.key, 'limit=3');
    assert.deepEqual(idsOf(p1), [q(8), q(7), q(6)]);
    await expectStatus(t, 200, 'POST', REFRESH, w.key, { documentIds: [q(6)] });
    const seen = p1.documents[2]!.updatedAt;
    const p2 = await list(t, w.key, `limit=3&cursor=${q(6)}&cursorUpdatedAt=${encodeURIComponent(seen)}`);
    assert.deepEqual(idsOf(p2), [q(5), q(4), q(3)]);
    const back = await list(t, w.key, `limit=3&cursor=${q(5)}&direction=previous&cursorUpdatedAt=${encodeURIComponent(p2.documents[0]!.updatedAt)}`);
    // Going back from q5 shows what is newer now: the refreshed q6 first, then q8 and q7.
    assert.deepEqual(idsOf(back), [q(6), q(8), q(7)]);
    assert.equal(back.hasMore, false);
    // Without it, the id alone continues from the record's new place at the front.
    const moved = await list(t, w.key, `limit=3&cursor=${q(6)}`);
    assert.deepEqual(idsOf(moved), [q(8), q(7), q(5)]);
    assertError(await t.request('GET', `/v2/documents/public?cursorUpdatedAt=${encodeURIComponent(seen)}`, { key: w.key }), 400, /cursorUpdatedAt needs cursor/);
  });
});

// ---------------------------------------------------------------------------------------------
// 4. One record
// ---------------------------------------------------------------------------------------------

describe('GET /v2/documents/public/:id', () => {
  let t: TestApp;
  let w: Tenant;
  before(async () => {
    t = await startAppWithoutWorkers();
    w = await makeTenant(t);
  });
  after(() => t.close());

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    assertError(await t.request('GET', one('not-a-uuid'), { key: w.key }), 400, /^path\.id: /);
    assertError(await t.request('GET', one('12345'), { key: w.key }), 400, /^path\.id: /);
    assertError(await t.request('GET', one(UNKNOWN), { key: w.key }), 404, `source ${UNKNOWN} not found`);
  });

  it('returns every field of the wire Document for a queued web source', async () => {
    const url = `https://docs.acme.test/Shape-${suffix()}`;
    const queued = await ingestUrls(t, w.key, [url], { english: false, baser: true });
    const id = queued.addedDocumentIds[0]!;
    const got = await expectStatus<Source>(t, 200, 'GET', one(id), w.readKey);
    assert.deepEqual(Object.keys(got).sort(), DOCUMENT_KEYS);
    assert.match(got.createdAt, ISO);
    assert.match(got.updatedAt, ISO);
    assert.ok(Math.abs(Date.parse(got.createdAt) - Date.now()) < 60_000);
    assert.ok(Date.parse(got.updatedAt) >= Date.parse(got.createdAt));
    assert.deepEqual(got, {
      id,
      originalUrl: url,
      url,
      title: url,
      storageUrl: null,
      companyId: w.workspaceId,
      source: 'web',
      externalId: url,
      english: false,
      baser: true,
      success: false,
      error: '',
      createdAt: got.createdAt,
      updatedAt: got.updatedAt,
      mimeType: '',
      type: null,
      linkedKnowledgeId: null,
      linkedOperation: null,
      linkedReason: null,
      linkedJobId: queued.jobs[0]!.id,
      linkedJobStatus: 'PENDING',
      changed: false,
      paragraphs: [],
      oldParagraphs: [],
    });
    // The ingest answer carries the same record.
    assert.deepEqual(queued.documents[0], got);
    // An upper-case id addresses the same record.
    assert.deepEqual(await expectStatus<Source>(t, 200, 'GET', one(id.toUpperCase()), w.key), got);
    // The listing shows the same object.
    assert.deepEqual((await list(t, w.key, `id=${id}`)).documents, [got]);
  });

  it('returns the stored linkage, state and content fields as they are', async () => {
    const id = await addOneWeb(t, w.key);
    const createdAt = new Date('2026-01-02T03:04:05.678Z');
    const updatedAt = new Date('2026-02-03T04:05:06.789Z');
    await setSource(t, id, {
      title: 'Refund policy',
      type: 'page',
      mimeType: 'text/html',
      success: false,
      error: 'page not found (HTTP 404)',
      linkedKnowledgeId: ARTICLE_1,
      linkedOperation: 'UPDATE_ARTICLE',
      linkedReason: 'the article covers the same policy',
      linkedJobStatus: 'FAILED',
      changed: true,
      paragraphs: ['First paragraph.', 'Second paragraph.'],
      oldParagraphs: ['Old paragraph.'],
      createdAt,
      updatedAt,
    });
    const got = await expectStatus<Source>(t, 200, 'GET', one(id), w.key);
    assert.deepEqual(Object.keys(got).sort(), DOCUMENT_KEYS);
    assert.equal(got.title, 'Refund policy');
    assert.equal(got.type, 'page');
    assert.equal(got.mimeType, 'text/html');
    assert.equal(got.success, false);
    assert.equal(got.error, 'page not found (HTTP 404)');
    assert.equal(got.linkedKnowledgeId, ARTICLE_1);
    assert.equal(got.linkedOperation, 'UPDATE_ARTICLE');
    assert.equal(got.linkedReason, 'the article covers the same policy');
    assert.equal(got.linkedJobStatus, 'FAILED');
    assert.equal(got.changed, true);
    assert.deepEqual(got.paragraphs, ['First paragraph.', 'Second paragraph.']);
    assert.deepEqual(got.oldParagraphs, ['Old paragraph.']);
    assert.equal(got.createdAt, '2026-01-02T03:04:05.678Z');
    assert.equal(got.updatedAt, '2026-02-03T04:05:06.789Z');
  });

  it('returns an uploaded file with its storageUrl, MIME type and file name', async () => {
    const result = await upload(t, w.key, '# Returns guide\n\nItems can be returned within 30 days.', 'returns.md', 'text/markdown');
    const id = result.addedDocumentIds[0]!;
    const got = await expectStatus<Source>(t, 200, 'GET', one(id), w.key);
    assert.deepEqual(Object.keys(got).sort(), DOCUMENT_KEYS);
    assert.deepEqual(got, {
      ...got,
      id,
      originalUrl: 'returns.md',
      url: 'returns.md',
      title: 'returns.md',
      storageUrl: fileOf(id),
      companyId: w.workspaceId,
      source: 'files',
      externalId: id,
      english: true,
      baser: false,
      success: false,
      error: '',
      mimeType: 'text/markdown',
      type: null,
      linkedKnowledgeId: null,
      linkedOperation: null,
      linkedReason: null,
      linkedJobId: result.jobs[0]!.id,
      linkedJobStatus: 'PENDING',
      changed: false,
      paragraphs: [],
      oldParagraphs: [],
    });
    const file = await t.request('GET', got.storageUrl!, { key: w.readKey });
    assert.equal(file.status, 200);
    assert.equal(file.text, '# Returns guide\n\nItems can be returned within 30 days.');
  });
});

// ---------------------------------------------------------------------------------------------
// 5. Deep crawl
// ---------------------------------------------------------------------------------------------

describe('POST /v2/documents/public/deep-crawl/links', () => {
  let t: TestApp;
  let site: FakeSite;
  let u: (path: string) => string;
  /** Every same-site page a full crawl from / finds. */
  let everything: string[];
  before(async () => {
    t = await startAppWithoutWorkers(INGEST_ENV);
    site = await startFakeSite();
    u = (p) => site.url(p);
    const text = (body: string, type: string) => ({ headers: { 'content-type': type }, body });
    site.set('/robots.txt', text(`User-agent: *\nDisallow: /private/\n\nSitemap: ${u('/sitemap.xml')}\n`, 'text/plain'));
    site.set(
      '/sitemap.xml',
      text(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
          [u('/'), u('/b'), u('/from-sitemap'), u('/private/in-sitemap'), 'https://elsewhere.example/from-sitemap']
            .map((loc) => `<url><loc>${loc}</loc></url>`)
            .join('') +
          '</urlset>',
        'application/xml',
      ),
    );
    site.set(
      '/',
      pageHtml('Home', [
        '/a', '/b', '/a#top', '/a?ref=home', '/private/secret', '/logo.png', '/style.css', '/docs/', '/gone', '/data',
        'https://elsewhere.example/page', 'mailto:help@acme.test', '#main',
      ]),
    );
    site.set('/a', pageHtml('Page A', ['/b', '/', '/a/deeper']));
    site.set('/b', pageHtml('Page B', ['/a']));
    site.set('/a/deeper', pageHtml('Deeper page', ['/a']));
    site.set('/docs/', pageHtml('Docs home', ['/docs/one', '/docs/two', '/outside']));
    site.set('/docs/one', pageHtml('Docs one', ['/docs/']));
    site.set('/docs/two', pageHtml('Docs two', ['/b', '/docs/one']));
    site.set('/outside', pageHtml('Outside the docs'));
    site.set('/from-sitemap', pageHtml('Only in the sitemap'));
    site.set('/private/secret', pageHtml('Secret'));
    site.set('/private/in-sitemap', pageHtml('Secret in sitemap'));
    site.set('/logo.png', { headers: { 'content-type': 'image/png' }, body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]) });
    site.set('/style.css', text('body { color: red }', 'text/css'));
    site.set('/data', text('{"not":"a page"}', 'application/json'));
    everything = ['/', '/a', '/b', '/a/deeper', '/docs/', '/docs/one', '/docs/two', '/outside', '/from-sitemap'].map(u);
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  it('lists exactly the same-site pages (robots.txt, sitemap, links), and creates nothing', async () => {
    const w = await makeTenant(t);
    const result = await crawl(t, w.key, { links: [u('/')] });
    assertSameUrls(result.data, everything, result.message);
    for (const path of ['/private/secret', '/private/in-sitemap', '/logo.png', '/style.css']) {
      assert.equal(site.hits(path), 0, `${path} is never requested`);
    }
    assert.equal(site.hits('/robots.txt') >= 1, true);
    assert.equal(site.hits('/sitemap.xml') >= 1, true);
    assert.deepEqual(await list(t, w.key), { documents: [], hasMore: false });
  });

  it('accepts seeds as the ingest route does (no trailing slash, upper-case scheme, fragment)', async () => {
    const w = await makeTenant(t);
    const result = await crawl(t, w.key, { links: [`${site.origin.replace('http://', 'HTTP://')}#top`] });
    assertSameUrls(result.data, everything, result.message);
  });

  it('stops at limit', async () => {
    const w = await makeTenant(t);
    for (const limit of [1, 3]) {
      const result = await crawl(t, w.key, { links: [u('/')], limit });
      assert.equal(result.data.length, limit, JSON.stringify(result));
      for (const url of result.data) assert.ok(everything.includes(url), `${url} is a page of the site`);
    }
  });

  it('maxDepth: 0 lists the seeds and the sitemap URLs only', async () => {
    const w = await makeTenant(t);
    const result = await crawl(t, w.key, { links: [u('/')], maxDepth: 0 });
    assertSameUrls(result.data, [u('/'), u('/b'), u('/from-sitemap')], result.message);
  });

  it('maxDepth: 1 adds the pages the seeds link to, not their links', async () => {
    const w = await makeTenant(t);
    const result = await crawl(t, w.key, { links: [u('/')], maxDepth: 1 });
    assertSameUrls(result.data, ['/', '/a', '/b', '/docs/', '/from-sitemap'].map(u), result.message);
  });

  it('include globs filter what is returned; the walk still reaches them', async () => {
    const w = await makeTenant(t);
    const docs = await crawl(t, w.key, { links: [u('/')], include: ['/docs/**'] });
    assertSameUrls(docs.data, ['/docs/', '/docs/one', '/docs/two'].map(u), docs.message);
    const two = await crawl(t, w.key, { links: [u('/')], include: ['/a', '/b'] });
    assertSameUrls(two.data, ['/a', '/b'].map(u), two.message);
    const star = await crawl(t, w.key, { links: [u('/')], include: ['/docs/*'] });
    assertSameUrls(star.data, ['/docs/', '/docs/one', '/docs/two'].map(u), star.message);
    const oneSegment = await crawl(t, w.key, { links: [u('/')], include: ['/*'] });
    assertSameUrls(oneSegment.data, ['/', '/a', '/b', '/outside', '/from-sitemap'].map(u), oneSegment.message);
  });

  it('exclude globs are neither listed nor followed', async () => {
    const w = await makeTenant(t);
    const hitsOfA = site.hits('/a');
    const hitsOfDeeper = site.hits('/a/deeper');
    // `**` crosses segments and the query: /a, /a?ref=home and /a/deeper are all out.
    const noA = await crawl(t, w.key, { links: [u('/')], exclude: ['/a**'] });
    assertSameUrls(noA.data, everything.filter((x) => x !== u('/a') && x !== u('/a/deeper')), noA.message);
    assert.equal(site.hits('/a'), hitsOfA, '/a is not fetched');
    assert.equal(site.hits('/a/deeper'), hitsOfDeeper, '/a/deeper is not reached');
    const noDocs = await crawl(t, w.key, { links: [u('/')], exclude: ['/docs/**'] });
    assertSameUrls(noDocs.data, ['/', '/a', '/b', '/a/deeper', '/from-sitemap'].map(u), noDocs.message);
  });

  it('stays below the folder of a seed that has one', async () => {
    const w = await makeTenant(t);
    const result = await crawl(t, w.key, { links: [u('/docs/')] });
    assertSameUrls(result.data, ['/docs/', '/docs/one', '/docs/two'].map(u), result.message);
  });

  const invalid: [string, unknown, string | RegExp][] = [
    ['an empty links array', { links: [] }, /^body\.links: /],
    ['no links', {}, /^body\.links: /],
    ['links that is not an array', { links: 'https://acme.test/' }, /^body\.links: /],
    ['a link that is not a URL', { links: ['not a url'] }, 'body.links.0: not a valid http(s) URL'],
    ['a non-http link', { links: ['https://acme.test/', 'ftp://acme.test/'] }, 'body.links.1: not a valid http(s) URL'],
    ['an empty link', { links: [''] }, /^body\.links\.0: /],
    ['limit 0', { links: ['https://acme.test/'], limit: 0 }, /^body\.limit: /],
    ['limit "10"', { links: ['https://acme.test/'], limit: '10' }, /^body\.limit: /],
    ['maxDepth 11', { links: ['https://acme.test/'], maxDepth: 11 }, /^body\.maxDepth: /],
    ['an unknown field', { links: ['https://acme.test/'], depth: 2 }, /depth/],
  ];
  for (const [what, body, message] of invalid) {
    it(`answers 400 for ${what}, fetching nothing`, async () => {
      const w = await makeTenant(t);
      const requests = site.requests.length;
      assertError(await t.request('POST', CRAWL, { key: w.key, body }), 400, message);
      assert.equal(site.requests.length, requests);
    });
  }

  it('answers 400 for a seed on the fake site with limit 0 without fetching it', async () => {
    const w = await makeTenant(t);
    const requests = site.requests.length;
    assertError(await t.request('POST', CRAWL, { key: w.key, body: { links: [u('/')], limit: 0 } }), 400, /^body\.limit: /);
    assert.equal(site.requests.length, requests);
  });

  describe('the Nutch fetch test site', () => {
    let nutch: FakeSite;
    before(async () => {
      const file = (name: string) => readFileSync(path.join(NUTCH_SITE, name));
      const htmlFile = (name: string) => ({ headers: { 'content-type': 'text/html' }, body: file(name) });
      nutch = await startFakeSite({
        '/': htmlFile('index.html'),
        '/index.html': htmlFile('index.html'),
        '/pagea.html': htmlFile('pagea.html'),
        '/pageb.html': htmlFile('pageb.html'),
        '/dup_of_pagea.html': htmlFile('dup_of_pagea.html'),
        '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: file('robots.txt') },
      });
    });
    after(() => nutch.close());

    it('finds 3 distinct pages from /, lists one of two byte-identical pages, and does not loop', async () => {
      const w = await makeTenant(t);
      const result = await crawl(t, w.key, { links: [nutch.url('/')] });
      assert.equal(result.data.length, 3, JSON.stringify(result));
      assert.ok(result.data.includes(nutch.url('/pageb.html')), JSON.stringify(result.data));
      const home = [nutch.url('/'), nutch.url('/index.html')].filter((x) => result.data.includes(x));
      assert.deepEqual(home, [nutch.url('/')], 'the seed is listed, not its byte-identical /index.html');
      const pageA = [nutch.url('/pagea.html'), nutch.url('/dup_of_pagea.html')].filter((x) => result.data.includes(x));
      assert.equal(pageA.length, 1, `exactly one of pagea/dup_of_pagea: ${JSON.stringify(result.data)}`);
      for (const p of ['/', '/index.html', '/pagea.html', '/pageb.html', '/dup_of_pagea.html']) {
        assert.ok(nutch.hits(p) <= 1, `${p} fetched ${nutch.hits(p)} times`);
      }
      assert.deepEqual(await list(t, w.key), { documents: [], hasMore: false });
    });
  });
});

// ---------------------------------------------------------------------------------------------
// 6. Pathological pages through ingestion
// ---------------------------------------------------------------------------------------------

describe('ingesting the spider trap and the bogus-charset page', () => {
  let t: TestApp;
  let site: FakeSite;
  let w: Tenant;
  before(async () => {
    t = await startTestApp({ work: true, env: INGEST_ENV });
    const served = (name: string) => ({ headers: { 'content-type': 'text/html' }, body: readFileSync(path.join(NUTCH_SITE, name)) });
    site = await startFakeSite({
      '/nested_spider_trap.html': served('nested_spider_trap.html'),
      '/exception.html': served('exception.html'),
    });
    w = await makeTenant(t);
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  it('finishes both in bounded time while the service keeps answering', async () => {
    const started = Date.now();
    const byUrl = await addWeb(t, w.key, [site.url('/nested_spider_trap.html'), site.url('/exception.html')]);
    const trapId = byUrl.get(site.url('/nested_spider_trap.html'))!;
    const exceptionId = byUrl.get(site.url('/exception.html'))!;
    // The service answers promptly while the pages are processed.
    for (let i = 0; i < 5; i++) {
      const asked = Date.now();
      await list(t, w.key);
      assert.ok(Date.now() - asked < 2000, 'listing answered within 2 s');
      await sleep(50);
    }
    const trap = await waitForSource(t, w.key, trapId, undefined, 30_000);
    const exception = await waitForSource(t, w.key, exceptionId, undefined, 30_000);
    assert.ok(Date.now() - started < 30_000);

    assert.equal(trap.linkedJobStatus, 'COMPLETED', trap.error);
    assert.equal(trap.success, true);
    assert.equal(trap.title, 'nested spider trap');
    assert.ok(trap.paragraphs.some((p) => p.includes('Nutch fetcher test page')), JSON.stringify(trap.paragraphs));

    assert.equal(exception.linkedJobStatus, 'COMPLETED', exception.error);
    assert.equal(exception.success, true);
    assert.equal(exception.title, 'Exception');
    assert.ok(
      exception.paragraphs.some((p) => p.includes('Trying to parse this one will fail with a MalformedInputException')),
      JSON.stringify(exception.paragraphs),
    );
    await expectStatus(t, 200, 'GET', '/v2/documents/public?limit=1', w.key);
  });
});

// ---------------------------------------------------------------------------------------------
// 7. Private addresses
// ---------------------------------------------------------------------------------------------

describe('private and loopback addresses (PARLEY_FETCH_ALLOW_PRIVATE unset)', () => {
  let t: TestApp;
  let site: FakeSite;
  let w: Tenant;
  before(async () => {
    const env: Record<string, string> = { ...INGEST_ENV };
    delete env.PARLEY_FETCH_ALLOW_PRIVATE;
    t = await startTestApp({ work: true, env });
    assert.equal(t.config.fetch.allowPrivate, false);
    site = await startFakeSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
      '/page': pageHtml('A page on the loopback address', ['/other']),
      '/other': pageHtml('Another page'),
    });
    w = await makeTenant(t);
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  it('fails the ingestion of a 127.0.0.1 URL, saying the address is private, without contacting it', async () => {
    const id = await addOneWeb(t, w.key, site.url('/page'));
    const done = await waitForSource(t, w.key, id);
    assert.equal(done.linkedJobStatus, 'FAILED');
    assert.equal(done.success, false);
    assert.deepEqual(done.paragraphs, []);
    assert.equal(site.requests.length, 0, 'the loopback site was never contacted');
    assert.match(done.error, /private|loopback/i, `error: ${done.error}`);
  });

  it('deep crawl of a 127.0.0.1 seed returns no URLs and contacts nothing', async () => {
    const result = await crawl(t, w.key, { links: [site.url('/page')] });
    assert.deepEqual(result.data, []);
    assert.equal(site.requests.length, 0);
  });

  it('deep crawl of a 127.0.0.1 seed says why nothing was found (private address)', async () => {
    const result = await crawl(t, w.key, { links: [site.url('/')] });
    assert.deepEqual(result.data, []);
    assert.match(result.message, /private|loopback/i, `message: ${result.message}`);
  });
});
