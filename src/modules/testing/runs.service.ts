import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { authorOf, emit, enqueueMany, inTransaction, type ProcessContext, type WorkspaceContext } from '../../context.js';
import type { TestFailure, TestRunOverlay } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import type { JobRecord } from '../../jobs/job.js';
import { requireAgent } from '../agents/index.js';
import { type AnswerOverlay, type EventRow, postEvent, readTrace } from '../conversations/index.js';
import { folderAncestry, getArticlesByIds } from '../knowledge/index.js';
import { listTagGroupsWithTags } from '../tags/index.js';
import { type ReplyFacts, unmetExpectations } from './expectations.js';
import { answerOverlay } from './overlay.service.js';
import {
  type CaseRow,
  casesByIds,
  countResults,
  findPreviousLiveRun,
  findRun,
  insertResult,
  insertRun,
  listResults,
  listRunsPage,
  moveRun,
  type NewRun,
  type ResultRow,
  type RunRow,
  selectCases,
  unscopedStaleRuns,
} from './testing.repository.js';
import type { CreateRunBody, ListRunsQuery } from './testing.schemas.js';
import { LIMITS } from './testing.schemas.js';

/**
 * Test runs (docs/testing.md): every picked case of an agent sent k times through the same
 * `postEvent` a customer's message goes through, each run in a new conversation of source
 * `testsuite` (left out of analytics, webhooks and the conversation list's default), with actions
 * dry-run unless the case says otherwise, and with a run's drafts overlaid. A run is a job
 * (`testing.run`); a publish's gate runs its cases in the request. Each case run's result is a row
 * written as it finishes, so a run whose worker died resumes where it stopped.
 */

type Ctx = WorkspaceContext;

/** Cases run at once within a run (each one's turns in order). */
const CASES_AT_ONCE = 4;

/** What one run of one case found. */
export interface CaseRunResult {
  passed: boolean;
  failures: TestFailure[];
  conversationId: string | null;
  latencyMs: number;
}

/** POST /v2/bots/{id}/test-runs/public: a queued run of the agent's cases. */
export async function createRun(ctx: Ctx, agentId: string, body: CreateRunBody): Promise<RunRow> {
  await requireAgent(ctx, agentId);
  const k = body?.k ?? 1;
  const cases = await pickCases(ctx, agentId, { caseIds: body?.caseIds, tags: body?.tags });
  const overlay = body?.overlay ? storedOverlay(body.overlay) : null;
  // Drafts are checked now, so a run asked with a wrong id is refused rather than failed later.
  if (overlay) await answerOverlay(ctx, agentId, overlay);
  return queueRun(ctx, agentId, cases, { k, trigger: 'api', overlay });
}

/** The cases a run picks: by ids (each of the agent: 400 naming one that is not), by tags, or all. */
export async function pickCases(ctx: Ctx, agentId: string, pick: { caseIds?: readonly string[] | undefined; tags?: readonly string[] | undefined }): Promise<CaseRow[]> {
  const cases = await selectCases(ctx.db, ctx.workspaceId, agentId, pick);
  if (pick.caseIds) {
    const found = new Set(cases.map((c) => c.id));
    const missing = pick.caseIds.find((id) => !found.has(id));
    if (missing) throw new AppError('bad_request', `caseIds: test case ${missing} is not a case of agent ${agentId}`);
  }
  if (cases.length === 0) throw new AppError('bad_request', pick.tags ? `tags: agent ${agentId} has no test case tagged ${pick.tags.join(' or ')}` : `agent ${agentId} has no test cases`);
  if (cases.length > LIMITS.casesPerRun) throw new AppError('bad_request', `a run takes at most ${LIMITS.casesPerRun} cases (${cases.length} picked): pick some by caseIds or tags`);
  return cases;
}

function storedOverlay(overlay: NonNullable<NonNullable<CreateRunBody>['overlay']>): TestRunOverlay {
  if ('iterationId' in overlay) return { iterationId: overlay.iterationId };
  return { promptDraftIds: overlay.promptDraftIds, articleDraftIds: overlay.articleDraftIds, ruleDraftIds: overlay.ruleDraftIds };
}

