export { guardrailRoutes } from './guardrails.routes.js';
export { guardrailsForAgent } from './guardrails.service.js';
