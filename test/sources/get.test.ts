// GET /v2/documents/public/:id: the exact wire Document of web and uploaded records.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { assertError, expectStatus } from '../support/security.js';
import { ingestUrls, type Source } from '../support/sources.js';
import { addOneWeb, ARTICLE_1, DOCUMENT_KEYS, fileOf, ISO, list, NOT_SYNCED, one, setSource, startAppWithoutWorkers, suffix, UNKNOWN, upload } from './support.js';

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
      ...NOT_SYNCED,
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
      ...NOT_SYNCED,
    });
    const file = await t.request('GET', got.storageUrl!, { key: w.readKey });
    assert.equal(file.status, 200);
    assert.equal(file.text, '# Returns guide\n\nItems can be returned within 30 days.');
  });
});
