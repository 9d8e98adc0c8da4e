import { apiKeyJobs } from '../modules/api-keys/index.js';
import { auditJobs } from '../modules/audit/index.js';
import { conversationJobs } from '../modules/conversations/index.js';
import { generationJobs } from '../modules/generation/index.js';
import { knowledgeJobs } from '../modules/knowledge/index.js';
import { refineJobs } from '../modules/refine/index.js';
import { sourceJobs } from '../modules/sources/index.js';
import { systemJobs } from '../modules/system/index.js';
import { testingJobs } from '../modules/testing/index.js';
import { widgetJobs } from '../modules/widget/index.js';
import { webhookJobs } from '../modules/webhooks/index.js';
import type { JobDefinition, RegisteredJob } from './job.js';
import type { JobName } from './payloads.js';

/**
 * Every background job of Parley: each module lists its jobs (`defineJob` in its `*.jobs.ts`) in
 * its index, under the names of `JobPayloads`; a module with jobs adds its list here.
 */
export const jobRegistry: readonly RegisteredJob[] = [
  ...apiKeyJobs,
  ...sourceJobs,
  ...generationJobs,
  ...knowledgeJobs,
  ...conversationJobs,
  ...refineJobs,
  ...systemJobs,
  ...testingJobs,
  ...widgetJobs,
  ...webhookJobs,
  ...auditJobs,
];

/** A registered job by name with its payload type, for code that runs a handler directly (tests, scripts). */
export function jobNamed<Name extends JobName>(name: Name, jobs: readonly RegisteredJob[] = jobRegistry): JobDefinition<Name> {
  const job = jobs.find((j) => j.name === name);
  if (!job) throw new Error(`job ${name} is not registered`);
  return job as unknown as JobDefinition<Name>;
}
