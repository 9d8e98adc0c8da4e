import type { ExistingArticle, FolderOption, KnowledgeOperation } from '../contracts/generate-knowledge.js';
import type { ArticleDraft } from './article.js';
import { normalizeText, splitSentences, stripMarkdown } from '../../text/sentences.js';
import { cosineSimilarity, termVector } from '../../text/similarity.js';

/**
 * What the built-in engine does with a drafted article: add it, update an existing article, or
 * nothing. The rules, in order:
 * 1. Each candidate gets a match score in [0, 1]: TITLE_WEIGHT × title similarity +
 *    QUESTION_WEIGHT × question overlap + BODY_WEIGHT × body similarity (cosines of stemmed term
 *    vectors; question overlap is the mean, over the draft's questions, of the best cosine with a
 *    candidate question). When either side has no questions, the other two weights are rescaled.
 * 2. A candidate whose body similarity is ≥ DUPLICATE_BODY and title similarity ≥ DUPLICATE_TITLE,
 *    and whose body already says every sentence of the draft (compared without case, punctuation
 *    and spacing: a changed number or word is something new), already covers the draft: DO_NOTHING
 *    with that article (the linked one first, else the best).
 * 3. Else, when `linkedArticleId` is one of the candidates, UPDATE_ARTICLE of it: the source has
 *    changed and its article follows.
 * 4. Else, when the best score is ≥ UPDATE_THRESHOLD, UPDATE_ARTICLE of the best candidate.
 * 5. Else ADD_ARTICLE_TO_FOLDER into the folder most similar to the draft (folder: path × 2,
 *    description and article titles; draft: title × 3, keywords × 2 and body); ties go to the
 *    folder listed first.
 * When the preferred operation is not allowed (or is impossible: ADD needs a folder, UPDATE a
 * candidate), the next one is taken: duplicate → UPDATE of it → ADD; update → ADD → DO_NOTHING;
 * add → UPDATE of the best candidate (when it matches at FALLBACK_UPDATE_THRESHOLD or more) → DO_NOTHING. When no allowed operation is possible (allowed
 * is ADD and/or UPDATE, with no folder and no candidate), the answer is the most preferred allowed
 * operation with a null id (ADD_ARTICLE_TO_FOLDER with folderId null, UPDATE_ARTICLE with
 * articleId null), and the caller fails the job with the reason.
 */
export interface Decision {
  operation: KnowledgeOperation;
  articleId: string | null;
  folderId: string | null;
  reason: string;
}

/** Weights of title similarity, question overlap and body similarity in a candidate's match score. */
export const TITLE_WEIGHT = 0.3;
export const QUESTION_WEIGHT = 0.2;
export const BODY_WEIGHT = 0.5;
/** Body similarity from which a candidate says the same thing as the draft. */
export const DUPLICATE_BODY = 0.92;
/** Title similarity a duplicate also needs. */
export const DUPLICATE_TITLE = 0.5;
/** Match score from which the draft updates an existing article rather than adding one. */
export const UPDATE_THRESHOLD = 0.5;
/** When adding is not allowed, the closest article is updated only from this match score. */
export const FALLBACK_UPDATE_THRESHOLD = 0.3;

/** How well one candidate matches the draft: the combined score and two of its parts. */
export interface ArticleMatch {
  article: ExistingArticle;
  score: number;
  title: number;
  body: number;
}

interface Option {
  operation: KnowledgeOperation;
  articleId: string | null;
  folderId: string | null;
  /** What doing this means, for the reason: "updating "X" (match 0.63)". */
  action: string;
}

const fixed = (n: number): string => n.toFixed(2);
const label = (path: readonly string[]): string => path.join(' > ') || '(root)';

