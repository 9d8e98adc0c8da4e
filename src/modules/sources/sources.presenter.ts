import { iso } from '../../http/schemas.js';
import type { SourceRow } from './sources.repository.js';
import type { sourceSchema } from './sources.schemas.js';
import { type SyncDefaults, syncView } from './sync.js';
import type { z } from 'zod';

type WireSource = z.input<typeof sourceSchema>;

/** The wire record; `sync` (the request's defaults and time) gives its computed re-sync fields. */
export function presentSource(row: SourceRow, sync: SyncDefaults): WireSource {
  const view = syncView(row, sync);
  return {
    id: row.id,
    originalUrl: row.originalUrl,
    url: row.originalUrl,
    title: row.title,
    storageUrl: row.storageUrl,
    companyId: row.workspaceId,
    source: row.source as WireSource['source'],
    externalId: row.externalId,
    english: row.english,
    baser: row.baser,
    success: row.success,
    error: row.error,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    mimeType: row.mimeType,
    type: row.type,
    linkedKnowledgeId: row.linkedKnowledgeId,
    linkedOperation: row.linkedOperation as WireSource['linkedOperation'],
    linkedReason: row.linkedReason,
    linkedJobId: row.linkedJobId,
    linkedJobStatus: row.linkedJobStatus as WireSource['linkedJobStatus'],
    changed: row.changed,
    paragraphs: row.paragraphs,
    oldParagraphs: row.oldParagraphs,
    syncInterval: row.syncInterval,
    effectiveSyncInterval: view.effectiveSyncInterval,
    lastSyncAt: iso(row.lastSyncAt),
    nextSyncAt: iso(view.nextSyncAt),
    syncFailures: row.syncFailures,
    syncError: view.syncError,
  };
}

/** Where the original bytes of an uploaded file can be downloaded. */
export function storageUrlOf(sourceId: string): string {
  return `/v2/documents/${sourceId}/file/public`;
}
