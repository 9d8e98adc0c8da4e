export { sourceRoutes } from './sources.routes.js';
export { ingestSourceJob, sweepSourceJobsJob } from './sources.jobs.js';
export { contentFingerprint } from './changes.js';
export type { SourceRow } from './sources.repository.js';
