export { testingRoutes } from './testing.routes.js';
export { testingJobs } from './testing.jobs.js';
export { testingListeners } from './testing.listeners.js';
