// Scheduled re-sync, the settings: a source's own interval (PATCH and the ingest route), the
// workspace's default, a provider connection's; the schedule pg-boss holds for each source
// (spread by the source id), what the record says, validation, deletion and tenant isolation.
// The app's clock and its queue's are one frozen clock (test/support/frozen-clock.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { type FakeProviders, credentialsFor, notionId, startFakeProviders } from '../support/fake-providers.js';
import { type FakeSite, html, startFakeSite } from '../support/fake-site.js';
import { frozenClock, type FrozenClock } from '../support/frozen-clock.js';
import { assertError, expectStatus, type SecuredRouteRow, securitySuites } from '../support/security.js';
import { INGEST_ENV, ingestUrls, type Source } from '../support/sources.js';
import { nextCron, patchSource, presetCron, scheduleOf, settleSchedules, spreadOf } from './sync-support.js';
import { addFile, LIST, one } from './support.js';

interface Workspace {
  id: string;
  name: string;
  sourceSyncInterval: string;
}
interface Connection {
  provider: string;
  connected: boolean;
  syncInterval?: string | null;
}

const WORKSPACE = '/v2/workspace/public';
const connection = (provider: string) => `/v2/providers/${provider}/connection/public`;
const EXPECTED = 'off, hourly, daily, weekly, or a cron expression of five fields (minute hour day-of-month month day-of-week, UTC)';

