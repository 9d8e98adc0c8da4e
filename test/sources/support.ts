// What the Sources route tests (wire name "documents") share: paths, the wire shapes they read,
// and helpers that add records through the API.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { type NewSource, sources } from '../../src/db/schema/index.js';
import { type TestApp, startTestApp, type TestAppOptions } from '../support/app.js';
import { crawlFixtures } from '../support/processes.js';
import { expectStatus } from '../support/security.js';
import { ensureArticle, type IngestResult, ingestUrls, type Source } from '../support/sources.js';

export const LIST = '/v2/documents/public';
export const CRAWL = '/v2/documents/public/deep-crawl/links';
export const REFRESH = '/v2/documents/public/refresh';
export const UPLOAD = '/v2/documents/public/files';
export const one = (id: string) => `${LIST}/${id}`;
export const fileOf = (id: string) => `/v2/documents/${id}/file/public`;

export const UNKNOWN = '00000000-0000-4000-8000-000000000000';
export const ARTICLE_1 = '7d1e4a4b-8a2c-4c8e-9a57-3f0f0c1d2e3f';
export const ARTICLE_2 = '0b9a6a51-3c1d-4e4f-8a7b-2c3d4e5f6a7b';
/** Another workspace's articles (an article id belongs to one workspace). */
export const THEIR_ARTICLE_1 = '5c6d7e8f-9a0b-4c1d-8e2f-3a4b5c6d7e8f';
export const THEIR_ARTICLE_2 = '6d7e8f9a-0b1c-4d2e-9f3a-4b5c6d7e8f9a';
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const DOCUMENT_KEYS = [
  'baser', 'changed', 'companyId', 'createdAt', 'effectiveSyncInterval', 'english', 'error', 'externalId', 'id', 'lastSyncAt',
  'linkedJobId', 'linkedJobStatus', 'linkedKnowledgeId', 'linkedOperation', 'linkedReason', 'mimeType', 'nextSyncAt',
  'oldParagraphs', 'originalUrl', 'paragraphs', 'source', 'storageUrl', 'success', 'syncError', 'syncFailures', 'syncInterval',
  'title', 'type', 'updatedAt', 'url',
];

/** The re-sync fields of a source that does not re-sync and never failed. */
export const NOT_SYNCED = { syncInterval: null, effectiveSyncInterval: 'off', lastSyncAt: null, nextSyncAt: null, syncFailures: 0, syncError: null };

export const NUTCH_SITE = path.join(crawlFixtures, 'nutch-fetch-test-site');

export interface Page {
  documents: Source[];
  hasMore: boolean;
}
export interface CrawlResult {
  data: string[];
  message: string;
}

export const suffix = () => randomBytes(4).toString('hex');
export const idsOf = (page: Page) => page.documents.map((s) => s.id);
export const sortedIds = (ids: string[]) => [...ids].sort();

/** An app without workers: ingested records stay PENDING and updatedAt changes only when a test changes it. */
export function startAppWithoutWorkers(options: Pick<TestAppOptions, 'env' | 'clock'> = {}): Promise<TestApp> {
  return startTestApp(options);
}

/** GET /v2/documents/public with a raw query string; asserts 200 and the answer's shape. */
export async function list(t: TestApp, key: string, query = ''): Promise<Page> {
  const page = await expectStatus<Page>(t, 200, 'GET', `${LIST}${query ? `?${query}` : ''}`, key);
  assert.deepEqual(Object.keys(page).sort(), ['documents', 'hasMore'], JSON.stringify(page));
  return page;
}

/** Writes columns of a source directly (linkage and timestamps are not settable through the API yet). */
export async function setSource(t: TestApp, id: string, values: Partial<NewSource>): Promise<void> {
  if (values.linkedKnowledgeId) {
    const [row] = await t.database.db.select({ workspaceId: sources.workspaceId }).from(sources).where(eq(sources.id, id));
    if (row) await ensureArticle(t, row.workspaceId, values.linkedKnowledgeId);
  }
  const rows = await t.database.db.update(sources).set(values).where(eq(sources.id, id)).returning({ id: sources.id });
  assert.equal(rows.length, 1, `no source ${id} to update`);
}

/** Ingests web URLs (202) and returns their ids by normalised URL. */
export async function addWeb(t: TestApp, key: string, urls: string[], extra: Record<string, unknown> = {}): Promise<Map<string, string>> {
  const result = await ingestUrls(t, key, urls, extra);
  assert.equal(result.addedDocumentIds.length, urls.length, JSON.stringify(result));
  return new Map(result.documents.map((d) => [d.externalId, d.id]));
}

export async function addOneWeb(t: TestApp, key: string, url = `https://docs.acme.test/page-${suffix()}`): Promise<string> {
  const [id] = [...(await addWeb(t, key, [url])).values()];
  return id!;
}

/** POST /v2/documents/public/files as multipart form data. */
export async function upload(
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

export async function addFile(t: TestApp, key: string, filename = 'guide.md', content = '# Guide\n\nSome text that is long enough.'): Promise<string> {
  return (await upload(t, key, content, filename, 'text/markdown')).addedDocumentIds[0]!;
}

export async function crawl(t: TestApp, key: string, body: Record<string, unknown>): Promise<CrawlResult> {
  const result = await expectStatus<CrawlResult>(t, 200, 'POST', CRAWL, key, body);
  assert.deepEqual(Object.keys(result).sort(), ['data', 'message'], JSON.stringify(result));
  assert.equal(typeof result.message, 'string');
  assert.ok(result.message.length > 0, 'message is a non-empty string');
  assert.equal(new Set(result.data).size, result.data.length, `no URL listed twice: ${JSON.stringify(result.data)}`);
  return result;
}

/** Order-insensitive comparison of URL lists (the lists must not hold duplicates). */
export function assertSameUrls(actual: string[], expected: string[], context = ''): void {
  assert.deepEqual([...actual].sort(), [...expected].sort(), context);
}

/** A small HTML page with distinct content and the given links. */
export function pageHtml(title: string, links: string[] = []): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>` +
    `<p>This page explains ${title} in enough words to be a real page of the site.</p>` +
    `${links.map((href) => `<a href="${href}">link to ${href}</a>`).join('\n')}</main></body></html>`;
}

// ---------------------------------------------------------------------------------------------
// 1. Security
// ---------------------------------------------------------------------------------------------
