import { authorOf, inTransaction, type WorkspaceContext } from '../../context.js';
import type { TestExpectation, TestTurn } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';
import { requireAgent } from '../agents/index.js';
import { getInteraction } from '../conversations/index.js';
import { publishedFixes } from '../refine/index.js';
import { normalizePhrase } from './expectations.js';
import { type CaseRow, countCases, deleteCase as deleteCaseRow, findCase, insertCase, listCasesPage, updateCase as updateCaseRow } from './testing.repository.js';
import { type CreateCaseBody, LIMITS, type ListCasesQuery, type UpdateCaseBody } from './testing.schemas.js';

/** Test cases of an agent (docs/testing.md): customer turns and what the agent's replies must meet. */

type Ctx = WorkspaceContext;

export const caseNotFound = () => new AppError('not_found', 'test case not found');

export async function createCase(ctx: Ctx, agentId: string, body: CreateCaseBody): Promise<CaseRow> {
  await requireAgent(ctx, agentId);
  return inTransaction(ctx, async (tx) => {
    if ((await countCases(tx.db, ctx.workspaceId, agentId)) >= LIMITS.casesPerAgent) {
      throw new AppError('bad_request', `an agent has at most ${LIMITS.casesPerAgent} test cases`);
    }
    const now = ctx.clock.now();
    return insertCase(tx.db, ctx.workspaceId, {
      agentId,
      name: body.name,
      turns: body.turns as TestTurn[],
      expect: body.expect as TestExpectation,
      tags: body.tags,
      liveActions: body.liveActions,
      createdAt: now,
      updatedAt: now,
      createdBy: authorOf(ctx),
      updatedBy: authorOf(ctx),
    });
  });
}

export async function listCases(ctx: Ctx, agentId: string, query: ListCasesQuery) {
  await requireAgent(ctx, agentId);
  const cursor = query.cursor ? await findCase(ctx.db, ctx.workspaceId, query.cursor) : undefined;
  if (query.cursor && cursor?.agentId !== agentId) throw new AppError('bad_request', `cursor: ${query.cursor} is not a test case of this agent`);
  return listCasesPage(ctx.db, ctx.workspaceId, agentId, { limit: query.limit, direction: query.direction, tag: query.tag, cursor });
}

export async function getCase(ctx: Ctx, id: string): Promise<CaseRow> {
  const found = await findCase(ctx.db, ctx.workspaceId, id);
  if (!found) throw caseNotFound();
  return found;
}

export async function updateCase(ctx: Ctx, id: string, body: UpdateCaseBody): Promise<CaseRow> {
  await getCase(ctx, id);
  const changes = Object.fromEntries(Object.entries(body ?? {}).filter(([, v]) => v !== undefined));
  const updated = await inTransaction(ctx, (tx) => updateCaseRow(tx.db, ctx.workspaceId, id, { ...changes, updatedAt: ctx.clock.now(), updatedBy: authorOf(ctx) }));
  if (!updated) throw caseNotFound();
  return updated;
}

export async function deleteCase(ctx: Ctx, id: string): Promise<{ success: true }> {
  if (!(await inTransaction(ctx, (tx) => deleteCaseRow(tx.db, ctx.workspaceId, id)))) throw caseNotFound();
  return { success: true };
}

export interface CaseWarning {
  turn: number;
  message: string;
}

/**
 * POST /v2/hc-interactions/{id}/test-case/public: a real conversation as a test case. Its
 * customer messages become the turns (the customer's attributes on the first); what a reviewer
 * marked becomes the expectations of the turn it was marked on:
 * - a reply rated resolved (or approved) answers, citing one of the articles it cited;
 * - a reply whose Refine with AI fix was published says what the fix's answer says and the old one
 *   did not (numbers with their units, amounts, addresses, links); when the fix's answer adds no
 *   such fact, the turn expects an answer and a warning says why no phrase was taken.
 * A conversation with no marks still makes a case (its turns, no expectations) and says so.
 */
