import type { ExistingArticle, GeneratedArticle, GenerationInput, GenerationOutput } from '../contracts/generate-knowledge.js';
import { splitSentences } from '../../text/sentences.js';
import { similarity } from '../../text/similarity.js';
import { type ArticleDraft, draftArticle } from './article.js';
import { decide } from './decide.js';
import { isRevision } from './facts.js';
import { indexPage, indexPageReason } from './index-page.js';

/**
 * The built-in engine's `generate_knowledge` method (docs/ai.md): an index page is DO_NOTHING
 * (index-page.ts); otherwise the article drafted from the text (article.ts), the decision
 * (decide.ts), and for an update of an article that is not the text's own source, the merge below.
 */
export function generateKnowledge(input: GenerationInput): GenerationOutput {
  // An index page (a category or home page listing other articles) is no article; an editor who
  // did not allow DO_NOTHING gets the article drafted all the same.
  const index = input.allowed.includes('DO_NOTHING') ? indexPage(input.text) : null;
  if (index) return { operation: 'DO_NOTHING', articleId: null, folderId: null, reason: indexPageReason(index), article: null };
  const draft = draftArticle({ text: input.text, title: input.titleHint ?? undefined, instructions: input.instructions });
  const decision = decide({
    draft,
    candidates: input.candidates,
    folders: input.folders,
    allowed: input.allowed,
    linkedArticleId: input.linkedArticleId,
  });
  let article: GeneratedArticle | null = null;
  let reason = decision.reason;
  if (decision.operation === 'ADD_ARTICLE_TO_FOLDER') article = draft;
  if (decision.operation === 'UPDATE_ARTICLE') {
    const target = input.candidates.find((a) => a.id === decision.articleId);
    if (target && target.id !== input.linkedArticleId) {
      const merged = mergeInto(target, draft);
      article = merged.article;
      // The job's reason says which statements the text changed.
      if (merged.revised.length) reason = `${reason} Replaced: ${merged.revised.map((r) => `"${r.old}" with "${r.new}"`).join('; ')}.`;
    } else {
      article = draft;
    }
  }
  return { ...decision, reason, article };
}

/** Most questions or keywords a merge keeps. */
const MERGED_LIST_MAX = 20;
/** A sentence this similar to one the article has is not new. */
const KNOWN_SENTENCE = 0.8;

/** A sentence with its figures masked: equal masks with different figures are a revision. */
const wording = (text: string) => text.replace(/\d+(?:[.,]\d+)*/g, '#').replace(/\s+/g, ' ').trim().toLowerCase();
const flat = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * The built-in update of an article from text that is not its own source: the article keeps its
 * title and everything it says. The text's paragraphs are read in order:
 * - a table or list the article does not contain is added whole, under the heading it had;
 * - in prose, a sentence the article already says (similarity ≥ KNOWN_SENTENCE) is skipped; a
 *   sentence that states one of the article's facts with other values replaces it: worded exactly
 *   like it with other figures ("within 30 days" -> "within 14 days"), or about the same subject
 *   in other words with another duration, amount, date, count or plan (facts.ts `isRevision`:
 *   "Refunds are processed within 3 business days." -> "We process refunds within 5 business
 *   days."); any other sentence is added, under its heading.
 * New questions and keywords are added. (An article's own source replaces its content instead.)
 */
function mergeInto(target: ExistingArticle, draft: ArticleDraft): { article: GeneratedArticle; revised: { old: string; new: string }[] } {
  const revised: { old: string; new: string }[] = [];
  let body = target.mainKnowledge.trimEnd();
  const known = splitSentences(body);
  const added: string[] = [];
  let heading: string | null = null;
  const add = (block: string) => {
    if (heading) added.push(heading);
    heading = null;
    added.push(block);
  };
  for (const block of draft.mainKnowledge.split(/\n{2,}/).map((x) => x.trim()).filter(Boolean)) {
    if (block.startsWith('#')) {
      heading = block;
      continue;
    }
    if (/^(?:\||[-*] |\d+[.)] )/.test(block)) {
      if (!flat(body).includes(flat(block))) add(block);
      continue;
    }
    const fresh: string[] = [];
    for (const sentence of splitSentences(block)) {
      let at = known.findIndex((k) => wording(k) === wording(sentence));
      if (at < 0 && !known.some((k) => flat(k) === flat(sentence))) at = known.findIndex((k) => isRevision(k, sentence));
      if (at >= 0) {
        const old = known[at] as string;
        if (old !== sentence && body.includes(old)) {
          body = body.replace(old, () => sentence);
          revised.push({ old, new: sentence });
        }
        known[at] = sentence;
      } else if (!known.some((k) => similarity(sentence, k) >= KNOWN_SENTENCE)) {
        fresh.push(sentence);
      }
    }
    if (fresh.length) add(fresh.join(' '));
  }
  const union = (a: string[], b: string[]) => {
    const seen = new Set(a.map((x) => x.toLowerCase()));
    return [...a, ...b.filter((x) => !seen.has(x.toLowerCase()) && seen.add(x.toLowerCase()))].slice(0, MERGED_LIST_MAX);
  };
  return {
    article: {
      title: target.title,
      mainKnowledge: added.length ? `${body}\n\n${added.join('\n\n')}` : body,
      questions: union(target.questions, draft.questions),
      keywords: union(target.keywords, draft.keywords),
      agentInstruction: draft.agentInstruction,
    },
    revised,
  };
}
