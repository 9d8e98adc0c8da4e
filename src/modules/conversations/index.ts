export { conversationRoutes } from './conversations.routes.js';
export { conversationJobs } from './conversations.jobs.js';
export { answer, type AnswerOutcome, type AnswerOverlay, type AnswerRequest } from './answer/answer.service.js';
export { type AnswerTrace, answerTraceSchema, readTrace } from './answer/trace.schemas.js';
export {
  answerEventPresented,
  getInteraction,
  interactionPagePresented,
  interactionPresented,
  postEvent,
  type PostEventOptions,
} from './conversations.service.js';
export {
  eventSchema,
  generateAnswerBodySchema,
  interactionSchema,
  interactionWithEventsSchema,
  listInteractionsQuerySchema,
} from './conversations.schemas.js';
export { type AnsweredTurn, changedConversations, eventsAfter, getEvent, giveFeedback, requireAnsweredTurn } from './events.service.js';
export { presentInteraction } from './conversations.presenter.js';
export type { ConversationRow, EventRow } from './conversations.repository.js';
export { analyticsRoutes } from './analytics.routes.js';
export { EVENT_ROLES, LIMITS as CONVERSATION_LIMITS } from './conversations.schemas.js';
