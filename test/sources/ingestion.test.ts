import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { sources } from '../../src/db/schema/index.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { type FakeSite, html, startFakeSite } from '../support/fake-site.js';
import { poll } from '../support/poll.js';
import { assertError, expectStatus } from '../support/security.js';
import { ensureArticle, INGEST_ENV, type IngestResult, ingestUrls, type Source, waitForSource } from '../support/sources.js';

const REFUND = 'Refunds are accepted within 30 days of purchase when the item is unused and in its original packaging.';
const STEPS = 'To request a refund, open your order history, choose the order and press the Request refund button.';

describe('source ingestion pipeline', () => {
  let t: TestApp;
  let site: FakeSite;
  let tenant: Tenant;
  before(async () => {
    t = await startTestApp({ work: true, env: { ...INGEST_ENV, PARLEY_UPLOAD_LIMIT_BYTES: String(256 * 1024) } });
    site = await startFakeSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /private/\n' },
      '/refunds': html('Refund policy', REFUND, STEPS),
    });
    tenant = await makeTenant(t);
  });
  after(async () => {
    await t.close();
    await site.close();
  });

  it('ingests a web page: 202 PENDING at once, then IN_PROGRESS -> COMPLETED with clean paragraphs', async () => {
    const result = await ingestUrls(t, tenant.key, [site.url('/refunds')]);
    assert.equal(result.addedDocumentIds.length, 1);
    assert.deepEqual(result.updatedDocumentIds, []);
    const [id] = result.addedDocumentIds as [string];
    assert.equal(result.jobs.length, 1);
    assert.deepEqual(result.jobs[0], { id: result.jobs[0]!.id, documentId: id, status: 'PENDING' });
    const queued = result.documents[0]!;
    assert.equal(queued.id, id);
    assert.equal(queued.linkedJobStatus, 'PENDING');
    assert.equal(queued.linkedJobId, result.jobs[0]!.id);
    assert.equal(queued.source, 'web');
    assert.equal(queued.externalId, site.url('/refunds'));
    assert.equal(queued.originalUrl, site.url('/refunds'));
    assert.equal(queued.url, queued.originalUrl);
    assert.equal(queued.success, false);
    assert.equal(queued.error, '');
    assert.equal(queued.companyId, tenant.workspaceId);
    assert.deepEqual(queued.paragraphs, []);

    const done = await waitForSource(t, tenant.key, id);
    assert.equal(done.linkedJobStatus, 'COMPLETED', done.error);
    assert.equal(done.success, true);
    assert.equal(done.error, '');
    assert.equal(done.title, 'Refund policy');
    assert.equal(done.mimeType, 'text/html');
    assert.ok(done.paragraphs.includes(REFUND), JSON.stringify(done.paragraphs));
    assert.ok(done.paragraphs.includes(STEPS));
    assert.ok(!done.paragraphs.some((p) => /Pricing|All rights reserved/.test(p)), 'navigation and footer are dropped');
    assert.equal(done.changed, false);
    const ua = site.requests.find((r) => r.path === '/refunds')?.headers['user-agent'];
    assert.match(String(ua), /^ParleyBot\//);
  });

  it('adds a URL that already has a record as a refresh of that record, however it is spelled', async () => {
    const first = await ingestUrls(t, tenant.key, [site.url('/refunds')]);
    const id = first.updatedDocumentIds[0] ?? first.addedDocumentIds[0]!;
    await waitForSource(t, tenant.key, id);
    const again = await ingestUrls(t, tenant.key, [`${site.origin.replace('http://', 'HTTP://')}/refunds#top`]);
    assert.deepEqual(again.addedDocumentIds, []);
    assert.deepEqual(again.updatedDocumentIds, [id]);
    const list = await expectStatus<{ documents: Source[] }>(t, 200, 'GET', `/v2/documents/public?url=${encodeURIComponent('/refunds')}`, tenant.key);
    assert.equal(list.documents.length, 1);
    await waitForSource(t, tenant.key, id);
  });

  const failures: [string, Record<string, unknown> | string, RegExp][] = [
    ['/login-only', { status: 401, body: 'login' }, /needs authentication/],
    ['/forbidden', { status: 403, body: 'no' }, /needs authentication/],
    ['/missing', { status: 404, body: 'gone' }, /not found/],
    ['/private/secret', html('Secret', 'Internal things that robots.txt keeps out of crawlers.'), /robots\.txt/],
    ['/logo.png', { headers: { 'content-type': 'image/png' }, body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) }, /unsupported content type/],
    ['/empty', { body: '<html><body><script>var a = 1;</script></body></html>' }, /no extractable text/],
  ];
  for (const [path, page, reason] of failures) {
    it(`fails ${path} with a clear error (${reason.source})`, async () => {
      site.set(path, page as never);
      const { addedDocumentIds } = await ingestUrls(t, tenant.key, [site.url(path)]);
      const done = await waitForSource(t, tenant.key, addedDocumentIds[0]!);
      assert.equal(done.linkedJobStatus, 'FAILED');
      assert.equal(done.success, false);
      assert.match(done.error, reason);
      assert.deepEqual(done.paragraphs, []);
    });
  }

  it('retries a transient failure (HTTP 503) and completes when the site recovers', async () => {
    let calls = 0;
    site.set('/flaky', {
      handle: (_req, res) => {
        calls += 1;
        if (calls === 1) res.writeHead(503, { 'content-type': 'text/plain' }).end('busy');
        else res.writeHead(200, { 'content-type': 'text/html' }).end(html('Flaky page', REFUND));
      },
    });
    const { addedDocumentIds } = await ingestUrls(t, tenant.key, [site.url('/flaky')]);
    const done = await waitForSource(t, tenant.key, addedDocumentIds[0]!);
    assert.equal(done.linkedJobStatus, 'COMPLETED', done.error);
    assert.equal(calls, 2);
  });

  it('retries when robots.txt answers 5xx, reading it again, and completes once it answers', async () => {
    const flaky = await startFakeSite({ '/page': html('Behind a flaky robots.txt', REFUND) });
    let robotsCalls = 0;
    flaky.set('/robots.txt', {
      handle: (_req, res) => {
        robotsCalls += 1;
        if (robotsCalls === 1) res.writeHead(503).end();
        else res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      },
    });
    try {
      const { addedDocumentIds } = await ingestUrls(t, tenant.key, [flaky.url('/page')]);
      const done = await waitForSource(t, tenant.key, addedDocumentIds[0]!);
      assert.equal(done.linkedJobStatus, 'COMPLETED', done.error);
      assert.equal(robotsCalls, 2);
    } finally {
      await flaky.close();
    }
  });

  it('stores text with a NUL character or a broken surrogate without it', async () => {
    const form = new FormData();
    form.append('file', new Blob(['Uploaded text with a NUL \u0000 inside and a lone \ud800 surrogate.\n\nSecond paragraph.'], { type: 'text/plain' }), 'nul.txt');
    const res = await fetch(`${t.url}/v2/documents/public/files`, { method: 'POST', headers: { authorization: `Bearer ${tenant.key}` }, body: form });
    assert.equal(res.status, 202);
    const id = ((await res.json()) as IngestResult).addedDocumentIds[0]!;
    const done = await waitForSource(t, tenant.key, id);
    assert.equal(done.linkedJobStatus, 'COMPLETED', done.error);
    assert.ok(!done.paragraphs.join('').includes('\u0000'));
    assert.equal(done.paragraphs[1], 'Second paragraph.');
  });

  it('reads a page in a legacy charset and a page with a bogus charset without breaking', async () => {
    site.set('/latin1', {
      headers: { 'content-type': 'text/html; charset=windows-1252' },
      body: Buffer.concat([Buffer.from('<html><head><title>Caf'), Buffer.from([0xe9]), Buffer.from('</title></head><body><p>Cr'), Buffer.from([0xe8]), Buffer.from('me br'), Buffer.from([0xfb]), Buffer.from('l'), Buffer.from([0xe9]), Buffer.from(' is served every morning until eleven o clock.</p></body></html>')]),
    });
    site.set('/bogus', { headers: { 'content-type': 'text/html; charset=unicode' }, body: html('Bogus charset', REFUND) });
    const { addedDocumentIds } = await ingestUrls(t, tenant.key, [site.url('/latin1'), site.url('/bogus')]);
    const latin = await waitForSource(t, tenant.key, addedDocumentIds[0]!);
    assert.equal(latin.linkedJobStatus, 'COMPLETED', latin.error);
    assert.ok(latin.paragraphs.some((p) => p.includes('Crème brûlé')), JSON.stringify(latin.paragraphs));
    const bogus = await waitForSource(t, tenant.key, addedDocumentIds[1]!);
    assert.equal(bogus.linkedJobStatus, 'COMPLETED', bogus.error);
    assert.ok(bogus.paragraphs.includes(REFUND));
  });

  describe('validation', () => {
    const bad: [string, unknown, RegExp][] = [
      ['an unsupported source', { source: 'files', documentIdsToAdd: ['x'] }, /source/],
      ['an unknown source', { source: 'ftp', documentIdsToAdd: ['x'] }, /source/],
      ['no work', { documentIdsToAdd: [], documentIdsToRefresh: [] }, /at least one/],
      ['no arrays at all', {}, /at least one/],
      ['an invalid URL', { documentIdsToAdd: ['not a url'] }, /documentIdsToAdd\.0: not a valid http\(s\) URL/],
      ['a non-http URL', { documentIdsToAdd: ['https://ok.example/', 'ftp://example.com/x'] }, /documentIdsToAdd\.1/],
      ['a source id for web', { documentIdsToAdd: ['5b0f4c1e-2d3a-4b5c-8d7e-9f0a1b2c3d4e'] }, /source ids are not accepted/],
      ['a URL to refresh with no record', { documentIdsToRefresh: ['https://nowhere.example/page'] }, /no web source/],
      ['an unknown provider id', { source: 'notion', documentIdsToAdd: ['5b0f4c1e-2d3a-4b5c-8d7e-9f0a1b2c3d4e'] }, /no notion source/],
      ['a URL for a provider', { source: 'confluence', documentIdsToAdd: ['https://example.com/'] }, /expected a source id/],
      ['a wrong type', { documentIdsToAdd: 'https://example.com/' }, /documentIdsToAdd/],
      ['a URL with credentials', { documentIdsToAdd: ['http://user:secret@example.com/page'] }, /credentials are not accepted/],
      ['an invalid host name', { documentIdsToAdd: ['http://a..b/page'] }, /not a valid host name/],
      ['a URL too long once encoded', { documentIdsToAdd: [`http://example.com/${'报'.repeat(1000)}`] }, /longer than 2048 characters once encoded/],
      ['an unknown field', { documentIdsToAdd: ['https://example.com/'], crawl: true }, /crawl/],
    ];
    for (const [what, body, message] of bad) {
      it(`answers 400 for ${what} and creates nothing`, async () => {
        const fresh = await makeTenant(t);
        assertError(await t.request('POST', '/v2/documents/public', { key: fresh.key, body }), 400, message);
        const list = await expectStatus<{ documents: Source[] }>(t, 200, 'GET', '/v2/documents/public', fresh.key);
        assert.deepEqual(list.documents, []);
      });
    }
  });

  describe('refresh and change detection', () => {
    const linkToKnowledge = async (id: string) => {
      await ensureArticle(t, tenant.workspaceId, '7d1e4a4b-8a2c-4c8e-9a57-3f0f0c1d2e3f');
      await t.database.db
        .update(sources)
        .set({ linkedKnowledgeId: '7d1e4a4b-8a2c-4c8e-9a57-3f0f0c1d2e3f', linkedOperation: 'UPDATE_ARTICLE' })
        .where(eq(sources.id, id));
    };
    const refresh = async (id: string) => {
      const accepted = await expectStatus<string[]>(t, 200, 'POST', '/v2/documents/public/refresh', tenant.key, { documentIds: [id] });
      assert.deepEqual(accepted, [id]);
      return waitForSource(t, tenant.key, id, (s) => s.linkedJobStatus === 'COMPLETED' || s.linkedJobStatus === 'FAILED');
    };

    it('sends the validators and keeps the content when the page answers 304', async () => {
      let served = 0;
      site.set('/etag', {
        handle: (req, res) => {
          if (req.headers['if-none-match'] === '"v1"') return void res.writeHead(304).end();
          served += 1;
          res.writeHead(200, { 'content-type': 'text/html', etag: '"v1"', 'last-modified': 'Tue, 03 Nov 2026 10:00:00 GMT' }).end(html('Versioned', REFUND));
        },
      });
      const { addedDocumentIds } = await ingestUrls(t, tenant.key, [site.url('/etag')]);
      const first = await waitForSource(t, tenant.key, addedDocumentIds[0]!);
      assert.equal(first.linkedJobStatus, 'COMPLETED', first.error);
      const again = await refresh(first.id);
      assert.equal(again.linkedJobStatus, 'COMPLETED');
      assert.notEqual(again.linkedJobId, first.linkedJobId);
      assert.deepEqual(again.paragraphs, first.paragraphs);
      assert.equal(served, 1);
      const conditional = site.requests.filter((r) => r.path === '/etag').at(-1)!;
      assert.equal(conditional.headers['if-none-match'], '"v1"');
      assert.equal(conditional.headers['if-modified-since'], 'Tue, 03 Nov 2026 10:00:00 GMT');
    });

    it('does not flag whitespace, footer dates or reordered navigation as a change', async () => {
      const page = (nav: string, stamp: string, space = ' ') =>
        `<html><head><title>Shipping</title></head><body><ul class="menu">${nav}</ul><main>` +
        `<p>Orders${space}ship within two business days from our warehouse in Lyon.</p>` +
        `<p>Express delivery is available for an extra fee at checkout.</p><p>Last updated ${stamp}</p></main></body></html>`;
      site.set('/shipping', page('<li><a href="/a">About us</a></li><li><a href="/b">Blog</a></li>', 'March 3, 2026'));
      const { addedDocumentIds } = await ingestUrls(t, tenant.key, [site.url('/shipping')]);
      const first = await waitForSource(t, tenant.key, addedDocumentIds[0]!);
      assert.equal(first.linkedJobStatus, 'COMPLETED', first.error);
      await linkToKnowledge(first.id);
      site.set('/shipping', page('<li><a href="/b">Blog</a></li><li><a href="/a">About us</a></li>', 'November 20, 2026', '   \n '));
      const second = await refresh(first.id);
      assert.equal(second.changed, false, JSON.stringify([first.paragraphs, second.paragraphs]));
      assert.deepEqual(second.oldParagraphs, []);
    });

    it('flags a meaningful change of a linked source, keeps the previous paragraphs, and lists it with changed=true', async () => {
      site.set('/policy', html('Policy', REFUND, STEPS));
      const { addedDocumentIds } = await ingestUrls(t, tenant.key, [site.url('/policy')]);
      const first = await waitForSource(t, tenant.key, addedDocumentIds[0]!);
      await linkToKnowledge(first.id);
      const edited = REFUND.replace('30 days', '14 days');
      site.set('/policy', html('Policy', edited, STEPS));
      const second = await refresh(first.id);
      assert.equal(second.changed, true);
      assert.ok(second.paragraphs.includes(edited));
      assert.deepEqual(second.oldParagraphs, first.paragraphs);
      // A later refresh without a further change keeps the flag and the paragraphs to compare with.
      const third = await refresh(first.id);
      assert.equal(third.changed, true);
      assert.deepEqual(third.oldParagraphs, first.paragraphs);
      const listed = await expectStatus<{ documents: Source[] }>(t, 200, 'GET', '/v2/documents/public?changed=true&source=web', tenant.key);
      assert.deepEqual(listed.documents.map((s) => s.id), [first.id]);
    });

    it('does not flag a change on a source that is not linked to knowledge, but keeps the previous paragraphs', async () => {
      site.set('/unlinked', html('Unlinked', REFUND));
      const { addedDocumentIds } = await ingestUrls(t, tenant.key, [site.url('/unlinked')]);
      const first = await waitForSource(t, tenant.key, addedDocumentIds[0]!);
      site.set('/unlinked', html('Unlinked', STEPS));
      const second = await refresh(first.id);
      assert.equal(second.changed, false);
      assert.deepEqual(second.oldParagraphs, first.paragraphs);
      assert.deepEqual(second.paragraphs.filter((p) => p !== 'Unlinked'), [STEPS]);
    });

    it('answers 400 for an empty list, an unknown id and an uploaded file; nothing is queued', async () => {
      assertError(await t.request('POST', '/v2/documents/public/refresh', { key: tenant.key, body: { documentIds: [] } }), 400, /documentIds/);
      assertError(
        await t.request('POST', '/v2/documents/public/refresh', { key: tenant.key, body: { documentIds: ['5b0f4c1e-2d3a-4b5c-8d7e-9f0a1b2c3d4e'] } }),
        400,
        /documentIds\.0: no source/,
      );
      assertError(await t.request('POST', '/v2/documents/public/refresh', { key: tenant.key, body: { documentIds: ['nope'] } }), 400, /documentIds/);
      const form = new FormData();
      form.append('file', new Blob(['# Notes\n\nSome text that is long enough.']), 'notes.md');
      const up = await fetch(`${t.url}/v2/documents/public/files`, { method: 'POST', headers: { authorization: `Bearer ${tenant.key}` }, body: form });
      const uploaded = (await up.json()) as IngestResult;
      const id = uploaded.addedDocumentIds[0]!;
      const before = await waitForSource(t, tenant.key, id);
      assertError(await t.request('POST', '/v2/documents/public/refresh', { key: tenant.key, body: { documentIds: [id] } }), 400, /uploaded file/);
      const afterwards = await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${id}`, tenant.key);
      assert.equal(afterwards.linkedJobId, before.linkedJobId);
    });
  });

  describe('file uploads', () => {
    const upload = async (content: string | Uint8Array, filename: string, type?: string, title?: string) => {
      const form = new FormData();
      form.append('file', new Blob([content], type ? { type } : {}), filename);
      if (title) form.append('title', title);
      const res = await fetch(`${t.url}/v2/documents/public/files`, { method: 'POST', headers: { authorization: `Bearer ${tenant.key}` }, body: form });
      const text = await res.text();
      return { status: res.status, body: JSON.parse(text) as IngestResult, raw: JSON.parse(text) as unknown };
    };

    it('stores a Markdown file, extracts it, and serves the original at storageUrl', async () => {
      const markdown = '# Returns guide\n\nItems can be returned within 30 days.\n\n- Keep the receipt\n- Use the prepaid label\n';
      const res = await upload(markdown, 'returns.md', 'text/markdown');
      assert.equal(res.status, 202, JSON.stringify(res.raw));
      const queued = res.body.documents[0]!;
      assert.equal(queued.source, 'files');
      assert.equal(queued.originalUrl, 'returns.md');
      assert.equal(queued.storageUrl, `/v2/documents/${queued.id}/file/public`);
      assert.equal(queued.mimeType, 'text/markdown');
      const done = await waitForSource(t, tenant.key, queued.id);
      assert.equal(done.linkedJobStatus, 'COMPLETED', done.error);
      assert.equal(done.title, 'Returns guide');
      assert.deepEqual(done.paragraphs, ['Returns guide', 'Items can be returned within 30 days.', 'Keep the receipt', 'Use the prepaid label']);
      const file = await fetch(`${t.url}${done.storageUrl}`, { headers: { authorization: `Bearer ${tenant.readKey}` } });
      assert.equal(file.status, 200);
      assert.match(file.headers.get('content-type') ?? '', /^text\/markdown/);
      assert.equal(await file.text(), markdown);
      const other = await makeTenant(t);
      assertError(await t.request('GET', done.storageUrl!, { key: other.key }), 404);
    });

    it('serves a file with a non-Latin name with an ASCII fallback and the exact UTF-8 name', async () => {
      const res = await upload('Rapport annuel\n\nLe chiffre d affaires a augmenté.', '报告 “final”.txt', 'text/plain');
      const id = res.body.addedDocumentIds[0]!;
      const file = await fetch(`${t.url}/v2/documents/${id}/file/public`, { headers: { authorization: `Bearer ${tenant.key}` } });
      assert.equal(file.status, 200);
      assert.equal(
        file.headers.get('content-disposition'),
        `attachment; filename="__ _final_.txt"; filename*=UTF-8''${encodeURIComponent('报告 “final”.txt')}`,
      );
    });

    it('answers 400 for a NUL in the title or the file name', async () => {
      for (const [filename, title] of [['ok.txt', 'bad\u0000title'], ['a\u0000.txt', undefined]] as const) {
        const form = new FormData();
        form.append('file', new Blob(['Some text'], { type: 'text/plain' }), filename);
        if (title) form.append('title', title);
        const res = await fetch(`${t.url}/v2/documents/public/files`, { method: 'POST', headers: { authorization: `Bearer ${tenant.key}` }, body: form });
        assertError({ status: res.status, body: await res.json() }, 400, /NUL character/);
      }
    });

    it('keeps a title given with the upload', async () => {
      const res = await upload('Plain text\n\nWith a second paragraph.', 'notes.txt', 'text/plain', 'Team notes');
      const done = await waitForSource(t, tenant.key, res.body.addedDocumentIds[0]!);
      assert.equal(done.title, 'Team notes');
      assert.deepEqual(done.paragraphs, ['Plain text', 'With a second paragraph.']);
    });

    it('answers 415 for an unsupported type and 413 for a file over the limit, creating nothing', async () => {
      const fresh = await makeTenant(t);
      const send = async (content: Uint8Array, filename: string, type: string) => {
        const form = new FormData();
        form.append('file', new Blob([content], { type }), filename);
        const res = await fetch(`${t.url}/v2/documents/public/files`, { method: 'POST', headers: { authorization: `Bearer ${fresh.key}` }, body: form });
        return { status: res.status, body: (await res.json()) as unknown };
      };
      assertError(await send(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), 'logo.png', 'image/png'), 415, /unsupported file type/);
      assertError(await send(new Uint8Array(300 * 1024).fill(65), 'big.txt', 'text/plain'), 413);
      assertError(await send(new Uint8Array(0), 'empty.txt', 'text/plain'), 400, /empty/);
      const list = await expectStatus<{ documents: Source[] }>(t, 200, 'GET', '/v2/documents/public', fresh.key);
      assert.deepEqual(list.documents, []);
    });
  });

  describe('delete', () => {
    const createArticle = async (title: string) => {
      const folder = await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/hc-folders/public', tenant.key, { title: `F ${title}`, description: '' });
      return expectStatus<{ id: string; parentFolderId: string }>(t, 201, 'POST', '/v2/hc-articles/public', tenant.key, {
        title, mainKnowledge: 'Body', agentInstruction: '', questions: [], keywords: [], escalation: false, parentFolderId: folder.id,
      });
    };

    it('deletes sources and keeps their articles by default', async () => {
      site.set('/del-a', html('Delete A', REFUND));
      const { addedDocumentIds } = await ingestUrls(t, tenant.key, [site.url('/del-a')]);
      const id = addedDocumentIds[0]!;
      await waitForSource(t, tenant.key, id);
      const article = await createArticle('Kept article');
      await t.database.db.update(sources).set({ linkedKnowledgeId: article.id }).where(eq(sources.id, id));
      const res = await expectStatus<{ deletedDocuments: unknown[]; deletedArticles: unknown[] }>(t, 200, 'DELETE', '/v2/documents/public', tenant.key, { documentIds: [id] });
      assert.deepEqual(res, { deletedDocuments: [{ id, title: 'Delete A', originalUrl: site.url('/del-a') }], deletedArticles: [] });
      assertError(await t.request('GET', `/v2/documents/public/${id}`, { key: tenant.key }), 404);
      const kept = await expectStatus<unknown[]>(t, 200, 'POST', '/v2/hc-articles/ids/public', tenant.key, { articleIds: [article.id] });
      assert.equal(kept.length, 1);
    });

    it('deletes the linked articles with deleteArticles: true, and unlinks other sources of those articles', async () => {
      site.set('/del-b', html('Delete B', REFUND));
      site.set('/del-c', html('Delete C', STEPS));
      const { addedDocumentIds } = await ingestUrls(t, tenant.key, [site.url('/del-b'), site.url('/del-c')]);
      const [b, c] = addedDocumentIds as [string, string];
      await waitForSource(t, tenant.key, b);
      await waitForSource(t, tenant.key, c);
      const article = await createArticle('Linked article');
      await t.database.db.update(sources).set({ linkedKnowledgeId: article.id, linkedOperation: 'ADD_ARTICLE_TO_FOLDER' }).where(eq(sources.workspaceId, tenant.workspaceId));
      const res = await expectStatus<{ deletedDocuments: { id: string }[]; deletedArticles: unknown[] }>(t, 200, 'DELETE', '/v2/documents/public', tenant.key, {
        documentIds: [b],
        deleteArticles: true,
      });
      assert.deepEqual(res.deletedDocuments.map((d) => d.id), [b]);
      assert.deepEqual(res.deletedArticles, [{ id: article.id, title: 'Linked article', parentFolderId: article.parentFolderId }]);
      const remaining = await expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${c}`, tenant.key);
      assert.equal(remaining.linkedKnowledgeId, null);
      assert.equal(remaining.linkedOperation, null);
      const gone = await expectStatus<unknown[]>(t, 200, 'POST', '/v2/hc-articles/ids/public', tenant.key, { articleIds: [article.id] });
      assert.deepEqual(gone, []);
    });

    it('answers 400 for an unknown id and deletes nothing', async () => {
      site.set('/del-d', html('Delete D', REFUND));
      const { addedDocumentIds } = await ingestUrls(t, tenant.key, [site.url('/del-d')]);
      const id = addedDocumentIds[0]!;
      assertError(
        await t.request('DELETE', '/v2/documents/public', { key: tenant.key, body: { documentIds: [id, '5b0f4c1e-2d3a-4b5c-8d7e-9f0a1b2c3d4e'] } }),
        400,
        /documentIds\.1: no source/,
      );
      assertError(await t.request('DELETE', '/v2/documents/public', { key: tenant.key, body: { documentIds: [] } }), 400);
      await expectStatus(t, 200, 'GET', `/v2/documents/public/${id}`, tenant.key);
      await waitForSource(t, tenant.key, id);
    });

    it('deletes a source while its job is fetching: the job writes nothing afterwards', async () => {
      let release: () => void = () => undefined;
      const fetching = new Promise<void>((resolveStarted) => {
        site.set('/slow-delete', {
          handle: (_req, res) => {
            resolveStarted();
            release = () => res.writeHead(200, { 'content-type': 'text/html' }).end(html('Too late', REFUND));
          },
        });
      });
      const { addedDocumentIds, jobs } = await ingestUrls(t, tenant.key, [site.url('/slow-delete')]);
      const id = addedDocumentIds[0]!;
      await fetching;
      await expectStatus(t, 200, 'DELETE', '/v2/documents/public', tenant.key, { documentIds: [id] });
      release();
      // The job has finished with the answer in hand (its queue entry is completed) and wrote nothing.
      const job = await poll(() => t.queue.engine.getJobById('sources.ingest', jobs[0]!.id), (j) => j?.state === 'completed', {
        what: 'the ingestion job to finish',
      });
      assert.equal(job?.state, 'completed');
      assertError(await t.request('GET', `/v2/documents/public/${id}`, { key: tenant.key }), 404);
      const rows = await t.database.db.select().from(sources).where(eq(sources.id, id));
      assert.deepEqual(rows, []);
    });
  });
});
