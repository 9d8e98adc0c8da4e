import type { EvaluateInput, EvaluateOutput } from '../contracts/evaluate.js';
import { splitSentences } from '../../text/sentences.js';
import { terms } from '../../text/terms.js';
import { round } from './round.js';

/** The built-in engine's `evaluate_conversation` method (docs/conversations.md). Deterministic and offline. */

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
