import { z } from 'zod';
import { FLOW_ESCALATION_REASONS } from '../../evaluators/flow.js';
import { uuidSchema } from '../../http/schemas.js';

/** Test cases and runs (docs/testing.md). */

export const LIMITS = {
  casesPerAgent: 2_000,
  turnsPerCase: 20,
  turnChars: 4_000,
  nameChars: 200,
  tagsPerCase: 20,
  tagChars: 50,
  phrasesPerExpectation: 20,
  phraseChars: 200,
  idsPerExpectation: 50,
  casesPerRun: 1_000,
  maxK: 10,
  runsPerAgentListed: 100,
} as const;

export const RUN_STATES = ['queued', 'running', 'completed', 'failed'] as const;
export type RunState = (typeof RUN_STATES)[number];
export const RUN_TRIGGERS = ['api', 'schedule', 'gate'] as const;
export const REPLY_TYPES = ['message', 'internal_comment', 'none'] as const;

const phrases = z
  .array(z.string().trim().min(1).max(LIMITS.phraseChars))
  .min(1)
  .max(LIMITS.phrasesPerExpectation);
/** A phrase or a list of them; stored as a list. */
const phraseList = z.union([z.string().trim().min(1).max(LIMITS.phraseChars), phrases]).transform((p) => (typeof p === 'string' ? [p] : p));
const idList = z.array(uuidSchema).min(1).max(LIMITS.idsPerExpectation);

export const expectationSchema = z
  .strictObject({
    answers: z.boolean().optional().describe('true: an answer that cites an article (no hand-over); false: a hand-over'),
    handoverReason: z.enum(FLOW_ESCALATION_REASONS).optional().describe('the hand-over happens for this reason'),
    citesArticleIds: idList.optional().describe('the reply cites at least one of these articles'),
    citesFolderIds: idList.optional().describe('the reply cites an article of one of these folders, or of a folder inside one'),
    ruleId: uuidSchema.optional().describe('the rule whose flow ran for the message'),
    contains: phraseList.optional().describe('phrases the reply says, each; case-insensitive, spacing and hyphens ignored ("45 days" matches "45-day")'),
    notContains: phraseList.optional().describe('phrases the reply does not say; case-insensitive'),
    tags: z.array(z.string().trim().min(1).max(100)).min(1).max(LIMITS.idsPerExpectation).optional().describe('tags applied to the reply, each (tag ids or names)'),
    replyType: z.enum(REPLY_TYPES).optional().describe('`message`, `internal_comment`, or `none` (the agent stays silent)'),
    maxLatencyMs: z.int().min(1).max(600_000).optional().describe('the reply comes within this many milliseconds'),
  })
  .meta({ id: 'TestExpectation' });
export type ExpectationBody = z.output<typeof expectationSchema>;

/** An expectation as stored and answered (phrases always lists). */
const storedExpectationSchema = z
  .object({
    answers: z.boolean().optional(),
    handoverReason: z.enum(FLOW_ESCALATION_REASONS).optional(),
    citesArticleIds: z.array(z.uuid()).optional(),
    citesFolderIds: z.array(z.uuid()).optional(),
    ruleId: z.uuid().optional(),
    contains: z.array(z.string()).optional(),
    notContains: z.array(z.string()).optional(),
    tags: z.array(z.string()).optional(),
    replyType: z.enum(REPLY_TYPES).optional(),
    maxLatencyMs: z.int().optional(),
  })
  .meta({ id: 'StoredTestExpectation' });

const storedTurnSchema = z
  .object({ content: z.string(), attributes: z.record(z.string(), z.unknown()).optional(), expect: storedExpectationSchema.optional() })
  .meta({ id: 'StoredTestTurn' });

const turnSchema = z
  .strictObject({
    content: z.string().trim().min(1).max(LIMITS.turnChars).describe("the customer's message"),
    attributes: z.record(z.string(), z.unknown()).optional().describe("the customer's attributes sent with the message (metadata.user_attributes)"),
    expect: expectationSchema.optional().describe("checked on this turn's reply"),
  })
  .meta({ id: 'TestTurn' });

const tagsField = z
  .array(z.string().trim().min(1).max(LIMITS.tagChars))
  .max(LIMITS.tagsPerCase)
  .transform((tags) => [...new Set(tags)]);

const caseFields = {
  name: z.string().trim().min(1).max(LIMITS.nameChars),
  turns: z.array(turnSchema).min(1).max(LIMITS.turnsPerCase).describe('the customer messages, in order, sent in one conversation'),
  expect: expectationSchema.describe("checked on the reply to the last turn"),
  tags: tagsField.describe('labels to pick cases by in a run'),
  liveActions: z.boolean().describe("call the agent's actions for real (default false: dry-run, as the rule test route does)"),
};

