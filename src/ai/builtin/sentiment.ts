import type { PlanOutput } from '../contracts/plan.js';
import { normalizeText } from '../../text/sentences.js';
import { STOPWORDS, rawWords, stem } from '../../text/terms.js';
import { round } from './round.js';

/**
 * The built-in engine's sentiment of a customer message (English), and whether it is angry enough
 * to hand over. Three kinds of words:
 * - feelings ("disappointed", "useless", "great"), the valence: each counts ±1 or ±2, a negation
 *   within the three words before flips it ("not happy"), an intensifier multiplies by 1.5;
 * - problems ("broken", "missing", "error", "hasn't arrived"): ±0.5, half that in a question, so a
 *   calm question about a problem stays neutral. Support topics ("refund", "cancel", "complaint",
 *   "charged") are no feeling at all: "How do I get a refund?" is a question, not a complaint;
 * - anger: swearing and insults (3 each), contempt words ("useless", "ridiculous": 1), shouting in
 *   capitals and runs of "!!" / "??" (up to 2 each), demands and threats ("I want my money back",
 *   "report you": 1), waiting times ("three weeks": 0.5). Anger also counts as negative valence.
 * The score is the valence normalised to [-1, 1]; below -0.25 is negative, above 0.25 positive.
 * A message is angry when it is negative and its anger reaches 3: one swear word or insult, or
 * contempt with shouting. bench/sentiment measures it (docs/conversations.md).
 */
export type Sentiment = PlanOutput['sentiment'];

export interface SentimentScore {
  sentiment: Sentiment;
  /** The valence, -1 to 1. */
  score: number;
  /** The anger points (see above). */
  anger: number;
  /** Negative with anger 3 or more: a person should take over. */
  angry: boolean;
}

const lexicon = (entries: Record<string, number>) => new Map(Object.entries(entries));

