import type { PlanOutput } from '../contracts/plan.js';
import { tokenize } from '../../text/terms.js';

/**
 * The built-in engine's sentiment of a customer message (English): a lexicon scorer. Each word of
 * the lexicons counts +1 or -1 (strong words 2), a negation within the three words before flips
 * it, intensifiers multiply by 1.5, and an exclamation mark or a word in capitals adds weight to
 * the message's sign. The score is normalised to [-1, 1]; below -0.25 is negative, above 0.25
 * positive, else neutral.
 */
export type Sentiment = PlanOutput['sentiment'];

const POSITIVE = new Map<string, number>(
  Object.entries({
    thanks: 1, thank: 1, great: 2, good: 1, awesome: 2, excellent: 2, perfect: 2, love: 2, helpful: 2, happy: 1, glad: 1,
    works: 1, worked: 1, solved: 2, fixed: 1, nice: 1, amazing: 2, appreciate: 2, appreciated: 2, wonderful: 2, fantastic: 2,
    pleased: 1, brilliant: 2, cool: 1, easy: 1, fast: 1, quick: 1, resolved: 2, clear: 1, satisfied: 2, best: 1, like: 1,
  }),
);
const NEGATIVE = new Map<string, number>(
  Object.entries({
    bad: 1, terrible: 2, awful: 2, horrible: 2, worst: 2, hate: 2, angry: 2, annoyed: 2, annoying: 2, frustrated: 2,
    frustrating: 2, useless: 2, broken: 1, disappointed: 2, disappointing: 2, unacceptable: 2, ridiculous: 2, scam: 2,
    fraud: 2, wrong: 1, slow: 1, problem: 1, issue: 1, error: 1, fail: 1, failed: 1, fails: 1, failing: 1, crash: 1,
    crashes: 1, stuck: 1, lost: 1, missing: 1, never: 1, complaint: 2, refund: 1, cancel: 1, waste: 2, poor: 1, upset: 2,
    furious: 2, outraged: 2, sucks: 2, stupid: 2, worse: 2, bug: 1, charged: 1, overcharged: 2, unhappy: 2, confusing: 1,
    doesnt: 1, cant: 1, unable: 1, impossible: 1, lawyer: 2, sue: 2,
  }),
);
const NEGATIONS = new Set(['not', 'no', 'never', "don't", 'dont', "doesn't", "didn't", 'didnt', "isn't", 'isnt', "wasn't", "can't", "won't", 'without', 'hardly']);
const INTENSIFIERS = new Set(['very', 'really', 'extremely', 'so', 'totally', 'completely', 'absolutely', 'super', 'incredibly']);
/** Words that name a failure even when negated words surround them ("still not working"). */
const NOT_WORKING = /\b(?:not|isn't|doesn't|don't|didn't|won't|can't|cannot)\s+(?:\w+\s+)?(?:work|working|load|loading|open|help|helping|helpful)\b/i;

export function scoreSentiment(text: string): { sentiment: Sentiment; score: number } {
  const tokens = tokenize(text);
  let sum = 0;
  let weight = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const value = (POSITIVE.get(token) ?? 0) - (NEGATIVE.get(token) ?? 0);
    if (value === 0) continue;
    let v = value;
    const before = tokens.slice(Math.max(0, i - 3), i);
    if (before.some((t) => NEGATIONS.has(t))) v = -v * 0.75;
    if (before.some((t) => INTENSIFIERS.has(t))) v *= 1.5;
    sum += v;
    weight += Math.abs(v);
  }
  if (NOT_WORKING.test(text)) {
    sum -= 1.5;
    weight += 1.5;
  }
  if (weight === 0) return { sentiment: 'neutral', score: 0 };
  const shouting = (text.match(/!/g)?.length ?? 0) + (text.match(/\b[A-Z]{4,}\b/g)?.length ?? 0);
  let score = sum / Math.max(weight, 2);
  if (shouting > 0 && score !== 0) score *= 1 + Math.min(shouting, 3) * 0.15;
  score = Math.max(-1, Math.min(1, Math.round(score * 1000) / 1000));
  return { sentiment: score < -0.25 ? 'negative' : score > 0.25 ? 'positive' : 'neutral', score };
}
