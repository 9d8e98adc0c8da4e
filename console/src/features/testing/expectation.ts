// An expectation as the case form edits it, and back: answers yes / no / any, the hand-over reason,
// phrases one per line, cited article ids; the expectations the form does not edit (folders, rule,
// tags, reply type, latency) are kept as they were.
import { HANDOVER_REASONS, type CaseBody, type Expectation, type HandoverReason, type TestCase } from './api';

export type Answers = 'any' | 'yes' | 'no';

export interface ExpectationState {
  answers: Answers;
  handoverReason: HandoverReason | null;
  /** One phrase a line. */
  contains: string;
  notContains: string;
  citesArticleIds: string[];
  /** The expectations this form does not edit, sent back unchanged. */
  kept: Omit<Expectation, 'answers' | 'handoverReason' | 'contains' | 'notContains' | 'citesArticleIds'>;
}

export interface TurnState {
  content: string;
  /** The customer's attributes of a case made elsewhere, kept unchanged. */
  attributes?: Record<string, unknown>;
  /** null: the turn's reply is not checked on its own. */
  expect: ExpectationState | null;
}

export interface CaseState {
  name: string;
  tags: string[];
  turns: TurnState[];
  expect: ExpectationState;
  liveActions: boolean;
}

export const EMPTY_EXPECTATION: ExpectationState = { answers: 'any', handoverReason: null, contains: '', notContains: '', citesArticleIds: [], kept: {} };

export const EMPTY_CASE: CaseState = { name: '', tags: [], turns: [{ content: '', expect: null }], expect: EMPTY_EXPECTATION, liveActions: false };

export function expectationState(expect: Expectation | undefined): ExpectationState {
  const { answers, handoverReason, contains, notContains, citesArticleIds, ...kept } = expect ?? {};
  return {
    answers: answers === undefined ? 'any' : answers ? 'yes' : 'no',
    handoverReason: handoverReason ?? null,
    contains: (contains ?? []).join('\n'),
    notContains: (notContains ?? []).join('\n'),
    citesArticleIds: citesArticleIds ?? [],
    kept,
  };
}

export function caseState(testCase: TestCase): CaseState {
  return {
    name: testCase.name,
    tags: testCase.tags,
    turns: testCase.turns.map((t) => ({ content: t.content, attributes: t.attributes, expect: t.expect ? expectationState(t.expect) : null })),
    expect: expectationState(testCase.expect),
    liveActions: testCase.liveActions,
  };
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

export function expectationBody(state: ExpectationState): Expectation {
  const contains = lines(state.contains);
  const notContains = lines(state.notContains);
  return {
    ...state.kept,
    ...(state.answers === 'any' ? {} : { answers: state.answers === 'yes' }),
    ...(state.handoverReason ? { handoverReason: state.handoverReason } : {}),
    ...(contains.length > 0 ? { contains } : {}),
    ...(notContains.length > 0 ? { notContains } : {}),
    ...(state.citesArticleIds.length > 0 ? { citesArticleIds: state.citesArticleIds } : {}),
  };
}

export function caseBody(state: CaseState): CaseBody {
  return {
    name: state.name,
    tags: state.tags,
    liveActions: state.liveActions,
    turns: state.turns.map((t) => ({ content: t.content, ...(t.attributes ? { attributes: t.attributes } : {}), ...(t.expect ? { expect: expectationBody(t.expect) } : {}) })),
    expect: expectationBody(state.expect),
  };
}

/** An expectation in a few words ("answers; says "30 days"; hands over: Missing knowledge"), for the cases list. */
export function describeExpectation(expect: Expectation): string[] {
  const parts: string[] = [];
  if (expect.answers !== undefined) parts.push(expect.answers ? 'answers' : 'hands over');
  if (expect.handoverReason) parts.push(`hand-over: ${HANDOVER_REASONS[expect.handoverReason].toLowerCase()}`);
  if (expect.contains?.length) parts.push(`says ${expect.contains.map((p) => `“${p}”`).join(', ')}`);
  if (expect.notContains?.length) parts.push(`never says ${expect.notContains.map((p) => `“${p}”`).join(', ')}`);
  if (expect.citesArticleIds?.length) parts.push(`cites one of ${expect.citesArticleIds.length} article${expect.citesArticleIds.length === 1 ? '' : 's'}`);
  if (expect.citesFolderIds?.length) parts.push('cites a folder');
  if (expect.ruleId) parts.push('runs a rule');
  if (expect.tags?.length) parts.push(`tags ${expect.tags.join(', ')}`);
  if (expect.replyType) parts.push(`reply: ${expect.replyType}`);
  if (expect.maxLatencyMs) parts.push(`within ${expect.maxLatencyMs} ms`);
  return parts;
}
