export { sourceRoutes } from './sources.routes.js';
export { sourceJobs } from './sources.jobs.js';
export { sourceListeners } from './sources.listeners.js';
export { contentFingerprint } from './changes.js';
export type { SourceRow } from './sources.repository.js';
export { JOB_STATUSES, type JobStatus, LINKED_OPERATIONS, type LinkedOperation, linkedOperationSchema } from './sources.schemas.js';
export { existingSources, getSourcesByIds, linkKnowledge, sourceUrlsOfArticles } from './sources.service.js';
