export { replyRuleRoutes } from './reply-rules.routes.js';
export { replySlotsFor } from './reply-rules.service.js';
