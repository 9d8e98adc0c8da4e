import type { ChangeOutput, DiagnoseArticle, DiagnoseInput, DiagnoseOutput, RootCauseOutput } from '../contracts/diagnose.js';
import { articleTitle, corrected, coveringArticle, findCorrection, sectionTitle, topicOf, withFact } from './diagnose-knowledge.js';
import { findStep, type NoteReading, readNote } from './diagnose-note.js';
import { splitSentences, squash, stripMarkdown } from '../../text/sentences.js';
import { COMMON_STEMS, rarity, STOPWORDS, terms, tokenize } from '../../text/terms.js';
import { factValues } from './facts.js';

export { findStep } from './diagnose-note.js';

/**
 * The built-in engine's diagnosis of a bad answer (Refine with AI, docs/refine.md): rules over the
 * answer's trace, the knowledge and the support lead's feedback note, in this order:
 *
 * 1. The feedback names a step the agent should have taken ("it should have asked for the order
 *    number first") -> rule_execution / required_rule_behavior_missing on the rule that ran, or
 *    else the intent rule closest to the message: a new version of its flow with the step.
 * 2. The feedback states facts. Against the knowledge:
 *    - the planner skipped the search although the knowledge holds the fact ->
 *      planning / required_search_skipped: a planning prompt section that says to search;
 *    - an article states the same thing with another number, amount, duration or date ->
 *      knowledge_content / incorrect_knowledge: that article with the sentence replaced;
 *    - an article holds the fact, the answer used it but left the fact out ->
 *      answer_generation / required_information_omitted: a guideline section that says to include it;
 *    - an article holds the fact but the agent did not answer from it ->
 *      knowledge_search / relevant_knowledge_not_retrieved: that article with the question added;
 *    - no article holds it -> knowledge_search / relevant_knowledge_not_available: a new article
 *      from the feedback's facts.
 * 3. Otherwise no actionable change.
 */

const round = (n: number) => Math.round(n * 100) / 100;

type Target = RootCauseOutput['target'];
const target = (kind: Target['kind'], fields: Partial<Target> = {}): Target => ({
  kind,
  operation: null,
  promptType: null,
  articleId: null,
  articleFields: null,
  ruleId: null,
  ...fields,
});
const change = (changeType: ChangeOutput['changeType'], rootCause: RootCauseOutput, parts: Partial<Pick<ChangeOutput, 'promptSection' | 'article' | 'rule'>>): ChangeOutput => ({
  rootCause,
  changeType,
  promptSection: null,
  article: null,
  rule: null,
  ...parts,
});

export function diagnoseAnswer(input: DiagnoseInput): DiagnoseOutput {
  const feedback = squash(stripMarkdown(input.feedback));
  const step = findStep(feedback);
  if (step) {
    const matched = input.executedRule ? input.rules.find((r) => r.id === input.executedRule!.id) : closestRule(input.question, input.rules);
    if (matched) {
      const fired = input.executedRule?.id === matched.id;
      const instructions = `Ask for ${step.phrase}${step.first ? ' first' : ''}.`;
      const cause: RootCauseOutput = {
        failureStage: 'rule_execution',
        failureMode: 'required_rule_behavior_missing',
        reasoning: fired
          ? `The rule "${matched.name}" ran but its flow does not ask for ${step.phrase}, which the feedback says it should${step.first ? ' do first' : ''}.`
          : `The rule "${matched.name}" is the one for this message but did not run, and its flow does not ask for ${step.phrase}, which the feedback says it should.`,
        target: target('rule', { operation: 'update', ruleId: matched.id }),
      };
      return {
        summary: `Change the rule "${matched.name}": ${instructions.toLowerCase().replace(/\.$/, '')}${fired ? '' : ', and let messages like this one trigger it'}.`,
        confidence: fired ? 'high' : 'medium',
        changes: [
          change('update_rule', cause, {
            rule: { ruleId: matched.id, instructions, addToDescription: fired ? null : `Also applies when the customer writes: "${input.question.slice(0, 300)}".` },
          }),
        ],
        warnings: [],
      };
    }
  }

  const vocabulary = [input.question, ...input.articles.flatMap((a) => [a.title, a.body])].join(' ');
  const note = readNote(feedback, vocabulary);
  const facts = note.facts;
  if (facts.length === 0) {
    return {
      summary: step
        ? `The feedback asks for a step ("${step.phrase}") but no intent rule of the agent handles this message; a new rule is a change to make by hand.`
        : 'The feedback states no fact and no step the agent should have taken: nothing to change.',
      confidence: 'low',
      changes: [],
      warnings: step ? [{ fragment: step.phrase, message: 'No intent rule of the agent handles this message, so the step was not added to a flow.' }, ...note.warnings] : note.warnings,
    };
  }
  const knowledge = knowledgeDiagnosis(input, note);
  const ran = input.executedRule ? input.rules.find((r) => r.id === input.executedRule!.id) : undefined;
  if (!ran) return knowledge;
  // A rule answered, but the feedback expects what the knowledge says: the rule should not have run.
  const cause: RootCauseOutput = {
    failureStage: 'rule_execution',
    failureMode: 'rule_triggered_incorrectly',
    reasoning: `The rule "${ran.name}" answered a message it is not for: the feedback expects an answer from the knowledge base ("${truncate(facts.join(' '), 160)}").`,
    target: target('rule', { operation: 'update', ruleId: ran.id }),
  };
  return {
    summary: `Keep the rule "${ran.name}" from answering messages like this one. ${knowledge.summary}`,
    confidence: knowledge.confidence === 'high' ? 'medium' : knowledge.confidence,
    changes: [
      change('update_rule', cause, { rule: { ruleId: ran.id, instructions: '', addToDescription: `Not for messages like: "${input.question.replace(/"/g, "'").slice(0, 300)}".` } }),
      ...knowledge.changes,
    ],
    warnings: knowledge.warnings,
  };
}

