import { diagnoseAnswer } from '../../ai/builtin/diagnose.js';
import { type DiagnoseInput, type DiagnoseOutput, diagnoseOutputSchema } from '../../ai/contracts/diagnose.js';
import type { LlmTask } from '../../ai/index.js';

/**
 * Refine with AI's diagnosis (docs/refine.md): why an answer went wrong, in the specification's
 * root-cause vocabulary, and the one change that fixes it. Its input and output schemas are the
 * contract in src/ai/contracts/diagnose.ts; this file holds the prompt and wires in the built-in
 * engine's method.
 */

export const diagnoseTask: LlmTask<DiagnoseInput, DiagnoseOutput> = {
  name: 'diagnose_answer',
  description: 'Why the agent answered badly (root cause) and the one change to its prompts, knowledge or rules that fixes it.',
  schema: diagnoseOutputSchema,
  system:
    'You review one answer of a customer-support agent that a support lead marked as bad, with their feedback. Find the root cause: ' +
    'failureStage planning (should have searched the knowledge base: failureMode required_search_skipped), knowledge_search (the knowledge ' +
    'lacks it: relevant_knowledge_not_available; it exists but was not found: relevant_knowledge_not_retrieved), knowledge_content ' +
    '(an article is wrong: incorrect_knowledge), rule_execution (an intent rule lacks a step or did not run: required_rule_behavior_missing), ' +
    'instruction_resolution (an instruction was not followed: required_instruction_omitted) or answer_generation (the article had it but the ' +
    'answer left it out: required_information_omitted); a rule that answered a message it is not for is rule_execution ' +
    'rule_triggered_incorrectly. Then propose the changes (at most 3, the main cause first), each with its root cause: update_prompt (a ' +
    'prompt section to add), create_article, update_article (the whole new content of that article id) or update_rule (the rule id, the ' +
    'change to its flow in words, and text to add to its trigger description, such as \'Not for messages like: "..."\'). Only use ids ' +
    'listed in the input. When nothing should change, answer no changes. Write article text and prompt sections as help-center text ' +
    'stating the lead\'s facts, never the lead\'s own words to you ("this is wrong", "tell customers", "pls"). List in warnings each part of ' +
    'the feedback you did not understand (its words as fragment, and why as message) instead of guessing a change from it.',
  prompt: (input) =>
    [
      `Customer message:\n${input.question}`,
      `Agent answer${input.handover ? ` (a hand-over: ${input.escalationReason ?? 'other'})` : ''}:\n${input.answer}`,
      `Searched the knowledge base: ${input.performKnowledgeSearch === null ? 'no planning ran (a rule flow answered)' : input.performKnowledgeSearch ? 'yes' : 'no'}`,
      `Rule that ran: ${input.executedRule ? `${input.executedRule.id} (${input.executedRule.name})` : 'none'}`,
      `Feedback from the support lead:\n${input.feedback}`,
      `Intent rules:\n${input.rules.map((r) => `- ${r.id}: ${r.name}: ${r.description}`).join('\n') || '(none)'}`,
      `Articles:\n${
        input.articles
          .map((a) => `<article id="${a.id}"${a.used ? ' used="true"' : ''}>\n${a.title}\nQuestions: ${a.questions.join(' | ')}\n${a.body.slice(0, 6_000)}\n</article>`)
          .join('\n') || '(none)'
      }`,
    ].join('\n\n'),
  builtin: (input) => diagnoseAnswer(input),
};
