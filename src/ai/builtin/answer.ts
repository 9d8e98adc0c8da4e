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
  const required = requiredStatements(input.prompts.guideline, input.question, top.title).filter((r) => !extracted.toLowerCase().includes(r.toLowerCase().replace(/[.!]+$/, '')));
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
 * X (stemmed), and a line `When you answer from the article "Title", always include: "statement"`
 * (what Refine with AI writes, so a fix holds for any wording that finds the article) adds it to an
 * answer from that article; unless the answer says it already.
 */
const INCLUDE_INSTRUCTION = /when the customer asks about ([^,\n]+),\s*always (?:include|mention|say)(?: that)?:?\s*"([^"\n]+)"/gi;
const ARTICLE_INSTRUCTION = /when you answer from the article "([^"\n]+)",\s*always (?:include|mention|say)(?: that)?:?\s*"([^"\n]+)"/gi;

export function requiredStatements(guideline: string, question: string, articleTitle?: string): string[] {
  const asked = new Set(terms(question));
  const out: string[] = [];
  const add = (statement: string) => {
    const trimmed = statement.trim();
    if (!out.includes(trimmed)) out.push(trimmed);
  };
  for (const match of guideline.matchAll(INCLUDE_INSTRUCTION)) {
    const topic = terms(match[1]!);
    if (topic.length && topic.every((t) => asked.has(t))) add(match[2]!);
  }
  const title = articleTitle ? squash(articleTitle).toLowerCase() : null;
  if (title) for (const match of guideline.matchAll(ARTICLE_INSTRUCTION)) if (squash(match[1]!).toLowerCase() === title) add(match[2]!);
  return out;
}

const LIST_LINE = /^\s*(?:\d{1,3}[.)]|[-*•+])\s+/;
const MAX_UNITS = 3;
const MAX_ANSWER_CHARS = 900;
/** What a unit that gives the kind of thing the question asks for (a time, an amount, a list) adds to its score. */
const KIND_BONUS = 1.5;

interface Unit {
  text: string;
  position: number;
  score: number;
  list: boolean;
  /** The position of the list this sentence introduces (it ends with a colon), or of the sentence that introduces this list. */
  partner: number | null;
}

/**
 * What a question asks for: a time or duration ("how long", "when"), an amount ("how much",
 * "what does it cost"), a list of options ("which", "can I pay with", "do you accept"), steps
 * ("how do I"), or something else. The extract prefers the units that give it.
 */
export type QuestionKind = 'duration' | 'amount' | 'list' | 'steps' | 'other';

const KIND_PATTERNS: readonly [Exclude<QuestionKind, 'other'>, RegExp][] = [
  ['duration', /\b(?:how\s+long|how\s+soon|how\s+fast|how\s+quickly|how\s+many\s+(?:minutes|hours|days|weeks|months)|when|what\s+time|by\s+when|until\s+when)\b/],
  ['amount', /\b(?:how\s+much|costs?|price[sd]?|pricing|fees?|charges?|charged|expensive|cheap|free)\b/],
  [
    'list',
    /\b(?:which|what\s+(?:are\s+(?:the|your)\s+)?(?:\w+\s+)?(?:options|methods|ways|kinds|types|sorts|choices)|(?:can|could|may)\s+(?:i|we)\s+(?:pay|use)|do\s+(?:you|u)\s+(?:take|accept|offer|support|have))\b/,
  ],
  ['steps', /\b(?:how\s+(?:do|can|could|should|would)\s+(?:i|we|u)|how\s+to|what\s+(?:do|should)\s+(?:i|we)\s+do|steps?\s+to)\b/],
];

export function questionKind(question: string): QuestionKind {
  const q = question.toLowerCase().replace(/[^\p{L}\p{N}$€£\s]+/gu, ' ');
  return KIND_PATTERNS.find(([, pattern]) => pattern.test(q))?.[0] ?? 'other';
}

const NUMBER_WORD = '(?:\\d+(?:[.,]\\d+)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|fifteen|twenty|thirty|forty|sixty|ninety|a\\s+few|several|a\\s+couple\\s+of)';
const DURATION = new RegExp(
  `\\b${NUMBER_WORD}(?:\\s*(?:-|–|to|or|and)\\s*${NUMBER_WORD})?\\s*(?:business\\s+|working\\s+|calendar\\s+)?(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\\b` +
    '|\\b(?:same|next)[-\\s](?:business\\s+|working\\s+)?day\\b|\\b(?:immediately|instantly|overnight|right\\s+away)\\b',
  'i',
);
const AMOUNT = /[$€£¥]\s?\d|\b\d+(?:[.,]\d+)?\s?(?:usd|eur|gbp|dollars?|euros?|pounds?|cents?)\b|\b\d+(?:[.,]\d+)?\s?%|\bfree\b|\bno\s+(?:extra\s+)?(?:charge|cost|fee)\b/i;

/** Whether a unit gives what a question of this kind asks for. */
function givesKind(unit: Unit, kind: QuestionKind): boolean {
  switch (kind) {
    case 'duration':
      return !unit.list && DURATION.test(unit.text);
    case 'amount':
      return AMOUNT.test(unit.text);
    case 'list':
    case 'steps':
      return unit.list;
    case 'other':
      return false;
  }
}

/**
 * The sentences of the article that answer the question: the article's units (sentences, and each
 * list as one unit, its items in order) scored by the question's terms they hold (weighted by
 * rarity) and by whether they give what the question asks for (a time for "how long", an amount
 * for "how much", the list for "which" or "can I pay with", the steps for "how do I"); the best
 * three in the article's order. A list comes with the sentence that introduces it, and that
 * sentence never comes without its list. An article whose text matches none of the question's
 * terms answers with its opening.
 */
export function extractAnswer(question: string, article: Pick<AnswerArticle, 'title' | 'body'>): string {
  const asked = new Set(terms(`${question}`));
  const kind = questionKind(question);
  const units = articleUnits(article.body);
  if (units.length === 0) return squash(stripMarkdown(article.title));
  const relevant = new Set<Unit>();
  for (const unit of units) {
    const held = new Set(terms(unit.text));
    let score = 0;
    for (const t of held) if (asked.has(t)) score += rarity(t);
    // Steps are what "how do I" questions want; the opening sentence usually states the answer.
    if (unit.list) score *= 1.3;
    const gives = givesKind(unit, kind);
    if (score > 0 || gives) relevant.add(unit);
    if (unit.position === 0) score += 0.5;
    if (gives) score += KIND_BONUS;
    unit.score = score + similarity(question, unit.text) * 0.5;
  }
  // An introduction is as good as its list, and the list as its introduction.
  for (const unit of units) if (unit.partner !== null) unit.score = Math.max(unit.score, units[unit.partner]!.score);
  const best = [...units].sort((a, b) => b.score - a.score || a.position - b.position);
  const picked = new Set<Unit>();
  const pick = (unit: Unit) => {
    picked.add(unit);
    if (unit.partner !== null) picked.add(units[unit.partner]!);
  };
  pick(best[0]!);
  for (const unit of best.slice(1)) {
    if (picked.size >= MAX_UNITS) break;
    if (!picked.has(unit) && unit.score > 0.5 && (relevant.has(unit) || (unit.partner !== null && relevant.has(units[unit.partner]!)))) pick(unit);
  }
  const chosen = [...picked].sort((a, b) => a.position - b.position);
  let out = '';
  let lastWasList = false;
  for (const unit of chosen) {
    // A list stands in its own paragraph.
    const next = out ? `${out}${unit.list || lastWasList ? '\n\n' : ' '}${unit.text}` : unit.text;
    if (next.length > MAX_ANSWER_CHARS && out) break;
    lastWasList = unit.list;
    out = next;
  }
  // An introduction whose list did not fit is left out rather than left dangling.
  if (/:\s*$/.test(out)) out = out.replace(/\s*[^\n]*:\s*$/, '').trim() || out;
  return out.length > MAX_ANSWER_CHARS ? truncateAtWord(out, MAX_ANSWER_CHARS) : out;
}

/** A line under an introduction (a sentence ending with a colon) that reads as an item: short, no full stop. */
const BARE_ITEM = /^[^.!?]{1,80}$/;

/**
 * The article's units in order: sentences, and lists (bulleted or numbered lines, also when a blank
 * line separates their items, and short bare lines right under a sentence ending with a colon)
 * each as one unit with its items as `- item` or `1. item` lines. A list and the sentence that
 * introduces it name each other (`partner`). Headings are left out.
 */
function articleUnits(body: string): Unit[] {
  const units: Unit[] = [];
  let list: string[] = [];
  let blankSinceList = false;
  const flush = () => {
    if (list.length) {
      const intro = units[units.length - 1];
      const position = units.length;
      const introduced = intro && !intro.list && /:\s*$/.test(intro.text) && intro.partner === null;
      units.push({ text: list.join('\n'), position, score: 0, list: true, partner: introduced ? intro.position : null });
      if (introduced) intro.partner = position;
    }
    list = [];
    blankSinceList = false;
  };
  const underIntro = () => {
    const last = units[units.length - 1];
    return list.length === 0 ? last !== undefined && !last.list && last.partner === null && /:\s*$/.test(last.text) && !blankSinceList : !blankSinceList;
  };
  for (const raw of body.split(/\n/)) {
    const line = raw.trim();
    if (!line) {
      if (list.length) blankSinceList = true;
      continue;
    }
    if (LIST_LINE.test(line)) {
      blankSinceList = false;
      list.push(squash(stripMarkdown(line.replace(LIST_LINE, (m) => m.trim() + ' '))));
      continue;
    }
    if (/^#{1,6}\s/.test(line)) {
      flush();
      continue;
    }
    // Short bare lines right under "... any of these:" are that sentence's list.
    if (BARE_ITEM.test(line) && underIntro() && (list.length === 0 || list.every((item) => item.startsWith('- ')))) {
      list.push(`- ${squash(stripMarkdown(line))}`);
      continue;
    }
    flush();
    for (const sentence of splitSentences(stripMarkdown(line))) {
      const text = squash(sentence);
      if (text.length >= 3) units.push({ text, position: units.length, score: 0, list: false, partner: null });
    }
  }
  flush();
  return units;
}
