import type { AnswerSnapshot, RootCause } from '../../db/schema/index.js';
import { iso } from '../../http/schemas.js';
import type { ChangeRow, IterationRow, SessionRow } from './refine.repository.js';
import type { IterationStatus } from './refine.schemas.js';

const isoOrNull = (d: Date | null) => (d ? iso(d) : null);

/** The root cause as the wire shows it: the target's identifiers that apply, none set to null. */
function presentRootCause(rootCause: RootCause) {
  const target = Object.fromEntries(Object.entries(rootCause.target).filter(([, v]) => v !== null && v !== undefined)) as RootCause['target'];
  return { ...rootCause, target };
}

export function presentChange(row: ChangeRow) {
  return {
    id: row.id,
    companyId: row.workspaceId,
    sessionId: row.sessionId,
    iterationId: row.iterationId,
    interactionId: row.conversationId,
    targetEventId: row.targetEventId,
    rootCause: presentRootCause(row.rootCause),
    changeType: row.changeType as ChangeType,
    draftPromptVersionId: row.draftPromptVersionId,
    draftArticleId: row.draftArticleId,
    draftRuleVersionId: row.draftRuleVersionId,
    warnings: row.warnings,
    createdAt: iso(row.createdAt),
  };
}

type ChangeType = 'update_prompt' | 'update_rule' | 'create_article' | 'update_article';

export function presentIteration(row: IterationRow, changes: readonly ChangeRow[]) {
  return {
    id: row.id,
    companyId: row.workspaceId,
    sessionId: row.sessionId,
    interactionId: row.conversationId,
    targetEventId: row.targetEventId,
    previousIterationId: row.previousIterationId,
    backgroundJobId: row.backgroundJobId,
    replayInteractionId: row.replayConversationId,
    replayEventId: row.replayEventId,
    iterationNumber: row.iterationNumber,
    status: row.status as IterationStatus,
    feedbackNote: row.feedbackNote,
    summary: row.summary,
    confidence: row.confidence as 'high' | 'medium' | 'low' | null,
    error: row.error,
    warnings: row.warnings,
    publishedAt: isoOrNull(row.publishedAt),
    startedAt: isoOrNull(row.startedAt),
    completedAt: isoOrNull(row.completedAt),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    oldAnswerSnapshot: row.oldAnswerSnapshot as AnswerSnapshot | null,
    newAnswerSnapshot: row.newAnswerSnapshot as AnswerSnapshot | null,
    changes: changes.filter((c) => c.iterationId === row.id).map(presentChange),
    gateRun: row.gateRun ?? null,
  };
}

/** A session with its iterations, newest first; `latestIteration` repeats the first. */
export function presentSession(session: SessionRow, iterations: readonly IterationRow[], changes: readonly ChangeRow[]) {
  const presented = iterations.map((i) => presentIteration(i, changes));
  return {
    id: session.id,
    companyId: session.workspaceId,
    interactionId: session.conversationId,
    targetEventId: session.targetEventId,
    targetUserEventId: session.targetUserEventId,
    botId: session.agentId,
    status: session.status as 'active' | 'published' | 'closed',
    publishedIterationId: session.publishedIterationId,
    publishedAt: isoOrNull(session.publishedAt),
    closedAt: isoOrNull(session.closedAt),
    closedReason: session.closedReason,
    createdAt: iso(session.createdAt),
    updatedAt: iso(session.updatedAt),
    originalAnswerSnapshot: session.originalAnswerSnapshot as AnswerSnapshot | null,
    latestIteration: presented[0] ?? null,
    iterations: presented,
  };
}
