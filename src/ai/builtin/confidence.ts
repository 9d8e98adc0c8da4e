import type { AnswerArticle } from '../contracts/answer.js';
import { rarity, terms } from '../../text/terms.js';
import { conceptsOf } from '../../text/thesaurus.js';

/**
 * The built-in engine's confidence that an article answers a question, used by its
 * `generate_answer` method (answer.ts): the search's candidates re-ranked by title similarity and
 * a logistic model over what retrieval and the articles say.
 */

/**
 * Whether the best article answers the question: a logistic model over what retrieval and the
 * articles say (CONFIDENCE_INPUTS reads each input of the features), compared with the agent's
 * threshold (0.6 by default). The search's candidates are first re-ranked by their score relative
 * to the best, plus RERANK_TITLE_WEIGHT times the character-trigram similarity of the question to
 * the article's title or one of its questions (which catches what word stems miss: "unfriended"
 * and "friend", "subtitles" and "sub title"), plus RERANK_SIMILARITY_WEIGHT times the sentence
 * encoder's similarity of the question to the article (../encoder.ts: meaning that shares few words).
 *
 * Inputs, of the new first article: the log of its retrieval score, the relative margin of its
 * re-ranked value over the second's, the share of the question's terms (weighted by rarity) it
 * holds anywhere and in its title or questions, the log of its score's lead over the second's,
 * its title similarity and that similarity's lead over the second's; whether its questions hold
 * its title (the title then counts twice in the search score, which the model takes back); the
 * share of the question's terms the second article holds (two articles that both hold the
 * question are a choice the model is less sure of); and the encoder's similarity and its lead over
 * the best other candidate's.
 *
 * Two sets of weights: CONFIDENCE_MODEL when the candidates carry the encoder's similarities, and
 * LEXICAL_CONFIDENCE_MODEL, without its two inputs, when the encoder is off or failed. Both are
 * fitted by bench/answers/fit-confidence.ts on the development files of shared/bench-data/answers
 * and shared/bench-data/helpcenter, each with the articles' questions empty and with questions =
 * [title], pooled, for the most correct answers with wrong <= 0.05 at 0.6 in each of the four
 * (docs/conversations.md has the fit and its cross-validated figures).
 */
export const CONFIDENCE_MODEL = {
  bias: -4.398,
  logScore: 0.462,
  margin: 1.006,
  coverage: 2.865,
  titleCoverage: 0.381,
  logLead: 0.84,
  titleSimilarity: 0.631,
  titleSimilarityLead: 1.573,
  titleAsked: -0.653,
  secondCoverage: -2.183,
  similarity: 3.002,
  similarityLead: 11.268,
} as const;
/** The weights without the encoder (its two inputs weigh nothing). */
export const LEXICAL_CONFIDENCE_MODEL = {
  bias: -5.166,
  logScore: 0.757,
  margin: 0.395,
  coverage: 3.223,
  titleCoverage: 1.032,
  logLead: 0.92,
  titleSimilarity: 0.78,
  titleSimilarityLead: 4.878,
  titleAsked: -0.689,
  secondCoverage: -2.028,
  similarity: 0,
  similarityLead: 0,
} as const;
export type ConfidenceModel = { readonly [K in 'bias' | ConfidenceInput]: number };
export const RERANK_TITLE_WEIGHT = 2;
/** Chosen with the fit's cross-validation among 0, 1, 2 and 4 (docs/conversations.md). */
export const RERANK_SIMILARITY_WEIGHT = 1;
/**
 * The similarity lead is taken over at least this much: what the encoder gives a text of the same
 * help center that does not answer (about the median of the candidates that are not the answer on
 * helpcenter). Without it, an article found alone (a small knowledge base) would lead by its whole
 * similarity, and answer a question it only resembles.
 */
export const SECOND_SIMILARITY_FLOOR = 0.3;

