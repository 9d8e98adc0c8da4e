import { sql } from 'drizzle-orm';
import type { TestApp } from './app.js';
import { poll } from './poll.js';
import { expectStatus } from './security.js';

/** The wire `Document`. */
export interface Source {
  id: string; originalUrl: string; url: string; title: string; storageUrl: string | null; companyId: string; source: string;
  externalId: string; english: boolean; baser: boolean; success: boolean; error: string; createdAt: string; updatedAt: string;
  mimeType: string; type: string | null; linkedKnowledgeId: string | null; linkedOperation: string | null; linkedReason: string | null;
  linkedJobId: string | null; linkedJobStatus: 'PENDING' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | null; changed: boolean;
  paragraphs: string[]; oldParagraphs: string[];
  syncInterval: string | null; effectiveSyncInterval: string; lastSyncAt: string | null; nextSyncAt: string | null;
  syncFailures: number; syncError: string | null;
}

export interface IngestResult {
  addedDocumentIds: string[];
  updatedDocumentIds: string[];
  jobs: { id: string; documentId: string; status: string }[];
  documents: Source[];
}

/** Settings of a test app that ingests from fake sites on 127.0.0.1 without waiting. */
export const INGEST_ENV = {
  PARLEY_FETCH_ALLOW_PRIVATE: 'true',
  PARLEY_INGEST_HOST_DELAY_MS: '0',
  PARLEY_INGEST_RETRY_DELAY_SECONDS: '1',
  PARLEY_FETCH_TIMEOUT_MS: '5000',
};

export async function ingestUrls(t: TestApp, key: string, urls: string[], extra: Record<string, unknown> = {}): Promise<IngestResult> {
  return expectStatus<IngestResult>(t, 202, 'POST', '/v2/documents/public', key, { documentIdsToAdd: urls, ...extra });
}

/** Polls a source until its job is COMPLETED or FAILED (or the given status), as a client would. */
export async function waitForSource(
  t: TestApp,
  key: string,
  id: string,
  done: (s: Source) => boolean = (s) => s.linkedJobStatus === 'COMPLETED' || s.linkedJobStatus === 'FAILED',
  timeoutMs = 20_000,
): Promise<Source> {
  const look = () => {
    t.wakeWorkers('sources.ingest');
    return expectStatus<Source>(t, 200, 'GET', `/v2/documents/public/${id}`, key);
  };
  return poll(look, done, { what: `source ${id}`, timeoutMs, intervalMs: 100 });
}

/**
 * Makes sure the workspace has an article with this id (and a folder for it), so a test can link a
 * source to a chosen article id: `sources.linked_knowledge_id` must name an article of its workspace.
 */
export async function ensureArticle(t: TestApp, workspaceId: string, articleId: string): Promise<void> {
  await t.database.db.execute(sql`
    WITH folder AS (
      INSERT INTO folders (workspace_id, title) VALUES (${workspaceId}, 'Linked knowledge') RETURNING id)
    INSERT INTO articles (id, workspace_id, parent_folder_id, title, main_knowledge, origin)
    SELECT ${articleId}, ${workspaceId}, folder.id, 'Linked article', 'Linked knowledge.', 'API_CREATED' FROM folder
    WHERE NOT EXISTS (SELECT 1 FROM articles WHERE workspace_id = ${workspaceId} AND id = ${articleId})`);
}
