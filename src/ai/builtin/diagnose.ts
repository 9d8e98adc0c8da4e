import type { ChangeOutput, DiagnoseInput, DiagnoseOutput, RootCauseOutput } from '../contracts/diagnose.js';
import { changesValue, factValues, valueAsWritten, withoutValues } from './facts.js';
import { splitSentences, squash, stripMarkdown } from '../../text/sentences.js';
import { rarity, STOPWORDS, terms, tokenize } from '../../text/terms.js';

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

const SAID_PREFIX =
  /^(?:(?:it|the (?:agent|bot|answer|reply|response)|you)\s+(?:should|must|needs? to|ought to)\s+(?:have\s+)?(?:said|say|told|tell|mentioned|mention|answered|answer|explained|explain|stated|state|replied|reply)(?:\s+(?:the customer|them|him|her))?(?:\s+that)?[:,]?\s*|(?:actually|in fact|correction|wrong|incorrect|not quite|no|also|plus|note)[:,.!]?\s+|the (?:correct|right|real) answer is[:,]?\s*|(?:please\s+)?(?:mention|say|state|explain|tell (?:the customer|them|him|her))(?:\s+that)?[:,]?\s+|(?:it|this) is wrong[:,.]?\s*)/i;
/** A step the agent should have taken. */
const STEP =
  /\b(?:ask(?:ed|ing)?|collect(?:ed|ing)?|request(?:ed|ing)?|verify|verified|confirm(?:ed)?)\s+(?:the customer\s+)?(?:for\s+)?((?:the|their|his|her|an?|your)\s+)?([a-z][a-z0-9' -]{1,40}?)(?=\s+(?:first|before|beforehand|at the start)\b|\s*[.,;!?]|\s+(?:and|then)\b|$)/i;
/** Sentences that tell the agent how to behave ("Be friendlier.", "Don't apologise so much.") state no fact. */
const IMPERATIVE =
  /^(?:please\s+)?(?:be|do|don't|do not|never|always|use|keep|make|avoid|try|stop|remove|write|answer|reply|sound|give|ask|apologi[sz]e)\b/i;
const STEP_CONTEXT = /\b(?:should|must|needs? to|need to|has to|have to|forgot|didn't|did not|never|first|before|always)\b/i;
const FIRST = /\b(?:first|before anything|at the start|beforehand)\b/i;

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
      };
    }
  }

  const facts = factsOf(feedback);
  if (facts.length === 0) {
    return {
      summary: step
        ? `The feedback asks for a step ("${step.phrase}") but no intent rule of the agent handles this message; a new rule is a change to make by hand.`
        : 'The feedback states no fact and no step the agent should have taken: nothing to change.',
      confidence: 'low',
      changes: [],
    };
  }
  const knowledge = knowledgeDiagnosis(input, facts);
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
  };
}

/** What the knowledge says about the feedback's facts, and the change to it. */
function knowledgeDiagnosis(input: DiagnoseInput, facts: string[]): DiagnoseOutput {
  const factText = facts.join(' ');
  const factTerms = [...new Set(facts.flatMap((f) => terms(f)))];

  // Where the knowledge says the same thing with another quantity.
  for (const article of input.articles) {
    const conflict = conflictingSentence(article.body, facts);
    if (!conflict) continue;
    const mainKnowledge = article.body.replace(conflict.sentence, conflict.corrected);
    // An article the agent did not answer from also learns the customer's question.
    const questions = article.used ? article.questions : withQuestion(article.questions, input.question);
    return {
      summary: `Correct the article "${article.title}": "${conflict.fact}"${article.used ? '' : ', and add the customer\'s question to it'}`,
      confidence: 'high',
      changes: [
        change(
          'update_article',
          {
            failureStage: 'knowledge_content',
            failureMode: 'incorrect_knowledge',
            reasoning: `The article "${article.title}" says "${conflict.sentence.trim()}" where the feedback says "${conflict.fact}".`,
            target: target('kb_article', { operation: 'update', articleId: article.id, articleFields: article.used ? ['mainKnowledge'] : ['mainKnowledge', 'questions'] }),
          },
          { article: { articleId: article.id, title: article.title, mainKnowledge, questions } },
        ),
      ],
    };
  }

  // Where the knowledge already holds the fact.
  const holder = input.articles
    .map((article) => ({ article, ...bestSentence(article.body, factTerms) }))
    .filter((h) => h.coverage >= 0.75)
    .sort((a, b) => b.coverage - a.coverage || Number(b.article.used) - Number(a.article.used))[0];
  if (holder) {
    const { article, sentence } = holder;
    if (input.performKnowledgeSearch === false) {
      const topic = topicWords(input.question, 3);
      return {
        summary: `Search the knowledge base for messages about ${topic.join(', ')}.`,
        confidence: 'medium',
        changes: [
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
        ],
      };
    }
    const answered = answerCoverage(input.answer, factTerms);
    if (article.used && !input.handover && answered < 0.75) {
      const topic = topicWords(input.question, 2);
      return {
        summary: `When the customer asks about ${topic.join(' ')}, include: "${sentence}"`,
        confidence: 'medium',
        changes: [
          change(
            'update_prompt',
            {
              failureStage: 'answer_generation',
              failureMode: 'required_information_omitted',
              reasoning: `The answer used "${article.title}", which says "${sentence}", but left it out (the answer holds ${Math.round(answered * 100)}% of the feedback's terms).`,
              target: target('prompt', { operation: 'update', promptType: 'hcGuidelinePrompt' }),
            },
            { promptSection: { promptType: 'hcGuidelinePrompt', title: `Always mention: ${truncate(sentence, 60)}`, content: `When the customer asks about ${topic.join(' ')}, always include: "${sentence}"` } },
          ),
        ],
      };
    }
    if (!article.used) {
      return {
        summary: `Add the customer's question to the article "${article.title}" so it is found for questions like this one.`,
        confidence: 'medium',
        changes: [
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
        ],
      };
    }
    return { summary: `The article "${article.title}" holds the fact and the answer says it already: nothing to change.`, confidence: 'low', changes: [] };
  }

  const title = titleOf(input.question);
  return {
    summary: `Add an article "${title}" with the facts of the feedback.`,
    confidence: factTerms.length >= 3 ? 'high' : 'medium',
    changes: [
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
    ],
  };
}

