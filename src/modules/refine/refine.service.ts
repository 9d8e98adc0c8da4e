import { randomUUID } from 'node:crypto';
import { authorOf, emit, enqueueMany, inTransaction, type WorkspaceContext } from '../../context.js';
import type { AnswerSnapshot } from '../../db/schema/index.js';
import type { GateOutcome, PublishDrafts, PublishRequest } from '../../events/events.js';
import { AppError } from '../../http/errors.js';
import { getPromptDraft, publishPromptDraft } from '../agents/index.js';
import { requireAnsweredTurn } from '../conversations/index.js';
import { getArticle, publishDraft as publishArticleDraft } from '../knowledge/index.js';
import { getRuleDraft, publishRuleDraft } from '../rules/index.js';
import { discardDrafts, snapshot } from './iterations.service.js';
import { presentSession } from './refine.presenter.js';
import {
  type ChangeRow,
  findActiveSession,
  findIteration,
  findSession,
  insertIteration,
  listChanges,
  listIterations,
  listPublishedSessions,
  lockActiveSession,
  moveIteration,
  type SessionRow,
  updateSession,
} from './refine.repository.js';
import { RUNNING_STATUSES } from './refine.schemas.js';

/**
 * Refine with AI (docs/refine.md): a support lead's feedback on one agent reply becomes an
 * iteration, a background job that diagnoses the reply, proposes the fix as drafts (prompt, article
 * or rule), and replays the customer's message with the drafts overlaid in a new conversation of
 * source `replay`. Nothing goes live until an iteration is published; closing a session discards
 * the drafts of its unpublished iterations.
 */

type Ctx = WorkspaceContext;

/** POST .../sessions/iterations/public: the reply's active session (made when none) and a queued iteration. */
export async function createIteration(ctx: Ctx, conversationId: string, eventId: string, feedbackNote: string) {
  const turn = await requireAnsweredTurn(ctx, conversationId, eventId);
  const id = randomUUID();
  const now = ctx.clock.now();
  return inTransaction(ctx, async (tx) => {
    const session = await lockActiveSession(tx.db, ctx.workspaceId, {
      conversationId: turn.conversation.id,
      targetEventId: turn.event.id,
      targetUserEventId: turn.userEvent.id,
      agentId: turn.conversation.agentId,
      originalAnswerSnapshot: snapshot(turn.conversation.id, turn.event),
      createdAt: now,
      updatedAt: now,
      createdBy: authorOf(ctx),
    });
    const iterations = await listIterations(tx.db, ctx.workspaceId, session.id);
    if (iterations.some((i) => RUNNING_STATUSES.includes(i.status as never))) {
      throw new AppError('bad_request', 'a fix iteration is already running for this response; wait until it is ready, no_change or failed');
    }
    const previous = iterations.find((i) => i.status === 'ready') ?? null;
    await insertIteration(tx.db, ctx.workspaceId, {
      id,
      sessionId: session.id,
      conversationId: turn.conversation.id,
      targetEventId: turn.event.id,
      previousIterationId: previous?.id ?? null,
      backgroundJobId: id,
      iterationNumber: (iterations[0]?.iterationNumber ?? 0) + 1,
      status: 'queued',
      feedbackNote,
      oldAnswerSnapshot: previous?.newAnswerSnapshot ?? session.originalAnswerSnapshot,
      createdAt: now,
      updatedAt: now,
      createdBy: authorOf(ctx),
    });
    await updateSession(tx.db, ctx.workspaceId, session.id, { updatedAt: now });
    await enqueueMany(tx, 'refine.iterate', [{ id, payload: { workspaceId: ctx.workspaceId, iterationId: id } }]);
    return { sessionId: session.id, iterationId: id, backgroundJobId: id };
  });
}

async function sessionView(ctx: Ctx, session: SessionRow) {
  const iterations = await listIterations(ctx.db, ctx.workspaceId, session.id);
  const changes = await listChanges(ctx.db, ctx.workspaceId, iterations.map((i) => i.id));
  return presentSession(session, iterations, changes);
}

/** GET .../session/public: the reply's active session, or null. */
export async function getActiveSession(ctx: Ctx, conversationId: string, eventId: string) {
  await requireAnsweredTurn(ctx, conversationId, eventId);
  const session = await findActiveSession(ctx.db, ctx.workspaceId, eventId);
  return session ? sessionView(ctx, session) : null;
}

