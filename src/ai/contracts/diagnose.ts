import { z } from 'zod';

/**
 * The `diagnose_answer` task of Refine with AI (docs/refine.md): why an answer went wrong, in the
 * specification's root-cause vocabulary, and the one change that fixes it. Every output field is
 * present (null when it does not apply), as structured outputs require.
 */

export const FAILURE_STAGES = ['planning', 'knowledge_search', 'knowledge_content', 'rule_execution', 'instruction_resolution', 'answer_generation'] as const;
export const CHANGE_TYPES = ['update_prompt', 'update_rule', 'create_article', 'update_article'] as const;
export type FailureStage = (typeof FAILURE_STAGES)[number];

export const diagnoseArticleSchema = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  questions: z.array(z.string()),
  /** The answer used this article. */
  used: z.boolean(),
});
export type DiagnoseArticle = z.infer<typeof diagnoseArticleSchema>;

export const diagnoseInputSchema = z.object({
  question: z.string(),
  answer: z.string(),
  handover: z.boolean(),
  escalationReason: z.string().nullable(),
  /** The planner's decision; null when no planning ran (a rule flow answered). */
  performKnowledgeSearch: z.boolean().nullable(),
  feedback: z.string(),
  /** The knowledge that bears on the question and the feedback (live articles, with earlier iterations' drafts applied). */
  articles: z.array(diagnoseArticleSchema),
  executedRule: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** The agent's published intent rules. */
  rules: z.array(z.object({ id: z.string(), name: z.string(), description: z.string() })),
});
export type DiagnoseInput = z.infer<typeof diagnoseInputSchema>;

const text = (max: number) => z.string().max(max);

const rootCauseSchema = z.object({
  failureStage: z.enum(FAILURE_STAGES),
  failureMode: text(100),
  reasoning: text(2_000),
  target: z.object({
    kind: z.enum(['prompt', 'kb_article', 'rule']),
    operation: z.enum(['create', 'update']).nullable(),
    promptType: z.enum(['hcPlanningPrompt', 'hcGuidelinePrompt']).nullable(),
    articleId: z.string().nullable(),
    articleFields: z.array(z.string()).nullable(),
    ruleId: z.string().nullable(),
  }),
});
export type RootCauseOutput = z.infer<typeof rootCauseSchema>;

const changeSchema = z.object({
  rootCause: rootCauseSchema,
  changeType: z.enum(CHANGE_TYPES),
  /** A prompt section to add (or replace, by title). */
  promptSection: z.object({ promptType: z.enum(['hcPlanningPrompt', 'hcGuidelinePrompt']), title: text(200), content: text(10_000) }).nullable(),
  /** The article's content after the change (a new article when articleId is null). */
  article: z.object({ articleId: z.string().nullable(), title: text(500), mainKnowledge: text(100_000), questions: z.array(text(1_000)).max(100) }).nullable(),
  /** The rule to change: the change to its flow in words (empty: the flow stays) and text for its trigger description. */
  rule: z.object({ ruleId: z.string(), instructions: text(4_000), addToDescription: text(1_000).nullable() }).nullable(),
});
export type ChangeOutput = z.infer<typeof changeSchema>;

/** A part of the feedback note the diagnosis did not understand, and why: shown to the lead instead of a guess. */
export const noteWarningSchema = z.object({ fragment: text(2_000), message: text(500) });
export type NoteWarningOutput = z.infer<typeof noteWarningSchema>;

export const diagnoseOutputSchema = z.object({
  summary: text(2_000),
  confidence: z.enum(['high', 'medium', 'low']),
  /** The changes that fix the answer, the main cause first; none when nothing should change. */
  changes: z.array(changeSchema).max(3),
  /** The parts of the note not understood (none when all of it was). */
  warnings: z.array(noteWarningSchema).max(10),
});
export type DiagnoseOutput = z.infer<typeof diagnoseOutputSchema>;
