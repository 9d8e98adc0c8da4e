export { generationRoutes } from './generation.routes.js';
export { generationJobs } from './generation.jobs.js';
export { generationListeners } from './generation.listeners.js';