const example = {
  name: 'Refund window',
  turns: [{ content: 'how long do i have to send something back?' }],
  expect: { answers: true, contains: '30 days' },
  tags: ['returns'],
};

export const createCaseBodySchema = z
  .strictObject({
    name: caseFields.name,
    turns: caseFields.turns,
    expect: caseFields.expect.default({}),
    tags: caseFields.tags.default([]),
    liveActions: caseFields.liveActions.default(false),
  })
  .meta({ examples: [example] });
export type CreateCaseBody = z.output<typeof createCaseBodySchema>;

export const updateCaseBodySchema = z
  .strictObject({
    name: caseFields.name.optional(),
    turns: caseFields.turns.optional(),
    expect: caseFields.expect.optional(),
    tags: caseFields.tags.optional(),
    liveActions: caseFields.liveActions.optional(),
  })
  .meta({ examples: [{ expect: { answers: true, contains: ['45 days'] } }] });
export type UpdateCaseBody = z.output<typeof updateCaseBodySchema>;

export const testCaseSchema = z
  .object({
    id: z.uuid(),
    botId: z.uuid(),
    name: z.string(),
    turns: z.array(storedTurnSchema),
    expect: storedExpectationSchema,
    tags: z.array(z.string()),
    liveActions: z.boolean(),
    fromInteractionId: z.uuid().nullable().describe('the conversation the case was made from'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'TestCase' });

export const fromConversationBodySchema = z
  .strictObject({
    name: caseFields.name.optional().describe("default: the conversation's first message"),
    tags: caseFields.tags.optional(),
  })
  .nullish()
  .describe('optional');

export const createdFromConversationSchema = testCaseSchema
  .extend({
    warnings: z
      .array(z.object({ turn: z.int(), message: z.string() }))
      .describe('what a reviewer marked that did not become an expectation, and why'),
  })
  .meta({ id: 'TestCaseFromConversation' });

export const listCasesQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(50),
    cursor: uuidSchema.optional().describe('a case id: the page continues after (next) or before (previous) it'),
    direction: z.enum(['next', 'previous']).default('next').describe('`next` goes to older cases, `previous` back to newer ones'),
    tag: z.string().trim().min(1).max(LIMITS.tagChars).optional().describe('only cases with this tag'),
  })
  .strict();
export type ListCasesQuery = z.output<typeof listCasesQuerySchema>;

export const caseListSchema = z
  .object({ testCases: z.array(testCaseSchema), hasMore: z.boolean(), nextCursor: z.uuid().nullable(), prevCursor: z.uuid().nullable() })
  .meta({ id: 'TestCaseList' });

export const caseParamsSchema = z.object({ caseId: uuidSchema });
export const runParamsSchema = z.object({ id: uuidSchema });

const draftIds = z.array(uuidSchema).max(50);
export const overlaySchema = z
  .union([
    z.strictObject({ iterationId: uuidSchema.describe("a Refine with AI iteration: its drafts") }),
    z.strictObject({
      promptDraftIds: draftIds.default([]).describe("prompt drafts of the run's agent (at most one counts: the last)"),
      articleDraftIds: draftIds.default([]).describe('article drafts, searched as if live (a draft of a live article in its place)'),
      ruleDraftIds: draftIds.default([]).describe('draft rules, as if published for the agent'),
    }),
  ])
  .describe('answer with these drafts instead of what is live; nothing live changes')
  .meta({ id: 'TestRunOverlay' });

export const createRunBodySchema = z
  .strictObject({
    caseIds: z.array(uuidSchema).min(1).max(LIMITS.casesPerRun).optional().describe("these cases (each of the run's agent); default: every case of the agent"),
    tags: z.array(z.string().trim().min(1).max(LIMITS.tagChars)).min(1).max(LIMITS.tagsPerCase).optional().describe('the cases with any of these tags'),
    k: z.int().min(1).max(LIMITS.maxK).default(1).describe('runs of each case; `passK` says whether all k passed'),
    overlay: overlaySchema.optional(),
  })
  .refine((b) => !(b.caseIds && b.tags), { message: 'give caseIds or tags, not both', path: ['tags'] })
  .nullish()
  .meta({ examples: [{ k: 3 }, { tags: ['returns'], k: 1, overlay: { articleDraftIds: ['9b6c4d2e-0f3a-4b8e-9a51-2c7d8e6f1a30'] } }] });
export type CreateRunBody = z.output<typeof createRunBodySchema>;

