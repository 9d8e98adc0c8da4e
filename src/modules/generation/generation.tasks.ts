import { generateKnowledge } from '../../ai/builtin/generate-knowledge.js';
import { treeTemplate } from '../../ai/builtin/initialize-tree.js';
import { type GenerationInput, type GenerationOutput, generationOutputSchema } from '../../ai/contracts/generate-knowledge.js';
import { type InitializeTreeInput, treeOutputSchema, type TreeOutput } from '../../ai/contracts/initialize-tree.js';
import type { LlmTask } from '../../ai/index.js';

/**
 * The AI tasks of knowledge generation: one prompt and one schema each, answered by a model or by
 * the built-in engine (docs/ai.md). Their input and output schemas are the contracts in
 * src/ai/contracts/generate-knowledge.ts and initialize-tree.ts; this file holds the prompts and wires
 * in the built-in engine's method.
 */

/** How much of each text a prompt carries: enough to decide, bounded for any model's context. */
const PROMPT_LIMITS = { candidate: 30_000, folders: 200 } as const;
/**
 * Existing articles are shown whole up to this length. A longer one is shown cut and marked
 * `truncated`, and a model may not update it (it would drop the end): the job refuses that.
 */
export const PROMPT_ARTICLE_CHARS = 12_000;

const excerpt = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)} …`);

export const generateKnowledgeTask: LlmTask<GenerationInput, GenerationOutput> = {
  name: 'generate_knowledge',
  description: 'A decision about one piece of candidate knowledge for a help centre, with the article to write.',
  schema: generationOutputSchema,
  system: [
    'You maintain the knowledge base of a customer-support agent. You receive candidate knowledge (text from a',
    'web page, a document or a conversation), the existing articles most similar to it, and the folders of the',
    'knowledge base. Decide exactly one operation among the allowed ones:',
    '- ADD_ARTICLE_TO_FOLDER: the text holds knowledge no article covers; write a new article and choose the',
    '  folder (folderId) it belongs in.',
    '- UPDATE_ARTICLE: an existing article covers the same topic; give its articleId and the complete updated',
    '  article, keeping what is still true in it and adding or correcting what the text says. When the text',
    "  comes from the article's own source (the linked article), the text is the truth: rewrite the article",
    '  from it.',
    '- DO_NOTHING: the text adds nothing (it is already covered, or holds no customer-facing knowledge); give',
    '  the covering articleId when there is one. An index page (a help centre home, category or section page',
    '  that only lists the titles of other articles) is DO_NOTHING: say it is an index page in the reason.',
    'Write articles for customers: a short, specific title; mainKnowledge in Markdown with every fact, number,',
    'step and condition of the text and nothing invented (list items stay list items); questions customers',
    'would ask that the article answers, worded as a customer asks ("How do I reset my password?", never a',
    'step of the text with a question mark); a few keywords; agentInstruction only when the text says how the',
    'agent should behave, else "".',
    'Only use ids that appear in the input. Never update an article marked "truncated" (you do not see all of it),',
    "unless it is the linked article, which is rewritten from the text.",
    'reason: one or two sentences on why.',
  ].join('\n'),
  prompt(input) {
    const lines = [
      `Allowed operations: ${input.allowed.join(', ')}`,
      input.instructions ? `Instructions from the editor: ${input.instructions}` : 'Instructions from the editor: none',
      `Linked article (from this text's source): ${input.linkedArticleId ?? 'none'}`,
      '',
      'Existing articles:',
      ...(input.candidates.length
        ? input.candidates.map((a) =>
            JSON.stringify({
              id: a.id,
              title: a.title,
              folderId: a.parentFolderId,
              questions: a.questions,
              keywords: a.keywords,
              mainKnowledge: excerpt(a.mainKnowledge, PROMPT_ARTICLE_CHARS),
              ...(a.mainKnowledge.length > PROMPT_ARTICLE_CHARS ? { truncated: true } : {}),
            }),
          )
        : ['(none)']),
      '',
      'Folders:',
      ...(input.folders.length
        ? input.folders.slice(0, PROMPT_LIMITS.folders).map((f) => JSON.stringify({ id: f.id, path: f.path.join(' / '), description: f.description }))
        : ['(none)']),
      '',
      input.titleHint ? `Candidate knowledge (titled "${input.titleHint}"):` : 'Candidate knowledge:',
      excerpt(input.text, PROMPT_LIMITS.candidate),
    ];
    return lines.join('\n');
  },
  builtin: (input) => generateKnowledge(input),
};

export const initializeTreeTask: LlmTask<InitializeTreeInput, TreeOutput> = {
  name: 'initialize_tree',
  description: 'The folders and starter articles of a new help-centre knowledge base.',
  schema: treeOutputSchema,
  system: [
    'You design the knowledge base of a customer-support agent from a description of the business. Return',
    'folders (each with its path of titles from the top level down and a one-sentence description) and, in',
    'each, the articles to write: a specific title, mainKnowledge in Markdown with every fact the description',
    'gives for that topic (when it gives none, a concrete brief of what the article must cover, never',
    'placeholder text), the questions customers ask about it and a few keywords. Follow the structure the',
    'description implies; at most 5 levels; titles unique within a folder.',
  ].join('\n'),
  prompt: (input) => `Description of the knowledge base:\n${input.initPrompt}`,
  builtin: (input) => ({ folders: treeTemplate(input.initPrompt) }),
};
