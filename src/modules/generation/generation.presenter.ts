import { iso } from '../../http/schemas.js';
import type { JobStatus, LinkedOperation } from '../sources/index.js';
import type { KnowledgeJobRow } from './generation.repository.js';
import type { GenerationOrigin } from './generation.schemas.js';

export function presentJob(row: KnowledgeJobRow) {
  return {
    id: row.id,
    jobStatus: row.status as JobStatus,
    createdAt: iso(row.createdAt),
    startedAt: row.startedAt ? iso(row.startedAt) : null,
    completedAt: row.completedAt ? iso(row.completedAt) : null,
    hcArticleId: row.hcArticleId,
    origin: row.origin as GenerationOrigin,
    documentId: row.documentId,
    hcEventId: row.hcEventId,
    isDraft: row.isDraft,
    linkedOperation: row.operation as LinkedOperation | null,
    linkedReason: row.reason,
    error: row.error,
    usage: {
      provider: row.provider,
      model: row.model,
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
      totalTokens: row.inputTokens + row.outputTokens,
    },
  };
}
