export { conversationRoutes } from './conversations.routes.js';
export { conversationJobs } from './conversations.jobs.js';
export { answer, type AnswerOutcome, type AnswerOverlay, type AnswerRequest } from './answer/answer.service.js';
export { type AnswerTrace, answerTraceSchema, readTrace } from './answer/trace.schemas.js';
export { type AnsweredTurn, getEvent, postEvent, type PostEventOptions, requireAnsweredTurn } from './conversations.service.js';
export type { ConversationRow, EventRow } from './conversations.repository.js';
export { analyticsRoutes } from './analytics.routes.js';