export interface ConfidenceFeatures {
  topScore: number;
  secondScore: number;
  margin: number;
  coverage: number;
  titleCoverage: number;
  titleSimilarity: number;
  secondTitleSimilarity: number;
  /** The first article's questions hold its title (as "questions = [title]" and generated questions often do). */
  titleAsked: boolean;
  /** The share of the question's terms (weighted by rarity) the second article holds anywhere. */
  secondCoverage: number;
  /** The candidates carry the sentence encoder's similarities (CONFIDENCE_MODEL applies, else LEXICAL_CONFIDENCE_MODEL). */
  semantic: boolean;
  /** The encoder's similarity of the question to the first article, and the best of the others' (0 without the encoder). */
  similarity: number;
  secondSimilarity: number;
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
    return { article, titleSimilarity, value: (best > 0 ? article.score / best : 0) + RERANK_TITLE_WEIGHT * titleSimilarity + RERANK_SIMILARITY_WEIGHT * (article.similarity ?? 0) };
  });
  candidates.sort((a, b) => b.value - a.value || b.article.score - a.article.score || (a.article.id < b.article.id ? -1 : 1));
  const [first, second] = candidates;
  const terms_ = [...new Set(terms(question))];
  const total = terms_.reduce((sum, t) => sum + rarity(t), 0);
  // A question's word is held by an article that says it, or another word of its synonym group.
  const askedConcepts = conceptsOf(question).byStem;
  const holds = (text: string) => {
    const said = new Set(terms(text));
    const groups = conceptsOf(text).groups;
    return (t: string) => said.has(t) || [...(askedConcepts.get(t) ?? [])].some((g) => groups.has(g));
  };
  const share = (held: (t: string) => boolean) => (total > 0 ? terms_.reduce((sum, t) => sum + (held(t) ? rarity(t) : 0), 0) / total : 0);
  const top = first?.article;
  const all = (a: AnswerArticle) => holds(`${a.title}\n${a.questions.join('\n')}\n${a.keywords.join('\n')}\n${a.body}`);
  const whole = top ? all(top) : () => false;
  const heading = top ? holds(`${top.title}\n${top.questions.join('\n')}`) : () => false;
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
      titleAsked: top ? top.questions.some((q) => sameText(q, top.title)) : false,
      secondCoverage: second ? share(all(second.article)) : 0,
      semantic: articles.length > 0 && articles.every((a) => a.similarity !== undefined),
      similarity: top?.similarity ?? 0,
      secondSimilarity: Math.max(SECOND_SIMILARITY_FLOOR, ...candidates.slice(1).map((c) => c.article.similarity ?? 0)),
    },
  };
}

/**
 * What the model reads of the features, by name: each weight of CONFIDENCE_MODEL multiplies the
 * input of the same name (bench/answers/fit-confidence.ts fits the weights over these inputs).
 */
export const CONFIDENCE_INPUTS = {
  logScore: (f: ConfidenceFeatures) => Math.log1p(f.topScore),
  margin: (f: ConfidenceFeatures) => f.margin,
  coverage: (f: ConfidenceFeatures) => f.coverage,
  titleCoverage: (f: ConfidenceFeatures) => f.titleCoverage,
  logLead: (f: ConfidenceFeatures) => Math.log1p(Math.max(0, f.topScore - f.secondScore)),
  titleSimilarity: (f: ConfidenceFeatures) => f.titleSimilarity,
  titleSimilarityLead: (f: ConfidenceFeatures) => f.titleSimilarity - f.secondTitleSimilarity,
  titleAsked: (f: ConfidenceFeatures) => (f.titleAsked ? 1 : 0),
  secondCoverage: (f: ConfidenceFeatures) => f.secondCoverage,
  similarity: (f: ConfidenceFeatures) => f.similarity,
  similarityLead: (f: ConfidenceFeatures) => f.similarity - f.secondSimilarity,
} as const;
export type ConfidenceInput = keyof typeof CONFIDENCE_INPUTS;

/** The model's log-odds that the best article answers (the weights that apply to the features, unless given). */
export function confidenceLogit(f: ConfidenceFeatures, model: ConfidenceModel = f.semantic ? CONFIDENCE_MODEL : LEXICAL_CONFIDENCE_MODEL): number {
  let z = model.bias;
  for (const name of Object.keys(CONFIDENCE_INPUTS) as ConfidenceInput[]) z += model[name] * CONFIDENCE_INPUTS[name](f);
  return z;
}

export function answerConfidence(f: ConfidenceFeatures): number {
  if (f.topScore <= 0) return 0;
  return Math.round((1 / (1 + Math.exp(-confidenceLogit(f)))) * 10_000) / 10_000;
}

/** The same words, whatever the case, spacing and end punctuation. */
function sameText(a: string, b: string): boolean {
  const norm = (t: string) => t.toLowerCase().replace(/\s+/g, ' ').replace(/[\s?.!]+$/, '').trim();
  return norm(a) === norm(b);
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
