import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkspaceContext } from '../../context.js';
import type { TestRunGate, TestRunOverlay } from '../../db/schema/index.js';
import type { PublishRequest } from '../../events/events.js';
import { AppError } from '../../http/errors.js';
import { agentsAnsweringFrom, getArticlesByIds } from '../knowledge/index.js';
import { type CaseSummary, executeRun, getRun, newRun, queueRun } from './runs.service.js';
import { findRun, insertRun, moveRun, type RunRow, selectCases } from './testing.repository.js';

/**
 * The test gate of a publish (docs/testing.md). Before a prompt draft, an article draft, a draft
 * rule or a Refine with AI iteration goes live, the test cases of every agent it reaches run with
 * the drafts overlaid: in the request up to GATE_SYNC_CASES cases an agent, else as a `testing.run`
 * job the publish waits for. A case that fails with the drafts runs once more on what is live; one
 * that passes there is a regression, and regressions refuse the publish with 409 naming the cases
 * and the expectations they miss, unless the publish says `force` (recorded on the gate's runs and
 * in the request's outcome). An agent without test cases is not gated.
 */

/** Cases of one agent run in the publish request; more go to a job the request waits for. */
export const GATE_SYNC_CASES = 200;
/** How long a publish waits for a gate job before answering 503. */
const GATE_WAIT_MS = 10 * 60_000;
const POLL_MS = 250;
/** Cases named in a refusal's message; the run lists them all. */
const NAMED_CASES = 10;

export async function runGate(ctx: WorkspaceContext, request: PublishRequest): Promise<void> {
  const { drafts } = request;
  const articles = drafts.articleDraftIds.length ? await getArticlesByIds(ctx, drafts.articleDraftIds) : [];
  // A draft of a live article reaches the agents of the live article's folder, and of the draft's.
  const originals = await getArticlesByIds(ctx, articles.flatMap((a) => (a.originalArticleId ? [a.originalArticleId] : [])));
  const folders = [...new Set([...articles, ...originals].map((a) => a.parentFolderId))];
  const agents = [...new Set([...request.agentIds, ...(await agentsAnsweringFrom(ctx, folders))])].sort();
  const runs: { run: RunRow; cases: CaseSummary[] }[] = [];
  for (const agentId of agents) {
    const cases = await selectCases(ctx.db, ctx.workspaceId, agentId, {});
    if (cases.length === 0) continue;
    const overlay: TestRunOverlay = {
      promptDraftIds: drafts.promptDrafts.filter((d) => d.agentId === agentId).map((d) => d.draftId),
      articleDraftIds: drafts.articleDraftIds,
      ruleDraftIds: drafts.ruleDraftIds,
      ruleVersionDraftIds: drafts.ruleVersionDraftIds,
    };
    const gate: TestRunGate = { kind: request.change.kind, targetId: request.change.id, regressedCaseIds: [], forced: false, blocked: false };
    let runId: string;
    if (cases.length <= GATE_SYNC_CASES) {
      runId = randomUUID();
      await insertRun(ctx.db, ctx.workspaceId, newRun(ctx, runId, agentId, cases, { k: 1, trigger: 'gate', overlay, gate }));
      await executeRun(ctx, runId);
    } else {
      runId = (await queueRun(ctx, agentId, cases, { k: 1, trigger: 'gate', overlay, gate })).id;
      await waitForRun(ctx, runId);
    }
    const { run, cases: results } = await getRun(ctx, runId);
    request.outcome.runIds.push(run.id);
    if (run.state === 'failed') {
      await markGate(ctx, [run], { blocked: !request.force, forced: request.force });
      if (request.force) continue;
      throw new AppError('conflict', `the test gate could not run the test cases of agent ${agentId} with the drafts (test run ${run.id}): ${run.error ?? 'failed'}; publish with force: true to publish without it`);
    }
    request.outcome.regressedCaseIds.push(...run.regressedCaseIds);
    runs.push({ run, cases: results });
  }
  const broken = runs.filter((r) => r.run.regressedCaseIds.length > 0);
  if (broken.length === 0) return;
  if (request.force) {
    request.outcome.forced = true;
    await markGate(ctx, broken.map((r) => r.run), { blocked: false, forced: true });
    return;
  }
  await markGate(ctx, broken.map((r) => r.run), { blocked: true, forced: false });
  throw new AppError('conflict', refusal(broken));
}

/** "the drafts break 2 test cases that pass today: ...": each case with the first expectation it misses. */
function refusal(broken: readonly { run: RunRow; cases: CaseSummary[] }[]): string {
  const named = broken.flatMap(({ run, cases }) =>
    run.regressedCaseIds.map((id) => {
      const result = cases.find((c) => c.caseId === id);
      const first = result?.failures[0];
      return `"${run.caseNames[id] ?? id}" (${first ? `${first.expectation}: ${first.actual}` : 'failed'})`;
    }),
  );
  const runs = broken.map((b) => b.run.id).join(', ');
  const more = named.length > NAMED_CASES ? `, and ${named.length - NAMED_CASES} more` : '';
  return (
    `the drafts break ${named.length} test case${named.length === 1 ? '' : 's'} that pass${named.length === 1 ? 'es' : ''} today ` +
    `(test run${broken.length === 1 ? '' : 's'} ${runs}): ${named.slice(0, NAMED_CASES).join('; ')}${more}. ` +
    'Fix the drafts or the cases, or publish with force: true'
  );
}

async function markGate(ctx: WorkspaceContext, runs: readonly RunRow[], flags: { blocked: boolean; forced: boolean }): Promise<void> {
  for (const run of runs) {
    if (run.gate) await moveRun(ctx.db, ctx.workspaceId, run.id, [run.state], { gate: { ...run.gate, ...flags }, updatedAt: ctx.clock.now() });
  }
}

/** Waits for a queued gate run to end (the request's hang-up stops waiting). */
async function waitForRun(ctx: WorkspaceContext, runId: string): Promise<void> {
  const until = Date.now() + GATE_WAIT_MS;
  for (;;) {
    const run = await findRun(ctx.db, ctx.workspaceId, runId);
    if (!run || run.state === 'completed' || run.state === 'failed') return;
    if (Date.now() > until) {
      throw new AppError('service_unavailable', `the test gate's run ${runId} is still running after ${GATE_WAIT_MS / 60_000} minutes; publish again once it has completed`);
    }
    await sleep(POLL_MS, undefined, ctx.signal ? { signal: ctx.signal } : {});
  }
}
