// @parley/client: a typed client of Parley's API (README.md).
export { createParleyClient, type ParleyClient, type ParleyClientOptions, type ParleyConveniences } from './client.js';
export { type CallResult, type ErrorBody, ParleyApiError, ParleyTimeoutError, retryAfterSeconds, unwrap } from './errors.js';
export { type GenerationTarget, type IngestionTarget, type KnowledgeJob, type Source, type WaitOptions, waitForGeneration, waitForIngestion } from './jobs.js';
export { LIST_ROUTES, type ListPath } from './list-routes.js';
export { type ListArgs, type ListInit, type ListItem, type ListPage, type ListRoute, listItems, listPages, nextPageQuery } from './paging.js';
export { type RetryOptions, retryingFetch } from './retry.js';
export type { components, operations, paths } from './schema.js';

import type { components } from './schema.js';
/** Every named wire shape: `Schemas['Article']`, `Schemas['Document']`... */
export type Schemas = components['schemas'];
