// The specification's provider workflow for each provider, against its fake on 127.0.0.1:
// connect -> discover (every page of the listing) -> register -> ingest -> poll -> generate ->
// refresh unchanged (the change marker spares the body) -> refresh changed (`changed: true`).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type KnowledgeJob, makeFolder, waitForJobs } from '../generation/support.js';
import { docx, pdf, wordParagraph } from '../support/documents.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { credentialsFor, type FakeProviders, notionId, startFakeProviders } from '../support/fake-providers.js';
import { assertError, expectStatus } from '../support/security.js';
import { INGEST_ENV, type Source, waitForSource } from '../support/sources.js';

const RESOURCES = (provider: string) => `/v2/documents/public/resources/${provider}`;
const REFUNDS = 'Refunds are paid to the original payment method within 5 business days after the return arrives.';
const REFUNDS_CHANGED = 'Refunds are paid to the original payment method within 3 business days after the return arrives.';
const WINDOW = 'You can return any unused item within 30 days of delivery for a full refund.';
const TOGGLE = 'Gift cards and final-sale items cannot be returned.';
const SHIPPING = 'Standard shipping takes 3 to 5 business days; express shipping arrives the next business day.';

interface Registered {
  addedDocumentIds: string[];
  updatedDocumentIds: string[];
}

async function connect(t: TestApp, key: string, fake: FakeProviders, provider: string) {
  await expectStatus(t, 200, 'PUT', `/v2/providers/${provider}/connection/public`, key, credentialsFor(fake)[provider]);
}

async function ingest(t: TestApp, key: string, source: string, add: string[], refresh: string[] = []) {
  return expectStatus<{ addedDocumentIds: string[]; updatedDocumentIds: string[] }>(t, 202, 'POST', '/v2/documents/public', key, {
    source,
    documentIdsToAdd: add,
    documentIdsToRefresh: refresh,
  });
}

async function completed(t: TestApp, key: string, id: string): Promise<Source> {
  const done = await waitForSource(t, key, id);
  assert.equal(done.linkedJobStatus, 'COMPLETED', `${id}: ${done.error}`);
  return done;
}

async function refresh(t: TestApp, key: string, id: string, timeoutMs?: number): Promise<Source> {
  await expectStatus(t, 200, 'POST', '/v2/documents/public/refresh', key, { documentIds: [id] });
  return waitForSource(t, key, id, (s) => s.linkedJobStatus === 'COMPLETED' || s.linkedJobStatus === 'FAILED', timeoutMs);
}

/** Makes live knowledge of the sources; answers the article of each. */
async function generate(t: TestApp, key: string, ids: string[]): Promise<KnowledgeJob[]> {
  const { jobs } = await expectStatus<{ jobs: { backgroundJobId: string }[] }>(t, 200, 'POST', '/v2/knowledge/public/bulk', key, {
    documentIds: ids,
    origin: 'sources',
    isDraft: false,
  });
  const done = await waitForJobs(t, key, jobs.map((j) => j.backgroundJobId));
  for (const job of done) assert.equal(job.jobStatus, 'COMPLETED', job.error ?? '');
  return done;
}

