export { systemRoutes } from './system.routes.js';
export { systemJobs } from './system.jobs.js';