/** Stores a run and queues its job, in one transaction. */
export async function queueRun(ctx: Ctx, agentId: string, cases: readonly CaseRow[], options: Pick<NewRun, 'k' | 'trigger' | 'overlay' | 'gate'>): Promise<RunRow> {
  const id = randomUUID();
  return inTransaction(ctx, async (tx) => {
    const run = await insertRun(tx.db, ctx.workspaceId, newRun(ctx, id, agentId, cases, options));
    await enqueueMany(tx, 'testing.run', [{ id, payload: { workspaceId: ctx.workspaceId, runId: id } }]);
    return run;
  });
}

/** A run's row as it starts: queued, with the cases' names as they are now. */
export function newRun(ctx: Ctx, id: string, agentId: string, cases: readonly CaseRow[], options: Pick<NewRun, 'k' | 'trigger' | 'overlay' | 'gate'>): NewRun {
  const now = ctx.clock.now();
  return {
    id,
    agentId,
    state: 'queued',
    caseIds: cases.map((c) => c.id),
    caseNames: Object.fromEntries(cases.map((c) => [c.id, c.name])),
    deterministic: isDeterministic(ctx),
    createdAt: now,
    updatedAt: now,
    createdBy: authorOf(ctx),
    ...options,
  };
}

/** The built-in engine answers the same message the same way: one run of a case stands for all k. */
const isDeterministic = (ctx: ProcessContext) => ctx.llm.name === 'builtin';

/**
 * Runs (or resumes) a run: each case's missing runs, then the summary. Idempotent: results already
 * written are kept, so a worker that died mid-run loses at most the cases it was answering. For a
 * gate run, a case that fails with the drafts also runs once on what is live (attempt 0), which
 * says whether the drafts broke it.
 */
export async function executeRun(ctx: Ctx, runId: string): Promise<void> {
  const run = await findRun(ctx.db, ctx.workspaceId, runId);
  if (!run || run.state === 'completed' || run.state === 'failed') return;
  const started = ctx.clock.now();
  await moveRun(ctx.db, ctx.workspaceId, run.id, ['queued', 'running'], { state: 'running', startedAt: run.startedAt ?? started, updatedAt: started });
  try {
    const overlay = run.overlay ? await answerOverlay(ctx, run.agentId, run.overlay) : undefined;
    const cases = await casesByIds(ctx.db, ctx.workspaceId, run.caseIds);
    const written = await listResults(ctx.db, ctx.workspaceId, [run.id]);
    const done = new Set(written.map((r) => `${r.caseId}:${r.attempt}`));
    const attempts = run.deterministic ? 1 : run.k;
    const tagNames = await tagNamesById(ctx);
    const runCase = (testCase: CaseRow, drafts: AnswerOverlay | undefined, attempt: number) => runTestCase(ctx, run.agentId, testCase, drafts, attempt, tagNames);
    const work: (() => Promise<void>)[] = [];
    for (const testCase of cases) {
      work.push(async () => {
        // A resumed gate run counts the failures its earlier attempt wrote.
        let failedWithDrafts = written.some((r) => r.caseId === testCase.id && r.attempt > 0 && !r.passed);
        for (let attempt = 1; attempt <= attempts; attempt += 1) {
          if (done.has(`${testCase.id}:${attempt}`)) continue;
          const result = await runCase(testCase, overlay, attempt);
          await saveResult(ctx, run.id, testCase.id, attempt, result);
          failedWithDrafts ||= !result.passed;
        }
        if (!run.gate || !failedWithDrafts) return;
        // Failed with the drafts: once on what is live (attempt 0) and, when it passes there, once more
        // with the drafts (attempt -1), so that a passing failure (a stage timeout) does not block a publish.
        const live = written.find((r) => r.caseId === testCase.id && r.attempt === LIVE) ?? (await saveResult(ctx, run.id, testCase.id, LIVE, await runCase(testCase, undefined, LIVE)));
        if (live.passed && !done.has(`${testCase.id}:${CONFIRM}`)) {
          await saveResult(ctx, run.id, testCase.id, CONFIRM, await runCase(testCase, overlay, CONFIRM));
        }
      });
    }
    await inBatches(work, CASES_AT_ONCE, ctx.signal);
    await finishRun(ctx, run.id);
  } catch (error) {
    if (ctx.signal?.aborted) throw error;
    const now = ctx.clock.now();
    const message = error instanceof Error ? error.message : String(error);
    await moveRun(ctx.db, ctx.workspaceId, run.id, ['running'], { state: 'failed', error: message.slice(0, 2_000), completedAt: now, updatedAt: now });
  }
}

