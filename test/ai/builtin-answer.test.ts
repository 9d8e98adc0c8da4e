// The built-in engine's side of the answer pipeline (src/ai/builtin/plan.ts, confidence.ts, answer.ts,
// select-tags.ts, evaluate.ts, sentiment.ts):
// planning, the confidence model, extractive answers, tags and evaluation, on fixed inputs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { composeAnswer, extractAnswer } from '../../src/ai/builtin/answer.js';
import { answerConfidence, rankCandidates } from '../../src/ai/builtin/confidence.js';
import { evaluateConversation } from '../../src/ai/builtin/evaluate.js';
import { planMessage } from '../../src/ai/builtin/plan.js';
import { selectTags } from '../../src/ai/builtin/select-tags.js';
import { scoreSentiment } from '../../src/ai/builtin/sentiment.js';
import { answerTask } from '../../src/modules/conversations/conversations.tasks.js';

const article = (id: string, title: string, body: string, score: number) => ({ id, title, body, questions: [], keywords: [], escalation: false, score });
const input = (question: string, articles: ReturnType<typeof article>[]) => ({
  question, channel: 'chat' as const, history: [], prompts: { planning: '', guideline: '', channel: '' }, businessRules: [], articles, minConfidence: 0.6, customerName: null,
});

describe('built-in answers', () => {
  it('plans: small talk, a request for a person, a question', () => {
    assert.deepEqual(
      ['Hi there!', 'Thanks a lot, that was helpful', 'bye', 'Can I talk to a human?', 'I want a real person', 'How do I export invoices?'].map((m) => {
        const p = planMessage({ message: m, history: [], planningPrompt: '', rules: [] });
        return [p.intent, p.performKnowledgeSearch];
      }),
      [['small_talk', false], ['small_talk', false], ['small_talk', false], ['human_request', false], ['human_request', false], ['question', true]],
    );
  });

  it('scores sentiment with negation and intensity', () => {
    assert.deepEqual(
      ['This is great, thanks!', 'This is not great', 'It is still not working and I am really frustrated', 'Where is my invoice?'].map((m) => scoreSentiment(m).sentiment),
      ['positive', 'negative', 'negative', 'neutral'],
    );
  });

  it('answers from a clear best article and hands over when nothing covers the question', () => {
    const kb = [article('a', 'How do I reset my password?', 'Click Forgot password on the sign-in page.', 12), article('b', 'Exporting invoices', 'Open Billing.', 3)];
    const yes = composeAnswer(input('How can I reset my password?', kb));
    assert.deepEqual([yes.handover, yes.usedArticleIds, yes.answer], [false, ['a'], 'Click Forgot password on the sign-in page.']);
    const no = composeAnswer(input('Can pets catch the flu?', [article('b', 'Exporting invoices', 'Open Billing.', 1.2)]));
    assert.deepEqual([no.handover, no.reason, no.usedArticleIds], [true, 'missing_knowledge', []]);
    assert.deepEqual(composeAnswer(input('anything', [])).reason, 'missing_knowledge');
    // The email frame is the conversations module's wording (handover.ts), applied by the task.
    const email = answerTask.builtin({ ...input('How can I reset my password?', kb), channel: 'email', customerName: 'Ada Lovelace' });
    assert.equal(email.answer, 'Hello Ada,\n\nClick Forgot password on the sign-in page.\n\nBest regards');
  });

  it('is more confident with a higher score, a wider margin and better coverage', () => {
    const f = (top: number, second: number, q = 'reset password') => answerConfidence(rankCandidates(q, [article('a', 'Reset your password', 'Reset it.', top), article('b', 'Other', 'x', second)]).features);
    assert.ok(f(20, 2) > f(20, 18));
    assert.ok(f(20, 2) > f(5, 0.5));
    assert.ok(f(20, 2) > f(20, 2, 'reset password billing invoice'));
    assert.equal(answerConfidence(rankCandidates('q', []).features), 0);
  });

  it('extracts the sentences that answer, a list of steps whole and in order', () => {
    const body = 'Our billing runs monthly.\n\nTo export an invoice:\n1. Open Billing.\n2. Choose Invoices.\n3. Click Download.\n\nInvoices are kept for 7 years.';
    assert.equal(extractAnswer('How do I export an invoice?', { title: 'Invoices', body }), 'To export an invoice:\n\n1. Open Billing.\n2. Choose Invoices.\n3. Click Download.\n\nInvoices are kept for 7 years.');
  });

  it('chooses tags by their words, one per single-select group, a mandatory group always', () => {
    const groups = [
      { title: 'Topic', prompt: '', description: '', multiselect: false, mandatory: false, tags: [{ name: 'Billing', description: 'invoices and payments' }, { name: 'Login', description: 'passwords and sign-in' }] },
      { title: 'Product', prompt: '', description: '', multiselect: true, mandatory: true, tags: [{ name: 'Mobile app', description: '' }, { name: 'Web app', description: '' }] },
    ];
    const out = selectTags({ message: 'I cannot pay my invoice', answer: null, inputGroups: groups, outputGroups: [] });
    assert.deepEqual(out.input.chosenTags, [{ group: 'Topic', tags: ['Billing'] }, { group: 'Product', tags: ['Mobile app'] }]);
  });

  it('evaluates groundedness and whether each question was answered', () => {
    const out = evaluateConversation({
      replies: [
        { eventId: 'e1', question: 'How do I reset my password?', answer: 'Click Forgot password on the sign-in page.', handover: false, articles: [{ id: 'a', title: 'Reset your password', body: 'Click Forgot password on the sign-in page.' }] },
        { eventId: 'e2', question: 'Do you ship to Mars?', answer: 'Yes, we ship to Mars within two days.', handover: false, articles: [] },
      ],
    });
    assert.deepEqual(out.replies.map((r) => [r.eventId, r.grounded, r.answered]), [['e1', true, true], ['e2', false, false]]);
    assert.equal(out.verdict, 'needs_review');
  });
});
