// The built-in engine's Refine with AI diagnosis and the prompt instructions the built-in planner,
// answer and rule matcher follow, as pure functions with exact results.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requiredStatements } from '../../src/ai/builtin/answer.js';
import { planMessage, searchTopics } from '../../src/ai/builtin/plan.js';
import { diagnoseAnswer, factsOf, findStep } from '../../src/ai/builtin/diagnose.js';
import type { DiagnoseInput } from '../../src/ai/contracts/diagnose.js';
import { factValues, isRevision, valueKind } from '../../src/ai/builtin/facts.js';
import { matchRules } from '../../src/ai/builtin/match-rule.js';

const REFUNDS = { id: 'a-refunds', title: 'Refund policy', body: 'Annual plans can be refunded within 30 days of purchase. Monthly plans are not refunded. Refunds reach your card within 10 business days.', questions: [], used: true };
const base = (over: Partial<DiagnoseInput>): DiagnoseInput => ({
  question: 'Can I get a refund for my annual plan?',
  answer: 'Annual plans can be refunded within 30 days of purchase.',
  handover: false,
  escalationReason: null,
  performKnowledgeSearch: true,
  feedback: '',
  articles: [REFUNDS],
  executedRule: null,
  rules: [],
  ...over,
});

describe('built-in Refine with AI diagnosis', () => {
  it('reads steps and facts out of feedback notes', () => {
    assert.deepEqual(findStep('It should have asked for the order number first.'), { phrase: 'the order number', first: true });
    assert.deepEqual(findStep('The agent must ask the customer for their e-mail address before anything else.'), { phrase: 'their e-mail address', first: true });
    assert.equal(findStep('Refunds take 10 days.'), null);
    assert.deepEqual(factsOf('It should have said that we ship to Canada within 5 days. Shipping costs 15 dollars.'), ['We ship to Canada within 5 days.', 'Shipping costs 15 dollars.']);
    assert.deepEqual(factsOf('Wrong: annual plans can be refunded within 60 days of purchase. Why?'), ['Annual plans can be refunded within 60 days of purchase.']);
    assert.deepEqual(factsOf('Mention that refunds take 10 days. Be friendlier. Please say: invoices are kept for 7 years.'), ['Refunds take 10 days.', 'Invoices are kept for 7 years.']);
  });

  it('corrects the sentence that states another quantity, keeping its other words', () => {
    const out = diagnoseAnswer(base({ feedback: 'Not quite: annual plans can be refunded within 60 days.' }));
    assert.equal(out.changes.length, 1);
    const [change] = out.changes;
    assert.deepEqual([change!.changeType, change!.rootCause.failureStage, change!.rootCause.failureMode, change!.rootCause.target.articleId, change!.rootCause.target.articleFields],
      ['update_article', 'knowledge_content', 'incorrect_knowledge', 'a-refunds', ['mainKnowledge', 'questions']]);
    // The corrected article learns the question it answers, so that it is found for questions like it.
    assert.deepEqual(change!.article!.questions, ['Can I get a refund for my annual plan?']);
    assert.equal(change!.article!.mainKnowledge, 'Annual plans can be refunded within 60 days of purchase. Monthly plans are not refunded. Refunds reach your card within 10 business days.');
    // Not answered from: the question is added too.
    const unused = diagnoseAnswer(base({ feedback: 'Annual plans can be refunded within 60 days.', handover: true, articles: [{ ...REFUNDS, used: false }] }));
    assert.deepEqual(unused.changes[0]!.article!.questions, ['Can I get a refund for my annual plan?']);
    assert.deepEqual(unused.changes[0]!.rootCause.target.articleFields, ['mainKnowledge', 'questions']);
  });

  it('tells an omitted fact, an article not answered from, a skipped search and missing knowledge apart', () => {
    const omitted = diagnoseAnswer(base({ feedback: 'It should have said that refunds reach your card within 10 business days.' }));
    assert.deepEqual([omitted.changes[0]!.changeType, omitted.changes[0]!.rootCause.failureMode, omitted.changes[0]!.promptSection!.promptType],
      ['update_prompt', 'required_information_omitted', 'hcGuidelinePrompt']);
    assert.equal(
      omitted.changes[0]!.promptSection!.content,
      'When the customer asks about refund, always include: "Refunds reach your card within 10 business days."\nWhen you answer from the article "Refund policy", always include: "Refunds reach your card within 10 business days."',
    );
    // Titled the way a lead names a section: the article, then what it adds.
    assert.match(omitted.changes[0]!.promptSection!.title, /^Refund policy: \S+( \S+)?$/);

    const notUsed = diagnoseAnswer(base({ handover: true, answer: 'A colleague will follow up.', articles: [{ ...REFUNDS, used: false }], feedback: 'It should have said that refunds reach your card within 10 business days.' }));
    assert.deepEqual([notUsed.changes[0]!.changeType, notUsed.changes[0]!.rootCause.failureMode, notUsed.changes[0]!.article!.questions],
      ['update_article', 'relevant_knowledge_not_retrieved', ['Can I get a refund for my annual plan?']]);

    const skipped = diagnoseAnswer(base({ performKnowledgeSearch: false, answer: 'Hello! How can I help you today?', articles: [{ ...REFUNDS, used: false }], feedback: 'It should have said that refunds reach your card within 10 business days.' }));
    assert.deepEqual([skipped.changes[0]!.rootCause.failureStage, skipped.changes[0]!.rootCause.failureMode, skipped.changes[0]!.promptSection!.promptType],
      ['planning', 'required_search_skipped', 'hcPlanningPrompt']);
    assert.equal(skipped.changes[0]!.promptSection!.content, 'Always search the knowledge base when the customer mentions: refund, annual, plan');

    const missing = diagnoseAnswer(base({ question: 'Do you ship to Canada?', handover: true, escalationReason: 'missing_knowledge', feedback: 'We ship to Canada within 5 business days.' }));
    assert.deepEqual([missing.changes[0]!.changeType, missing.changes[0]!.rootCause.failureMode, missing.changes[0]!.article], [
      'create_article', 'relevant_knowledge_not_available', { articleId: null, title: 'Shipping to Canada', mainKnowledge: 'We ship to Canada within 5 business days.', questions: ['Do you ship to Canada?'] },
    ]);
    assert.deepEqual(diagnoseAnswer(base({ feedback: 'Be nicer.' })).changes, []);
    assert.deepEqual(diagnoseAnswer(base({ feedback: 'Annual plans can be refunded within 30 days of purchase.' })).changes, [], 'the answer says it already');
  });

  it('adds a missing step to the rule that ran, and keeps a rule from answering what it is not for', () => {
    const rules = [{ id: 'r-order', name: 'Order status', description: 'The customer asks where their order is' }];
    const step = diagnoseAnswer(base({ question: 'Where is my order?', answer: 'It is on its way.', executedRule: { id: 'r-order', name: 'Order status' }, rules, feedback: 'It should have asked for the order number first.' }));
    assert.deepEqual(step.changes.map((c) => [c.changeType, c.rootCause.failureMode, c.rule]), [['update_rule', 'required_rule_behavior_missing', { ruleId: 'r-order', instructions: 'Ask for the order number first.', addToDescription: null }]]);
    const wrong = diagnoseAnswer(base({ question: 'Where is my refund?', answer: 'It is on its way.', executedRule: { id: 'r-order', name: 'Order status' }, rules, articles: [{ ...REFUNDS, used: false }], feedback: 'Refunds reach your card within 10 business days.' }));
    assert.deepEqual(wrong.changes.map((c) => [c.changeType, c.rootCause.failureMode]), [['update_rule', 'rule_triggered_incorrectly'], ['update_article', 'relevant_knowledge_not_retrieved']]);
    assert.equal(wrong.changes[0]!.rule!.addToDescription, 'Not for messages like: "Where is my refund?".');
  });
});

