import type { AnswerInput, AnswerOutput, EscalationReason } from '../../ai/contracts/answer.js';

/**
 * The words the customer reads when the agent hands over, and the frame of an email reply: the
 * conversations module's wording, the same whether a model or the built-in engine answers (a
 * model writes its own hand-over text; the built-in engine's comes from here). Pure: the
 * `generate_answer` task (conversations.tasks.ts) uses it in a CPU pool thread.
 */

/** What the wording of a reply depends on: the channel, and the customer's name for an email's salutation. */
export type HandoverWording = Pick<AnswerInput, 'channel' | 'customerName'>;

/** The message that tells the customer a person will follow up. */
export function handoverMessage(input: HandoverWording, reason: EscalationReason): string {
  const text =
    reason === 'customer_request'
      ? "Of course. I'm passing your conversation to a colleague, who will follow up with you here shortly."
      : reason === 'tool_failure'
        ? "I couldn't complete that just now. I've passed your conversation to a colleague, who will follow up with you shortly."
        : reason === 'negative_sentiment'
          ? "I'm sorry about this, and I understand how frustrating it is. I've passed your conversation to a colleague, who will follow up with you here shortly."
          : reason === 'guardrail_block'
            ? "I can't help with that here. I've passed your conversation to a colleague, who will follow up with you shortly."
            : "I don't have a reliable answer to that. I've passed your question to a colleague, who will follow up with you shortly.";
  return frame(input, text);
}

/** Email answers get a salutation and a closing; chat answers are the text itself. */
function frame(input: Pick<AnswerInput, 'channel' | 'customerName'>, text: string): string {
  if (input.channel !== 'email') return text;
  const name = input.customerName?.trim().split(/\s+/)[0];
  return `Hello${name ? ` ${name}` : ''},\n\n${text}\n\nBest regards`;
}

/** The built-in engine's answer in the customer's words: a hand-over gets its message, an answer its frame. */
export function wordedAnswer(input: Pick<AnswerInput, 'channel' | 'customerName'>, output: AnswerOutput): AnswerOutput {
  return { ...output, answer: output.handover ? handoverMessage(input, output.reason ?? 'other') : frame(input, output.answer) };
}
