import { composeAnswer } from '../../ai/builtin/answer.js';
import { evaluateConversation } from '../../ai/builtin/evaluate.js';
import { planMessage } from '../../ai/builtin/plan.js';
import { selectTags } from '../../ai/builtin/select-tags.js';
import { type AnswerInput, type AnswerOutput, answerOutputSchema } from '../../ai/contracts/answer.js';
import { type EvaluateInput, type EvaluateOutput, evaluateOutputSchema } from '../../ai/contracts/evaluate.js';
import { type PlanInput, type PlanOutput, planOutputSchema } from '../../ai/contracts/plan.js';
import { type SelectTagsInput, type SelectTagsOutput, selectTagsOutputSchema } from '../../ai/contracts/select-tags.js';
import type { LlmTask } from '../../ai/index.js';
import { wordedAnswer } from './handover.js';

/**
 * The AI tasks of the answer pipeline (docs/conversations.md): plan, answer, choose tags, and
 * evaluate a conversation. Each task's input and output (the zod schema a model's structured output
 * must satisfy, nullable rather than optional fields) are its contract in src/ai/contracts/; this
 * file holds the prompts and wires in the built-in engine's method.
 */

/** How much of a text a prompt carries. */
const LIMITS = { article: 6_000, history: 12, historyMessage: 1_500 } as const;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)} …` : text);
const historyLines = (history: { role: string; message: string }[]) =>
  history
    .slice(-LIMITS.history)
    .map((h) => `${h.role === 'user' ? 'Customer' : h.role === 'parleybot' ? 'Agent' : h.role}: ${clip(h.message, LIMITS.historyMessage)}`)
    .join('\n') || '(this is the first message)';

export const planTask: LlmTask<PlanInput, PlanOutput> = {
  name: 'plan_answer',
  description: "The agent's plan for one customer message: what it is, whether to search the knowledge base, its sentiment.",
  schema: planOutputSchema,
  system:
    'You plan the next step of a customer-support agent. Decide whether the customer message needs a knowledge-base search ' +
    '(any question about the product, accounts, orders, policies or how to do something), is small talk (greeting, thanks, ' +
    'goodbye: then write the short reply), or asks for a human. Follow the planning instructions.',
  prompt: (input) => `Planning instructions:\n${input.planningPrompt}\n\nConversation so far:\n${historyLines(input.history)}\n\nCustomer message:\n${input.message}`,
  builtin: (input) => planMessage(input),
};

export const answerTask: LlmTask<AnswerInput, AnswerOutput> = {
  name: 'generate_answer',
  description: 'The agent reply to the customer, grounded in the given articles, or a hand-over when they do not answer.',
  schema: answerOutputSchema,
  system:
    'You are a customer-support agent. Answer only from the knowledge articles given; never invent facts, prices, steps or ' +
    'policies. If the articles do not answer the question, set handover to true with reason missing_knowledge (or ' +
    'low_confidence when unsure) and tell the customer that a colleague will follow up. Keep steps in their order. ' +
    'Follow the guidelines, the channel instructions and every business rule.',
  prompt: (input) =>
    `Guidelines:\n${input.prompts.guideline}\n\nChannel (${input.channel}):\n${input.prompts.channel}\n\n` +
    `Business rules:\n${input.businessRules.map((r) => `- ${r.name}: ${r.description}`).join('\n') || '(none)'}\n\n` +
    `Articles:\n${
      input.articles
        .map((a) => `<article id="${a.id}">\nTitle: ${a.title}\n${a.questions.length ? `Questions: ${a.questions.join(' | ')}\n` : ''}${clip(a.body, LIMITS.article)}\n</article>`)
        .join('\n') || '(no article matched)'
    }\n\n` +
    `Conversation so far:\n${historyLines(input.history)}\n\nCustomer${input.customerName ? ` (${input.customerName})` : ''}:\n${input.question}`,
  builtin: (input) => wordedAnswer(input, composeAnswer(input)),
};

const groupLines = (groups: SelectTagsInput['inputGroups']) =>
  groups
    .map(
      (g) =>
        `- ${g.title}${g.multiselect ? ' (several allowed)' : ' (one)'}${g.mandatory ? ' (mandatory)' : ''}${g.prompt ? `: ${g.prompt}` : ''}\n` +
        g.tags.map((t) => `  - ${t.name}${t.description ? `: ${t.description}` : ''}`).join('\n'),
    )
    .join('\n') || '(none)';

export const selectTagsTask: LlmTask<SelectTagsInput, SelectTagsOutput> = {
  name: 'select_tags',
  description: 'The tags that apply: input groups from the customer message, output groups from the outcome.',
  schema: selectTagsOutputSchema,
  system: 'You tag customer-support conversations. Choose only listed tags of listed groups, at most one per group unless several are allowed; a mandatory group always gets one.',
  prompt: (input) =>
    `Customer message:\n${input.message}\n\nAgent reply:\n${input.answer ?? '(none)'}\n\n` +
    `Input tag groups (from the customer message):\n${groupLines(input.inputGroups)}\n\nOutput tag groups (from the outcome):\n${groupLines(input.outputGroups)}`,
  builtin: (input) => selectTags(input),
};

export const evaluateTask: LlmTask<EvaluateInput, EvaluateOutput> = {
  name: 'evaluate_conversation',
  description: "An evaluation of each agent reply (grounded in its articles? did it answer the question?) and of the conversation.",
  schema: evaluateOutputSchema,
  system:
    'You review a customer-support agent. For each reply: grounded is true when every statement is supported by the articles ' +
    'it used; answered is true when it answers the customer question (a hand-over is not an answer); score 0 to 1; short notes. ' +
    'Then a verdict for the conversation: good, needs_review or poor.',
  prompt: (input) =>
    input.replies
      .map(
        (r) =>
          `<reply eventId="${r.eventId}"${r.handover ? ' handover="true"' : ''}>\nCustomer: ${r.question}\nAgent: ${r.answer}\n` +
          r.articles.map((a) => `<article id="${a.id}">\n${a.title}\n${clip(a.body, LIMITS.article)}\n</article>`).join('\n') +
          '\n</reply>',
      )
      .join('\n\n') || '(no reply)',
  builtin: (input) => evaluateConversation(input),
};