/** What the knowledge says about the note's facts, and the change to it. */
function knowledgeDiagnosis(input: DiagnoseInput, note: NoteReading): DiagnoseOutput {
  const { facts, warnings } = note;
  const factText = facts.join(' ');
  const factTerms = [...new Set(facts.flatMap((f) => terms(f)))];
  const pairs = facts.flatMap((f) => {
    const said = terms(f);
    return said.slice(1).map((t, i) => [said[i]!, t] as const);
  });
  const result = (summary: string, confidence: DiagnoseOutput['confidence'], changes: ChangeOutput[], extra: DiagnoseOutput['warnings'] = []): DiagnoseOutput => ({
    summary,
    confidence,
    changes,
    warnings: [...warnings, ...extra],
  });

  // Where the knowledge says the same thing with another value (or holds the value the note calls old).
  const conflict = findCorrection(input.articles, facts, note.oldValues, input.question, note.terse);
  if (conflict) {
    const { article } = conflict;
    // The article also learns the customer's question: the lead has said it answers it, and it is then found for questions like it.
    const questions = withQuestion(article.questions, input.question);
    return result(`Correct the article "${article.title}": "${conflict.corrected}", and add the customer's question to it`, 'high', [
      change(
        'update_article',
        {
          failureStage: 'knowledge_content',
          failureMode: 'incorrect_knowledge',
          reasoning: `The article "${article.title}" says "${conflict.sentence.trim()}" where the feedback says "${conflict.fact}".`,
          target: target('kb_article', { operation: 'update', articleId: article.id, articleFields: ['mainKnowledge', 'questions'] }),
        },
        { article: { articleId: article.id, title: article.title, mainKnowledge: corrected(article.body, conflict), questions } },
      ),
    ]);
  }
  if (note.terse) {
    return result('The feedback gives a value but not what it is about, and no article sentence about this question states a value of its kind: nothing to change.', 'low', [], [
      { fragment: factText, message: 'Not understood: which fact this value replaces. Write the whole fact, e.g. "Standard shipping takes 3 to 5 business days."' },
    ]);
  }

  // Where the knowledge already holds the fact.
  const holder = input.articles
    .map((article) => ({ article, ...bestSentence(article.body, factTerms, pairs) }))
    .filter((h) => h.coverage >= 0.75 && holdsComplement(h.sentence, facts) && holdsValues(h.sentence, facts) && namesSubject(h.article, facts))
    .sort((a, b) => b.coverage - a.coverage || Number(b.article.used) - Number(a.article.used))[0];
  if (holder) {
    const { article, sentence } = holder;
    if (input.performKnowledgeSearch === false) {
      const topic = topicWords(input.question, 3);
      return result(`Search the knowledge base for messages about ${topic.join(', ')}.`, 'medium', [
        change(
          'update_prompt',
          {
            failureStage: 'planning',
            failureMode: 'required_search_skipped',
            reasoning: `The planner answered without searching the knowledge base, and the article "${article.title}" holds what the feedback expects.`,
            target: target('prompt', { operation: 'update', promptType: 'hcPlanningPrompt' }),
          },
          { promptSection: { promptType: 'hcPlanningPrompt', title: `Search for ${topic.join(' ')}`, content: `Always search the knowledge base when the customer mentions: ${topic.join(', ')}` } },
        ),
      ]);
    }
    const answered = answerCoverage(input.answer, factTerms);
    if (article.used && !input.handover && answered < 0.75) {
      const topic = topicOf(input.question, article, sentence, 1);
      const content =
        `When the customer asks about ${topic.join(' ')}, always include: "${sentence}"\n` +
        `When you answer from the article "${article.title.replace(/"/g, "'")}", always include: "${sentence}"`;
      return result(`When the customer asks about ${topic.join(' ')}, include: "${sentence}"`, 'medium', [
        change(
          'update_prompt',
          {
            failureStage: 'answer_generation',
            failureMode: 'required_information_omitted',
            reasoning: `The answer used "${article.title}", which says "${sentence}", but left it out (the answer holds ${Math.round(answered * 100)}% of the feedback's terms).`,
            target: target('prompt', { operation: 'update', promptType: 'hcGuidelinePrompt' }),
          },
          { promptSection: { promptType: 'hcGuidelinePrompt', title: sectionTitle(sentence, input.question, article.title), content } },
        ),
      ]);
    }
    if (!article.used) {
      return result(`Add the customer's question to the article "${article.title}" so it is found for questions like this one.`, 'medium', [
        change(
          'update_article',
          {
            failureStage: 'knowledge_search',
            failureMode: 'relevant_knowledge_not_retrieved',
            reasoning: `The article "${article.title}" says "${sentence}", but the agent did not answer from it (coverage ${round(holder.coverage)} of the feedback's terms).`,
            target: target('kb_article', { operation: 'update', articleId: article.id, articleFields: ['questions'] }),
          },
          { article: { articleId: article.id, title: article.title, mainKnowledge: article.body, questions: withQuestion(article.questions, input.question) } },
        ),
      ]);
    }
    return result(`The article "${article.title}" holds the fact and the answer says it already: nothing to change.`, 'low', []);
  }

  // An article covers the subject but lacks the fact: it gains the fact.
  const covering = coveringArticle(input.articles, input.question, facts);
  if (covering) {
    return result(`Add to the article "${covering.title}": "${truncate(factText, 200)}"`, 'medium', [
      change(
        'update_article',
        {
          failureStage: 'knowledge_search',
          failureMode: 'relevant_knowledge_not_available',
          reasoning: `The article "${covering.title}" covers this question but does not say what the feedback expects ("${truncate(factText, 200)}").`,
          target: target('kb_article', { operation: 'update', articleId: covering.id, articleFields: ['mainKnowledge', 'questions'] }),
        },
        {
          article: {
            articleId: covering.id,
            title: covering.title,
            mainKnowledge: withFact(covering.body, facts),
            questions: withQuestion(covering.questions, input.question),
          },
        },
      ),
    ]);
  }

  const title = articleTitle(input.question);
  return result(`Add an article "${title}" with the facts of the feedback.`, factTerms.length >= 3 ? 'high' : 'medium', [
    change(
      'create_article',
      {
        failureStage: 'knowledge_search',
        failureMode: 'relevant_knowledge_not_available',
        reasoning: `No article of the agent's knowledge says what the feedback expects ("${truncate(factText, 200)}")${input.handover ? `; the agent handed over (${input.escalationReason ?? 'other'})` : ''}.`,
        target: target('kb_article', { operation: 'create' }),
      },
      { article: { articleId: null, title, mainKnowledge: factText, questions: [truncate(input.question, 900)] } },
    ),
  ]);
}