/** The knowledge operation for a draft, under the rules above. */
export function decide(input: {
  draft: ArticleDraft;
  candidates: ExistingArticle[];
  folders: FolderOption[];
  allowed: readonly KnowledgeOperation[];
  linkedArticleId?: string | null;
}): Decision {
  const { why, options } = preferences(input);
  const { allowed } = input;
  const [preferred, first] = options[0] ?? ['DO_NOTHING', null];
  const chosen = options.find(([operation, option]) => option !== null && allowed.includes(operation))?.[1];
  if (chosen && chosen === first) {
    return decision(chosen, chosen.operation === 'ADD_ARTICLE_TO_FOLDER' ? `${why}; ${chosen.action}.` : `${why}.`);
  }
  if (chosen) {
    const blocked = allowed.includes(preferred) ? `is not possible (${MISSING[preferred]})` : 'is not allowed';
    return decision(chosen, `${why}, but ${NAMES[preferred]} ${blocked}; ${chosen.action} instead.`);
  }
  const operation = options.map(([op]) => op).find((op) => allowed.includes(op)) ?? preferred;
  const impossible = allowed.map((op) => `${op}: ${MISSING[op]}`).join('; ');
  return { operation, articleId: null, folderId: null, reason: `${why}, but no allowed operation is possible (${impossible}).` };
}

/** Why, and the operations in the order the rules prefer them (null where impossible). */
function preferences(input: Parameters<typeof decide>[0]): { why: string; options: [KnowledgeOperation, Option | null][] } {
  const { draft } = input;
  const mine = vectorsOf(draft);
  const matches = input.candidates.map((article) => compare(mine, article));
  const best = matches.reduce<ArticleMatch | null>((top, m) => (top === null || m.score > top.score ? m : top), null);
  const linked = matches.find((m) => m.article.id === input.linkedArticleId) ?? null;
  const duplicates = matches.filter(
    (m) => m.body >= DUPLICATE_BODY && m.title >= DUPLICATE_TITLE && saysEverything(m.article.mainKnowledge, draft.mainKnowledge),
  );
  const duplicate = duplicates.find((m) => m === linked) ?? duplicates.sort((a, b) => b.score - a.score)[0] ?? null;
  const folder = bestFolder(draft, input.folders);

  const update = (m: ArticleMatch | null, how = 'updating'): Option | null =>
    m && { operation: 'UPDATE_ARTICLE', articleId: m.article.id, folderId: null, action: `${how} "${m.article.title}" (match ${fixed(m.score)})` };
  const add: Option | null = folder && {
    operation: 'ADD_ARTICLE_TO_FOLDER',
    articleId: null,
    folderId: folder.folder.id,
    action: `adding it to folder "${label(folder.folder.path)}" (folder match ${fixed(folder.score)})`,
  };
  const nothing = (m: ArticleMatch | null): Option =>
    ({ operation: 'DO_NOTHING', articleId: m?.article.id ?? null, folderId: null, action: 'doing nothing' });
  const threshold = `(update threshold ${fixed(UPDATE_THRESHOLD)})`;

  if (duplicate) {
    const { article, body, title } = duplicate;
    return {
      why: `Already covered by "${article.title}": content similarity ${fixed(body)} (duplicate threshold ${fixed(DUPLICATE_BODY)}), title similarity ${fixed(title)}`,
      options: [['DO_NOTHING', nothing(duplicate)], ['UPDATE_ARTICLE', update(duplicate)], ['ADD_ARTICLE_TO_FOLDER', add]],
    };
  }
  if (linked) {
    return {
      why: `This source already produced "${linked.article.title}" (match ${fixed(linked.score)}), so that article follows its new content`,
      options: [['UPDATE_ARTICLE', update(linked)], ['ADD_ARTICLE_TO_FOLDER', add], ['DO_NOTHING', nothing(null)]],
    };
  }
  if (best && best.score >= UPDATE_THRESHOLD) {
    return {
      why: `Closest article "${best.article.title}" matches at ${fixed(best.score)} ${threshold}`,
      options: [['UPDATE_ARTICLE', update(best)], ['ADD_ARTICLE_TO_FOLDER', add], ['DO_NOTHING', nothing(null)]],
    };
  }
  return {
    why: best
      ? `No existing article matches closely enough: the closest, "${best.article.title}", matches at ${fixed(best.score)} ${threshold}`
      : 'No existing article is a candidate',
    options: [['ADD_ARTICLE_TO_FOLDER', add], ['UPDATE_ARTICLE', update(best, 'updating the closest article')], ['DO_NOTHING', nothing(null)]],
  };
}

