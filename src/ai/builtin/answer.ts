import type { AnswerArticle, AnswerInput, AnswerOutput, EscalationReason } from '../contracts/answer.js';
import { splitSentences, squash, stripMarkdown, truncateAtWord } from '../../text/sentences.js';
import { similarity } from '../../text/similarity.js';
import { rarity, terms } from '../../text/terms.js';
import { answerConfidence, rankCandidates } from './confidence.js';
import { round } from './round.js';

/**
 * The built-in engine's `generate_answer` method (docs/conversations.md): a grounded extractive
 * answer from the best article, or a hand-over when the knowledge does not answer (confidence.ts
 * measures that). Deterministic, offline, derived from its inputs alone.
 */

/**
 * The engine's answer: the article's sentences that answer the question, or a hand-over with its
 * reason. The words the customer reads around it (a hand-over's message, an email's salutation and
 * closing) belong to the conversations module (modules/conversations/handover.ts), which the
 * `generate_answer` task applies to this answer: a hand-over's `answer` is empty here.
 */
export function composeAnswer(input: AnswerInput): AnswerOutput {
  const { ranked, features } = rankCandidates(input.question, input.articles);
  const top = ranked[0];
  if (!top) {
    return {
      answer: '',
      usedArticleIds: [],
      handover: true,
      reason: 'missing_knowledge',
      confidence: 0,
      bestArticleId: null,
      reasoning: 'No article of the knowledge base matches the question: hand over to a person.',
    };
  }
  const confidence = answerConfidence(features);
  const measured =
    `best article "${top.title}" (score ${round(features.topScore)}, title similarity ${round(features.titleSimilarity)}, margin ${round(features.margin)} over the next), ` +
    `it holds ${Math.round(features.coverage * 100)}% of the question's terms (${Math.round(features.titleCoverage * 100)}% in its title or questions); ` +
    `confidence ${confidence}, answering from ${input.minConfidence}`;
  if (confidence < input.minConfidence) {
    const reason: EscalationReason = features.coverage < 0.5 ? 'missing_knowledge' : 'low_confidence';
    return {
      answer: '',
      usedArticleIds: [],
      handover: true,
      reason,
      confidence,
      bestArticleId: top.id,
      reasoning: `${reason === 'missing_knowledge' ? 'The knowledge base does not answer the question' : 'The best article may not answer the question'}: ${measured}. Hand over to a person.`,
    };
  }
  if (top.escalation) {
    return {
      answer: '',
      usedArticleIds: [top.id],
      handover: true,
      reason: 'other',
      confidence,
      bestArticleId: top.id,
      reasoning: `The article "${top.title}" answers the question and asks for a hand-over: ${measured}.`,
    };
  }
  const extracted = extractAnswer(input.question, top);
  const required = requiredStatements(input.prompts.guideline, input.question).filter((r) => !extracted.toLowerCase().includes(r.toLowerCase().replace(/[.!]+$/, '')));
  const text = required.length ? `${extracted}\n\n${required.join(' ')}` : extracted;
  return {
    answer: text,
    usedArticleIds: [top.id],
    handover: false,
    reason: null,
    confidence,
    bestArticleId: top.id,
    reasoning: `Answered from ${measured}.`,
  };
}

/**
 * Guideline instructions the built-in engine follows: a line `When the customer asks about X,
 * always include: "statement"` adds the statement to an answer whose question holds every word of
 * X (stemmed), unless the answer says it already.
 */
const INCLUDE_INSTRUCTION = /when the customer asks about ([^,\n]+),\s*always (?:include|mention|say)(?: that)?:?\s*"([^"\n]+)"/gi;

export function requiredStatements(guideline: string, question: string): string[] {
  const asked = new Set(terms(question));
  const out: string[] = [];
  for (const match of guideline.matchAll(INCLUDE_INSTRUCTION)) {
    const topic = terms(match[1]!);
    if (topic.length && topic.every((t) => asked.has(t)) && !out.includes(match[2]!)) out.push(match[2]!.trim());
  }
  return out;
}

const LIST_LINE = /^\s*(?:\d{1,3}[.)]|[-*•+])\s+/;
const MAX_UNITS = 3;
const MAX_ANSWER_CHARS = 900;

interface Unit {
  text: string;
  position: number;
  score: number;
  list: boolean;
}

/**
 * The sentences of the article that answer the question: the article's units (sentences, and each
 * list of steps as one unit, its steps in order) scored by the question's terms they hold
 * (weighted by rarity), the best three in the article's order. An article whose text matches none
 * of the question's terms answers with its opening.
 */
export function extractAnswer(question: string, article: Pick<AnswerArticle, 'title' | 'body'>): string {
  const asked = new Set(terms(`${question}`));
  const units = articleUnits(article.body);
  if (units.length === 0) return squash(stripMarkdown(article.title));
  for (const unit of units) {
    const held = new Set(terms(unit.text));
    let score = 0;
    for (const t of held) if (asked.has(t)) score += rarity(t);
    // Steps are what "how do I" questions want; the opening sentence usually states the answer.
    if (unit.list) score *= 1.3;
    if (unit.position === 0) score += 0.5;
    unit.score = score + similarity(question, unit.text) * 0.5;
  }
  const chosen = [...units]
    .sort((a, b) => b.score - a.score || a.position - b.position)
    .slice(0, MAX_UNITS)
    .filter((u, i) => i === 0 || u.score > 0.5)
    .sort((a, b) => a.position - b.position);
  let out = '';
  let lastWasList = false;
  for (const unit of chosen) {
    // A list of steps stands in its own paragraph.
    const next = out ? `${out}${unit.list || lastWasList ? '\n\n' : ' '}${unit.text}` : unit.text;
    lastWasList = unit.list;
    if (next.length > MAX_ANSWER_CHARS && out) break;
    out = next;
  }
  return out.length > MAX_ANSWER_CHARS ? truncateAtWord(out, MAX_ANSWER_CHARS) : out;
}

function articleUnits(body: string): Unit[] {
  const units: Unit[] = [];
  let list: string[] = [];
  const flush = () => {
    if (list.length) units.push({ text: list.join('\n'), position: units.length, score: 0, list: true });
    list = [];
  };
  for (const raw of body.split(/\n/)) {
    const line = raw.trim();
    if (!line) {
      flush();
      continue;
    }
    if (LIST_LINE.test(line)) {
      list.push(squash(stripMarkdown(line.replace(LIST_LINE, (m) => m.trim() + ' '))));
      continue;
    }
    flush();
    if (/^#{1,6}\s/.test(line)) continue;
    for (const sentence of splitSentences(stripMarkdown(line))) {
      const text = squash(sentence);
      if (text.length >= 3) units.push({ text, position: units.length, score: 0, list: false });
    }
  }
  flush();
  return units;
}