const POSITIVE = lexicon({
  thanks: 1, thank: 1, great: 2, good: 1, awesome: 2, excellent: 2, perfect: 2, love: 2, helpful: 2, happy: 1, glad: 1,
  works: 1, worked: 1, solved: 2, fixed: 1, nice: 1, amazing: 2, appreciate: 2, appreciated: 2, wonderful: 2, fantastic: 2,
  pleased: 1, brilliant: 2, cool: 1, easy: 1, fast: 1, quick: 1, resolved: 2, clear: 1, satisfied: 2, best: 1,
  recommend: 1, enjoy: 1, enjoyed: 1, impressed: 2, beautiful: 2, superb: 2, lovely: 2, friendly: 1, worth: 1, comfortable: 1,
  delicious: 2, reliable: 1, fun: 1, favorite: 1, favourite: 1,
});
/** Feelings and judgements (not topics: a refund or a cancellation is no feeling). */
const NEGATIVE = lexicon({
  bad: 1, terrible: 2, awful: 2, horrible: 2, worst: 2, hate: 2, angry: 2, annoyed: 2, annoying: 2, frustrated: 2,
  frustrating: 2, useless: 2, disappointed: 2, disappointing: 2, disappointment: 2, unacceptable: 2, ridiculous: 2, scam: 2,
  fraud: 2, poor: 1, upset: 2, furious: 2, outraged: 2, sucks: 2, stupid: 2, worse: 2, unhappy: 2, discontent: 2,
  dissatisfied: 2, disgusted: 2, disgusting: 2, pathetic: 2, incompetent: 2, waste: 2, rude: 2, shocking: 2, appalling: 2,
  hopeless: 2, rubbish: 2, garbage: 2, joke: 1, confusing: 1, slow: 1, lawyer: 2, sue: 2, unreliable: 2, mess: 1,
  nightmare: 2, disaster: 2, fed: 1, sick: 1, worried: 1, unfair: 2, misleading: 2, lied: 2, liars: 2,
  junk: 2, flaw: 1, flimsy: 1, unusable: 2, worthless: 2, overpriced: 1, mediocre: 1, avoid: 1, regret: 2,
  unfortunately: 1, sadly: 1, lacking: 1, fake: 2, cheap: 1, hurt: 1, dirty: 1, cold: 1, bland: 1, boring: 1, dead: 1,
  died: 1,
});
/** The feelings by word stem, so "wasted", "disappointing" and "annoys" count as their words do. */
const NEGATIVE_STEMS = new Map([...NEGATIVE].map(([word, value]) => [stem(word), value]));
/** Words that name a problem: mild, and milder in a question. */
const PROBLEM = new Set([
  'problem', 'problems', 'issue', 'issues', 'error', 'errors', 'broken', 'wrong', 'stuck', 'lost', 'missing', 'damaged', 'late',
  'delayed', 'crash', 'crashes', 'crashed', 'crashing', 'fail', 'failed', 'fails', 'failing', 'bug', 'overcharged', 'defective',
  'faulty', 'never', 'nobody', 'ignored',
]);
/** Contempt: a judgement of the company or its people, an anger point each. */
const CONTEMPT = new Set(['useless', 'worst', 'ridiculous', 'pathetic', 'scam', 'joke', 'incompetent', 'disgusting', 'hopeless', 'rubbish', 'garbage', 'unacceptable', 'furious', 'outraged', 'hate', 'liars', 'clowns', 'fraud']);
/** Insults and swearing (typos included by their stems). */
const SWEARING = /^(?:f+u+c*k+\w*|fuk\w*|fck\w*|fkn|wtf|ffs|stfu|shit\w*|bullshit|crap\w*|damn\w*|bloody|goddamn\w*|bastards?|idiots?|idiotic|morons?|moronic|dumb\w*|clowns?|jerks?|assholes?|arse\w*|suck)$/;
const HELL = /\b(?:what|where|why|how|who) the (?:hell|heck|fuck)\b|\bthe hell\b|\bto hell\b/i;
/** "you are useless", "you people are idiots". */
const INSULT = /\b(?:you|u|ur|your|you're|youre)\s+(?:(?:guys|people|lot|company|team|support|service|staff|site|app)\s+)?(?:are|r|is)\s+(?:a\s+|an\s+|so\s+|such\s+a\s+|totally\s+|completely\s+|absolutely\s+)?(\w+)/gi;
const DEMAND = /\b(?:i\s+(?:want|demand|need)\s+(?:my\s+money\s+back|a\s+full\s+refund|compensation)|(?:report|reporting)\s+(?:you|this|your)|chargeback|never\s+(?:buy|order|shop|use)\w*\b[^.!?]{0,30}\bagain|(?:right|immediately)\s+now|immediately|asap)\b/gi;
const WAITING = /\b(?:\d+|two|three|four|five|six|several|many)\s+(?:hours|days|weeks|months)\b|\bfor\s+(?:an?\s+)?(?:hour|week|month)s?\b|\byet\s+again\b|\bstill\s+(?:not|no|hasn't|haven't|hasnt|havent|isn't|isnt|waiting)\b/gi;
/** A failure said with a negation: "still not working", "hasn't arrived". */
const NOT_WORKING = /\b(?:not|isn't|isnt|doesn't|doesnt|don't|dont|didn't|didnt|won't|wont|can't|cant|cannot|hasn't|hasnt|haven't|havent|never)\s+(?:\w+\s+)?(?:work|works|working|load|loading|open|help|helping|helpful|arrived|arrive|come|came|received|shipped|delivered|respond|responded|replied|answered)\b/i;
/** Advice against: "don't buy it", "would not recommend". */
const ADVICE_AGAINST = /\b(?:don't|dont|do\s+not|never|wouldn't|would\s+not|won't|will\s+not)\s+(?:\w+\s+)?(?:buy|recommend|purchase|order\s+from|use|waste)\b/i;
const NEGATIONS = new Set(['not', 'no', 'never', "don't", 'dont', "doesn't", "didn't", 'didnt', "isn't", 'isnt', "wasn't", 'wasnt', "can't", "won't", 'without', 'hardly', "aren't", 'arent', "i'm not"]);
const INTENSIFIERS = new Set(['very', 'really', 'extremely', 'so', 'totally', 'completely', 'absolutely', 'super', 'incredibly', 'utterly', 'truly', 'beyond']);
const QUESTION_START = /^(?:how|what|when|where|why|who|which|can|could|would|will|is|are|do|does|did|should|may|i\s+need\s+to|i\s+want\s+to|i'd\s+like\s+to)\b/i;

/** The message's sentiment and anger: the built-in planner's signal for a hand-over (docs/conversations.md). */
export function scoreSentiment(text: string): SentimentScore {
  const normal = normalizeText(text);
  const raw = rawWords(normal);
  const tokens = raw.map((w) => w.toLowerCase());
  const question = /\?\s*$/.test(normal.trim()) || QUESTION_START.test(normal.trim());
  let sum = 0;
  let weight = 0;
  let anger = 0;
  let contempt = 0;
  const add = (v: number) => {
    sum += v;
    weight += Math.abs(v);
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (SWEARING.test(token)) {
      anger += 3;
      add(-1);
      continue;
    }
    if (CONTEMPT.has(token)) contempt++;
    const problem = PROBLEM.has(token) ? (question ? 0.25 : 0.5) : 0;
    const value = (POSITIVE.get(token) ?? 0) - (NEGATIVE.get(token) ?? NEGATIVE_STEMS.get(stem(token)) ?? 0) - problem;
    if (value === 0) continue;
    let v = value;
    const before = tokens.slice(Math.max(0, i - 3), i);
    if (problem === 0 && before.some((t) => NEGATIONS.has(t))) v = -v * 0.75;
    if (before.some((t) => INTENSIFIERS.has(t))) v *= 1.5;
    add(v);
  }
  if (NOT_WORKING.test(normal)) add(question ? -0.5 : -1.5);
  if (ADVICE_AGAINST.test(normal) && !question) add(-1.5);
  if (HELL.test(normal)) anger += 3;
  for (const match of normal.matchAll(INSULT)) if ((NEGATIVE.get(match[1]!.toLowerCase()) ?? 0) > 0 || SWEARING.test(match[1]!.toLowerCase())) anger += 2;
  anger += Math.min(contempt, 2);
  anger += Math.min(shouting(raw), 2);
  const runs = normal.match(/[!?]{2,}/g)?.length ?? 0;
  anger += Math.min(runs, 2) + (runs === 0 && /!/.test(normal) ? 0.5 : 0);
  anger += Math.min(normal.match(DEMAND)?.length ?? 0, 2);
  anger += Math.min(normal.match(WAITING)?.length ?? 0, 2) * 0.5;
  // Anger is negative with something negative said, or from 3 points on: "THANK YOU!!" and "AMEX or VISA?" are not.
  if (anger > 0 && (sum < 0 || (sum === 0 && anger >= 3))) add(-anger * 0.5);
  if (weight === 0) return { sentiment: 'neutral', score: 0, anger: round(anger), angry: false };
  const score = Math.max(-1, Math.min(1, round(sum / Math.max(weight, 2))));
  const sentiment: Sentiment = score < -0.25 ? 'negative' : score > 0.25 ? 'positive' : 'neutral';
  return { sentiment, score, anger: round(anger), angry: sentiment === 'negative' && anger >= 3 };
}

/**
 * Shouting: words in capitals. One capitalised word of four letters or more is an acronym or a
 * product name ("SEPA", "VAT") unless it is a common word ("WHERE", "NOW") or a feeling
 * ("RIDICULOUS"); from two such words on, each counts.
 */
function shouting(raw: readonly string[]): number {
  const caps = raw.filter((w) => w.length >= 3 && /^\p{Lu}+$/u.test(w) && /\p{Lu}{2}/u.test(w));
  const plain = caps.filter((w) => {
    const lower = w.toLowerCase();
    return STOPWORDS.has(lower) || NEGATIVE.has(lower) || POSITIVE.has(lower) || SWEARING.test(lower) || PROBLEM.has(lower);
  });
  const long = caps.filter((w) => w.length >= 4);
  return long.length >= 2 ? Math.max(long.length, plain.length) : plain.length;
}

