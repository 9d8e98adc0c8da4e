export { refineJobs } from './refine.jobs.js';
export { refineRoutes } from './refine.routes.js';
export { createIteration, getSession, iterationDraftIds, publishedFixes } from './refine.service.js';
export { createIterationBodySchema, fixSessionSchema, ITERATION_STATUSES, RUNNING_STATUSES } from './refine.schemas.js';
