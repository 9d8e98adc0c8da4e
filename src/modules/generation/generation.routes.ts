import { z } from 'zod';
import { defineRoute } from '../../http/route.js';
import { presentJob } from './generation.presenter.js';
import {
  bulkBodySchema,
  bulkResponseSchema,
  generateBodySchema,
  generateResponseSchema,
  jobStatusBodySchema,
  jobStatusResponseSchema,
  treeInitializeBodySchema,
} from './generation.schemas.js';
import { getJobStatuses, queueBulkGeneration, queueGeneration } from './knowledge-jobs.service.js';
import { initializeTree } from './tree-initialize.service.js';

const tags = ['Knowledge generation'];

const JOB_BEHAVIOUR =
  'The job reads the text, finds the most similar live articles (the knowledge search) and the active folders ' +
  "(with `botId`: the agent's), and decides within `restrictedOps` (all three by default): " +
  '`ADD_ARTICLE_TO_FOLDER` (a new article in the folder it chooses), `UPDATE_ARTICLE` (the best-matching ' +
  "article; a source's own article is rewritten from it) or `DO_NOTHING` (already covered). With `isDraft` " +
  '(default true) it writes a draft (of the live article, for an update); otherwise it changes live knowledge. ' +
  'Poll `jobs/status`: `hcArticleId` names the article written. A job that fails writes nothing and says why ' +
  'in `error`; so does one whose article changed while it ran, so that no edit is overwritten. The model is the ' +
  'configured one (`PARLEY_LLM_*`), or the built-in engine (docs/ai.md).';

export function generationRoutes() {
  return [
    defineRoute({
      method: 'POST',
      url: '/v2/knowledge/public',
      auth: 'write',
      tags,
      summary: 'Queue one knowledge-generation job from candidate text',
      description:
        `${JOB_BEHAVIOUR} \`origin\` records where the text comes from: \`sources\` (article origin SOURCE_IMPORT; ` +
        '`documentId` required, and the source is linked to the result), `generated` (MAGIC_ARTICLE) or `inbox` ' +
        '(INBOX_SUGGESTION; `hcEventId` required). 400 when `documentId` names no source of the workspace; ' +
        '404 when `botId` names no agent.',
      body: generateBodySchema,
      response: generateResponseSchema,
      errors: [404],
      handler: ({ ctx, body }) => queueGeneration(ctx, body),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/knowledge/public/bulk',
      auth: 'write',
      tags,
      summary: 'Queue generate-and-save jobs for sources',
      description:
        `One job per source (repeated ids once), from the source's extracted paragraphs. ${JOB_BEHAVIOUR} ` +
        "Each job sets its source's `linkedKnowledgeId`, `linkedOperation` and `linkedReason`, and clears " +
        'its `changed` flag: the knowledge is in step with the content again. Jobs stand alone: a source ' +
        'that is not in the workspace gets a job that is FAILED at once, one whose ingestion failed or has ' +
        'not completed fails with that reason, and the others run. 404 when `botId` names no agent.',
      body: bulkBodySchema,
      response: bulkResponseSchema,
      errors: [404],
      handler: ({ ctx, body }) => queueBulkGeneration(ctx, body),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/knowledge/public/jobs/status',
      auth: 'read',
      tags,
      summary: 'Status of knowledge-generation jobs',
      description:
        'The jobs in the order asked (repeated ids once): `jobStatus` PENDING, IN_PROGRESS, COMPLETED or FAILED ' +
        '(with `error`), the decision (`linkedOperation`, `linkedReason`), `hcArticleId`, and the tokens the ' +
        'model used. 404 naming the first id that is not a knowledge job of the workspace.',
      body: jobStatusBodySchema,
      response: jobStatusResponseSchema,
      errors: [404],
      handler: async ({ ctx, body }) => ({ jobs: (await getJobStatuses(ctx, body.jobIds)).map(presentJob) }),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/knowledge/public/tree/initialize',
      auth: 'write',
      tags,
      summary: 'Generate a knowledge-tree template from a description',
      description:
        'Designs folders and starter articles from `initPrompt` (an outline of headings and lists is followed ' +
        'as given; prose is read for its topics) and answers the tree file as a CSV download: the format ' +
        '`tree/persist` imports unchanged (docs/knowledge.md). Articles are drafts (`is_draft` true). Nothing ' +
        'is saved. 400 when no topic can be found; 502 when the configured model fails.',
      body: treeInitializeBodySchema,
      produces: 'text/csv',
      response: z.string().meta({ description: 'the tree file (CSV with a header row)' }),
      errors: [502],
      handler: async ({ ctx, body, reply }) => {
        const file = await initializeTree(ctx, body.initPrompt);
        reply.type('text/csv; charset=utf-8');
        reply.header('content-disposition', 'attachment; filename="knowledge-tree.csv"');
        return Buffer.from(file) as unknown as string;
      },
    }),
  ];
}
