import type { AnswerArticle, AnswerInput, AnswerOutput, EscalationReason } from '../contracts/answer.js';
import type { EvaluateInput, EvaluateOutput } from '../contracts/evaluate.js';
import type { PlanInput, PlanOutput } from '../contracts/plan.js';
import type { SelectTagsInput, SelectTagsOutput, TagGroupChoice, TagSelection } from '../contracts/select-tags.js';
import { scoreSentiment } from './sentiment.js';
import { splitSentences, squash, stripMarkdown, truncateAtWord } from '../../text/sentences.js';
import { similarity } from '../../text/similarity.js';
import { rarity, terms } from '../../text/terms.js';

/**
 * The built-in engine's side of the answer pipeline (docs/conversations.md): planning (small talk,
 * a request for a person, sentiment), a grounded extractive answer that hands over when the
 * knowledge does not answer, tag selection and the evaluation of a conversation. Deterministic,
 * offline, derived from its inputs alone.
 */

// ---------------------------------------------------------------------------------------------
// Planning

const GREETINGS = new Set(['hi', 'hello', 'hey', 'hiya', 'howdy', 'morning', 'afternoon', 'evening', 'greetings', 'yo']);
const THANKS = new Set(['thanks', 'thank', 'thx', 'ty', 'cheers', 'appreciated', 'appreciate']);
const FAREWELLS = new Set(['bye', 'goodbye', 'later', 'farewell']);
/** Words a greeting, thanks or goodbye may hold besides its own. */
const FILLER = new Set([
  'good', 'you', 'so', 'much', 'very', 'a', 'lot', 'there', 'all', 'ok', 'okay', 'great', 'again', 'see', 'ya', 'have', 'nice', 'day',
  'and', 'the', 'for', 'your', 'help', 'that', 'was', 'helpful', 'perfect', 'awesome', 'cool', 'many', 'team', 'folks', 'guys', 'oh', 'ah',
  'well', 'yes', 'no', 'sure', 'fine', 'got', 'it', 'i', 'everyone', 'everybody', 'hope', 'doing', 'are', 'how', 'me', 'for',
]);
const HUMAN_REQUEST =
  /\b(?:speak|talk|chat|connect|transfer|escalate|put)\b[^.?!]{0,40}\b(?:human|person|people|agent|representative|rep|someone|somebody|manager|supervisor|operator|staff)\b|\b(?:real|live|actual)\s+(?:human|person|agent)\b|\bhuman\s+(?:agent|being|please)\b|^\s*(?:human|agent|operator|representative)\s*[.!?]*\s*$/i;

/**
 * Planning instructions the built-in engine follows (a model reads the whole prompt): a line
 * "Always search the knowledge base when the customer mentions: a, b, c" makes a message holding
 * any of those words a question, even one that looks like small talk.
 */
const SEARCH_INSTRUCTION = /always search the knowledge base\b[^:\n]*:\s*([^\n]+)/gi;

export function searchTopics(planningPrompt: string): string[][] {
  const topics: string[][] = [];
  for (const match of planningPrompt.matchAll(SEARCH_INSTRUCTION)) {
    for (const part of match[1]!.split(/,|;|\bor\b/i)) {
      const stems = terms(part);
      if (stems.length) topics.push(stems);
    }
  }
  return topics;
}

export function planMessage(input: PlanInput): PlanOutput {
  const { sentiment, score } = scoreSentiment(input.message);
  const mood = `sentiment ${sentiment} (${score})`;
  const said = new Set(terms(input.message));
  const topic = searchTopics(input.planningPrompt).find((stems) => stems.every((t) => said.has(t)));
  if (topic && !HUMAN_REQUEST.test(input.message)) {
    return {
      reasoning: `The planning instructions say to search the knowledge base for "${topic.join(' ')}": search. ${mood}.`,
      performKnowledgeSearch: true,
      intent: 'question',
      smallTalkReply: null,
      sentiment,
    };
  }
  if (HUMAN_REQUEST.test(input.message)) {
    return {
      reasoning: `The customer asks for a person; hand over without searching. ${mood}.`,
      performKnowledgeSearch: false,
      intent: 'human_request',
      smallTalkReply: null,
      sentiment,
    };
  }
  const small = smallTalk(input.message);
  if (small) {
    return {
      reasoning: `The message is ${small.kind} and asks nothing: no knowledge search. ${mood}.`,
      performKnowledgeSearch: false,
      intent: 'small_talk',
      smallTalkReply: small.reply,
      sentiment,
    };
  }
  return {
    reasoning: `The message asks for information or help: search the knowledge base. ${mood}.`,
    performKnowledgeSearch: true,
    intent: 'question',
    smallTalkReply: null,
    sentiment,
  };
}

