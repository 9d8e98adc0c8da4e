import { pageCursors } from '../../http/keyset.js';
import { defineRoute } from '../../http/route.js';
import { idParamsSchema } from '../../http/schemas.js';
import { caseFromConversation, createCase, deleteCase, getCase, listCases, updateCase } from './cases.service.js';
import { createRun, getRun, listRuns, resultCounts } from './runs.service.js';
import { deleteSchedule, getSchedule, putSchedule } from './schedules.service.js';
import { presentCase, presentRun, presentRunSummary } from './testing.presenter.js';
import {
  caseListSchema,
  caseParamsSchema,
  createCaseBodySchema,
  createdFromConversationSchema,
  createRunBodySchema,
  deletedSchema,
  fromConversationBodySchema,
  listCasesQuerySchema,
  listRunsQuerySchema,
  runListSchema,
  runParamsSchema,
  scheduleBodySchema,
  testCaseSchema,
  testRunSchema,
  testScheduleSchema,
  updateCaseBodySchema,
} from './testing.schemas.js';

const tags = ['Testing'];
const AGENT_404 = ' 404 for an unknown agent (or one of another workspace).';

export function testingRoutes() {
  return [
    defineRoute({
      method: 'POST',
      url: '/v2/bots/:id/test-cases/public',
      auth: 'write',
      tags,
      summary: 'Create a test case',
      description:
        'A conversation to replay and what the replies must meet: `turns` (customer messages sent in order in one ' +
        "conversation, each with optional `attributes` and its own `expect`), and `expect`, checked on the last turn's reply. " +
        'Every expectation is optional: `answers`, `handoverReason`, `citesArticleIds`, `citesFolderIds` (any of), `ruleId`, ' +
        '`contains` / `notContains` (case-insensitive phrases), `tags`, `replyType`, `maxLatencyMs`. 400 naming the field.' +
        AGENT_404,
      params: idParamsSchema,
      body: createCaseBodySchema,
      status: 201,
      errors: [404],
      response: testCaseSchema,
      handler: async ({ ctx, params, body }) => presentCase(await createCase(ctx, params.id, body)),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/bots/:id/test-cases/public',
      auth: 'read',
      tags,
      summary: "List an agent's test cases",
      description: 'Newest first, `limit` at a time (default 50, at most 100); `tag` keeps the cases with that tag. Pages: pass `nextCursor` as `cursor` for older ones, `prevCursor` with `direction=previous` for newer ones.' + AGENT_404,
      params: idParamsSchema,
      querystring: listCasesQuerySchema,
      errors: [404],
      response: caseListSchema,
      handler: async ({ ctx, params, query }) => {
        const page = await listCases(ctx, params.id, query);
        return { testCases: page.rows.map(presentCase), hasMore: page.hasMore, ...pageCursors(page.rows, { hasMore: page.hasMore, direction: query.direction, fromCursor: Boolean(query.cursor) }) };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/test-cases/:caseId/public',
      auth: 'read',
      tags,
      summary: 'Get a test case',
      description: '404 when unknown.',
      params: caseParamsSchema,
      errors: [404],
      response: testCaseSchema,
      handler: async ({ ctx, params }) => presentCase(await getCase(ctx, params.caseId)),
    }),
    defineRoute({
      method: 'PATCH',
      url: '/v2/test-cases/:caseId/public',
      auth: 'write',
      tags,
      summary: 'Update a test case',
      description: 'Replaces the fields given (`expect` and `turns` whole). 404 when unknown.',
      params: caseParamsSchema,
      body: updateCaseBodySchema,
      errors: [404],
      response: testCaseSchema,
      handler: async ({ ctx, params, body }) => presentCase(await updateCase(ctx, params.caseId, body)),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v2/test-cases/:caseId/public',
      auth: 'write',
      tags,
      summary: 'Delete a test case',
      description: "`{ success: true }`. Runs that ran it keep its results under its name. 404 when unknown.",
      params: caseParamsSchema,
      errors: [404],
      response: deletedSchema,
      handler: async ({ ctx, params }) => deleteCase(ctx, params.caseId),
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/hc-interactions/:id/test-case/public',
      auth: 'write',
      tags,
      summary: 'Make a test case from a conversation',
      description:
        "The conversation's customer messages become the turns, and what a reviewer marked the expectations of the turn it " +
        'was marked on: a reply rated resolved (or approved) expects an answer citing one of the articles it cited; a reply ' +
        "whose Refine with AI fix was published expects the facts the fix's answer added (numbers with units, amounts, " +
        'addresses, links). `warnings` says what did not become an expectation and why. 404 for an unknown conversation.',
      params: idParamsSchema,
      body: fromConversationBodySchema,
      status: 201,
      errors: [404],
      response: createdFromConversationSchema,
      handler: async ({ ctx, params, body }) => {
        const { row, warnings } = await caseFromConversation(ctx, params.id, body);
        return { ...presentCase(row), warnings };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/v2/bots/:id/test-runs/public',
      auth: 'write',
      tags,
      summary: 'Run test cases',
      description:
        "Queues a run (a job) of the agent's cases (`caseIds`, or `tags`, or all), each `k` times (1 to 10), and answers it " +
        'queued; poll `GET /v2/test-runs/{id}/public`. Each run of a case is a new conversation of source `testsuite` through ' +
        "the same answer pipeline as customers' messages, with actions dry-run unless the case has `liveActions`. `overlay` " +
        'answers with drafts instead of what is live (`{ iterationId }`, or `{ promptDraftIds, articleDraftIds, ruleDraftIds }`); ' +
        'nothing live changes. 400 naming a case or draft that does not fit.' +
        AGENT_404,
      params: idParamsSchema,
      body: createRunBodySchema,
      status: 202,
      errors: [404],
      response: testRunSchema,
      handler: async ({ ctx, params, body }) => presentRun(await createRun(ctx, params.id, body), [], 0),
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/test-runs/:id/public',
      auth: 'read',
      tags,
      summary: 'Get a test run',
      description:
        'The run with each case: `passes` of `k`, `passK` (all k passed), `regressed`, its conversations and failures ' +
        '(`{ run, turn, expectation, actual, reply, eventId }`); `passRate` is pass@1 and `passKRate` pass^k. 404 when unknown.',
      params: runParamsSchema,
      errors: [404],
      response: testRunSchema,
      handler: async ({ ctx, params }) => {
        const { run, cases, completedCases } = await getRun(ctx, params.id);
        return presentRun(run, cases, completedCases);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/bots/:id/test-runs/public',
      auth: 'read',
      tags,
      summary: "An agent's test runs",
      description: 'Newest first, without per-case results; `trigger` keeps runs of the API, the schedule or a publish gate. Cursor pages as for test cases.' + AGENT_404,
      params: idParamsSchema,
      querystring: listRunsQuerySchema,
      errors: [404],
      response: runListSchema,
      handler: async ({ ctx, params, query }) => {
        const page = await listRuns(ctx, params.id, query);
        const counts = await resultCounts(ctx, page.rows.map((r) => r.id));
        return {
          testRuns: page.rows.map((r) => presentRunSummary(r, Math.min(r.caseIds.length, Math.floor((counts.get(r.id) ?? 0) / (r.deterministic ? 1 : r.k))))),
          hasMore: page.hasMore,
          ...pageCursors(page.rows, { hasMore: page.hasMore, direction: query.direction, fromCursor: Boolean(query.cursor) }),
        };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v2/bots/:id/test-schedule/public',
      auth: 'read',
      tags,
      summary: "An agent's test schedule",
      description: 'The schedule of the agent\'s daily (or other) test run, or JSON `null` when it has none.' + AGENT_404,
      params: idParamsSchema,
      errors: [404],
      response: testScheduleSchema.nullable(),
      handler: async ({ ctx, params }) => getSchedule(ctx, params.id),
    }),
    defineRoute({
      method: 'PUT',
      url: '/v2/bots/:id/test-schedule/public',
      auth: 'write',
      tags,
      summary: "Set an agent's test schedule",
      description:
        "Runs the agent's cases (or those with any of `tags`) `k` times on a five-field `cron` expression read in `timezone`, " +
        'as runs of trigger `schedule`; a case that passed in the previous run and fails now emits `testrun.regressed`. ' +
        '400 naming a cron expression or time zone that does not parse.' +
        AGENT_404,
      params: idParamsSchema,
      body: scheduleBodySchema,
      errors: [404],
      response: testScheduleSchema,
      handler: async ({ ctx, params, body }) => putSchedule(ctx, params.id, body),
    }),
    defineRoute({
      method: 'DELETE',
      url: '/v2/bots/:id/test-schedule/public',
      auth: 'write',
      tags,
      summary: "Remove an agent's test schedule",
      description: '`{ success: true }`; 404 when the agent has no schedule.' + AGENT_404,
      params: idParamsSchema,
      errors: [404],
      response: deletedSchema,
      handler: async ({ ctx, params }) => deleteSchedule(ctx, params.id),
    }),
  ];
}
