// The expectation checks of test cases (src/modules/testing/expectations.ts), on replies as leads word them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ReplyFacts, says, unmetExpectations } from '../../src/modules/testing/expectations.js';
import { newFacts } from '../../src/modules/testing/cases.service.js';
import { summarize } from '../../src/modules/testing/runs.service.js';

const answer: ReplyFacts = {
  type: 'message', message: 'You have a 45-day window to return it. Refunds take 5–7 business days.', handover: false, escalationReason: null,
  citedArticleIds: ['a1'], citedFolderIds: ['f-child', 'f-root'], ruleIds: [], tagIds: ['t1'], tagNames: ['returns'], latencyMs: 120,
};
const handover: ReplyFacts = { ...answer, message: 'Let me get a person for you.', handover: true, escalationReason: 'missing_knowledge', citedArticleIds: [], citedFolderIds: [] };

describe('test case expectations', () => {
  it('reads phrases as people write them: case, hyphens, spacing and a plural s', () => {
    assert.equal(says(answer.message!, '45 days'), true);
    assert.equal(says(answer.message!, '45  DAY window'), true);
    assert.equal(says(answer.message!, '30 days'), false);
    assert.equal(says('Call us on “0800”', '"0800"'), true);
  });
  it('says which expectations a reply misses and what it did instead', () => {
    assert.deepEqual(unmetExpectations({ answers: true, contains: ['45 days'], citesFolderIds: ['f-root'], tags: ['Returns'] }, answer), []);
    assert.deepEqual(unmetExpectations({ answers: true }, handover), [{ expectation: 'answers: true (an answer citing an article)', actual: 'a hand-over (missing_knowledge)' }]);
    assert.deepEqual(unmetExpectations({ answers: false, handoverReason: 'customer_request' }, handover), [{ expectation: 'handoverReason: customer_request', actual: 'a hand-over (missing_knowledge)' }]);
    assert.deepEqual(unmetExpectations({ notContains: ['45 days', 'never'] }, answer).map((u) => u.expectation), ['notContains "45 days"']);
    assert.deepEqual(unmetExpectations({ replyType: 'none', maxLatencyMs: 100 }, answer).map((u) => u.actual), ['replyType message', 'replied in 120 ms']);
    assert.deepEqual(unmetExpectations({ citesArticleIds: ['a2'] }, answer), [{ expectation: 'citesArticleIds: any of a2', actual: 'cited a1' }]);
  });
  it('takes the facts a fix added, not the words around them', () => {
    assert.deepEqual(newFacts('You can return it within 30 days.', 'You can return it within 45 days, free of charge. Mail returns@shop.example.'), ['45 days', 'returns@shop.example']);
    assert.deepEqual(newFacts('Refunds take 30 days.', 'Refunds take 30 days, we promise.'), []);
    assert.deepEqual(newFacts('', 'It costs $12.50 and ships in 2 business days.'), ['$12.50', '2 business days']);
    assert.deepEqual(newFacts('Discount is 10%.', 'The student discount is 15%.'), ['15%']);
  });
});

describe("a gate run's verdict per case", () => {
  const run = { caseIds: ['c1'], caseNames: { c1: 'Refund window' }, k: 1, deterministic: true } as unknown as Parameters<typeof summarize>[0];
  const row = (attempt: number, passed: boolean) => ({ caseId: 'c1', attempt, passed, failures: [], conversationId: null }) as unknown as Parameters<typeof summarize>[1][number];
  it('breaks a case only when it fails with the drafts twice and passes live', () => {
    assert.equal(summarize(run, [row(1, false), row(0, true), row(-1, false)])[0]!.brokenByDrafts, true);
    // A failure that did not repeat (a stage timeout under load) blocks nothing.
    assert.equal(summarize(run, [row(1, false), row(0, true), row(-1, true)])[0]!.brokenByDrafts, false);
    // Failing live too: not the drafts' doing.
    assert.equal(summarize(run, [row(1, false), row(0, false)])[0]!.brokenByDrafts, false);
    assert.equal(summarize(run, [row(1, true)])[0]!.brokenByDrafts, false);
  });
});
