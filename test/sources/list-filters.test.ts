// GET /v2/documents/public: every filter, alone and combined, on a fixture of named records in two
// workspaces; invalid filters answer 400.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { assertError } from '../support/security.js';
import { ingestUrls } from '../support/sources.js';
import { addWeb, ARTICLE_1, ARTICLE_2, idsOf, LIST, list, setSource, sortedIds, startAppWithoutWorkers, THEIR_ARTICLE_1, THEIR_ARTICLE_2, UNKNOWN, upload } from './support.js';

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
    ['source=confluence', []],
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

  // This app has no workers: the made-up host is never looked up.
  it('filters an internationalised domain however it is spelled', async () => {
    const fresh = await makeTenant(t);
    const { documents } = await ingestUrls(t, fresh.key, ['http://bücher.example/seite']);
    assert.equal(documents[0]!.originalUrl, 'http://xn--bcher-kva.example/seite');
    for (const domain of ['BÜCHER.example', 'xn--bcher-kva.example']) {
      assert.deepEqual(idsOf(await list(t, fresh.key, `source=web&domain=${encodeURIComponent(domain)}`)), [documents[0]!.id]);
    }
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