/** GET /v2/fix-review/sessions/{id}/public: a session of any status. */
export async function getSession(ctx: Ctx, sessionId: string) {
  return sessionView(ctx, await requireSession(ctx, sessionId));
}

async function requireSession(ctx: Ctx, id: string, lock = false): Promise<SessionRow> {
  const session = await findSession(ctx.db, ctx.workspaceId, id, { lock });
  if (!session) throw new AppError('not_found', 'fix-review session not found');
  return session;
}

function requireActive(session: SessionRow): void {
  if (session.status !== 'active') throw new AppError('bad_request', `the session is ${session.status}: only an active session can change`);
}

/** The drafts of an iteration, by kind, with the agent of its session (a test run's overlay). 404 when unknown. */
export async function iterationDraftIds(ctx: Ctx, iterationId: string): Promise<{ agentId: string; status: string } & PublishDrafts> {
  const iteration = await findIteration(ctx.db, ctx.workspaceId, iterationId);
  if (!iteration) throw new AppError('not_found', 'fix iteration not found');
  const session = await requireSession(ctx, iteration.sessionId);
  return { agentId: session.agentId, status: iteration.status, ...draftIdsOf(session, await listChanges(ctx.db, ctx.workspaceId, [iteration.id])) };
}

function draftIdsOf(session: SessionRow, changes: readonly ChangeRow[]): PublishDrafts {
  const ids = (pick: (c: ChangeRow) => string | null) => [...new Set(changes.map(pick).filter((id): id is string => id !== null))];
  return {
    promptDrafts: ids((c) => c.draftPromptVersionId).map((draftId) => ({ agentId: session.agentId, draftId })),
    articleDraftIds: ids((c) => c.draftArticleId),
    ruleDraftIds: [],
    ruleVersionDraftIds: ids((c) => c.draftRuleVersionId),
  };
}

/**
 * Publishes a ready iteration's drafts together, each through its own publish path and stale-base
 * check (409 naming the draft whose base moved on), in one transaction; older ready iterations
 * become superseded and the session published.
 */
export async function publishIteration(ctx: Ctx, sessionId: string, iterationId: string, force = false) {
  const gate = await gateIteration(ctx, sessionId, iterationId, force);
  await inTransaction(ctx, async (tx) => {
    const session = await requireSession(tx, sessionId, true);
    requireActive(session);
    const iteration = await findIteration(tx.db, ctx.workspaceId, iterationId, { lock: true });
    if (!iteration || iteration.sessionId !== session.id) throw new AppError('not_found', 'fix iteration not found in this session');
    if (iteration.status !== 'ready') throw new AppError('bad_request', `the iteration is ${iteration.status}: only a ready iteration can be published`);
    const published = await listChanges(tx.db, ctx.workspaceId, [iteration.id]);
    for (const change of published) await publishChange(tx, session, change);
    const now = ctx.clock.now();
    await moveIteration(tx.db, ctx.workspaceId, iteration.id, ['ready'], { status: 'published', publishedAt: now, updatedAt: now, ...(gate ? { gateRun: gate } : {}) });
    const others = (await listIterations(tx.db, ctx.workspaceId, session.id)).filter((i) => i.id !== iteration.id);
    for (const other of others) await moveIteration(tx.db, ctx.workspaceId, other.id, ['ready'], { status: 'superseded', updatedAt: now });
    // Drafts of the other iterations that the published one did not carry are discarded.
    const publishedDrafts = new Set(published.flatMap((c) => [c.draftPromptVersionId, c.draftArticleId, c.draftRuleVersionId]).filter(Boolean));
    const leftover = (await listChanges(tx.db, ctx.workspaceId, others.map((i) => i.id))).filter(
      (c) => ![c.draftPromptVersionId, c.draftArticleId, c.draftRuleVersionId].some((d) => d && publishedDrafts.has(d)),
    );
    await discardDrafts(tx, session, leftover);
    await updateSession(tx.db, ctx.workspaceId, session.id, { status: 'published', publishedIterationId: iteration.id, publishedAt: now, updatedAt: now });
  });
  return getSession(ctx, sessionId);
}

/**
 * The test gate of a publish (docs/testing.md): the agents' test cases run with the iteration's
 * drafts. A blocked publish (409) leaves the gate's run on the iteration, as does one that goes on.
 */
