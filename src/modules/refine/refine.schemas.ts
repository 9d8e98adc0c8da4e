import { z } from 'zod';
import { CHANGE_TYPES, FAILURE_STAGES } from '../../ai/contracts/diagnose.js';
import { uuidSchema } from '../../http/schemas.js';

export const ITERATION_STATUSES = ['queued', 'generating_changes', 'replaying', 'ready', 'no_change', 'failed', 'published', 'superseded'] as const;
export type IterationStatus = (typeof ITERATION_STATUSES)[number];
/** An iteration in one of these is running: a new one for the same reply waits (400). */
export const RUNNING_STATUSES: readonly IterationStatus[] = ['queued', 'generating_changes', 'replaying'];
export const SESSION_STATUSES = ['active', 'published', 'closed'] as const;

export const FEEDBACK_LIMIT = 2000;

export const targetParamsSchema = z.object({ id: uuidSchema, eventId: uuidSchema });
export const sessionParamsSchema = z.object({ sessionId: uuidSchema });
export const iterationParamsSchema = z.object({ sessionId: uuidSchema, iterationId: uuidSchema });

export const createIterationBodySchema = z
  .strictObject({
    feedbackNote: z.string().trim().min(1).max(FEEDBACK_LIMIT).describe('what was wrong with the answer, as a support lead would write it (1 to 2000 characters)'),
  })
  .meta({ examples: [{ feedbackNote: 'It should have asked for the order number first.' }] });

export const closeSessionBodySchema = z
  .strictObject({ reason: z.string().trim().min(1).max(500).optional().describe('why the session is closed (kept as closedReason)') })
  .nullish();

export const createIterationResponseSchema = z.object({ sessionId: z.uuid(), iterationId: z.uuid(), backgroundJobId: z.uuid() });

const iso = z.iso.datetime();

export const answerSnapshotSchema = z
  .object({
    interactionId: z.uuid(),
    eventId: z.uuid(),
    originalEventId: z.uuid().nullable(),
    content: z.string().nullable(),
    role: z.string(),
    type: z.string(),
    createdAt: iso,
  })
  .meta({ id: 'AnswerSnapshot' });

export const rootCauseSchema = z
  .object({
    failureStage: z.string().describe(`where the answer went wrong: ${FAILURE_STAGES.join(', ')}`),
    failureMode: z.string().describe('how, for the stage (required_search_skipped, relevant_knowledge_not_available, incorrect_knowledge, ...)'),
    reasoning: z.string(),
    target: z
      .object({
        kind: z.enum(['prompt', 'kb_article', 'rule']),
        operation: z.enum(['create', 'update']).optional(),
        promptType: z.string().optional(),
        promptSectionIds: z.array(z.string()).optional(),
        articleId: z.uuid().optional(),
        articleFields: z.array(z.string()).optional(),
        ruleId: z.uuid().optional(),
      })
      .catchall(z.unknown()),
  })
  .meta({ id: 'FixRootCause' });

export const noteWarningSchema = z
  .object({
    fragment: z.string().describe('the words of the feedback note that were not understood'),
    message: z.string().describe('why, and what was done instead (usually: nothing was changed for this part)'),
  })
  .meta({ id: 'FixNoteWarning' });

export const fixChangeSchema = z
  .object({
    id: z.uuid(),
    companyId: z.uuid(),
    sessionId: z.uuid(),
    iterationId: z.uuid(),
    interactionId: z.uuid(),
    targetEventId: z.uuid(),
    rootCause: rootCauseSchema,
    changeType: z.enum(CHANGE_TYPES),
    draftPromptVersionId: z.uuid().nullable().describe('the prompt draft (GET /v2/bots/{botId}/hc-prompt/drafts/{id}/public)'),
    draftArticleId: z.uuid().nullable().describe('the article draft (GET /v2/hc-articles/{id}/public)'),
    draftRuleVersionId: z.uuid().nullable().describe('the rule draft: a proposed next version of the rule'),
    warnings: z.array(noteWarningSchema).describe('the parts of the note this change does not carry out, because they were not understood'),
    createdAt: iso,
  })
  .meta({ id: 'FixChange' });

export const fixIterationSchema = z
  .object({
    id: z.uuid(),
    companyId: z.uuid(),
    sessionId: z.uuid(),
    interactionId: z.uuid(),
    targetEventId: z.uuid(),
    previousIterationId: z.uuid().nullable(),
    backgroundJobId: z.uuid(),
    replayInteractionId: z.uuid().nullable(),
    replayEventId: z.uuid().nullable(),
    iterationNumber: z.number().int(),
    status: z.enum(ITERATION_STATUSES),
    feedbackNote: z.string(),
    summary: z.string().nullable(),
    confidence: z.enum(['high', 'medium', 'low']).nullable(),
    error: z.string().nullable(),
    warnings: z.array(noteWarningSchema).describe('the parts of the feedback note the diagnosis did not understand; an iteration that understood none of it ends no_change with a warning'),
    publishedAt: iso.nullable(),
    startedAt: iso.nullable(),
    completedAt: iso.nullable(),
    createdAt: iso,
    updatedAt: iso,
    oldAnswerSnapshot: answerSnapshotSchema.nullable(),
    newAnswerSnapshot: answerSnapshotSchema.nullable(),
    changes: z.array(fixChangeSchema),
    gateRun: z
      .object({
        runIds: z.array(z.uuid()).describe('the gate\'s test runs (GET /v2/test-runs/{id}/public), one per agent with test cases'),
        regressedCaseIds: z.array(z.uuid()).describe('cases that pass on what is live and fail with the drafts'),
        forced: z.boolean().describe('published with `force: true` despite them'),
      })
      .nullable()
      .describe('the test gate of a publish of this iteration (docs/testing.md): null until a publish ran it'),
  })
  .meta({ id: 'FixIteration' });

export const publishIterationBodySchema = z
  .strictObject({
    force: z.boolean().default(false).describe('publish even when the test gate finds cases the drafts break (recorded on the iteration)'),
  })
  .nullish()
  .describe('optional');

export const fixSessionSchema = z
  .object({
    id: z.uuid(),
    companyId: z.uuid(),
    interactionId: z.uuid(),
    targetEventId: z.uuid(),
    targetUserEventId: z.uuid().nullable(),
    botId: z.uuid(),
    status: z.enum(SESSION_STATUSES),
    publishedIterationId: z.uuid().nullable(),
    publishedAt: iso.nullable(),
    closedAt: iso.nullable(),
    closedReason: z.string().nullable(),
    createdAt: iso,
    updatedAt: iso,
    originalAnswerSnapshot: answerSnapshotSchema.nullable(),
    latestIteration: fixIterationSchema.nullable(),
    iterations: z.array(fixIterationSchema).describe('newest first (iterationNumber descending)'),
  })
  .meta({ id: 'FixReviewSession' });

export const activeSessionResponseSchema = fixSessionSchema.nullable();
