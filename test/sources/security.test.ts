// Every Sources route (wire name "documents") runs the shared security suite, and no route reaches
// another workspace's records.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { assertError, expectStatus, type SecuredRouteRow, securitySuites } from '../support/security.js';
import { ingestUrls, type Source } from '../support/sources.js';
import { testClock } from '../support/clock.js';
import { addFile, addOneWeb, CRAWL, fileOf, idsOf, LIST, list, one, REFRESH, sortedIds, startAppWithoutWorkers, suffix, UPLOAD } from './support.js';

describe('sources routes: security', () => {
  let t: TestApp;
  /** Advanced so that a wrongly touched record would show a later updatedAt. */
  const clock = testClock();
  before(async () => {
    t = await startAppWithoutWorkers({ clock });
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
      clock.advance();
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
