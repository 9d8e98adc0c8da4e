import { iso } from '../../http/schemas.js';
import type { CaseSummary } from './runs.service.js';
import type { CaseRow, RunRow } from './testing.repository.js';
import type { RunState } from './testing.schemas.js';

export function presentCase(row: CaseRow) {
  return {
    id: row.id,
    botId: row.agentId,
    name: row.name,
    turns: row.turns,
    expect: row.expect,
    tags: row.tags,
    liveActions: row.liveActions,
    fromInteractionId: row.fromConversationId,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

const rate = (value: string | null) => (value === null ? null : Number(value));

/** A run without its per-case results (lists), with how many cases have all their runs done. */
export function presentRunSummary(run: RunRow, completedCases: number) {
  return {
    id: run.id,
    botId: run.agentId,
    state: run.state as RunState,
    trigger: run.trigger as 'api' | 'schedule' | 'gate',
    k: run.k,
    overlay: run.overlay ?? null,
    gate: run.gate ?? null,
    deterministic: run.deterministic,
    caseCount: run.caseIds.length,
    completedCases,
    passRate: rate(run.passRate),
    passKRate: rate(run.passKRate),
    previousRunId: run.previousRunId,
    regressedCaseIds: run.regressedCaseIds,
    error: run.error,
    createdAt: iso(run.createdAt),
    startedAt: run.startedAt ? iso(run.startedAt) : null,
    completedAt: run.completedAt ? iso(run.completedAt) : null,
  };
}

export function presentRun(run: RunRow, cases: readonly CaseSummary[], completedCases: number) {
  const regressed = new Set(run.regressedCaseIds);
  return {
    ...presentRunSummary(run, completedCases),
    cases: cases.map((c) => ({
      caseId: c.caseId,
      name: c.name,
      passes: c.passes,
      k: c.k,
      passK: c.passK,
      regressed: regressed.has(c.caseId),
      interactionIds: c.interactionIds,
      failures: c.failures,
    })),
  };
}
