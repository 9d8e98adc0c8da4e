import type { AnswerArticle, AnswerOutput, EscalationReason } from '../../../ai/contracts/answer.js';
import { LlmError, type PartialOutput } from '../../../ai/index.js';
import type { WorkspaceContext } from '../../../context.js';
import type { PromptSet } from '../../../db/schema/index.js';
import { serializeSections } from '../../agents/index.js';
import type { RuleWithAgents } from '../../rules/index.js';
import { answerTask } from '../conversations.tasks.js';
import { handoverMessage, type HandoverWording } from '../handover.js';
import { errorText, type StageTrace } from './trace.js';

export interface GenerateInput {
  question: string;
  wording: HandoverWording;
  history: { role: string; message: string }[];
  prompts: PromptSet;
  businessRules: readonly RuleWithAgents[];
  articles: AnswerArticle[];
  /** Asks for the answer's text as the model writes it (answer.service.ts decides when). */
  onPartial?: ((text: string) => void) | undefined;
}

/**
 * Stage 6: the answer from the articles (the model, or the built-in engine), or a hand-over when
 * they do not answer. When the task fails the agent hands over: `low_confidence` for output the
 * schema refuses (no usable answer), `tool_failure` when the model could not be reached.
 */
export async function generateAnswer(ctx: WorkspaceContext, trace: StageTrace, input: GenerateInput): Promise<AnswerOutput> {
  const { wording } = input;
  try {
    return await trace.run(answerTask, {
      question: input.question,
      channel: wording.channel,
      history: input.history,
      prompts: {
        planning: serializeSections(input.prompts.hcPlanningPrompt),
        guideline: serializeSections(input.prompts.hcGuidelinePrompt),
        channel: serializeSections(input.prompts.hcChannelPrompt.filter((s) => s.channel === wording.channel)),
      },
      businessRules: input.businessRules.map((r) => ({ name: r.name, description: r.description })),
      articles: input.articles,
      minConfidence: ctx.config.answerMinConfidence,
      customerName: wording.customerName,
    }, input.onPartial ? { onPartial: answerSoFar(input.onPartial) } : {});
  } catch (error) {
    trace.error('generateAnswer', error);
    const failure: EscalationReason = error instanceof LlmError && !error.transient ? 'low_confidence' : 'tool_failure';
    return { answer: handoverMessage(wording, failure), usedArticleIds: [], handover: true, reason: failure, confidence: 0, bestArticleId: null, reasoning: `The answer could not be generated: ${errorText(error)}` };
  }
}

/**
 * The `answer` field of the task's partial outputs, each new text once (later fields growing do not
 * repeat it; an empty start is skipped).
 */
export function answerSoFar(emit: (text: string) => void): (partial: PartialOutput<AnswerOutput>) => void {
  let last = '';
  return (partial) => {
    const text = partial.answer;
    if (typeof text !== 'string' || text === last || text.trim() === '') return;
    last = text;
    emit(text);
  };
}

/** The trace's `generateAnswer`: the answer's reasoning, and each business rule applied to it. */
export function generateTrace(generated: AnswerOutput, businessRules: readonly RuleWithAgents[]) {
  return {
    reasoning: [
      { name: 'answer', reasoning: generated.reasoning },
      ...businessRules.map((r) => ({ name: r.name, reasoning: `Business rule applied to the answer: ${r.description}` })),
    ],
  };
}