function withQuestion(questions: readonly string[], question: string): string[] {
  return [...questions.filter((q) => q.toLowerCase() !== question.toLowerCase()), truncate(question, 900)].slice(-100);
}

/** The statements of a feedback note as help-center text (diagnose-note.ts reads them). */
export function factsOf(feedback: string): string[] {
  return readNote(feedback).facts;
}

/** The sentence of `body` that holds most of `wanted` (weighted by rarity), and that share. */
function bestSentence(body: string, wanted: string[], pairs: readonly (readonly [string, string])[]): { sentence: string; coverage: number } {
  const weight = (t: string) => rarity(t);
  const total = wanted.reduce((sum, t) => sum + weight(t), 0);
  let best = { sentence: '', coverage: 0 };
  if (total === 0) return best;
  const units = splitSentences(body);
  // One sentence, or two in a row when a fact spans them (only when that holds more of it).
  const candidates = [...units, ...units.slice(0, -1).map((unit, i) => `${unit} ${units[i + 1]!}`)];
  for (const [i, text] of candidates.entries()) {
    // Two sentences hold the fact only when they keep its word pairs together ("return label" is not "... label. ... Return").
    if (i >= units.length && splitsPair(terms(text), pairs)) continue;
    const said = new Set(terms(text));
    const coverage = wanted.reduce((sum, t) => sum + (said.has(t) ? weight(t) : 0), 0) / total;
    if (coverage > best.coverage + 1e-9) best = { sentence: text.trim(), coverage: round(coverage) };
  }
  return best;
}

