import { purgeApiKeysJob } from '../modules/api-keys/index.js';
import { purgeConversationsJob } from '../modules/conversations/index.js';
import { generateKnowledgeJob, sweepKnowledgeJobsJob } from '../modules/generation/index.js';
import { embedArticlesJob } from '../modules/knowledge/index.js';
import { refineIterationJob, sweepRefineIterationsJob } from '../modules/refine/index.js';
import { ingestSourceJob, sweepSourceJobsJob } from '../modules/sources/index.js';
import { registered, type RegisteredJob } from './job.js';

/** Every background job of Parley. A module adds its jobs here. */
export const jobRegistry: readonly RegisteredJob[] = [
  registered(purgeApiKeysJob),
  registered(ingestSourceJob),
  registered(sweepSourceJobsJob),
  registered(generateKnowledgeJob),
  registered(sweepKnowledgeJobsJob),
  registered(embedArticlesJob),
  registered(purgeConversationsJob),
  registered(refineIterationJob),
  registered(sweepRefineIterationsJob),
];
