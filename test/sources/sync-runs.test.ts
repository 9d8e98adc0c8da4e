// Scheduled re-sync, the runs: pg-boss's own cron pass fires a source's schedule under a frozen
// clock (test/support/frozen-clock.ts), and the run refreshes the source from a fake site on
// 127.0.0.1 with a conditional request; never two refreshes of one source at once; sources spread
// by their ids; a failing source backs off and says so; a change found on a source linked to
// knowledge drafts the update, whose publication emits article.published.
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { defineListener, registeredListener } from '../../src/events/bus.js';
import type { DomainEvents } from '../../src/events/events.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { type FakeSite, html, startFakeSite } from '../support/fake-site.js';
import { frozenClock, type FrozenClock } from '../support/frozen-clock.js';
import { poll } from '../support/poll.js';
import { expectStatus } from '../support/security.js';
import { INGEST_ENV, ingestUrls, type Source, waitForSource } from '../support/sources.js';
import { type Article, getArticle, makeFolder, waitForJobs } from '../generation/support.js';
import { armRun, finishRun, nextCron, presetCron, runsOf, runSchedule, settleSchedules } from './sync-support.js';
import { LIST, one, REFRESH } from './support.js';

const ROBOTS = { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' };
const HOUR_MS = 3600 * 1000;
const RETURNS = [
  'You can return any unused item within 30 days of delivery for a full refund.',
  'Refunds are paid to the original payment method within 5 business days after the return arrives.',
];

describe('scheduled re-sync: runs', () => {
  let t: TestApp;
  let f: FrozenClock;
  let site: FakeSite;
  const published: (DomainEvents['article.published'] & { workspaceId: string })[] = [];

  before(async () => {
    f = frozenClock(() => t.queue.engine);
    const recorder = defineListener({
      name: 'test.record-published',
      event: 'article.published',
      phase: 'commit',
      handle: async (ctx, payload) => void published.push({ workspaceId: ctx.workspaceId, ...payload }),
    });
    // A held page must not time out (real time) while the test moves the frozen clock around it.
    const env = { ...INGEST_ENV, PARLEY_FETCH_TIMEOUT_MS: '120000' };
    t = await startTestApp({ work: true, env, clock: f.clock, queueClock: f.queue, listeners: [registeredListener(recorder)] });
    site = await startFakeSite({ '/robots.txt': ROBOTS });
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  const get = (w: Tenant, id: string) => expectStatus<Source>(t, 200, 'GET', one(id), w.key);
  /** Waits for the job that replaced `job` on the source to finish. */
  const nextResult = (w: Tenant, id: string, job: string | null) =>
    waitForSource(t, w.key, id, (s) => s.linkedJobId !== job && (s.linkedJobStatus === 'COMPLETED' || s.linkedJobStatus === 'FAILED'));
  /** A test's sources go at its end, with their schedules, so no later move of the clock runs them. */
  const cleanUp = async (w: Tenant, ids: string[]) => {
    await expectStatus(t, 200, 'DELETE', LIST, w.key, { documentIds: ids });
    await settleSchedules(t);
  };

  it('a run refreshes the source with a conditional request and picks up a change', async () => {
    const w = await makeTenant(t);
    let version = 1;
    const conditional = (req: IncomingMessage, res: ServerResponse) => {
      const etag = `"v${version}"`;
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
      const text = version === 1 ? RETURNS : [RETURNS[0]!.replace('30 days', '14 days'), RETURNS[1]!];
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag }).end(html('Returns', ...text));
    };
    site.set('/returns', { handle: conditional });
    const added = await ingestUrls(t, w.key, [site.url('/returns')], { syncInterval: 'hourly' });
    const id = added.addedDocumentIds[0]!;
    let source = await waitForSource(t, w.key, id);
    assert.equal(source.linkedJobStatus, 'COMPLETED');
    await settleSchedules(t);
    const cron = presetCron(id, 'hourly');
    assert.equal(source.nextSyncAt, nextCron(cron, f.now()).toISOString());

    // The page has not changed: the run asks with If-None-Match and the site answers 304.
    const hits = site.hits('/returns');
    const occurrence = await armRun(t, f, id);
    assert.equal(occurrence.toISOString(), source.nextSyncAt);
    assert.equal(await finishRun(t, f, id), 'queued');
    // The cron pass a second after the cron time sent the job, which ran then.
    const ranAt = new Date(occurrence.getTime() + 1000).toISOString();
    source = await nextResult(w, id, source.linkedJobId);
    assert.equal(source.linkedJobStatus, 'COMPLETED');
    assert.equal(site.hits('/returns'), hits + 1);
    assert.equal(site.requests.at(-1)!.headers['if-none-match'], '"v1"');
    assert.deepEqual(source.paragraphs, ['Returns', ...RETURNS]);
    assert.equal(source.lastSyncAt, ranAt);
    assert.equal(source.nextSyncAt, new Date(occurrence.getTime() + HOUR_MS).toISOString());
    assert.deepEqual([source.syncFailures, source.syncError], [0, null]);

    // The page changes: the next run gets it (an unlinked source is not flagged, its old text kept).
    version = 2;
    assert.equal(await runSchedule(t, f, id), 'queued');
    source = await nextResult(w, id, source.linkedJobId);
    assert.equal(site.requests.at(-1)!.headers['if-none-match'], '"v1"');
    assert.deepEqual(source.paragraphs, ['Returns', RETURNS[0]!.replace('30 days', '14 days'), RETURNS[1]!]);
    assert.deepEqual(source.oldParagraphs, ['Returns', ...RETURNS]);
    assert.equal(source.changed, false);
    assert.equal(source.lastSyncAt, f.now().toISOString());
    assert.deepEqual(runsOf(t, id), ['queued', 'queued']);
    await cleanUp(w, [id]);
  });

  it('never starts a refresh while one of the source is queued or running', async () => {
    const w = await makeTenant(t);
    const held: ServerResponse[] = [];
    let hold = false;
    site.set('/held', {
      handle: (_req, res) => {
        if (hold) return void held.push(res);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html('Held', 'A page that answers when the test lets it.'));
      },
    });
    const id = (await ingestUrls(t, w.key, [site.url('/held')], { syncInterval: 'hourly' })).addedDocumentIds[0]!;
    await waitForSource(t, w.key, id);
    await settleSchedules(t);

    // The schedule comes due while a refresh someone asked for is fetching the page.
    await armRun(t, f, id);
    hold = true;
    await expectStatus(t, 200, 'POST', REFRESH, w.key, { documentIds: [id] });
    const requested = await get(w, id);
    const hits = site.hits('/held');
    await poll(
      () => {
        t.wakeWorkers('sources.ingest');
        return site.hits('/held');
      },
      (n) => n === hits + 1,
      { what: 'the requested refresh to fetch the page' },
    );
    assert.equal(await finishRun(t, f, id), 'running');
    const during = await get(w, id);
    assert.deepEqual([during.linkedJobId, during.linkedJobStatus, during.lastSyncAt], [requested.linkedJobId, 'IN_PROGRESS', null]);
    assert.equal(site.hits('/held'), hits + 1, 'one request: the run queued no second refresh');

    // Once it is done, the next run refreshes again.
    hold = false;
    for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html('Held', 'A page that answers when the test lets it.'));
    const done = await waitForSource(t, w.key, id);
    assert.deepEqual([done.linkedJobId, done.linkedJobStatus], [requested.linkedJobId, 'COMPLETED']);
    assert.equal(await runSchedule(t, f, id), 'queued');
    await nextResult(w, id, done.linkedJobId);
    assert.equal(site.hits('/held'), hits + 2);
    assert.deepEqual(runsOf(t, id), ['running', 'queued']);
    await cleanUp(w, [id]);
  });

  it('spreads sources over the day: at one source\'s time only the sources of that minute run', async () => {
    const w = await makeTenant(t);
    const urls = Array.from({ length: 12 }, (_, i) => {
      site.set(`/spread-${i}`, html(`Spread ${i}`, `Page ${i} of a help center whose sources re-sync daily.`));
      return site.url(`/spread-${i}`);
    });
    const added = await ingestUrls(t, w.key, urls, { syncInterval: 'daily' });
    const ids = added.addedDocumentIds;
    const sources = await Promise.all(ids.map((id) => waitForSource(t, w.key, id)));
    await settleSchedules(t);
    for (const source of sources) assert.equal(source.nextSyncAt, nextCron(presetCron(source.id, 'daily'), f.now()).toISOString());

    const first = [...sources].sort((a, b) => a.nextSyncAt!.localeCompare(b.nextSyncAt!))[0]!;
    const due = sources.filter((s) => s.nextSyncAt === first.nextSyncAt).map((s) => s.id);
    const hits = urls.map((url) => site.hits(new URL(url).pathname));
    assert.equal(await runSchedule(t, f, first.id), 'queued');
    for (const id of due) if (runsOf(t, id).length === 0) await finishRun(t, f, id);
    for (const id of due) await nextResult(w, id, sources.find((s) => s.id === id)!.linkedJobId);
    ids.forEach((id, i) => {
      const ran = due.includes(id);
      assert.deepEqual(runsOf(t, id), ran ? ['queued'] : [], `source ${i}`);
      assert.equal(site.hits(new URL(urls[i]!).pathname), hits[i]! + (ran ? 1 : 0), `source ${i}`);
    });
    await cleanUp(w, ids);
  });

  it('backs off a source that keeps failing, says so on its record, and recovers', async () => {
    const w = await makeTenant(t);
    const id = (await ingestUrls(t, w.key, [site.url('/moved')], { syncInterval: 'hourly' })).addedDocumentIds[0]!;
    let source = await waitForSource(t, w.key, id);
    await settleSchedules(t);
    // The first ingestion failed: the next run is the usual one.
    assert.deepEqual([source.linkedJobStatus, source.syncFailures, source.syncError], ['FAILED', 1, 'the last refresh failed: page not found (HTTP 404)']);
    assert.equal(source.nextSyncAt, nextCron(presetCron(id, 'hourly'), f.now()).toISOString());

    // A second failure: the schedule waits two hours after this run.
    const first = await armRun(t, f, id);
    assert.equal(await finishRun(t, f, id), 'queued');
    source = await nextResult(w, id, source.linkedJobId);
    assert.deepEqual([source.linkedJobStatus, source.syncFailures, source.lastSyncAt], ['FAILED', 2, new Date(first.getTime() + 1000).toISOString()]);
    assert.equal(source.syncError, '2 refreshes in a row failed; the schedule backs off: it waits 2 hours after its last run before the next, until a refresh succeeds. Last error: page not found (HTTP 404)');
    assert.equal(source.nextSyncAt, new Date(first.getTime() + 2 * HOUR_MS).toISOString());

    // An hour later the run does nothing: no request, the record as it was.
    const hits = site.hits('/moved');
    assert.equal(await runSchedule(t, f, id), 'backing_off');
    assert.equal(site.hits('/moved'), hits);
    assert.deepEqual(await get(w, id), source);

    // Two hours after: it runs, fails a third time, and waits four hours.
    const third = await armRun(t, f, id);
    assert.equal(third.getTime(), first.getTime() + 2 * HOUR_MS);
    assert.equal(await finishRun(t, f, id), 'queued');
    source = await nextResult(w, id, source.linkedJobId);
    assert.equal(source.syncFailures, 3);
    assert.match(source.syncError!, /^3 refreshes in a row failed; the schedule backs off: it waits 4 hours after its last run/);
    assert.equal(source.nextSyncAt, new Date(third.getTime() + 4 * HOUR_MS).toISOString());

    // The page is back: three runs back off, the fourth succeeds and the source is in step again.
    site.set('/moved', html('Moved', 'The page is back where it was, with its text.'));
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i++) outcomes.push(await runSchedule(t, f, id));
    assert.deepEqual(outcomes, ['backing_off', 'backing_off', 'backing_off', 'queued']);
    source = await nextResult(w, id, source.linkedJobId);
    assert.deepEqual([source.linkedJobStatus, source.success, source.syncFailures, source.syncError], ['COMPLETED', true, 0, null]);
    assert.equal(source.nextSyncAt, new Date(third.getTime() + 5 * HOUR_MS).toISOString());
    assert.equal(site.hits('/moved'), hits + 2);
    await cleanUp(w, [id]);
  });

  it('a change found on a source linked to knowledge drafts the update; publishing it emits article.published', async () => {
    const w = await makeTenant(t);
    const agentId = (await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/bots/public', w.key, { name: 'Support' })).id;
    const folderId = await makeFolder(t, w.key, 'Returns and refunds', 'Returning items, refunds and exchanges');
    await expectStatus(t, 200, 'POST', '/v2/hc-bot-folder-junctions/public', w.key, { junctions: [{ folderId, botId: agentId, action: 'ADD' }] });
    site.set('/help/returns', html('Returns and refunds', ...RETURNS));
    const id = (await ingestUrls(t, w.key, [site.url('/help/returns')], { syncInterval: 'daily' })).addedDocumentIds[0]!;
    await waitForSource(t, w.key, id);
    await settleSchedules(t);
    const { jobs } = await expectStatus<{ jobs: { backgroundJobId: string }[] }>(t, 200, 'POST', '/v2/knowledge/public/bulk', w.key, { documentIds: [id], isDraft: false });
    const [made] = await waitForJobs(t, w.key, [jobs[0]!.backgroundJobId]);
    assert.equal(made!.linkedOperation, 'ADD_ARTICLE_TO_FOLDER');
    const live = await getArticle(t, w.key, made!.hcArticleId!);
    assert.equal(live.parentFolderId, folderId);

    // A run with nothing new drafts nothing.
    const drafts = async () => (await expectStatus<{ articles: Article[] }>(t, 200, 'GET', '/v2/hc-articles/public?type=draft', w.key)).articles;
    let source = await get(w, id);
    assert.equal(await runSchedule(t, f, id), 'queued');
    source = await nextResult(w, id, source.linkedJobId);
    assert.deepEqual([source.changed, await drafts()], [false, []]);

    // The page changes: the run flags the source and queues the knowledge job, which drafts the update.
    site.set('/help/returns', html('Returns and refunds', RETURNS[0]!.replace('30 days', '14 days'), RETURNS[1]!));
    assert.equal(await runSchedule(t, f, id), 'queued');
    await nextResult(w, id, source.linkedJobId);
    const [draft] = await poll(
      () => {
        t.wakeWorkers('knowledge.generate');
        return drafts();
      },
      (list) => list.length === 1,
      { what: 'the draft of the changed article' },
    );
    assert.equal(draft!.originalArticleId, live.id);
    assert.match(draft!.mainKnowledge, /within 14 days of delivery/);
    source = await poll(() => get(w, id), (s) => !s.changed && s.linkedOperation === 'UPDATE_ARTICLE', { what: 'the source in step with its knowledge' });
    assert.equal(source.linkedKnowledgeId, live.id);
    assert.match((await getArticle(t, w.key, live.id)).mainKnowledge, /within 30 days of delivery/, 'the live article waits for the review');

    // Publishing the draft changes the live article the agent reads, and says so as usual.
    const before = published.length;
    const updated = await expectStatus<Article>(t, 200, 'POST', `/v2/hc-articles/${draft!.id}/publish/public`, w.key, {});
    assert.equal(updated.version, live.version + 1);
    assert.match(updated.mainKnowledge, /within 14 days of delivery/);
    await poll(() => published.length, (n) => n > before, { what: 'article.published' });
    assert.deepEqual(published.slice(before), [{ workspaceId: w.workspaceId, articleId: live.id, draftId: draft!.id, version: live.version + 1 }]);
    await cleanUp(w, [id]);
  });
});
