export { widgetKeyRoutes } from './widget-keys.routes.js';
export { lookupWidgetKey, WIDGET_KEY_PATTERN } from './widget-keys.service.js';
export { visitorRoutes } from './visitors.routes.js';
export { VisitorStreams } from './visitor-stream.js';
export { visitorRateLimit } from './visitor-limit.js';
export { registerWidgetCors } from './widget-cors.js';
export { widgetJobs } from './widget.jobs.js';
export { widgetListeners } from './widget.listeners.js';