export async function caseFromConversation(ctx: Ctx, conversationId: string, body: { name?: string | undefined; tags?: string[] | undefined } | null | undefined) {
  const { conversation, events } = await getInteraction(ctx, conversationId);
  const fixes = new Map((await publishedFixes(ctx, conversation.id)).map((f) => [f.targetEventId, f]));
  const turns: TestTurn[] = [];
  const warnings: CaseWarning[] = [];
  for (const event of events) {
    if (event.role === 'user') {
      turns.push({ content: event.message.slice(0, LIMITS.turnChars), ...(turns.length === 0 && Object.keys(conversation.userAttributes).length ? { attributes: conversation.userAttributes } : {}) });
      continue;
    }
    const turn = turns.at(-1);
    if (!turn || event.userEventId === null) continue;
    const number = turns.length;
    const fix = fixes.get(event.id);
    if (fix) {
      const facts = newFacts(fix.oldAnswer ?? '', fix.newAnswer ?? '');
      if (facts.length) turn.expect = { ...turn.expect, answers: true, contains: facts };
      else {
        turn.expect = { ...turn.expect, answers: true };
        warnings.push({ turn: number, message: "the published fix's answer adds no number, amount, address or link to the earlier answer, so no phrase was taken from it; the turn expects an answer citing an article" });
      }
    } else if (event.resolved === true || event.approved === true) {
      const cited = event.usedArticles.map((a) => a.id);
      turn.expect = { ...turn.expect, answers: true, ...(cited.length ? { citesArticleIds: cited } : {}) };
    } else if (event.resolved === false || event.approved === false) {
      warnings.push({ turn: number, message: 'the reply was marked as not helping; what the right answer is was not said, so the turn has no expectation' });
    }
  }
  if (turns.length === 0) throw new AppError('bad_request', `conversation ${conversation.id} has no customer message to test with`);
  if (turns.length > LIMITS.turnsPerCase) {
    warnings.push({ turn: LIMITS.turnsPerCase, message: `the conversation has ${turns.length} customer messages; the case keeps the first ${LIMITS.turnsPerCase}` });
    turns.length = LIMITS.turnsPerCase;
  }
  if (!turns.some((t) => t.expect)) warnings.push({ turn: 0, message: 'no reply of the conversation was rated resolved, approved or fixed with Refine with AI: the case has turns but no expectations yet' });
  await requireAgent(ctx, conversation.agentId);
  const now = ctx.clock.now();
  const name = (body?.name ?? turns[0]!.content.replace(/\s+/g, ' ').trim()).slice(0, LIMITS.nameChars);
  const row = await inTransaction(ctx, (tx) =>
    insertCase(tx.db, ctx.workspaceId, {
      agentId: conversation.agentId,
      name,
      turns,
      expect: {},
      tags: body?.tags ?? [],
      liveActions: false,
      fromConversationId: conversation.id,
      createdAt: now,
      updatedAt: now,
      createdBy: authorOf(ctx),
      updatedBy: authorOf(ctx),
    }),
  );
  return { row, warnings };
}

/** Quantities with units, amounts, e-mail addresses, links and phone numbers: the facts a fix can correct. */
const FACT = new RegExp(
  [
    String.raw`[$€£]\s?\d[\d,.]*`,
    // A percent sign ends the fact itself: a word boundary after it would need a letter next.
    String.raw`\b\d[\d,.]*\s?(?:-\s?)?(?:business\s|working\s|calendar\s)?(?:(?:days?|hours?|weeks?|months?|years?|minutes?|percent|euros?|dollars?|pounds?|usd|eur|gbp|kg|lbs?)\b|%)`,
    String.raw`\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b`,
    String.raw`\bhttps?://[^\s)>\]]+`,
    String.raw`\+?\d[\d\s().-]{7,}\d`,
  ].join('|'),
  'gi',
);

/** The facts the new answer states that the old one does not, as the new one words them. */
export function newFacts(oldAnswer: string, newAnswer: string): string[] {
  const before = new Set([...oldAnswer.matchAll(FACT)].map((m) => normalizePhrase(m[0])));
  const out: string[] = [];
  for (const m of newAnswer.matchAll(FACT)) {
    const fact = m[0].trim().replace(/[.,]+$/, '');
    if (!before.has(normalizePhrase(fact)) && !out.some((f) => normalizePhrase(f) === normalizePhrase(fact))) out.push(fact);
  }
  return out.slice(0, LIMITS.phrasesPerExpectation);
}