const failureSchema = z
  .object({
    run: z.int().describe('which of the k runs (1-based)'),
    turn: z.int().describe('the turn (1-based) whose reply failed it'),
    expectation: z.string().describe('the expectation as the case states it, e.g. `contains "45 days"`'),
    actual: z.string().describe('what the reply did instead'),
    reply: z.string().nullable(),
    eventId: z.uuid().nullable().describe("the reply's event, in the run's conversation (source `testsuite`)"),
  })
  .meta({ id: 'TestFailure' });

const caseResultSchema = z
  .object({
    caseId: z.uuid(),
    name: z.string(),
    passes: z.int().describe('how many of the k runs met every expectation'),
    k: z.int(),
    passK: z.boolean().describe('all k runs passed'),
    regressed: z.boolean().describe('the case passed every run of the previous comparable run (same agent, no drafts) and does not now'),
    interactionIds: z.array(z.uuid()).describe("the conversations of the case's runs"),
    failures: z.array(failureSchema),
  })
  .meta({ id: 'TestCaseResult' });

export const testRunSchema = z
  .object({
    id: z.uuid(),
    botId: z.uuid(),
    state: z.enum(RUN_STATES),
    trigger: z.enum(RUN_TRIGGERS).describe('`api` (the route), `schedule` (the agent\'s test schedule) or `gate` (a publish)'),
    k: z.int(),
    overlay: z
      .object({
        iterationId: z.uuid().optional(),
        promptDraftIds: z.array(z.uuid()).optional(),
        articleDraftIds: z.array(z.uuid()).optional(),
        ruleDraftIds: z.array(z.uuid()).optional(),
        ruleVersionDraftIds: z.array(z.uuid()).optional(),
      })
      .nullable(),
    gate: z
      .object({
        kind: z.enum(['prompt_draft', 'article_draft', 'rule_draft', 'fix_iteration']),
        targetId: z.uuid(),
        regressedCaseIds: z.array(z.uuid()),
        blocked: z.boolean(),
        forced: z.boolean(),
      })
      .nullable()
      .describe('for a gate run: the publish it checked, the cases it would break, and whether it was blocked or forced'),
    deterministic: z.boolean().describe('the built-in engine answered: its k runs are identical by construction, so one ran for all'),
    cases: z.array(caseResultSchema),
    caseCount: z.int(),
    completedCases: z.int(),
    passRate: z.number().nullable().describe('pass@1: the share of case runs that passed'),
    passKRate: z.number().nullable().describe('pass^k: the share of cases that passed all k runs'),
    previousRunId: z.uuid().nullable(),
    regressedCaseIds: z.array(z.uuid()),
    error: z.string().nullable(),
    createdAt: z.iso.datetime(),
    startedAt: z.iso.datetime().nullable(),
    completedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'TestRun' });

export const runSummarySchema = testRunSchema.omit({ cases: true }).meta({ id: 'TestRunSummary' });

export const listRunsQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: uuidSchema.optional().describe('a run id: the page continues after (next) or before (previous) it'),
    direction: z.enum(['next', 'previous']).default('next'),
    trigger: z.enum(RUN_TRIGGERS).optional(),
  })
  .strict();
export type ListRunsQuery = z.output<typeof listRunsQuerySchema>;

export const runListSchema = z
  .object({ testRuns: z.array(runSummarySchema), hasMore: z.boolean(), nextCursor: z.uuid().nullable(), prevCursor: z.uuid().nullable() })
  .meta({ id: 'TestRunList' });

export const scheduleBodySchema = z
  .strictObject({
    cron: z.string().trim().min(9).max(100).describe('a five-field cron expression, e.g. `0 6 * * *` (every day at 06:00)'),
    timezone: z.string().trim().min(1).max(64).default('UTC').describe('an IANA time zone the cron expression is read in'),
    k: z.int().min(1).max(LIMITS.maxK).default(1),
    tags: z.array(z.string().trim().min(1).max(LIMITS.tagChars)).max(LIMITS.tagsPerCase).default([]).describe('only cases with any of these tags (default: all)'),
  })
  .meta({ examples: [{ cron: '0 6 * * *', timezone: 'Europe/Amsterdam', k: 1 }] });
export type ScheduleBody = z.output<typeof scheduleBodySchema>;

export const testScheduleSchema = z
  .object({
    botId: z.uuid(),
    cron: z.string(),
    timezone: z.string(),
    k: z.int(),
    tags: z.array(z.string()),
    nextRunAt: z.iso.datetime().nullable(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'TestSchedule' });

export const deletedSchema = z.object({ success: z.literal(true) });
