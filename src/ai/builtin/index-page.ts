import { normalizeText, splitSentences, squash, stripMarkdown } from '../../text/sentences.js';
import { isCustomerQuestion, opensWithAction, questionFromTitle } from './questions.js';

/**
 * Index pages: a help center's home, category or section page lists the titles of other articles
 * and says nothing itself; an article drafted from it would be junk. The text is read line by line
 * (paragraphs and list items, Markdown markers removed). It is an index page when all hold:
 * - it has at least MIN_LINES lines;
 * - prose (sentences of at least PROSE_WORDS words ending with "." or "!") is at most PROSE_SHARE
 *   of its characters;
 * - at least MIN_TITLES lines, and at least TITLE_SHARE of them, read as article titles: a customer's
 *   question ("Why was I charged twice?"), a title opening with an action ("Reset your password"),
 *   or a noun phrase of at least MIN_PHRASE_WORDS words a question can be made of ("Shipping times
 *   and costs"; not a section name such as "Your account");
 * - the titles are listed, not answered: at least LISTED_SHARE of them are directly followed by
 *   another title (an FAQ with one-line answers alternates questions and answers; so, alas, does a
 *   section page that gives each title a one-line blurb, which is left to the editor);
 * - and it shows it lists articles: at least MIN_QUESTIONS of those titles are questions (an
 *   article's own list items rarely are), or a line names the listing ("Popular articles",
 *   "See all 9 articles", "Browse by topic").
 * A checklist of steps (all imperatives, no question, no listing words) stays knowledge.
 */
const RULES = {
  MIN_LINES: 6,
  PROSE_WORDS: 8,
  PROSE_SHARE: 0.2,
  MIN_TITLES: 5,
  TITLE_SHARE: 0.5,
  /** Share of the titles directly followed by another title (or ending the text): titles listed, not answered. */
  LISTED_SHARE: 0.5,
  MIN_QUESTIONS: 2,
  MAX_TITLE_WORDS: 14,
  /** A title that is a noun phrase needs this many words ("Shipping times and costs"; not "Your account"). */
  MIN_PHRASE_WORDS: 4,
} as const;
const LISTING = /\b(?:(?:see|view|show|browse) (?:all|more)\b|\d+ articles?\b|(?:popular|featured|top|related|recent|promoted|more) articles\b|browse (?:by )?(?:topics?|categor(?:y|ies))|all (?:articles|topics|categories))/i;

/** What an index page shows: how many of its lines are article titles, and a few of them. */
export interface IndexPage {
  lines: number;
  titles: string[];
}

/** The page's article titles when the text is an index page (rules above), else null. */
export function indexPage(text: string): IndexPage | null {
  const lines = normalizeText(text)
    .split('\n')
    .map((line) => squash(stripMarkdown(line.replace(/^\s*(?:#{1,6}|[-*+•]|\d{1,3}[.)])\s+/, ''))))
    .filter((line) => /\p{L}/u.test(line));
  if (lines.length < RULES.MIN_LINES) return null;
  const chars = lines.reduce((sum, line) => sum + line.length, 0);
  const prose = lines
    .flatMap((line) => splitSentences(line))
    .filter((s) => /[.!]$/.test(s) && s.split(' ').length >= RULES.PROSE_WORDS)
    .reduce((sum, s) => sum + s.length, 0);
  if (prose > RULES.PROSE_SHARE * chars) return null;
  const isTitle = lines.map(isArticleTitle);
  const titles = lines.filter((_, i) => isTitle[i]);
  if (titles.length < RULES.MIN_TITLES || titles.length < RULES.TITLE_SHARE * lines.length) return null;
  const listed = isTitle.filter((title, i) => title && (i === lines.length - 1 || isTitle[i + 1])).length;
  if (listed < RULES.LISTED_SHARE * titles.length) return null;
  const questions = titles.filter((t) => t.endsWith('?')).length;
  if (questions < RULES.MIN_QUESTIONS && !lines.some((line) => LISTING.test(line))) return null;
  return { lines: lines.length, titles };
}

function isArticleTitle(line: string): boolean {
  const count = line.split(' ').length;
  if (count < 2 || count > RULES.MAX_TITLE_WORDS || /[.!:;,]$/.test(line)) return false;
  if (line.endsWith('?')) return isCustomerQuestion(line);
  return opensWithAction(line) || (count >= RULES.MIN_PHRASE_WORDS && questionFromTitle(line) !== null);
}

/** The reason a job gives for not drafting an index page. */
export function indexPageReason(page: IndexPage): string {
  const examples = page.titles.filter(opensWithAction).slice(0, 2);
  const shown = (examples.length === 2 ? examples : page.titles.slice(0, 2)).map((t) => `"${t}"`).join(' and ');
  return (
    `An index page: it lists other articles (${page.titles.length} of its ${page.lines} lines are article titles, such as ${shown}) ` +
    'and says nothing of its own, so no article is drafted from it; generate from the pages it links to instead.'
  );
}
