export { refineIterationJob, sweepRefineIterationsJob } from './refine.jobs.js';
export { refineRoutes } from './refine.routes.js';