function smallTalk(message: string): { kind: string; reply: string } | null {
  if (message.length > 160) return null;
  const tokens = message.toLowerCase().match(/[\p{L}']+/gu) ?? [];
  if (tokens.length === 0 || tokens.length > 12) return null;
  let kind: 'a greeting' | 'thanks' | 'a goodbye' | null = null;
  for (const token of tokens) {
    if (THANKS.has(token)) kind = 'thanks';
    else if (FAREWELLS.has(token)) kind ??= 'a goodbye';
    else if (GREETINGS.has(token)) kind ??= 'a greeting';
    else if (!FILLER.has(token)) return null;
  }
  if (!kind) return null;
  const reply =
    kind === 'thanks'
      ? "You're welcome! Is there anything else I can help you with?"
      : kind === 'a goodbye'
        ? 'Goodbye, and thank you for reaching out!'
        : 'Hello! How can I help you today?';
  return { kind, reply };
}

// ---------------------------------------------------------------------------------------------
// Answer

/**
 * Whether the best article answers the question: a logistic model over what retrieval and the
 * articles say, fitted once on the development split of shared/bench-data/answers (docs/
 * conversations.md has the fit and its cross-validated curve). The search's candidates are first
 * re-ranked by their score relative to the best plus RERANK_TITLE_WEIGHT times the character-
 * trigram similarity of the question to the article's title or one of its questions (which
 * catches what word stems miss: "unfriended" and "friend", "subtitles" and "sub title"). Features
 * of the new first article: the log of its retrieval score, the relative margin of its re-ranked
 * value over the second's, the share of the question's terms (weighted by rarity) it holds
 * anywhere and in its title or questions, the log of its score's lead over the second's, its title
 * similarity and that similarity's lead over the second's.
 */
export const CONFIDENCE_MODEL = {
  bias: -6.604,
  logScore: 1.109,
  margin: -1.128,
  coverage: 1.654,
  titleCoverage: 0.691,
  logLead: 1.204,
  titleSimilarity: 1.941,
  titleSimilarityLead: 2.553,
} as const;
export const RERANK_TITLE_WEIGHT = 2;

export interface ConfidenceFeatures {
  topScore: number;
  secondScore: number;
  margin: number;
  coverage: number;
  titleCoverage: number;
  titleSimilarity: number;
  secondTitleSimilarity: number;
}

interface Candidate {
  article: AnswerArticle;
  titleSimilarity: number;
  value: number;
}

/** The candidates re-ranked (best first) with what the confidence model reads of the first two. */
export function rankCandidates(question: string, articles: readonly AnswerArticle[]): { ranked: AnswerArticle[]; features: ConfidenceFeatures } {
  const best = Math.max(0, ...articles.map((a) => a.score));
  const asked = trigrams(question);
  const candidates: Candidate[] = articles.map((article) => {
    const titleSimilarity = Math.max(0, ...[article.title, ...article.questions].map((t) => trigramCosine(asked, trigrams(t))));
    return { article, titleSimilarity, value: (best > 0 ? article.score / best : 0) + RERANK_TITLE_WEIGHT * titleSimilarity };
  });
  candidates.sort((a, b) => b.value - a.value || b.article.score - a.article.score || (a.article.id < b.article.id ? -1 : 1));
  const [first, second] = candidates;
  const terms_ = [...new Set(terms(question))];
  const total = terms_.reduce((sum, t) => sum + rarity(t), 0);
  const share = (held: ReadonlySet<string>) => (total > 0 ? terms_.reduce((sum, t) => sum + (held.has(t) ? rarity(t) : 0), 0) / total : 0);
  const top = first?.article;
  const whole = top ? new Set(terms(`${top.title}\n${top.questions.join('\n')}\n${top.keywords.join('\n')}\n${top.body}`)) : new Set<string>();
  const heading = top ? new Set(terms(`${top.title}\n${top.questions.join('\n')}`)) : new Set<string>();
  return {
    ranked: candidates.map((c) => c.article),
    features: {
      topScore: Math.max(0, top?.score ?? 0),
      secondScore: Math.max(0, second?.article.score ?? 0),
      margin: first && first.value > 0 ? (first.value - (second?.value ?? 0)) / first.value : 0,
      coverage: share(whole),
      titleCoverage: share(heading),
      titleSimilarity: first?.titleSimilarity ?? 0,
      secondTitleSimilarity: second?.titleSimilarity ?? 0,
    },
  };
}

export function answerConfidence(f: ConfidenceFeatures): number {
  if (f.topScore <= 0) return 0;
  const m = CONFIDENCE_MODEL;
  const z =
    m.bias +
    m.logScore * Math.log1p(f.topScore) +
    m.margin * f.margin +
    m.coverage * f.coverage +
    m.titleCoverage * f.titleCoverage +
    m.logLead * Math.log1p(Math.max(0, f.topScore - f.secondScore)) +
    m.titleSimilarity * f.titleSimilarity +
    m.titleSimilarityLead * (f.titleSimilarity - f.secondTitleSimilarity);
  return Math.round((1 / (1 + Math.exp(-z))) * 10_000) / 10_000;
}

/** Character trigrams of a text's terms (each term padded with `#`), counted. */
function trigrams(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const term of terms(text)) {
    const padded = `#${term}#`;
    for (let i = 0; i + 3 <= padded.length; i++) {
      const gram = padded.slice(i, i + 3);
      out.set(gram, (out.get(gram) ?? 0) + 1);
    }
  }
  return out;
}

function trigramCosine(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [gram, count] of a) {
    na += count * count;
    const other = b.get(gram);
    if (other) dot += count * other;
  }
  for (const count of b.values()) nb += count * count;
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

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

// ---------------------------------------------------------------------------------------------
// Tags

/** A tag applies when the text holds half of its name's and description's terms (each counted as a share). */
export function selectTags(input: SelectTagsInput): SelectTagsOutput {
  return {
    input: chooseTags(input.message, input.inputGroups, 'the customer message'),
    output: chooseTags(`${input.message}\n${input.answer ?? ''}`, input.outputGroups, 'the message and the answer'),
  };
}

const TAG_THRESHOLD = 0.5;

function chooseTags(text: string, groups: readonly TagGroupChoice[], what: string): TagSelection {
  const held = new Set(terms(text));
  const chosenTags: TagSelection['chosenTags'] = [];
  const notes: string[] = [];
  for (const group of groups) {
    const scored = group.tags
      .map((tag) => {
        const nameTerms = [...new Set(terms(tag.name))];
        const descTerms = [...new Set(terms(tag.description))];
        const name = nameTerms.length ? nameTerms.filter((t) => held.has(t)).length / nameTerms.length : 0;
        const desc = descTerms.length ? descTerms.filter((t) => held.has(t)).length / descTerms.length : 0;
        return { tag: tag.name, score: round(name + desc) };
      })
      .sort((a, b) => b.score - a.score || a.tag.localeCompare(b.tag));
    let picked = scored.filter((s) => s.score >= TAG_THRESHOLD);
    if (!group.multiselect) picked = picked.slice(0, 1);
    if (picked.length === 0 && group.mandatory && scored[0]) picked = [scored[0]];
    if (picked.length) {
      chosenTags.push({ group: group.title, tags: picked.map((p) => p.tag) });
      notes.push(`${group.title}: ${picked.map((p) => `${p.tag} (${p.score})`).join(', ')}`);
    }
  }
  return {
    reasoning: notes.length ? `Tags whose words ${what} holds: ${notes.join('; ')}.` : `No tag's words appear in ${what}.`,
    chosenTags,
  };
}

// ---------------------------------------------------------------------------------------------
// Evaluation

/**
 * Groundedness: the share of the reply's sentences whose terms the used articles hold (at least
 * 60% of each sentence's terms); answered: not a hand-over, grounded, and sharing the question's
 * terms. A grounded reply's score is the mean of the two (an ungrounded one's half its supported
 * share); the verdict follows the mean over replies.
 */
export function evaluateConversation(input: EvaluateInput): EvaluateOutput {
  const replies = input.replies.map((reply) => {
    const notes: string[] = [];
    if (reply.handover) {
      notes.push('handed over to a person: not answered by the agent');
      return { eventId: reply.eventId, grounded: true, answered: false, score: 0.5, notes };
    }
    const source = new Set(terms(reply.articles.map((a) => `${a.title}\n${a.body}`).join('\n')));
    const sentences = splitSentences(reply.answer).filter((s) => terms(s).length > 0);
    const supported = sentences.filter((s) => {
      const t = terms(s);
      return t.filter((x) => source.has(x)).length / t.length >= 0.6;
    });
    const groundedShare = sentences.length ? supported.length / sentences.length : 0;
    const grounded = reply.articles.length > 0 && groundedShare >= 0.8;
    if (reply.articles.length === 0) notes.push('no article was used: the reply is not grounded in knowledge');
    else notes.push(`${supported.length} of ${sentences.length} sentences are supported by the used articles`);
    const asked = new Set(terms(reply.question));
    const answerTerms = new Set(terms(`${reply.answer}\n${reply.articles.map((a) => a.title).join('\n')}`));
    const overlap = asked.size ? [...asked].filter((t) => answerTerms.has(t)).length / asked.size : 0;
    const answered = grounded && overlap >= 0.3;
    notes.push(`the reply and its articles hold ${Math.round(overlap * 100)}% of the question's terms`);
    // An ungrounded reply earns nothing for sounding on topic.
    const score = round(grounded ? (groundedShare + (answered ? 1 : overlap)) / 2 : groundedShare / 2);
    return { eventId: reply.eventId, grounded, answered, score, notes };
  });
  const score = replies.length ? round(replies.reduce((s, r) => s + r.score, 0) / replies.length) : 0;
  const verdict = replies.length === 0 ? 'needs_review' : score >= 0.75 ? 'good' : score >= 0.45 ? 'needs_review' : 'poor';
  const notes = [
    replies.length === 0 ? 'the agent has not replied in this conversation' : `${replies.filter((r) => r.answered).length} of ${replies.length} replies answered the question`,
  ];
  return { replies, verdict, score, notes };
}