async function gateIteration(ctx: Ctx, sessionId: string, iterationId: string, force: boolean): Promise<GateOutcome | null> {
  const session = await requireSession(ctx, sessionId);
  requireActive(session);
  const iteration = await findIteration(ctx.db, ctx.workspaceId, iterationId);
  if (!iteration || iteration.sessionId !== session.id) throw new AppError('not_found', 'fix iteration not found in this session');
  if (iteration.status !== 'ready') throw new AppError('bad_request', `the iteration is ${iteration.status}: only a ready iteration can be published`);
  const request: PublishRequest = {
    change: { kind: 'fix_iteration', id: iteration.id },
    agentIds: [session.agentId],
    drafts: draftIdsOf(session, await listChanges(ctx.db, ctx.workspaceId, [iteration.id])),
    force,
    outcome: { runIds: [], regressedCaseIds: [], forced: false },
  };
  try {
    await emit(ctx, 'publish.requested', request);
  } finally {
    if (request.outcome.runIds.length) await moveIteration(ctx.db, ctx.workspaceId, iteration.id, ['ready'], { gateRun: request.outcome, updatedAt: ctx.clock.now() });
  }
  return request.outcome.runIds.length ? request.outcome : null;
}

async function publishChange(ctx: Ctx, session: SessionRow, change: ChangeRow): Promise<void> {
  const named = async (kind: string, id: string, publish: () => Promise<unknown>) => {
    try {
      await publish();
    } catch (error) {
      if (error instanceof AppError && (error.code === 'conflict' || error.code === 'not_found')) throw new AppError(error.code, `${kind} draft ${id}: ${error.message}`);
      throw error;
    }
  };
  if (change.draftPromptVersionId) {
    const id = change.draftPromptVersionId;
    if ((await getPromptDraft(ctx, session.agentId, id)).status === 'draft') await named('prompt', id, () => publishPromptDraft(ctx, session.agentId, id, false));
  }
  if (change.draftArticleId) {
    const id = change.draftArticleId;
    const draft = await getArticle(ctx, id);
    if (!draft) throw new AppError('conflict', `article draft ${id}: it was deleted`);
    if (!draft.isDraftPublished) await named('article', id, () => publishArticleDraft(ctx, id, false));
  }
  if (change.draftRuleVersionId) {
    const id = change.draftRuleVersionId;
    if ((await getRuleDraft(ctx, id))?.status !== 'published') await named('rule', id, () => publishRuleDraft(ctx, id));
  }
}

/** Closes an active session; the drafts of its unpublished iterations are discarded. */
export async function closeSession(ctx: Ctx, sessionId: string, reason: string | undefined) {
  await inTransaction(ctx, async (tx) => {
    const session = await requireSession(tx, sessionId, true);
    requireActive(session);
    const now = ctx.clock.now();
    const iterations = await listIterations(tx.db, ctx.workspaceId, session.id);
    for (const iteration of iterations) {
      // A running iteration ends now; its job finds it finished and stops.
      await moveIteration(tx.db, ctx.workspaceId, iteration.id, RUNNING_STATUSES, { status: 'failed', error: 'the session was closed', completedAt: now, updatedAt: now });
    }
    await discardDrafts(tx, session, await listChanges(tx.db, ctx.workspaceId, iterations.map((i) => i.id)));
    await updateSession(tx.db, ctx.workspaceId, session.id, { status: 'closed', closedAt: now, closedReason: reason ?? null, updatedAt: now });
  });
  return getSession(ctx, sessionId);
}

/** The replies of a conversation whose Refine with AI fix was published: the reply, and the answer it was replaced by (a test case's expectation). */
export async function publishedFixes(ctx: Ctx, conversationId: string): Promise<{ targetEventId: string; feedbackNote: string; oldAnswer: string | null; newAnswer: string | null }[]> {
  const sessions = await listPublishedSessions(ctx.db, ctx.workspaceId, conversationId);
  const out = [];
  for (const session of sessions) {
    const iteration = session.publishedIterationId ? await findIteration(ctx.db, ctx.workspaceId, session.publishedIterationId) : undefined;
    if (!iteration) continue;
    out.push({
      targetEventId: session.targetEventId,
      feedbackNote: iteration.feedbackNote,
      oldAnswer: session.originalAnswerSnapshot?.content ?? null,
      newAnswer: (iteration.newAnswerSnapshot as AnswerSnapshot | null)?.content ?? null,
    });
  }
  return out;
}
