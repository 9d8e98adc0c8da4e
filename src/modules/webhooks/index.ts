export { webhookRoutes } from './webhooks.routes.js';
export { webhookJobs } from './webhooks.jobs.js';
export { webhookListeners } from './webhooks.listeners.js';
export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhooks.schemas.js';