describe('provider workflow', () => {
  let t: TestApp;
  let fake: FakeProviders;
  before(async () => {
    fake = await startFakeProviders();
    // Two resources per listing page: every listing below spans three pages or more.
    fake.pageSize = 2;
    t = await startTestApp({ work: true, env: { ...INGEST_ENV, PARLEY_PROVIDER_MAX_RETRY_WAIT_SECONDS: '2', PARLEY_FETCH_MAX_BYTES: String(256 * 1024) } });
  });
  after(async () => {
    await t.close();
    await fake.close();
  });

  describe('notion', () => {
    let tenant: Tenant;
    const [returnsId, shippingId, hiddenId, childId, databaseId, dataSourceId, rowA, rowB, extra1, extra2] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) =>
      notionId(0x1000 + n),
    ) as [string, string, string, string, string, string, string, string, string, string];
    before(async () => {
      tenant = await makeTenant(t);
      await makeFolder(t, tenant.key, 'Returns and refunds', 'Returning items and refunds');
      fake.notion.pages.set(returnsId, {
        id: returnsId,
        title: 'Returns and refunds',
        icon: '📦',
        lastEdited: '2026-11-01T10:00:00.000Z',
        blocks: [
          { type: 'heading_2', text: 'Return window' },
          { type: 'paragraph', text: WINDOW },
          { type: 'toggle', text: 'Exceptions', children: [{ type: 'paragraph', text: TOGGLE }] },
          { type: 'paragraph', text: REFUNDS },
          { type: 'child_page', id: childId, title: 'Exchanges' },
        ],
      });
      fake.notion.pages.set(childId, { id: childId, title: 'Exchanges', lastEdited: '2026-11-01T10:00:00.000Z', blocks: [{ type: 'paragraph', text: 'Exchanges for another size are free of charge within 30 days.' }] });
      fake.notion.pages.set(shippingId, { id: shippingId, title: 'Shipping', lastEdited: '2026-11-01T10:00:00.000Z', blocks: [{ type: 'paragraph', text: SHIPPING }] });
      for (const [id, title] of [[extra1, 'Careers'], [extra2, 'Press kit'], [hiddenId, 'Hidden']] as const) {
        fake.notion.pages.set(id, { id, title, lastEdited: '2026-11-01T10:00:00.000Z', blocks: [{ type: 'paragraph', text: `${title} page text that is long enough to keep.` }] });
      }
      for (const [id, title, plan] of [[rowA, 'Starter plan', 'Starter'], [rowB, 'Business plan', 'Business']] as const) {
        fake.notion.pages.set(id, { id, title, lastEdited: '2026-11-01T10:00:00.000Z', properties: { Plan: plan }, blocks: [{ type: 'paragraph', text: `The ${plan} plan includes email support and a shared inbox.` }] });
      }
      fake.notion.dataSources.set(dataSourceId, { id: dataSourceId, databaseId, title: 'Plans', lastEdited: '2026-11-01T10:00:00.000Z', rows: [rowA, rowB] });
      fake.notion.searchable.push(returnsId, shippingId, dataSourceId, extra1, extra2);
    });

    it('runs the whole workflow', async () => {
      await connect(t, tenant.key, fake, 'notion');

      // Discover: five resources over three pages of search results.
      let mark = fake.requests.length;
      const found = await expectStatus<Record<string, unknown>[]>(t, 200, 'GET', RESOURCES('notion'), tenant.key);
      const searches = fake.since(mark, /^\/v1\/search/);
      assert.equal(searches.length, 3);
      assert.deepEqual(searches.map((r) => JSON.parse(r.body).start_cursor), [undefined, '2', '4']);
      assert.deepEqual(found.map((r) => r.externalId), [returnsId, shippingId, dataSourceId, extra1, extra2]);
      assert.deepEqual(found[0], {
        externalId: returnsId,
        title: 'Returns and refunds',
        originalUrl: `https://www.notion.so/Returns-and-refunds-${returnsId.replace(/-/g, '')}`,
        mimeType: 'text/markdown',
        iconLink: null,
        object: 'page',
      });
      assert.equal(found[2]!.object, 'database');
      assert.equal(found[2]!.title, 'Plans');

      // Register three (the database too); a second registration updates.
      // The discovered objects are registered as they came (iconLink and all).
      const pick = found.slice(0, 3);
      const registered = await expectStatus<Registered>(t, 200, 'POST', RESOURCES('notion'), tenant.key, { resources: pick });
      assert.equal(registered.addedDocumentIds.length, 3);
      assert.deepEqual(registered.updatedDocumentIds, []);
      const [returnsSource, shippingSource, plansSource] = registered.addedDocumentIds as [string, string, string];
      const again = await expectStatus<Registered>(t, 200, 'POST', RESOURCES('notion'), tenant.key, { resources: [{ ...pick[1], title: 'Shipping (renamed)' }] });
      assert.deepEqual(again, { addedDocumentIds: [], updatedDocumentIds: [shippingSource] });
      const pending = await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${shippingSource}`, tenant.key);
      assert.equal(pending.title, 'Shipping (renamed)');
      assert.equal(pending.source, 'notion');
      assert.equal(pending.type, 'page');
      assert.equal(pending.linkedJobStatus, null, 'registration queues nothing');

      // Ingest and poll: pages become Markdown, nested blocks included; child pages and rows follow.
      const queued = await ingest(t, tenant.key, 'notion', registered.addedDocumentIds);
      assert.deepEqual(queued.addedDocumentIds, registered.addedDocumentIds);
      const returns = await completed(t, tenant.key, returnsSource);
      assert.equal(returns.title, 'Returns and refunds');
      assert.equal(returns.mimeType, 'text/markdown');
      for (const text of [WINDOW, TOGGLE, REFUNDS]) assert.ok(returns.paragraphs.some((p) => p.includes(text)), `${text} in ${JSON.stringify(returns.paragraphs)}`);
      assert.equal((await completed(t, tenant.key, shippingSource)).title, 'Shipping');
      const plans = await completed(t, tenant.key, plansSource);
      assert.ok(plans.paragraphs.some((p) => p.includes('Starter plan')));
      const list = await expectStatus<{ documents: Source[] }>(t, 200, 'GET', '/v2/documents/public?source=notion&limit=50', tenant.key);
      const byExternal = new Map(list.documents.map((d) => [d.externalId, d]));
      assert.deepEqual([...byExternal.keys()].sort(), [returnsId, shippingId, dataSourceId, childId, rowA, rowB].sort());
      const child = await completed(t, tenant.key, byExternal.get(childId)!.id);
      assert.equal(child.title, 'Exchanges');
      const row = await completed(t, tenant.key, byExternal.get(rowA)!.id);
      assert.ok(row.paragraphs.some((p) => p.includes('Plan: Starter')), JSON.stringify(row.paragraphs));
      await completed(t, tenant.key, byExternal.get(rowB)!.id);

      // Discovery now leaves out what was imported.
      const rest = await expectStatus<{ externalId: string }[]>(t, 200, 'GET', RESOURCES('notion'), tenant.key);
      assert.deepEqual(rest.map((r) => r.externalId), [extra1, extra2]);

      // Generate live knowledge from the returns page.
      const [job] = await generate(t, tenant.key, [returnsSource]);
      assert.equal((await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${returnsSource}`, tenant.key)).linkedKnowledgeId, job!.hcArticleId);

      // Refresh unchanged: last_edited_time is read, the blocks are not.
      mark = fake.requests.length;
      const same = await refresh(t, tenant.key, returnsSource);
      assert.equal(same.linkedJobStatus, 'COMPLETED', same.error);
      assert.equal(same.changed, false);
      assert.deepEqual(same.paragraphs, returns.paragraphs);
      assert.equal(fake.since(mark, new RegExp(`^/v1/pages/${returnsId}`)).length, 1);
      assert.deepEqual(fake.since(mark, new RegExp(`^/v1/blocks/${returnsId}`)), [], 'no body fetched');

      // A child page's edit does not change its parent's marker: refreshing the parent refreshes the
      // children it listed last time, each against its own marker.
      const childSource = byExternal.get(childId)!.id;
      const exchanges = fake.notion.pages.get(childId)!;
      exchanges.lastEdited = '2026-11-19T08:00:00.000Z';
      exchanges.blocks = [{ type: 'paragraph', text: 'Exchanges for another size are free of charge within 45 days.' }];
      await refresh(t, tenant.key, returnsSource);
      // The first refresh above queued a refresh of the child too; it may read the edit before this
      // one's job runs, so wait for the text and for no job of the child to be left.
      const childAfter = await waitForSource(
        t,
        tenant.key,
        childSource,
        (s) => s.paragraphs.some((p) => p.includes('45 days')) && (s.linkedJobStatus === 'COMPLETED' || s.linkedJobStatus === 'FAILED'),
      );
      assert.equal(childAfter.linkedJobStatus, 'COMPLETED', childAfter.error);

      // Refresh changed: a new last_edited_time and text.
      const page = fake.notion.pages.get(returnsId)!;
      page.lastEdited = '2026-11-20T09:00:00.000Z';
      page.blocks = page.blocks.map((b) => (b.text === REFUNDS ? { ...b, text: REFUNDS_CHANGED } : b));
      const changed = await refresh(t, tenant.key, returnsSource);
      assert.equal(changed.linkedJobStatus, 'COMPLETED', changed.error);
      assert.equal(changed.changed, true);
      assert.ok(changed.paragraphs.some((p) => p.includes(REFUNDS_CHANGED)));
      assert.ok(changed.oldParagraphs.some((p) => p.includes(REFUNDS)));
      const flagged = await expectStatus<{ documents: Source[] }>(t, 200, 'GET', '/v2/documents/public?changed=true&source=notion', tenant.key);
      assert.deepEqual(flagged.documents.map((d) => d.id), [returnsSource]);
    });

    it('names the failures on the record: lost permission, not found, rate limited, expired connection', async () => {
      const other = await makeTenant(t);
      await connect(t, other.key, fake, 'notion');
      const { addedDocumentIds } = await expectStatus<Registered>(t, 200, 'POST', RESOURCES('notion'), other.key, {
        resources: [
          { externalId: shippingId.replace(/-/g, ''), title: 'Shipping', originalUrl: 'https://www.notion.so/s', mimeType: 'text/markdown' },
          { externalId: notionId(0xdead), title: 'Never shared', originalUrl: 'https://www.notion.so/n', mimeType: 'text/markdown' },
        ],
      });
      const [shipping, missing] = addedDocumentIds as [string, string];
      assert.equal((await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${shipping}`, other.key)).externalId, shippingId, 'ids are stored dashed');
      await ingest(t, other.key, 'notion', [shipping, missing]);
      await completed(t, other.key, shipping);
      const never = await waitForSource(t, other.key, missing);
      assert.equal(never.linkedJobStatus, 'FAILED');
      assert.match(never.error, /^not found: Notion has no page .* that this connection can read/);

      // A page read before answers 404 now: lost permission.
      fake.fail(new RegExp(`^/v1/pages/${shippingId}`), 404);
      let failed = await refresh(t, other.key, shipping);
      assert.equal(failed.linkedJobStatus, 'FAILED');
      assert.equal(failed.success, false);
      assert.match(failed.error, /^lost permission: Notion answered HTTP 404 for page/);
      fake.fail(new RegExp(`^/v1/pages/${shippingId}`), 403);
      failed = await refresh(t, other.key, shipping);
      assert.match(failed.error, /^lost permission: Notion no longer lets this connection read page/);

      // 429: Retry-After is honoured, then the answer comes.
      fake.fail(new RegExp(`^/v1/pages/${shippingId}`), 429, { times: 2, retryAfter: '0' });
      let mark = fake.requests.length;
      const retried = await refresh(t, other.key, shipping);
      assert.equal(retried.linkedJobStatus, 'COMPLETED', retried.error);
      assert.equal(fake.since(mark, new RegExp(`^/v1/pages/${shippingId}`)).length, 3);
      // Beyond the retries (and the job's own attempts): rate limited.
      fake.fail(new RegExp(`^/v1/pages/${shippingId}`), 429, { times: 100, retryAfter: '0' });
      mark = fake.requests.length;
      // Four attempts with the queue's jittered backoff between them (1-2 s, 2-4 s, 4-8 s at the
      // test's 1 s retry delay): up to 14 s of waiting alone, so more than the usual deadline.
      failed = await refresh(t, other.key, shipping, 60_000);
      assert.equal(failed.linkedJobStatus, 'FAILED');
      assert.match(failed.error, /^rate limited: Notion kept answering HTTP 429 after the retries/);
      assert.ok(fake.since(mark, new RegExp(`^/v1/pages/${shippingId}`)).length >= 4, 'each attempt waited out the 429s first');
      fake.clearFailures();
      // A Retry-After longer than the wait allowed is not waited for: one request, then the job's retry.
      fake.fail(new RegExp(`^/v1/pages/${shippingId}`), 429, { times: 1, retryAfter: '3600' });
      mark = fake.requests.length;
      const later = await refresh(t, other.key, shipping);
      assert.equal(later.linkedJobStatus, 'COMPLETED', later.error);
      assert.equal(fake.since(mark, new RegExp(`^/v1/pages/${shippingId}`)).length, 2);

      // Expired connection: 401.
      fake.fail(/^\/v1\//, 401, { times: 1 });
      failed = await refresh(t, other.key, shipping);
      assert.equal(failed.linkedJobStatus, 'FAILED');
      assert.equal(failed.error, 'expired connection: Notion refused the credentials (HTTP 401); reconnect notion');

      // Disconnected: the record says so.
      await expectStatus(t, 200, 'DELETE', `/v2/providers/notion/connection/public`, other.key);
      failed = await refresh(t, other.key, shipping);
      assert.match(failed.error, /^notion is not connected in this workspace/);
    });

    it('validates registrations, naming the first resource with a missing or invalid field', async () => {
      const other = await makeTenant(t);
      const resource = { externalId: returnsId, title: 'Returns', originalUrl: 'https://www.notion.so/r', mimeType: 'text/markdown' };
      assertError(await t.request('POST', RESOURCES('notion'), { key: other.key, body: { resources: [resource] } }), 400, /^notion is not connected in this workspace/);
      await connect(t, other.key, fake, 'notion');
      const noTitle = { externalId: resource.externalId, originalUrl: resource.originalUrl, mimeType: resource.mimeType };
      assertError(await t.request('POST', RESOURCES('notion'), { key: other.key, body: { resources: [resource, noTitle] } }), 400, /^body\.resources\.1\.title/);
      assertError(await t.request('POST', RESOURCES('notion'), { key: other.key, body: { resources: [{ ...resource, externalId: 'not-an-id' }] } }), 400, /^body\.resources\.0\.externalId: not a Notion page or database id/);
      assertError(await t.request('POST', RESOURCES('notion'), { key: other.key, body: { resources: [{ ...resource, object: 'block' }] } }), 400, /^body\.resources\.0\.object/);
      assertError(await t.request('POST', RESOURCES('notion'), { key: other.key, body: { resources: [] } }), 400, /^body\.resources/);
      assertError(await t.request('POST', RESOURCES('provider_notes'), { key: other.key, body: { resources: [resource] } }), 400, /provider/);
      const list = await expectStatus<{ documents: Source[] }>(t, 200, 'GET', '/v2/documents/public', other.key);
      assert.deepEqual(list.documents, [], 'nothing half-written');
      // A provider source id passed as a web URL, and a web-only route for a provider source.
      assertError(await t.request('POST', '/v2/documents/public', { key: other.key, body: { source: 'notion', documentIdsToAdd: ['https://www.notion.so/r'] } }), 400, /^body\.documentIdsToAdd\.0: expected a source id/);
    });

    it('registers a Zendesk id given twice once (the last entry wins), refuses a non-numeric id, and names an unknown provider', async () => {
      const other = await makeTenant(t);
      await connect(t, other.key, fake, 'zendesk');
      const article = (title: string) => ({ externalId: '9001', title, originalUrl: 'https://acme.zendesk.com/hc/articles/9001', mimeType: 'text/html' });
      const registered = await expectStatus<Registered>(t, 200, 'POST', RESOURCES('zendesk'), other.key, { resources: [article('First title'), article('Last title')] });
      assert.equal(registered.addedDocumentIds.length, 1);
      assert.equal((await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${registered.addedDocumentIds[0]}`, other.key)).title, 'Last title');
      // Registering it again updates the one record, in one statement.
      const again = await expectStatus<Registered>(t, 200, 'POST', RESOURCES('zendesk'), other.key, { resources: [article('Renamed')] });
      assert.deepEqual([again.addedDocumentIds, again.updatedDocumentIds], [[], registered.addedDocumentIds]);
      assert.equal((await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${registered.addedDocumentIds[0]}`, other.key)).title, 'Renamed');
      assertError(
        await t.request('POST', RESOURCES('zendesk'), { key: other.key, body: { resources: [{ ...article('x'), externalId: 'how-to-return' }] } }),
        400,
        /^body\.resources\.0\.externalId: not a Zendesk article id \(digits\)/,
      );
      assertError(await t.request('GET', RESOURCES('dropbox'), { key: other.key }), 400, /provider/);
    });

    it("keeps each workspace's provider sources apart", async () => {
      const [owner, caller] = [await makeTenant(t), await makeTenant(t)];
      for (const tenant of [owner, caller]) await connect(t, tenant.key, fake, 'notion');
      const resource = { externalId: shippingId, title: 'Shipping', originalUrl: 'https://www.notion.so/s', mimeType: 'text/markdown' };
      const [ownerId] = (await expectStatus<Registered>(t, 200, 'POST', RESOURCES('notion'), owner.key, { resources: [resource] })).addedDocumentIds as [string];
      const original = await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${ownerId}`, owner.key);
      // Another workspace cannot ingest or refresh the owner's source by id...
      assertError(await t.request('POST', '/v2/documents/public', { key: caller.key, body: { source: 'notion', documentIdsToAdd: [ownerId] } }), 400, `body.documentIdsToAdd.0: no notion source ${ownerId} in this workspace`);
      assertError(await t.request('POST', '/v2/documents/public', { key: caller.key, body: { source: 'notion', documentIdsToRefresh: [ownerId] } }), 400, /^body\.documentIdsToRefresh\.0: no notion source/);
      // ...and registering the same Notion page makes its own record, leaving the owner's alone.
      const theirs = await expectStatus<Registered>(t, 200, 'POST', RESOURCES('notion'), caller.key, { resources: [{ ...resource, title: 'Their shipping' }] });
      assert.equal(theirs.addedDocumentIds.length, 1);
      assert.notEqual(theirs.addedDocumentIds[0], ownerId);
      assert.deepEqual(await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${ownerId}`, owner.key), original);
      assertError(await t.request('GET', `/v2/documents/public/${ownerId}`, { key: caller.key }), 404);
    });
  });

  describe('zendesk', () => {
    let tenant: Tenant;
    before(async () => {
      tenant = await makeTenant(t);
      await makeFolder(t, tenant.key, 'Shipping and delivery', 'Delivery times and carriers');
      fake.zendesk.categories.push({ id: 100, name: 'Orders' }, { id: 101, name: 'Account' });
      fake.zendesk.sections.push({ id: 200, categoryId: 100, name: 'Shipping' }, { id: 201, categoryId: 100, name: 'Returns' }, { id: 202, categoryId: 101, name: 'Login' });
      const articles = [
        { id: 300, sectionId: 200, title: 'Shipping times', body: `<p>${SHIPPING}</p><p>Orders placed before noon ship the same day.</p>` },
        { id: 301, sectionId: 201, title: 'Refunds', body: `<p>${REFUNDS}</p>` },
        { id: 302, sectionId: 201, title: 'Return window', body: `<p>${WINDOW}</p>` },
        { id: 303, sectionId: 202, title: 'Reset your password', body: '<p>Use the Forgot password link on the sign-in page to get a reset email.</p>' },
        { id: 304, sectionId: 202, title: 'Two-factor sign-in', body: '<p>Turn on two-factor sign-in from the Security tab of your profile.</p>' },
        { id: 305, sectionId: 202, title: 'Unpublished', body: '<p>Draft text.</p>', draft: true },
      ];
      for (const a of articles) fake.zendesk.articles.set(a.id, { ...a, updatedAt: '2026-11-01T10:00:00Z' });
    });

    it('runs the whole workflow', async () => {
      await connect(t, tenant.key, fake, 'zendesk');
      let mark = fake.requests.length;
      const tree = await expectStatus<{ externalId: string; title: string; type: string; children: { externalId: string; type: string; children: { externalId: string; title: string; originalUrl: string; type: string }[] }[] }[]>(
        t,
        200,
        'GET',
        RESOURCES('zendesk'),
        tenant.key,
      );
      // Articles: six over three pages, followed by links.next (absolute on the public host, rebased on the connection).
      const articlePages = fake.since(mark, /^\/api\/v2\/help_center\/articles\.json/);
      assert.equal(articlePages.length, 3);
      assert.ok(articlePages.slice(1).every((r) => r.path.includes('page%5Bafter%5D=') || r.path.includes('page[after]=')));
      assert.equal(fake.since(mark, /^\/api\/v2\/help_center\/sections\.json/).length, 2);
      assert.deepEqual(tree, [
        {
          externalId: '100',
          title: 'Orders',
          type: 'category',
          children: [
            { externalId: '200', title: 'Shipping', type: 'section', children: [{ externalId: '300', title: 'Shipping times', originalUrl: 'https://acme.zendesk.com/hc/en-us/articles/300', type: 'article' }] },
            {
              externalId: '201',
              title: 'Returns',
              type: 'section',
              children: [
                { externalId: '301', title: 'Refunds', originalUrl: 'https://acme.zendesk.com/hc/en-us/articles/301', type: 'article' },
                { externalId: '302', title: 'Return window', originalUrl: 'https://acme.zendesk.com/hc/en-us/articles/302', type: 'article' },
              ],
            },
          ],
        },
        {
          externalId: '101',
          title: 'Account',
          type: 'category',
          children: [
            {
              externalId: '202',
              title: 'Login',
              type: 'section',
              children: [
                { externalId: '303', title: 'Reset your password', originalUrl: 'https://acme.zendesk.com/hc/en-us/articles/303', type: 'article' },
                { externalId: '304', title: 'Two-factor sign-in', originalUrl: 'https://acme.zendesk.com/hc/en-us/articles/304', type: 'article' },
              ],
            },
          ],
        },
      ]);
      const articles = tree[0]!.children.flatMap((s) => s.children);
      const registered = await expectStatus<Registered>(t, 200, 'POST', RESOURCES('zendesk'), tenant.key, {
        // The discovered objects as they came (with `type`), plus the required mimeType.
        resources: articles.map((a) => ({ ...a, mimeType: 'text/html' })),
      });
      const [shipping, refunds, window] = registered.addedDocumentIds as [string, string, string];
      await ingest(t, tenant.key, 'zendesk', registered.addedDocumentIds);
      const shippingDone = await completed(t, tenant.key, shipping);
      assert.equal(shippingDone.title, 'Shipping times');
      assert.equal(shippingDone.type, 'article');
      assert.ok(shippingDone.paragraphs.includes(SHIPPING), JSON.stringify(shippingDone.paragraphs));
      assert.ok((await completed(t, tenant.key, refunds)).paragraphs.includes(REFUNDS));
      await completed(t, tenant.key, window);

      // The Returns section and the Orders category are gone from discovery once imported.
      const rest = await expectStatus<{ externalId: string }[]>(t, 200, 'GET', RESOURCES('zendesk'), tenant.key);
      assert.deepEqual(rest.map((c) => c.externalId), ['101']);

      const [job] = await generate(t, tenant.key, [shipping]);
      assert.ok(job!.hcArticleId);

      // Unchanged: one request for the article (its updated_at equals the stored one), nothing extracted.
      mark = fake.requests.length;
      const same = await refresh(t, tenant.key, shipping);
      assert.equal(same.changed, false);
      assert.deepEqual(same.paragraphs, shippingDone.paragraphs);
      assert.equal(fake.since(mark, /^\/api\/v2\/help_center\/articles\/300\.json/).length, 1);

      const article = fake.zendesk.articles.get(300)!;
      article.updatedAt = '2026-11-21T08:00:00Z';
      article.body = '<p>Standard shipping takes 2 to 4 business days; express shipping arrives the next business day.</p><p>Orders placed before noon ship the same day.</p>';
      const changed = await refresh(t, tenant.key, shipping);
      assert.equal(changed.linkedJobStatus, 'COMPLETED', changed.error);
      assert.equal(changed.changed, true);
      assert.ok(changed.oldParagraphs.includes(SHIPPING));
    });
  });

  describe('confluence', () => {
    let tenant: Tenant;
    before(async () => {
      tenant = await makeTenant(t);
      await makeFolder(t, tenant.key, 'Returns and refunds', 'Returning items and refunds');
      fake.confluence.spaces.push({ key: 'SUP', name: 'Support' }, { key: 'ENG', name: 'Engineering' }, { key: 'HR', name: 'People' }, { key: 'MKT', name: 'Marketing' }, { key: 'OPS', name: 'Operations' });
      const pages = [
        { id: '5001', spaceKey: 'SUP', title: 'Refund policy', body: `<p>${REFUNDS}</p><ac:structured-macro ac:name="info"><ac:rich-text-body><p>${WINDOW}</p></ac:rich-text-body></ac:structured-macro>` },
        { id: '5002', spaceKey: 'SUP', title: 'Shipping', body: `<p>${SHIPPING}</p>` },
        { id: '5003', spaceKey: 'SUP', title: 'Gift cards', body: `<p>${TOGGLE}</p>` },
        { id: '5004', spaceKey: 'SUP', title: 'Password resets', body: '<p>Use the Forgot password link on the sign-in page to get a reset email.</p>' },
        { id: '5005', spaceKey: 'SUP', title: 'Invoices', body: '<p>Invoices are emailed on the first business day of each month.</p>' },
        { id: '6001', spaceKey: 'ENG', title: 'On-call', body: '<p>The on-call engineer answers pages within 15 minutes.</p>' },
      ];
      for (const p of pages) fake.confluence.pages.set(p.id, { ...p, version: 1 });
    });

    it('runs the whole workflow', async () => {
      await connect(t, tenant.key, fake, 'confluence');
      let mark = fake.requests.length;
      const spaces = await expectStatus<{ key: string; title: string; originalUrl: string; pages: { externalId: string; title: string; originalUrl: string }[] }[]>(t, 200, 'GET', RESOURCES('confluence'), tenant.key);
      assert.equal(fake.since(mark, /^\/wiki\/rest\/api\/space\?/).length, 3, 'five spaces over three pages');
      assert.equal(fake.since(mark, /^\/wiki\/rest\/api\/content\?.*spaceKey=SUP/).length, 3, 'five pages over three pages');
      assert.deepEqual(spaces.map((s) => s.key), ['SUP', 'ENG'], 'spaces with no pages are left out');
      assert.equal(spaces[0]!.originalUrl, `${fake.url}/wiki/spaces/SUP`);
      assert.deepEqual(spaces[0]!.pages[0], { externalId: '5001', title: 'Refund policy', originalUrl: `${fake.url}/wiki/spaces/SUP/pages/5001` });
      assert.equal(spaces[0]!.pages.length, 5);

      const registered = await expectStatus<Registered>(t, 200, 'POST', RESOURCES('confluence'), tenant.key, {
        resources: spaces[0]!.pages.slice(0, 2).map((p) => ({ ...p, mimeType: 'text/html' })),
      });
      const [refund, shipping] = registered.addedDocumentIds as [string, string];
      await ingest(t, tenant.key, 'confluence', registered.addedDocumentIds);
      const refundDone = await completed(t, tenant.key, refund);
      assert.equal(refundDone.title, 'Refund policy');
      assert.ok(refundDone.paragraphs.includes(REFUNDS), JSON.stringify(refundDone.paragraphs));
      assert.ok(refundDone.paragraphs.includes(WINDOW), 'macro bodies are text too');
      await completed(t, tenant.key, shipping);
      const rest = await expectStatus<{ key: string; pages: { externalId: string }[] }[]>(t, 200, 'GET', RESOURCES('confluence'), tenant.key);
      assert.deepEqual(rest[0]!.pages.map((p) => p.externalId), ['5003', '5004', '5005']);

      await generate(t, tenant.key, [refund]);

      mark = fake.requests.length;
      const same = await refresh(t, tenant.key, refund);
      assert.equal(same.changed, false);
      const reads = fake.since(mark, /^\/wiki\/rest\/api\/content\/5001/);
      assert.equal(reads.length, 1);
      assert.match(reads[0]!.path, /expand=version$/, 'the version only: no body fetched');

      const page = fake.confluence.pages.get('5001')!;
      page.version = 2;
      page.body = `<p>${REFUNDS_CHANGED}</p><p>${WINDOW}</p>`;
      const changed = await refresh(t, tenant.key, refund);
      assert.equal(changed.linkedJobStatus, 'COMPLETED', changed.error);
      assert.equal(changed.changed, true);
      assert.ok(changed.paragraphs.includes(REFUNDS_CHANGED));
    });
  });

  describe('googledrive', () => {
    let tenant: Tenant;
    before(async () => {
      tenant = await makeTenant(t);
      await makeFolder(t, tenant.key, 'Returns and refunds', 'Returning items and refunds');
      fake.drive.files.set('1AbCdEfGhIjKlMnOp', {
        id: '1AbCdEfGhIjKlMnOp',
        name: 'Refund policy',
        mimeType: 'application/vnd.google-apps.document',
        modifiedTime: '2026-11-01T10:00:00.000Z',
        content: `<html><head><title>Refund policy</title></head><body><h1>Refund policy</h1><p>${REFUNDS}</p><p>${WINDOW}</p></body></html>`,
      });
      fake.drive.files.set('1TextFileIdAbc', { id: '1TextFileIdAbc', name: 'shipping.md', mimeType: 'text/markdown', modifiedTime: '2026-11-01T10:00:00.000Z', content: `# Shipping\n\n${SHIPPING}\n` });
      fake.drive.files.set('1PdfFileIdAbcd', { id: '1PdfFileIdAbcd', name: 'Warranty.pdf', mimeType: 'application/pdf', modifiedTime: '2026-11-01T10:00:00.000Z', content: Buffer.from(pdf('Every product carries a two year warranty.')) });
      fake.drive.files.set('1DocxFileIdAbc', {
        id: '1DocxFileIdAbc',
        name: 'Exchanges.docx',
        mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        modifiedTime: '2026-11-01T10:00:00.000Z',
        content: Buffer.from(docx(wordParagraph('Exchanges', 'Heading1') + wordParagraph('Exchanges for another size are free within 30 days of delivery.'))),
      });
      fake.drive.files.set('1LargeFileIdAb', { id: '1LargeFileIdAb', name: 'Catalogue.txt', mimeType: 'text/plain', modifiedTime: '2026-11-01T10:00:00.000Z', content: 'A catalogue line. '.repeat(20_000) });
      fake.drive.files.set('1SheetFileIdXyz', { id: '1SheetFileIdXyz', name: 'Prices', mimeType: 'application/vnd.google-apps.spreadsheet', modifiedTime: '2026-11-01T10:00:00.000Z', content: '' });
    });

    it('runs the whole workflow (files registered by id: no discovery)', async () => {
      await connect(t, tenant.key, fake, 'googledrive');
      assertError(await t.request('GET', RESOURCES('googledrive'), { key: tenant.key }), 400, /^googledrive has no resource discovery; register files by their googledrive file id/);
      const registered = await expectStatus<Registered>(t, 200, 'POST', RESOURCES('googledrive'), tenant.key, {
        resources: [
          { externalId: '1AbCdEfGhIjKlMnOp', title: 'Refund policy', originalUrl: 'https://docs.google.com/document/d/1AbCdEfGhIjKlMnOp', mimeType: 'application/vnd.google-apps.document' },
          { externalId: '1TextFileIdAbc', title: 'shipping.md', originalUrl: 'https://drive.google.com/file/d/1TextFileIdAbc', mimeType: 'text/markdown' },
          { externalId: '1SheetFileIdXyz', title: 'Prices', originalUrl: 'https://docs.google.com/spreadsheets/d/1SheetFileIdXyz', mimeType: 'application/vnd.google-apps.spreadsheet' },
          { externalId: '1PdfFileIdAbcd', title: 'Warranty.pdf', originalUrl: 'https://drive.google.com/file/d/1PdfFileIdAbcd', mimeType: 'application/pdf' },
          { externalId: '1DocxFileIdAbc', title: 'Exchanges.docx', originalUrl: 'https://drive.google.com/file/d/1DocxFileIdAbc', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
        ],
      });
      const [doc, text, sheet, pdfFile, docxFile] = registered.addedDocumentIds as [string, string, string, string, string];
      let mark = fake.requests.length;
      await ingest(t, tenant.key, 'googledrive', registered.addedDocumentIds);
      const docDone = await completed(t, tenant.key, doc);
      assert.equal(docDone.type, 'application/vnd.google-apps.document');
      assert.ok(docDone.paragraphs.includes(REFUNDS), JSON.stringify(docDone.paragraphs));
      const exports = fake.since(mark, /^\/drive\/v3\/files\/1AbCdEfGhIjKlMnOp\/export/);
      assert.equal(exports.length, 1);
      assert.match(exports[0]!.path, /mimeType=text%2Fhtml/);
      assert.equal(exports[0]!.headers.authorization, 'Bearer ya29.fake-drive-token');
      assert.ok((await completed(t, tenant.key, text)).paragraphs.some((p) => p.includes(SHIPPING)));
      assert.equal(fake.since(mark, /^\/drive\/v3\/files\/1TextFileIdAbc\?.*alt=media/).length, 1);
      const unsupported = await waitForSource(t, tenant.key, sheet);
      assert.equal(unsupported.linkedJobStatus, 'FAILED');
      assert.match(unsupported.error, /^unsupported content: Google Drive file 1SheetFileIdXyz is application\/vnd\.google-apps\.spreadsheet/);
      // PDF and DOCX files are downloaded and read by the same extractors as uploads.
      const warranty = await completed(t, tenant.key, pdfFile);
      assert.ok(warranty.paragraphs.some((p) => p.includes('Every product carries a two year warranty.')), JSON.stringify(warranty.paragraphs));
      assert.equal(warranty.mimeType, 'application/pdf');
      const exchanges = await completed(t, tenant.key, docxFile);
      assert.ok(exchanges.paragraphs.includes('Exchanges for another size are free within 30 days of delivery.'), JSON.stringify(exchanges.paragraphs));
      assert.equal(fake.since(mark, /^\/drive\/v3\/files\/1PdfFileIdAbcd\?.*alt=media/).length, 1);

      // A file over PARLEY_FETCH_MAX_BYTES fails at once (no retry: it stays too large).
      const [large] = (await expectStatus<Registered>(t, 200, 'POST', RESOURCES('googledrive'), tenant.key, {
        resources: [{ externalId: '1LargeFileIdAb', title: 'Catalogue.txt', originalUrl: 'https://drive.google.com/file/d/1LargeFileIdAb', mimeType: 'text/plain' }],
      })).addedDocumentIds as [string];
      const before = fake.requests.length;
      await ingest(t, tenant.key, 'googledrive', [large]);
      const tooLarge = await waitForSource(t, tenant.key, large);
      assert.equal(tooLarge.linkedJobStatus, 'FAILED');
      assert.match(tooLarge.error, /^unsupported content: Google Drive answered more than Parley reads \(256 KiB, PARLEY_FETCH_MAX_BYTES\)$/);
      assert.equal(fake.since(before, /alt=media/).length, 1);

      await generate(t, tenant.key, [doc]);
      mark = fake.requests.length;
      const same = await refresh(t, tenant.key, doc);
      assert.equal(same.changed, false);
      assert.deepEqual(fake.since(mark, /\/export/), [], 'no body fetched');

      const file = fake.drive.files.get('1AbCdEfGhIjKlMnOp')!;
      file.modifiedTime = '2026-11-22T12:00:00.000Z';
      file.content = `<html><body><h1>Refund policy</h1><p>${REFUNDS_CHANGED}</p><p>${WINDOW}</p></body></html>`;
      const changed = await refresh(t, tenant.key, doc);
      assert.equal(changed.linkedJobStatus, 'COMPLETED', changed.error);
      assert.equal(changed.changed, true);
    });
  });
});
