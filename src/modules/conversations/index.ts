export { conversationRoutes } from './conversations.routes.js';
export { purgeConversationsJob } from './conversations.jobs.js';
export { answer, type AnswerOutcome, type AnswerOverlay, type AnswerRequest } from './answer.js';
export { postEvent, type PostEventOptions } from './conversations.service.js';
export { analyticsRoutes } from './analytics.routes.js';