const NAMES: Readonly<Record<KnowledgeOperation, string>> = {
  ADD_ARTICLE_TO_FOLDER: 'adding an article',
  UPDATE_ARTICLE: 'updating an article',
  DO_NOTHING: 'doing nothing',
};

/** What an operation lacks when it is impossible. */
const MISSING: Readonly<Record<KnowledgeOperation, string>> = {
  ADD_ARTICLE_TO_FOLDER: 'no folder is available',
  UPDATE_ARTICLE: 'no candidate article',
  DO_NOTHING: 'nothing',
};

function decision(option: Option, reason: string): Decision {
  return { operation: option.operation, articleId: option.articleId, folderId: option.folderId, reason };
}

interface Vectors {
  title: Map<string, number>;
  body: Map<string, number>;
  questions: Map<string, number>[];
}

const vectorsOf = (a: { title: string; mainKnowledge: string; questions: readonly string[] }): Vectors => ({
  title: termVector(a.title),
  body: termVector(a.mainKnowledge),
  questions: a.questions.map(termVector),
});

const plain = (text: string): string =>
  stripMarkdown(normalizeText(text))
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Whether `body` already says every sentence of `draft`, word for word and number for number. */
function saysEverything(body: string, draft: string): boolean {
  const known = ` ${plain(body)} `;
  return splitSentences(draft).every((sentence) => {
    const words = plain(sentence);
    return words === '' || known.includes(` ${words} `);
  });
}

/** Scores one candidate against the draft. */
export function matchArticle(draft: ArticleDraft, article: ExistingArticle): ArticleMatch {
  return compare(vectorsOf(draft), article);
}

function compare(mine: Vectors, article: ExistingArticle): ArticleMatch {
  const theirs = vectorsOf(article);
  const title = cosineSimilarity(mine.title, theirs.title);
  const body = cosineSimilarity(mine.body, theirs.body);
  const questions = questionOverlap(mine.questions, theirs.questions);
  const score = questions === null
    ? (TITLE_WEIGHT * title + BODY_WEIGHT * body) / (TITLE_WEIGHT + BODY_WEIGHT)
    : TITLE_WEIGHT * title + QUESTION_WEIGHT * questions + BODY_WEIGHT * body;
  return { article, score: Math.min(1, score), title, body };
}

/** Mean, over my questions, of the best cosine with one of theirs; null when either has none. */
function questionOverlap(mine: Map<string, number>[], theirs: Map<string, number>[]): number | null {
  if (!mine.length || !theirs.length) return null;
  const sum = mine.reduce((acc, question) => acc + Math.max(0, ...theirs.map((other) => cosineSimilarity(question, other))), 0);
  return sum / mine.length;
}

/** The folder most similar to the draft; the first listed wins ties (and when nothing matches). */
function bestFolder(draft: ArticleDraft, folders: readonly FolderOption[]): { folder: FolderOption; score: number } | null {
  const repeat = (text: string, times: number): string => Array<string>(times).fill(text).join(' ');
  const target = termVector(`${repeat(draft.title, 3)} ${repeat(draft.keywords.join(' '), 2)} ${draft.mainKnowledge}`);
  let best: { folder: FolderOption; score: number } | null = null;
  for (const folder of folders) {
    const text = `${repeat(folder.path.join(' '), 2)} ${folder.description} ${folder.articleTitles.join(' ')}`;
    const score = cosineSimilarity(target, termVector(text));
    if (best === null || score > best.score) best = { folder, score };
  }
  return best;
}