function withQuestion(questions: readonly string[], question: string): string[] {
  return [...questions.filter((q) => q.toLowerCase() !== question.toLowerCase()), truncate(question, 900)].slice(-100);
}

/** The step the feedback says the agent should have taken, when it names one. */
export function findStep(feedback: string): { phrase: string; first: boolean } | null {
  for (const sentence of splitSentences(feedback)) {
    if (!STEP_CONTEXT.test(sentence)) continue;
    const match = STEP.exec(sentence);
    if (!match) continue;
    const phrase = `${match[1] ?? 'the '}${match[2]!.trim()}`.replace(/\s+/g, ' ').trim();
    if (terms(phrase).length === 0) continue;
    return { phrase, first: FIRST.test(sentence) };
  }
  return null;
}

/** The statements of a feedback note: its sentences with "it should have said that" and the like taken off. */
export function factsOf(feedback: string): string[] {
  const out: string[] = [];
  for (const raw of splitSentences(feedback)) {
    let sentence = raw.trim();
    for (let i = 0; i < 3; i++) sentence = sentence.replace(SAID_PREFIX, '').trim();
    sentence = sentence.replace(/^["“']|["”']$/g, '').trim();
    if (sentence.length < 8 || terms(sentence).length < 2) continue;
    if (STEP_CONTEXT.test(sentence) && STEP.test(sentence)) continue;
    if (/\?$/.test(sentence) || IMPERATIVE.test(sentence)) continue;
    const text = sentence.charAt(0).toUpperCase() + sentence.slice(1);
    out.push(/[.!]$/.test(text) ? text : `${text}.`);
  }
  return out;
}

/**
 * A sentence of `body` about the same thing as one of `facts` (most of the fact's words) with other
 * values (facts.ts: durations, amounts, dates, counts, plans), and the sentence corrected: its one
 * differing value replaced by the fact's when both hold one, else the fact in its place.
 */
function conflictingSentence(body: string, facts: string[]): { sentence: string; fact: string; corrected: string } | null {
  let best: { sentence: string; fact: string; corrected: string; shared: number; common: number } | null = null;
  for (const fact of facts) {
    const factQuantities = factValues(fact);
    if (factQuantities.length === 0) continue;
    for (const sentence of splitSentences(body)) {
      const own = factValues(sentence);
      if (!changesValue(own, factQuantities)) continue;
      // Values both state (the same plan, say) are part of what the two are about.
      const subject = terms(withoutValues(fact, new Set(own.filter((q) => factQuantities.includes(q)))));
      if (subject.length < 2) continue;
      const said = new Set(terms(sentence));
      const shared = subject.filter((t) => said.has(t)).length / subject.length;
      // The best match: the most subject words, then the most values in common (the Pro plan's sentence for a fact about the Pro plan).
      const common = own.filter((q) => factQuantities.includes(q)).length;
      if (shared < 0.6 || (best && (shared < best.shared || (shared === best.shared && common <= best.common)))) continue;
      const differing = [...new Set(own.filter((q) => !factQuantities.includes(q)))];
      const replacing = [...new Set(factQuantities.filter((q) => !own.includes(q)))];
      const corrected =
        differing.length === 1 && replacing.length === 1
          ? sentence.replace(new RegExp(differing[0]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'), 'i'), valueAsWritten(fact, replacing[0]!))
          : fact;
      best = { sentence, fact, corrected, shared, common };
    }
  }
  return best && { sentence: best.sentence, fact: best.fact, corrected: best.corrected };
}

/** The sentence of `body` that holds most of `wanted` (weighted by rarity), and that share. */
function bestSentence(body: string, wanted: string[]): { sentence: string; coverage: number } {
  const weight = (t: string) => rarity(t);
  const total = wanted.reduce((sum, t) => sum + weight(t), 0);
  let best = { sentence: '', coverage: 0 };
  if (total === 0) return best;
  const units = splitSentences(body);
  // One sentence, or two in a row when a fact spans them (only when that holds more of it).
  const candidates = [...units, ...units.slice(0, -1).map((unit, i) => `${unit} ${units[i + 1]!}`)];
  for (const text of candidates) {
    const said = new Set(terms(text));
    const coverage = wanted.reduce((sum, t) => sum + (said.has(t) ? weight(t) : 0), 0) / total;
    if (coverage > best.coverage + 1e-9) best = { sentence: text.trim(), coverage: round(coverage) };
  }
  return best;
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

function titleOf(question: string): string {
  const text = squash(question).replace(/^(?:hi|hello|hey)[,!.\s]+/i, '').trim();
  const title = text.charAt(0).toUpperCase() + text.slice(1);
  return truncate(title, 200);
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}
