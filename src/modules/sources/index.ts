export { sourceRoutes } from './sources.routes.js';
export { ingestSourceJob, sweepSourceJobsJob } from './sources.jobs.js';
export { contentFingerprint } from './changes.js';
export type { SourceRow } from './sources.repository.js';
export { JOB_STATUSES, type JobStatus, LINKED_OPERATIONS, type LinkedOperation, linkedOperationSchema } from './sources.schemas.js';
export { existingSourceIds, findSourcesByIds, linkKnowledge } from './sources.repository.js';