/** A gate run's attempt on what is live, and its second attempt with the drafts (`executeRun`). */
const LIVE = 0;
const CONFIRM = -1;

async function saveResult(ctx: Ctx, runId: string, caseId: string, attempt: number, result: CaseRunResult): Promise<{ passed: boolean }> {
  return inTransaction(ctx, async (tx) => {
    await insertResult(tx.db, ctx.workspaceId, { runId, caseId, attempt, passed: result.passed, failures: result.failures, conversationId: result.conversationId, latencyMs: result.latencyMs, createdAt: ctx.clock.now() });
    // The run stays fresh for the orphan sweep while it works.
    await moveRun(tx.db, ctx.workspaceId, runId, ['running'], { updatedAt: ctx.clock.now() });
    return { passed: result.passed };
  });
}

/** Runs `work` with at most `width` at once, in order of the list; stops starting new work once aborted. */
async function inBatches(work: readonly (() => Promise<void>)[], width: number, signal: AbortSignal | undefined): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < work.length) {
      signal?.throwIfAborted();
      const item = work[next++]!;
      await item();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, work.length) }, lane));
}

/** Tag names by id (lower case), read once a run: what a `tags` expectation names. */
async function tagNamesById(ctx: Ctx): Promise<Map<string, string>> {
  return new Map((await listTagGroupsWithTags(ctx)).flatMap((g) => g.tags.map((t) => [t.id, t.tagName.toLowerCase()] as const)));
}

/**
 * One run of a case: its turns in one new conversation (source `testsuite`), each reply checked
 * against the turn's expectations and the last one against the case's.
 */
async function runTestCase(ctx: Ctx, agentId: string, testCase: CaseRow, overlay: AnswerOverlay | undefined, attempt: number, tagNames: ReadonlyMap<string, string>): Promise<CaseRunResult> {
  const failures: TestFailure[] = [];
  let conversationId: string | null = null;
  let latencyMs = 0;
  for (const [index, turn] of testCase.turns.entries()) {
    const last = index === testCase.turns.length - 1;
    const expectations = [turn.expect, last ? testCase.expect : undefined].filter((e) => e && Object.keys(e).length > 0);
    const started = performance.now();
    let events: EventRow[];
    try {
      events = await postEvent(
        ctx,
        {
          content: turn.content,
          role: 'user',
          ...(conversationId ? { interactionId: conversationId } : { botId: agentId }),
          metadata: { user_attributes: turn.attributes ?? {}, channel: 'chat' },
        },
        { source: 'testsuite', ...(overlay ? { overlay } : {}), dryRunActions: !testCase.liveActions },
      );
    } catch (error) {
      if (ctx.signal?.aborted) throw error;
      const message = error instanceof Error ? error.message : String(error);
      failures.push({ run: attempt, turn: index + 1, expectation: 'the agent answers the message', actual: `the message failed: ${message}`, reply: null, eventId: null });
      break;
    }
    const took = Math.round(performance.now() - started);
    latencyMs += took;
    conversationId = events[0]?.conversationId ?? conversationId;
    const reply = events.find((e) => e.role !== 'user') ?? null;
    if (expectations.length === 0) continue;
    const needsFolders = expectations.some((e) => e!.citesFolderIds);
    const facts = await replyFacts(ctx, reply, took, tagNames, needsFolders);
    for (const expect of expectations) {
      for (const unmet of unmetExpectations(expect!, facts)) failures.push({ run: attempt, turn: index + 1, ...unmet, reply: reply?.message ?? null, eventId: reply?.id ?? null });
    }
  }
  return { passed: failures.length === 0, failures, conversationId, latencyMs };
}