/** Whether `sentence` states every value the facts state (a sentence with "5 to 7 days" does not hold "7 to 10 days"). */
function holdsValues(sentence: string, facts: readonly string[]): boolean {
  const own = new Set(factValues(sentence));
  return facts.every((fact) => factValues(fact).every((v) => own.has(v)));
}

/** Whether the article names every distinctive word of the facts (an article that never says "UK" does not hold a fact about it). */
function namesSubject(article: DiagnoseArticle, facts: readonly string[]): boolean {
  const said = new Set(terms(`${article.title} ${article.body}`));
  return facts.every((fact) => terms(fact.replace(/\d+/g, ' ')).every((t) => COMMON_STEMS.has(t) || said.has(t)));
}

const COPULA = /\b(?:is|are|was|were|be|becomes?|costs?|stays?)\s+(?:not\s+|also\s+|always\s+)*(.+)$/i;

/** Whether `sentence` holds what each fact says of its subject after "is", "are", "costs" ("free" in "the return label is free"). */
function holdsComplement(sentence: string, facts: readonly string[]): boolean {
  const said = new Set(terms(sentence));
  return facts.every((fact) => {
    const complement = COPULA.exec(fact)?.[1];
    return !complement || terms(complement).slice(0, 3).every((t) => said.has(t));
  });
}

/** Whether `said` holds both words of one of `pairs` but never next to each other. */
function splitsPair(said: readonly string[], pairs: readonly (readonly [string, string])[]): boolean {
  return pairs.some(([a, b]) => {
    if (!said.includes(a) || !said.includes(b)) return false;
    return !said.some((t, i) => (t === a && (said[i + 1] === b || said[i - 1] === b)));
  });
}

function answerCoverage(answer: string, wanted: string[]): number {
  if (wanted.length === 0) return 1;
  const said = new Set(terms(answer));
  return wanted.filter((t) => said.has(t)).length / wanted.length;
}

/** The intent rule whose name and description share most words with the message (at least two). */
function closestRule(message: string, rules: DiagnoseInput['rules']) {
  const said = new Set(terms(message));
  let best: { rule: DiagnoseInput['rules'][number]; shared: number } | null = null;
  for (const rule of rules) {
    const shared = new Set(terms(`${rule.name} ${rule.description}`).filter((t) => said.has(t))).size;
    if (shared >= 2 && (!best || shared > best.shared)) best = { rule, shared };
  }
  return best?.rule ?? null;
}

/** The question's most distinctive words, in the question's order. */
function topicWords(question: string, count: number): string[] {
  const words = [...new Set(tokenize(question).filter((w) => !STOPWORDS.has(w) && w.length > 2))];
  const chosen = [...words].sort((a, b) => rarity(terms(b)[0] ?? b) - rarity(terms(a)[0] ?? a)).slice(0, count);
  return words.filter((w) => chosen.includes(w));
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}