describe('prompt instructions the built-in engine follows', () => {
  it('searches for the topics the planning prompt names, even in what looks like small talk', () => {
    const prompt = '## Search\nAlways search the knowledge base when the customer mentions: refund, gift card, team';
    assert.deepEqual(searchTopics(prompt), [['refund'], ['gift', 'card'], ['team']]);
    assert.equal(planMessage({ message: 'Hi, thanks!', history: [], planningPrompt: prompt, rules: [] }).performKnowledgeSearch, false);
    assert.equal(planMessage({ message: 'Hello team, thanks!', history: [], planningPrompt: '', rules: [] }).performKnowledgeSearch, false);
    const planned = planMessage({ message: 'Hello team, thanks!', history: [], planningPrompt: prompt, rules: [] });
    assert.deepEqual([planned.performKnowledgeSearch, planned.intent], [true, 'question']);
    assert.equal(planMessage({ message: 'I want to talk to a person about a refund', history: [], planningPrompt: prompt, rules: [] }).intent, 'human_request');
  });

  it('includes the statements the guideline asks for when the question is about their topic', () => {
    const guideline = 'When the customer asks about refund annual, always include: "Refunds reach your card within 10 business days."';
    assert.deepEqual(requiredStatements(guideline, 'Can I get a refund on my annual plan?'), ['Refunds reach your card within 10 business days.']);
    assert.deepEqual(requiredStatements(guideline, 'Can I get a refund on my monthly plan?'), []);
    // Refine with AI's line for an article holds for any wording that finds that article.
    const byArticle = 'When you answer from the article "Reward points", always include: "Points never expire."';
    assert.deepEqual(requiredStatements(byArticle, 'do my points ever run out', 'Reward points'), ['Points never expire.']);
    assert.deepEqual(requiredStatements(byArticle, 'do my points ever run out', 'reward  POINTS'), ['Points never expire.']);
    assert.deepEqual(requiredStatements(byArticle, 'do my points ever run out', 'Gift cards'), []);
    assert.deepEqual(requiredStatements(byArticle, 'do my points ever run out'), []);
  });

  it('does not match a rule on a message like one of its counter-examples', () => {
    const rules = [{ id: 'r', name: 'Change shipping address', description: 'The customer wants to change the shipping address. Not for messages like: "Do you ship to Canada?".' }];
    assert.deepEqual(matchRules({ message: 'Do you ship to Canada?', rules }).matches, [{ ruleId: 'r', score: 0, reason: 'the rule is not for messages like "Do you ship to Canada?"' }]);
    assert.ok(matchRules({ message: 'I need to change my shipping address', rules }).matches[0]!.score > 0.2);
  });
});

describe('fact values', () => {
  it('reads the values of a statement and tells a revision from another fact', () => {
    assert.deepEqual(factValues('The Pro plan includes 200 GB of storage for $12 per month until March 31.'), ['pro plan', '200 gb', '$12', 'march 31']);
    assert.deepEqual(['30 days', 'two weeks', '$10', '5 eur', 'march 3', 'mondays', 'enterprise plan', '3 seats', '14'].map(valueKind),
      ['duration', 'duration', 'amount', 'amount', 'date', 'date', 'plan', 'seat', 'number']);
    assert.equal(isRevision('Refunds are processed within 3 business days.', 'We process refunds within 5 business days.'), true);
    assert.equal(isRevision('Every new workspace starts with a free trial of 14 days.', 'Trial workspaces start with 5 projects.'), false, 'another kind of value');
    assert.equal(isRevision('Delivery costs 5 EUR.', 'Delivery costs 9 EUR in Spain.'), false, 'another subject');
    assert.equal(isRevision('The Starter plan includes 3 seats.', 'From now on the Starter plan includes 5 seats.'), true);
  });
});
