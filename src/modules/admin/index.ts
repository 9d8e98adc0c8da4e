export { adminRoutes } from './admin.routes.js';
export { createApiKeyBodySchema } from './admin.schemas.js';