/** The facts of an agent reply that expectations are checked on. */
async function replyFacts(ctx: Ctx, reply: EventRow | null, latencyMs: number, tagNames: ReadonlyMap<string, string>, needsFolders: boolean): Promise<ReplyFacts> {
  if (!reply) return { type: 'none', message: null, handover: false, escalationReason: null, citedArticleIds: [], citedFolderIds: [], ruleIds: [], tagIds: [], tagNames: [], latencyMs };
  const citedArticleIds = reply.usedArticles.map((a) => a.id);
  // The folders of the cited articles are read only for a case that expects some.
  const articles = needsFolders && citedArticleIds.length ? await getArticlesByIds(ctx, citedArticleIds) : [];
  const ancestry = await folderAncestry(ctx, [...new Set(articles.map((a) => a.parentFolderId))]);
  const trace = readTrace(reply.metadata);
  const ruleId = trace?.executedRules?.ruleId;
  return {
    type: reply.type === 'internal_comment' ? 'internal_comment' : 'message',
    message: reply.message,
    handover: reply.handover,
    escalationReason: reply.escalationReason,
    citedArticleIds,
    citedFolderIds: [...new Set([...ancestry.values()].flat())],
    ruleIds: ruleId ? [ruleId] : [],
    tagIds: reply.tagIds,
    tagNames: reply.tagIds.flatMap((id) => (tagNames.has(id) ? [tagNames.get(id)!] : [])),
    latencyMs,
  };
}

/** A case's results in a run. */
export interface CaseSummary {
  caseId: string;
  name: string;
  passes: number;
  k: number;
  passK: boolean;
  /**
   * Gate runs: the drafts break the case. It failed with them, passed on what is live (attempt 0),
   * and failed again with them (attempt -1).
   */
  brokenByDrafts: boolean;
  interactionIds: string[];
  failures: TestFailure[];
}

/** The per-case view of a run's results: passes out of k (one deterministic run counts for all k). */
export function summarize(run: RunRow, results: readonly ResultRow[]): CaseSummary[] {
  const byCase = new Map<string, ResultRow[]>();
  for (const r of results) byCase.set(r.caseId, [...(byCase.get(r.caseId) ?? []), r]);
  return run.caseIds.flatMap((caseId) => {
    const rows = byCase.get(caseId) ?? [];
    const withDrafts = rows.filter((r) => r.attempt > 0);
    if (withDrafts.length === 0) return [];
    const passedRuns = withDrafts.filter((r) => r.passed).length;
    const passes = run.deterministic ? (passedRuns > 0 ? run.k : 0) : passedRuns;
    const live = rows.find((r) => r.attempt === LIVE);
    const again = rows.find((r) => r.attempt === CONFIRM);
    return [
      {
        caseId,
        name: run.caseNames[caseId] ?? '',
        passes,
        k: run.k,
        passK: passes === run.k,
        brokenByDrafts: passedRuns < withDrafts.length && live?.passed === true && again?.passed === false,
        interactionIds: withDrafts.flatMap((r) => (r.conversationId ? [r.conversationId] : [])),
        failures: withDrafts.flatMap((r) => r.failures),
      },
    ];
  });
}

/** Rates of a run's cases: pass@1 (share of case runs that passed) and pass^k (share of cases that passed all k). */
export function rates(cases: readonly CaseSummary[], k: number): { passRate: number | null; passKRate: number | null } {
  if (cases.length === 0) return { passRate: null, passKRate: null };
  const round = (x: number) => Math.round(x * 10_000) / 10_000;
  return {
    passRate: round(cases.reduce((n, c) => n + c.passes, 0) / (cases.length * k)),
    passKRate: round(cases.filter((c) => c.passK).length / cases.length),
  };
}

/**
 * Ends a run: its rates, and for a run on what is live, the cases that passed all k runs of the
 * agent's previous live run and do not now (`testrun.regressed`). For a gate run, the cases that
 * pass live and fail with the drafts.
 */