describe('scheduled re-sync: settings', () => {
  let t: TestApp;
  let f: FrozenClock;
  let fake: FakeProviders;
  let site: FakeSite;
  let w: Tenant;
  let n = 0;
  /** A new page of the fake site (these tests never run a schedule: the page is ingested once). */
  const page = () => {
    n += 1;
    site.set(`/sync-${n}`, html(`Page ${n}`, `This is page number ${n} of the help center, with a few words.`));
    return site.url(`/sync-${n}`);
  };
  const get = (id: string, key = w.key) => expectStatus<Source>(t, 200, 'GET', one(id), key);
  const addWeb = async (key = w.key, extra: Record<string, unknown> = {}) => (await ingestUrls(t, key, [page()], extra)).addedDocumentIds[0]!;

  before(async () => {
    f = frozenClock(() => t.queue.engine);
    t = await startTestApp({ work: true, env: INGEST_ENV, clock: f.clock, queueClock: f.queue });
    fake = await startFakeProviders();
    site = await startFakeSite({ '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' } });
    w = await makeTenant(t);
  });
  after(async () => {
    await t.close();
    await fake.close();
    await site.close();
  });

  it('a source re-syncs on the interval it is given, changed or turned off; its schedule follows', async () => {
    const id = await addWeb();
    let source = await get(id);
    assert.deepEqual(
      [source.syncInterval, source.effectiveSyncInterval, source.lastSyncAt, source.nextSyncAt, source.syncFailures, source.syncError],
      [null, 'off', null, null, 0, null],
    );
    await settleSchedules(t);
    assert.equal(await scheduleOf(t, id), null, 'no schedule while the workspace default is off');

    // daily: minute and hour from the source id; the answer says when it runs next.
    source = await patchSource(t, w.key, id, 'daily');
    const daily = presetCron(id, 'daily');
    assert.equal(source.syncInterval, 'daily');
    assert.equal(source.effectiveSyncInterval, 'daily');
    assert.equal(source.nextSyncAt, nextCron(daily, f.now()).toISOString());
    assert.equal(source.updatedAt, f.now().toISOString());
    await settleSchedules(t);
    assert.deepEqual(await scheduleOf(t, id), { cron: daily, data: { workspaceId: w.workspaceId, sourceId: id, cron: daily }, startAfter: 0 });
    assert.deepEqual(await get(id), source);

    // Changed to hourly, then weekly.
    source = await patchSource(t, w.key, id, 'hourly');
    await settleSchedules(t);
    assert.equal((await scheduleOf(t, id))!.cron, presetCron(id, 'hourly'));
    assert.equal(source.nextSyncAt, nextCron(presetCron(id, 'hourly'), f.now()).toISOString());
    source = await patchSource(t, w.key, id, 'weekly');
    await settleSchedules(t);
    assert.equal((await scheduleOf(t, id))!.cron, presetCron(id, 'weekly'));
    assert.equal(source.nextSyncAt, nextCron(presetCron(id, 'weekly'), f.now()).toISOString());

    // A cron expression runs as written (spaces tidied), each run started late by the source's place in the hour.
    source = await patchSource(t, w.key, id, ' 30  6 * * 1-5 ');
    const offset = spreadOf(id).n % 3600;
    assert.equal(source.syncInterval, '30 6 * * 1-5');
    assert.equal(source.effectiveSyncInterval, '30 6 * * 1-5');
    assert.equal(source.nextSyncAt, new Date(nextCron('30 6 * * 1-5', new Date(f.now().getTime() - offset * 1000)).getTime() + offset * 1000).toISOString());
    await settleSchedules(t);
    assert.deepEqual(await scheduleOf(t, id), { cron: '30 6 * * 1-5', data: { workspaceId: w.workspaceId, sourceId: id, cron: '30 6 * * 1-5' }, startAfter: offset });

    // off: no schedule, nothing next.
    source = await patchSource(t, w.key, id, 'off');
    assert.deepEqual([source.syncInterval, source.effectiveSyncInterval, source.nextSyncAt], ['off', 'off', null]);
    await settleSchedules(t);
    assert.equal(await scheduleOf(t, id), null);

    // null: back to the defaults (the workspace's is off).
    source = await patchSource(t, w.key, id, null);
    assert.deepEqual([source.syncInterval, source.effectiveSyncInterval, source.nextSyncAt], [null, 'off', null]);
  });

  it('the ingest route sets the interval of every source it names, added or refreshed', async () => {
    const [a, b] = [page(), page()];
    const added = await ingestUrls(t, w.key, [a, b], { syncInterval: 'hourly' });
    assert.deepEqual(added.documents.map((d) => [d.syncInterval, d.effectiveSyncInterval]), [['hourly', 'hourly'], ['hourly', 'hourly']]);
    await settleSchedules(t);
    for (const id of added.addedDocumentIds) assert.equal((await scheduleOf(t, id))!.cron, presetCron(id, 'hourly'));
    // Refreshing one with another interval changes that one only; without syncInterval nothing changes.
    const [idA, idB] = added.addedDocumentIds as [string, string];
    const refreshed = await expectStatus<{ documents: Source[] }>(t, 202, 'POST', LIST, w.key, { documentIdsToRefresh: [a], syncInterval: 'daily' });
    assert.equal(refreshed.documents[0]!.syncInterval, 'daily');
    await expectStatus(t, 202, 'POST', LIST, w.key, { documentIdsToRefresh: [b] });
    await settleSchedules(t);
    assert.equal((await scheduleOf(t, idA))!.cron, presetCron(idA, 'daily'));
    assert.equal((await scheduleOf(t, idB))!.cron, presetCron(idB, 'hourly'));
    assert.equal((await get(idB)).syncInterval, 'hourly');
    // null hands a source back to the defaults.
    await expectStatus(t, 202, 'POST', LIST, w.key, { documentIdsToRefresh: [a, b], syncInterval: null });
    await settleSchedules(t);
    assert.deepEqual([await scheduleOf(t, idA), await scheduleOf(t, idB)], [null, null]);
  });

  it('the workspace default applies to every source without an interval of its own, new ones included', async () => {
    const tenant = await makeTenant(t);
    const following = await addWeb(tenant.key);
    const own = await addWeb(tenant.key, { syncInterval: 'off' });
    const daily = await addWeb(tenant.key, { syncInterval: 'daily' });
    const updated = await expectStatus<Workspace>(t, 200, 'PATCH', WORKSPACE, tenant.key, { sourceSyncInterval: 'weekly' });
    assert.equal(updated.sourceSyncInterval, 'weekly');
    assert.equal((await expectStatus<Workspace>(t, 200, 'GET', WORKSPACE, tenant.readKey)).sourceSyncInterval, 'weekly');
    await settleSchedules(t);
    assert.equal((await scheduleOf(t, following))!.cron, presetCron(following, 'weekly'));
    assert.equal(await scheduleOf(t, own), null);
    assert.equal((await scheduleOf(t, daily))!.cron, presetCron(daily, 'daily'));
    const record = await get(following, tenant.key);
    assert.deepEqual([record.syncInterval, record.effectiveSyncInterval], [null, 'weekly']);
    assert.equal(record.nextSyncAt, nextCron(presetCron(following, 'weekly'), f.now()).toISOString());
    assert.equal((await get(own, tenant.key)).effectiveSyncInterval, 'off');

    // A source added now follows it from the start; an uploaded file never re-syncs.
    const later = await addWeb(tenant.key);
    const file = await addFile(t, tenant.key);
    await settleSchedules(t);
    assert.equal((await scheduleOf(t, later))!.cron, presetCron(later, 'weekly'));
    assert.equal(await scheduleOf(t, file), null);
    assert.deepEqual([(await get(file, tenant.key)).effectiveSyncInterval, (await get(file, tenant.key)).nextSyncAt], ['off', null]);

    // A name alone leaves the default; off takes the followers' schedules away and leaves the others.
    assert.equal((await expectStatus<Workspace>(t, 200, 'PATCH', WORKSPACE, tenant.key, { name: 'Renamed' })).sourceSyncInterval, 'weekly');
    await expectStatus(t, 200, 'PATCH', WORKSPACE, tenant.key, { sourceSyncInterval: 'off' });
    await settleSchedules(t);
    assert.deepEqual([await scheduleOf(t, following), await scheduleOf(t, later)], [null, null]);
    assert.equal((await scheduleOf(t, daily))!.cron, presetCron(daily, 'daily'));
    assert.equal((await get(following, tenant.key)).nextSyncAt, null);
  });

  it("a provider connection's interval applies to its sources without their own, before the workspace's", async () => {
    const tenant = await makeTenant(t);
    await expectStatus(t, 200, 'PUT', connection('notion'), tenant.key, credentialsFor(fake).notion);
    assert.equal((await expectStatus<Connection>(t, 200, 'GET', connection('notion'), tenant.key)).syncInterval, null);
    const registered = await expectStatus<{ addedDocumentIds: string[] }>(t, 200, 'POST', '/v2/documents/public/resources/notion', tenant.key, {
      resources: [{ externalId: notionId(7001), title: 'Refunds', originalUrl: 'https://www.notion.so/refunds', mimeType: 'text/markdown' }],
    });
    const notion = registered.addedDocumentIds[0]!;
    const web = await addWeb(tenant.key);
    await expectStatus(t, 200, 'PATCH', WORKSPACE, tenant.key, { sourceSyncInterval: 'weekly' });

    const patched = await expectStatus<Connection>(t, 200, 'PATCH', connection('notion'), tenant.key, { syncInterval: 'daily' });
    assert.deepEqual([patched.connected, patched.syncInterval], [true, 'daily']);
    assert.equal((await expectStatus<Connection>(t, 200, 'GET', connection('notion'), tenant.key)).syncInterval, 'daily');
    await settleSchedules(t);
    assert.equal((await scheduleOf(t, notion))!.cron, presetCron(notion, 'daily'));
    assert.equal((await scheduleOf(t, web))!.cron, presetCron(web, 'weekly'));
    assert.deepEqual([(await get(notion, tenant.key)).syncInterval, (await get(notion, tenant.key)).effectiveSyncInterval], [null, 'daily']);

    // The source's own interval comes first.
    await patchSource(t, tenant.key, notion, 'hourly');
    await expectStatus(t, 200, 'PATCH', connection('notion'), tenant.key, { syncInterval: 'off' });
    await settleSchedules(t);
    assert.equal((await scheduleOf(t, notion))!.cron, presetCron(notion, 'hourly'));
    await patchSource(t, tenant.key, notion, null);
    await settleSchedules(t);
    assert.equal(await scheduleOf(t, notion), null, "the connection's off");

    // null: the workspace's again; a PUT keeps the interval; a disconnect drops it.
    await expectStatus(t, 200, 'PATCH', connection('notion'), tenant.key, { syncInterval: null });
    await settleSchedules(t);
    assert.equal((await scheduleOf(t, notion))!.cron, presetCron(notion, 'weekly'));
    await expectStatus(t, 200, 'PATCH', connection('notion'), tenant.key, { syncInterval: 'hourly' });
    assert.equal((await expectStatus<Connection>(t, 200, 'PUT', connection('notion'), tenant.key, credentialsFor(fake).notion)).syncInterval, 'hourly');
    await expectStatus(t, 200, 'DELETE', connection('notion'), tenant.key);
    await settleSchedules(t);
    assert.equal((await scheduleOf(t, notion))!.cron, presetCron(notion, 'weekly'));
    assertError(await t.request('PATCH', connection('notion'), { key: tenant.key, body: { syncInterval: 'daily' } }), 404, 'notion is not connected in this workspace');
    await expectStatus(t, 200, 'PATCH', WORKSPACE, tenant.key, { sourceSyncInterval: 'off' });
  });

  it('a deleted source loses its schedule', async () => {
    const id = await addWeb(w.key, { syncInterval: 'hourly' });
    await settleSchedules(t);
    assert.ok(await scheduleOf(t, id));
    await expectStatus(t, 200, 'DELETE', LIST, w.key, { documentIds: [id] });
    await settleSchedules(t);
    assert.equal(await scheduleOf(t, id), null);
  });

  it('refuses an invalid interval with a 400 naming the field, and changes nothing', async () => {
    const id = await addWeb(w.key, { syncInterval: 'daily' });
    const before = await get(id);
    const cases: [unknown, string | RegExp][] = [
      ['Daily', `body.syncInterval: expected ${EXPECTED}, got "Daily"`],
      ['@daily', `body.syncInterval: expected ${EXPECTED}, got "@daily"`],
      ['0 0 6 * * *', `body.syncInterval: expected ${EXPECTED}, got "0 0 6 * * *"`],
      ['61 * * * *', `body.syncInterval: not a valid cron expression: Constraint error, got value 61 expected range 0-59 (expected ${EXPECTED})`],
      ['*/2 * * * *', 'body.syncInterval: "*/2 * * * *" runs 2 minutes apart; the shortest interval is 5 minutes'],
      ['', `body.syncInterval: expected ${EXPECTED}, got ""`],
      [42, /^body\.syncInterval: /],
    ];
    for (const [syncInterval, message] of cases) {
      assertError(await t.request('PATCH', one(id), { key: w.key, body: { syncInterval } }), 400, message);
    }
    assertError(await t.request('PATCH', one(id), { key: w.key, body: {} }), 400, /^body\.syncInterval: /);
    assertError(await t.request('PATCH', one(id), { key: w.key, body: { syncInterval: 'daily', title: 'x' } }), 400, /title/);
    assertError(await t.request('POST', LIST, { key: w.key, body: { documentIdsToAdd: [page()], syncInterval: 'sometimes' } }), 400, `body.syncInterval: expected ${EXPECTED}, got "sometimes"`);
    assertError(await t.request('PATCH', WORKSPACE, { key: w.key, body: { sourceSyncInterval: '* * * * *' } }), 400, 'body.sourceSyncInterval: "* * * * *" runs 1 minute apart; the shortest interval is 5 minutes');
    assertError(await t.request('PATCH', WORKSPACE, { key: w.key, body: { sourceSyncInterval: null } }), 400, /^body\.sourceSyncInterval: /);
    assertError(await t.request('PATCH', WORKSPACE, { key: w.key, body: {} }), 400, 'body: give name, sourceSyncInterval or both');
    await expectStatus(t, 200, 'PUT', connection('zendesk'), w.key, credentialsFor(fake).zendesk);
    assertError(await t.request('PATCH', connection('zendesk'), { key: w.key, body: { syncInterval: 'nightly' } }), 400, `body.syncInterval: expected ${EXPECTED}, got "nightly"`);
    assertError(await t.request('PATCH', connection('zendesk'), { key: w.key, body: {} }), 400, /^body\.syncInterval: /);
    // An uploaded file cannot be refreshed, so it cannot re-sync; off is accepted.
    const file = await addFile(t, w.key);
    assertError(await t.request('PATCH', one(file), { key: w.key, body: { syncInterval: 'daily' } }), 400, `body.syncInterval: ${file} is an uploaded file, which cannot be refreshed; give off or null`);
    assert.equal((await patchSource(t, w.key, file, 'off')).syncInterval, 'off');

    assert.deepEqual(await get(id), before);
    assert.equal((await expectStatus<Workspace>(t, 200, 'GET', WORKSPACE, w.key)).sourceSyncInterval, 'off');
    assert.equal((await expectStatus<Connection>(t, 200, 'GET', connection('zendesk'), w.key)).syncInterval, null);
    await settleSchedules(t);
    assert.equal((await scheduleOf(t, id))!.cron, presetCron(id, 'daily'));
  });

  describe('another workspace', () => {
    it("cannot see or set another workspace's source (404), and its defaults reach only its own sources", async () => {
      const [owner, caller] = [await makeTenant(t), await makeTenant(t)];
      const id = await addWeb(owner.key);
      const theirs = await addWeb(caller.key);
      const original = await get(id, owner.key);
      assertError(await t.request('PATCH', one(id), { key: caller.key, body: { syncInterval: 'hourly' } }), 404, `source ${id} not found`);
      await expectStatus(t, 200, 'PATCH', WORKSPACE, caller.key, { sourceSyncInterval: 'hourly' });
      await expectStatus(t, 200, 'PUT', connection('notion'), caller.key, credentialsFor(fake).notion);
      await expectStatus(t, 200, 'PATCH', connection('notion'), caller.key, { syncInterval: 'daily' });
      await settleSchedules(t);
      assert.deepEqual(await get(id, owner.key), original);
      assert.equal(await scheduleOf(t, id), null);
      assert.equal((await scheduleOf(t, theirs))!.cron, presetCron(theirs, 'hourly'));
      assert.equal((await expectStatus<Workspace>(t, 200, 'GET', WORKSPACE, owner.key)).sourceSyncInterval, 'off');
      assert.deepEqual(await expectStatus(t, 200, 'GET', connection('notion'), owner.key), { provider: 'notion', connected: false });
      assertError(await t.request('PATCH', connection('notion'), { key: owner.key, body: { syncInterval: 'hourly' } }), 404);
      await expectStatus(t, 200, 'PATCH', WORKSPACE, caller.key, { sourceSyncInterval: 'off' });
    });
  });

  describe('security', () => {
    const routes: SecuredRouteRow[] = [
      ['set a source\'s interval', 'PATCH', 'write', async (app, o) => ({ path: one((await ingestUrls(app, o.key, [page()])).addedDocumentIds[0]!), body: { syncInterval: 'daily' } }), 404],
      ['set the workspace default', 'PATCH', 'write', async () => ({ path: WORKSPACE, body: { sourceSyncInterval: 'daily' } }), undefined],
      ["set a connection's interval", 'PATCH', 'write', async () => ({ path: connection('notion'), body: { syncInterval: 'daily' } }), undefined],
    ];
    securitySuites(() => t, routes);
  });
});
