export { apiKeyJobs } from './api-keys.jobs.js';
export { presentApiKey, presentCreatedApiKey } from './api-keys.presenter.js';
export {
  createApiKey,
  hashApiKey,
  KEY_PATTERN,
  listApiKeys,
  lookupApiKey,
  type Principal,
  revokeApiKey,
} from './api-keys.service.js';
