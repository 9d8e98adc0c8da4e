export { refineJobs } from './refine.jobs.js';
export { refineRoutes } from './refine.routes.js';
export { iterationDraftIds, publishedFixes } from './refine.service.js';