async function finishRun(ctx: Ctx, runId: string): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const run = await findRun(tx.db, ctx.workspaceId, runId, { lock: true });
    if (run?.state !== 'running') return;
    const cases = summarize(run, await listResults(tx.db, ctx.workspaceId, [run.id]));
    const { passRate, passKRate } = rates(cases, run.k);
    const now = ctx.clock.now();
    let regressed: string[] = [];
    let previousRunId: string | null = null;
    if (run.gate) {
      regressed = cases.filter((c) => c.brokenByDrafts).map((c) => c.caseId);
    } else if (!run.overlay) {
      const previous = await findPreviousLiveRun(tx.db, ctx.workspaceId, run.agentId, run.id, run.createdAt);
      if (previous) {
        previousRunId = previous.id;
        const before = new Map(summarize(previous, await listResults(tx.db, ctx.workspaceId, [previous.id])).map((c) => [c.caseId, c.passK]));
        regressed = cases.filter((c) => before.get(c.caseId) === true && !c.passK).map((c) => c.caseId);
      }
    }
    await moveRun(tx.db, ctx.workspaceId, run.id, ['running'], {
      state: 'completed',
      passRate: passRate === null ? null : String(passRate),
      passKRate: passKRate === null ? null : String(passKRate),
      regressedCaseIds: regressed,
      previousRunId,
      ...(run.gate ? { gate: { ...run.gate, regressedCaseIds: regressed } } : {}),
      completedAt: now,
      updatedAt: now,
    });
    if (previousRunId && regressed.length) {
      await emit(tx, 'testrun.regressed', { runId: run.id, agentId: run.agentId, previousRunId, caseIds: regressed, trigger: run.trigger });
    }
  });
}

/** A run with its results, for presenting. 404 when unknown. */
export async function getRun(ctx: Ctx, id: string): Promise<{ run: RunRow; cases: CaseSummary[]; completedCases: number }> {
  const run = await findRun(ctx.db, ctx.workspaceId, id);
  if (!run) throw new AppError('not_found', 'test run not found');
  const results = await listResults(ctx.db, ctx.workspaceId, [run.id]);
  const cases = summarize(run, results);
  return { run, cases, completedCases: completedCases(run, results) };
}

/** Cases whose every run has a result. */
function completedCases(run: RunRow, results: readonly ResultRow[]): number {
  const need = run.deterministic ? 1 : run.k;
  const count = new Map<string, number>();
  for (const r of results) if (r.attempt > 0) count.set(r.caseId, (count.get(r.caseId) ?? 0) + 1);
  return [...count.values()].filter((n) => n >= need).length;
}

/** How many results each run has so far (lists show progress without reading every result). */
export async function resultCounts(ctx: Ctx, runIds: readonly string[]): Promise<Map<string, number>> {
  return countResults(ctx.db, ctx.workspaceId, runIds);
}

/** GET /v2/bots/{id}/test-runs/public: the agent's runs, newest first. */
export async function listRuns(ctx: Ctx, agentId: string, query: ListRunsQuery) {
  await requireAgent(ctx, agentId);
  const cursor = query.cursor ? await findRun(ctx.db, ctx.workspaceId, query.cursor) : undefined;
  if (query.cursor && cursor?.agentId !== agentId) throw new AppError('bad_request', `cursor: ${query.cursor} is not a test run of this agent`);
  return listRunsPage(ctx.db, ctx.workspaceId, agentId, { limit: query.limit, direction: query.direction, trigger: query.trigger, cursor });
}

/** Runs of every workspace queued or running since before `olderThan` (the orphan sweep; across workspaces by design). */
export async function staleRuns(ctx: ProcessContext, olderThan: Date): Promise<JobRecord[]> {
  return (await unscopedStaleRuns(ctx.db, olderThan)).map((r) => ({ workspaceId: r.workspaceId, id: r.id, jobId: r.id }));
}

/** Fails a run whose queue job is gone, when it is still unfinished and untouched since `olderThan`. */
export async function failStaleRun(ctx: ProcessContext, record: JobRecord, olderThan: Date): Promise<boolean> {
  const now = ctx.clock.now();
  const run = await findRun(ctx.db, record.workspaceId, record.id);
  if (!run || run.updatedAt >= olderThan) return false;
  return moveRun(ctx.db, record.workspaceId, record.id, ['queued', 'running'], {
    state: 'failed',
    error: 'the run stopped: its worker went away and it was not taken over',
    completedAt: now,
    updatedAt: now,
  });
}
