export { generationRoutes } from './generation.routes.js';
export { generateKnowledgeJob, sweepKnowledgeJobsJob } from './generation.jobs.js';
