import type { GeneratedArticle } from '../contracts/generate-knowledge.js';
import { normalizeText, splitSentences, squash, stripMarkdown as plain, truncateAtWord } from '../../text/sentences.js';
import { countTerms } from '../../text/similarity.js';
import { COMMON_STEMS, STOPWORDS, rarity, stem, terms, words } from '../../text/terms.js';
import { extractKeywords } from './keywords.js';
import { restoreLists } from './lists.js';
import { QUESTION_WORDS, isCustomerQuestion, questionFromStatement, questionFromTitle } from './questions.js';

/**
 * The built-in engine's article drafting: candidate knowledge (typed text, or a page's extracted
 * paragraphs joined with blank lines, or Markdown) becomes a title, cleaned knowledge, questions and
 * keywords. Steps:
 * - blocks: `#` headings, list items, `a | b` table rows and paragraphs (soft-wrapped lines joined);
 *   a short one-line paragraph without terminal punctuation followed by longer text (or a list) is a
 *   heading; boilerplate lines (cookie banners, share buttons, "Was this article helpful?",
 *   copyright and "last updated" lines) and exact-duplicate paragraphs are dropped;
 * - salience of a term (Porter2 stem): log frequency, × 0.3 for common English words, × 2 in the
 *   title, × 1.5 in headings, × 3 in the instructions;
 * - over MAX_KNOWLEDGE_CHARS, the knowledge keeps the best sentences (salience per √length, earlier
 *   is better) with the headings above them, in original order;
 * - keywords are RAKE-style phrases (1–3 words between stopwords and punctuation), scored by summed
 *   word salience × √occurrences × where they first occur, boosted in the title and headings.
 */
export type ArticleDraft = GeneratedArticle;

/** Longest knowledge kept as is; longer knowledge is summarised below it. */
export const MAX_KNOWLEDGE_CHARS = 12_000;
const MAX_TITLE = 200;
const SHORT_TITLE = 120;
const MAX_QUESTIONS = 8;
const UNTITLED = 'Untitled';
/** Score factor of a sentence that mentions a term of the instructions when summarising. */
const INSTRUCTED = 5;

type Kind = 'heading' | 'item' | 'row' | 'para';
export interface Block {
  kind: Kind;
  text: string;
  /** Heading level (1–6); 0 otherwise. */
  level: number;
  /** "- " or "3. " for list items. */
  marker: string;
}

/** Drafts an article from candidate knowledge; `title` is a hint, `instructions` steer salience. */
export function draftArticle(input: { text: string; title?: string; instructions?: string }): ArticleDraft {
  const all = parseBlocks(input.text);
  const hint = input.title ? cleanTitle(input.title) : '';
  const heading = all.find((b) => b.kind === 'heading' && b.level === 1) ?? all.find((b) => b.kind === 'heading');
  const title = truncateAtWord(
    tidyTitle(hint) || tidyTitle(heading ? plain(heading.text) : '') || sentenceTitle(all) || fallbackTitle(input.text),
    MAX_TITLE,
  );
  const titleKey = squash(title.toLowerCase());
  // The page's own headline repeats the title (read as a list item when short lines follow it).
  const duplicateOfTitle = all.find((b, i) => (b.kind === 'heading' || i === 0) && squash(plain(b.text).toLowerCase()) === titleKey);
  const blocks = all.filter((b) => b !== duplicateOfTitle);
  const asked = instructionTerms(input.instructions ?? '');
  const weights = termWeights(blocks, title, asked);
  let mainKnowledge = renderKnowledge(blocks, weights, asked);
  if (!mainKnowledge) mainKnowledge = truncateAtWord(squash(normalizeText(input.text)), MAX_KNOWLEDGE_CHARS);
  return {
    title,
    mainKnowledge,
    questions: draftQuestions(blocks, title === UNTITLED ? '' : title),
    keywords: extractKeywords(blocks, title === UNTITLED ? '' : title, weights, asked),
    agentInstruction: '',
  };
}

// ---------------------------------------------------------------------------------------------
// Blocks

const HEADING = /^(#{1,6})\s+(.*?)[\s#]*$/;
const ITEM = /^([-*+•◦▪‣·–]|\d{1,3}[.)])\s+(.*)$/;
const ROW = /^\|.*\|$|\S\s+\|\s+\S/;

function parseBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  for (const paragraph of normalizeText(text).split(/\n\s*\n/)) {
    let open: Block | null = null;
    for (const line of paragraph.split('\n').map(squash)) {
      if (!line) continue;
      const heading = HEADING.exec(line);
      const item = ITEM.exec(line);
      if (heading) {
        blocks.push({ kind: 'heading', text: heading[2] ?? '', level: heading[1]?.length ?? 1, marker: '' });
        open = null;
      } else if (item) {
        const marker = /\d/.test(item[1] ?? '') ? `${parseInt(item[1] ?? '1', 10)}. ` : '- ';
        open = { kind: 'item', text: item[2] ?? '', level: 0, marker };
        blocks.push(open);
      } else if (ROW.test(line)) {
        blocks.push({ kind: 'row', text: line, level: 0, marker: '' });
        open = null;
      } else if (open) {
        open.text += ` ${line}`;
      } else {
        open = { kind: 'para', text: line, level: 0, marker: '' };
        blocks.push(open);
      }
    }
  }
  const seen = new Set<string>();
  const kept = blocks.filter((block) => {
    if (!/[\p{L}\p{N}]/u.test(block.text) || isBoilerplate(block.text)) return false;
    if (block.kind === 'heading') return true;
    const key = `${block.kind}:${squash(block.text.toLowerCase())}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const listed = restoreLists(kept);
  return listed.map((block, i) => {
    const next = listed[i + 1];
    const looksLikeHeading =
      block.kind === 'para' && next !== undefined && next.kind !== 'heading' && isHeadingLike(block.text) &&
      (next.kind !== 'para' || next.text.length > block.text.length);
    return looksLikeHeading ? { ...block, kind: 'heading', text: plain(block.text), level: 2 } : block;
  });
}

function isHeadingLike(text: string): boolean {
  const t = plain(text);
  return t.length <= 100 && t.split(' ').length <= 12 && !/[.!,;:…]$/.test(t) && !/^\p{Ll}/u.test(t) &&
    /\p{L}/u.test(t) && splitSentences(t).length === 1;
}


const BOILERPLATE = [
  /^(?:©|\(c\)|copyright\b|all rights reserved)/,
  /^(?:was this (?:article|page|answer|information|post|content|section) (?:helpful|useful)|is this (?:article|page) helpful)/,
  /^(?:did (?:this|we) (?:article |page )?(?:help|answer)|\d+ (?:out )?of \d+ (?:people )?found this helpful)/,
  /^(?:have more questions\W+submit a request|(?:yes|no)(?: \W? ?(?:yes|no))?$)/,
  /^(?:share(?: this)?(?: article| page| post| on \w+)?|tweet|pin it|print(?: this)?(?: page| article)?|email this(?: page| article)?)$/,
  /^(?:copy link|skip to (?:main )?content|back to top|table of contents|in this article|\d+ min(?:ute)?s? read)$/,
  /^(?:related articles|recently viewed articles|articles in this section|follow|subscribe|sign in|log in|sign up)$/,
  /^(?:facebook|twitter|linkedin|instagram|youtube|whatsapp|reddit|pinterest|x|email|print)$/,
];

/** Page furniture that is not knowledge: cookie banners, share buttons, feedback widgets, stamps. */
export function isBoilerplate(text: string): boolean {
  const t = squash(plain(text).toLowerCase()).replace(/[\s.!?:]+$/, '');
  const count = t.split(' ').length;
  if (BOILERPLATE.some((pattern) => pattern.test(t))) return true;
  if (/\bcookies?\b/.test(t) && /\b(?:accept|agree|consent|by (?:using|continuing|browsing))/.test(t) && count <= 60) return true;
  return /^(?:last )?(?:updated|modified|published|posted|edited|reviewed)\b/.test(t) && /\d/.test(t) && count <= 8;
}

// ---------------------------------------------------------------------------------------------
// Title

const SITE_WORDS = /\b(?:help|support|docs?|documentation|faqs?|knowledge ?base|blog|center|centre|community|academy|wiki|hub|store|shop)\b/i;

/** A page title without its site-name suffix ("Reset your password | Acme Help Center" → "Reset your password"). */
export function cleanTitle(hint: string): string {
  let title = plain(normalizeText(hint).replace(/^#+\s*/, ''));
  for (let m = SEPARATED.exec(title); m; m = SEPARATED.exec(title)) {
    const [, rest = '', tail = ''] = m;
    const tailWords = tail.split(' ');
    const siteLike = tailWords.length <= 6 &&
      (SITE_WORDS.test(tail) || /^[\w-]+(?:\.[\w-]+)+$/.test(tail) || tailWords.every((w) => /^[\p{Lu}\p{N}&]/u.test(w)));
    if (!siteLike || rest.length < 3 || !/\p{L}/u.test(rest)) break;
    title = rest.trim();
  }
  return title.replace(/[\s.,;:!…]+$/, '');
}
const SEPARATED = /^(.*\S)\s+(?:\||-|–|—|::|·|•|»)\s+(.+)$/;

function sentenceTitle(blocks: Block[]): string {
  const sentences = blocks.filter((b) => b.kind !== 'row').flatMap((b) => splitSentences(plain(b.text)));
  const weights = termWeights(blocks, '', new Set());
  const salience = (s: string): number =>
    [...new Set(terms(s))].reduce((sum, t) => sum + (weights.get(t) ?? 0), 0) / Math.sqrt(Math.max(words(s).length, 1));
  // The first of the opening sentences that carries at least half the salience of the best of them.
  const early = sentences.filter((s) => words(s).length >= 3).slice(0, 3);
  const best = Math.max(0, ...early.map(salience));
  const key = early.find((s) => salience(s) >= best / 2) ?? sentences[0];
  if (!key) return '';
  let title = key;
  if (title.length > SHORT_TITLE) {
    const clause = /^(.{20,120}?)\s*[,;:(–—]/.exec(title);
    title = clause?.[1] ?? truncateAtWord(title, SHORT_TITLE);
    while (/\s\S+$/.test(title) && STOPWORDS.has(title.slice(title.lastIndexOf(' ') + 1).toLowerCase())) {
      title = title.slice(0, title.lastIndexOf(' '));
    }
  }
  return tidyTitle(title);
}

/** A title without trailing punctuation, except a question mark. */
const tidyTitle = (title: string): string => (title.endsWith('?') ? title : title.replace(/[\s.,;:!…-]+$/, ''));

function fallbackTitle(text: string): string {
  const first = squash(normalizeText(text)).split(' ').slice(0, 8).join(' ');
  return truncateAtWord(first, SHORT_TITLE) || UNTITLED;
}

// ---------------------------------------------------------------------------------------------
// Salience and knowledge

/** Words of an instruction that say how to write, not what about ("focus on pricing" → pricing). */
const INSTRUCTION_WORDS = new Set(
  `focus focusing keep emphasise emphasize prioritise prioritize mention include highlight article articles knowledge
please mainly especially particular particularly information detail details summarise summarize write make sure`.split(/\s+/).map(stem),
);

function instructionTerms(instructions: string): Set<string> {
  return new Set(terms(instructions).filter((term) => !INSTRUCTION_WORDS.has(term) && !COMMON_STEMS.has(term)));
}

function termWeights(blocks: Block[], title: string, asked: Set<string>): Map<string, number> {
  const counts = countTerms(blocks.flatMap((b) => terms(b.text)));
  const inTitle = new Set(terms(title));
  const inHeadings = new Set(blocks.filter((b) => b.kind === 'heading').flatMap((b) => terms(b.text)));
  const weights = new Map<string, number>();
  for (const term of new Set([...counts.keys(), ...inTitle])) {
    const boost = (inTitle.has(term) ? 2 : 1) * (inHeadings.has(term) ? 1.5 : 1) * (asked.has(term) ? 3 : 1);
    weights.set(term, rarity(term) * (1 + Math.log(counts.get(term) ?? 1)) * boost);
  }
  return weights;
}

interface Unit {
  block: number;
  text: string;
  score: number;
}

function renderKnowledge(blocks: Block[], weights: Map<string, number>, asked: Set<string>): string {
  const units: Unit[] = [];
  blocks.forEach((block, index) => {
    if (block.kind === 'heading') return;
    const pieces = block.kind === 'para' ? splitSentences(block.text) : [block.kind === 'item' ? block.marker + block.text : block.text];
    for (const text of pieces) units.push({ block: index, text, score: 0 });
  });
  const everything = render(blocks, units, new Set(blocks.keys()));
  if (everything.length <= MAX_KNOWLEDGE_CHARS) return everything;
  units.forEach((unit, i) => {
    const unitTerms = new Set(terms(unit.text));
    let sum = 0;
    for (const term of unitTerms) sum += weights.get(term) ?? 0;
    const length = Math.max(words(unit.text).length, 1);
    const leads = i === 0 || units[i - 1]?.block !== unit.block ? 1.15 : 1;
    const wanted = [...unitTerms].some((term) => asked.has(term)) ? INSTRUCTED : 1;
    unit.score = (sum / Math.sqrt(length)) * (1 + 0.5 * (1 - i / units.length)) * leads * (length < 4 ? 0.5 : 1) * wanted;
  });
  return summarise(blocks, units);
}

/** Ancestor headings (indices) of every block, nearest last. */
function headingChains(blocks: Block[]): number[][] {
  const stack: number[] = [];
  return blocks.map((block, i) => {
    if (block.kind !== 'heading') return [...stack];
    while (stack.length && (blocks[stack[stack.length - 1] ?? 0]?.level ?? 0) >= block.level) stack.pop();
    const chain = [...stack];
    stack.push(i);
    return chain;
  });
}

function summarise(blocks: Block[], units: Unit[]): string {
  const chains = headingChains(blocks);
  const order = [...units.keys()].sort((a, b) => (units[b]?.score ?? 0) - (units[a]?.score ?? 0) || a - b);
  const kept = new Set<Unit>();
  const headings = new Set<number>();
  let used = 0;
  for (const index of order) {
    const unit = units[index];
    if (!unit) continue;
    const missing = (chains[unit.block] ?? []).filter((h) => !headings.has(h));
    const cost = unit.text.length + 2 + missing.reduce((sum, h) => sum + (blocks[h]?.text.length ?? 0) + 7, 0);
    if (used + cost > MAX_KNOWLEDGE_CHARS) continue;
    used += cost;
    kept.add(unit);
    for (const h of missing) headings.add(h);
  }
  const text = render(blocks, units.filter((u) => kept.has(u)), headings);
  return text || truncateAtWord(units[0]?.text ?? '', MAX_KNOWLEDGE_CHARS);
}

/** Markdown of the given units and headings, in document order. */
function render(blocks: Block[], units: Unit[], headings: Set<number>): string {
  const byBlock = new Map<number, string[]>();
  for (const unit of units) {
    const pieces = byBlock.get(unit.block);
    if (pieces) pieces.push(unit.text);
    else byBlock.set(unit.block, [unit.text]);
  }
  let out = '';
  let previous: Kind | null = null;
  blocks.forEach((block, i) => {
    let text: string;
    if (block.kind === 'heading') {
      if (!headings.has(i)) return;
      text = `${'#'.repeat(Math.min(Math.max(block.level, 2), 4))} ${plain(block.text)}`;
    } else {
      const pieces = byBlock.get(i);
      if (!pieces) return;
      // CJK sentences follow each other without a space.
      text = pieces.map((piece, k) => (k > 0 && !/[。！？]$/.test(pieces[k - 1] ?? '') ? ` ${piece}` : piece)).join('');
    }
    if (block.kind === 'row') text = tableRow(text, previous !== 'row');
    const tight = previous === block.kind && (block.kind === 'item' || block.kind === 'row');
    out += out ? (tight ? '\n' : '\n\n') + text : text;
    previous = block.kind;
  });
  return out;
}

/** A `cell | cell` row as a Markdown table row; the first row of a table gets the header rule. */
function tableRow(text: string, first: boolean): string {
  const cells = text.split('|').map((cell) => cell.trim());
  if (cells[0] === '') cells.shift();
  if (cells.at(-1) === '') cells.pop();
  const row = `| ${cells.join(' | ')} |`;
  return first ? `${row}\n|${' --- |'.repeat(cells.length)}` : row;
}

// ---------------------------------------------------------------------------------------------
// Questions

function isQuestionSentence(sentence: string): boolean {
  const count = words(sentence).length;
  return count >= 3 && count <= 30 && isCustomerQuestion(sentence);
}

/** A key that makes "How do I reset my password?" and "How can I reset my password?" equal. */
function questionKey(question: string): string {
  const stems = terms(question);
  return stems.length ? [...new Set(stems)].sort().join(' ') : squash(question.toLowerCase());
}

/** Question-shaped headings, question sentences, questions made from headings, from the title, then from statements. */
function* questionCandidates(blocks: Block[], title: string): Generator<string | null> {
  const headings = blocks.filter((b) => b.kind === 'heading').map((b) => plain(b.text));
  const shaped = (h: string): boolean => h.endsWith('?') || QUESTION_WORDS.has((h.split(' ')[0] ?? '').toLowerCase());
  for (const heading of headings) if (shaped(heading)) yield questionFromTitle(heading);
  for (const block of blocks) {
    if (block.kind !== 'para' && block.kind !== 'item') continue;
    for (const sentence of splitSentences(plain(block.text))) if (isQuestionSentence(sentence)) yield sentence;
  }
  for (const heading of headings) if (!shaped(heading)) yield questionFromTitle(heading);
  yield questionFromTitle(title);
  // The questions the text's statements answer ("Monthly plans can be cancelled at any time." ->
  // "How do I cancel my monthly plan?"): a text of plain sentences gets questions too.
  for (const block of blocks) {
    if (block.kind !== 'para' && block.kind !== 'item') continue;
    for (const sentence of splitSentences(plain(block.text))) if (!sentence.endsWith('?')) yield questionFromStatement(sentence);
  }
}

function draftQuestions(blocks: Block[], title: string): string[] {
  const seen = new Set<string>();
  const questions: string[] = [];
  for (const candidate of questionCandidates(blocks, title)) {
    if (questions.length >= MAX_QUESTIONS) break;
    if (!candidate) continue;
    const question = truncateAtWord(candidate, 300);
    const key = questionKey(question);
    if (seen.has(key)) continue;
    seen.add(key);
    questions.push(question.endsWith('?') ? question : `${question}?`);
  }
  return questions;
}
