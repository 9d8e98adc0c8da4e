import type { DiagnoseArticle } from '../contracts/diagnose.js';
import { changesValue, factValues, valueAsWritten, valueKind, withoutValues } from './facts.js';
import { splitSentences, squash, truncateAtWord } from '../../text/sentences.js';
import { inflections } from '../../text/spelling.js';
import { conceptsOf } from '../../text/thesaurus.js';
import { COMMON_STEMS, rarity, STOPWORDS, terms, tokenize } from '../../text/terms.js';

/**
 * Where a lead's fact belongs in the knowledge (Refine with AI's built-in diagnosis,
 * docs/refine.md): the article sentence it corrects (found by the old value the note names, by the
 * subject the fact and the sentence share, or for a terse note by the question), the article that
 * covers its subject when no sentence states it, and the titles a person would give a new article
 * or a prompt section.
 */

export interface Correction {
  article: DiagnoseArticle;
  sentence: string;
  fact: string;
  corrected: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');

const termCache = new WeakMap<DiagnoseArticle, Set<string>>();
function articleTerms(article: DiagnoseArticle): Set<string> {
  let said = termCache.get(article);
  if (!said) termCache.set(article, (said = new Set(terms(`${article.title} ${article.body}`))));
  return said;
}

/** Whether `sentence` holds one of the old values a note names ("14" matches "14 days"). */
function holdsOld(sentence: string, oldValues: readonly string[]): boolean {
  const own = factValues(sentence);
  return oldValues.some((old) => own.includes(old) || own.some((v) => v.startsWith(`${old} `) || v === old.replace(/ (\w+)$/, ' $1s') || `${v}s` === old));
}

/**
 * The article sentence a fact corrects, and the sentence corrected: its one differing value
 * replaced by the fact's when both hold one, else the fact in its place. A sentence holding a value
 * the note calls old is preferred; a terse fact ("3 to 5 days") is placed by the question's words.
 */
export function findCorrection(articles: readonly DiagnoseArticle[], facts: readonly string[], oldValues: readonly string[], question: string, terse: boolean): Correction | null {
  let best: (Correction & { score: number }) | null = null;
  const asked = terms(question);
  for (const fact of facts) {
    const factQuantities = factValues(fact);
    for (const article of articles) {
      for (const sentence of splitSentences(article.body)) {
        const own = factValues(sentence);
        const old = oldValues.length > 0 && holdsOld(sentence, oldValues);
        const range = rangeSwap(sentence, fact);
        const changes = range !== null || (factQuantities.length > 0 && changesValue(own, factQuantities));
        if (!changes && !(old && factQuantities.length === 0)) continue;
        const shared = new Set(own.filter((q) => factQuantities.includes(q)));
        const subject = terse ? asked : terms(withoutValues(fact, shared));
        if (subject.length === 0) continue;
        // A fact about something the article never names ("the UK") adds to it; it corrects nothing.
        if (!old && !terse && subject.some((t) => !COMMON_STEMS.has(t) && !articleTerms(article).has(t))) continue;
        const said = new Set(terms(`${sentence} ${terse ? article.title : ''}`));
        // The share of the subject's words the sentence holds, the rarer words weighing more ("UK" in "we ship to the UK").
        const total = subject.reduce((sum, t) => sum + rarity(t), 0) || 1;
        const overlap = subject.reduce((sum, t) => sum + (said.has(t) ? rarity(t) : 0), 0) / total;
        // An old value the note names needs one shared subject word; else most of the fact's subject.
        if (old ? overlap === 0 : overlap < (terse ? 0.34 : 0.6) || (!terse && subject.length < 2)) continue;
        const score = overlap + (old ? 1 : 0) + (article.used ? 0.05 : 0) + shared.size * 0.01;
        if (best && score <= best.score) continue;
        const differing = [...new Set(own.filter((q) => !factQuantities.includes(q)))];
        const replacing = [...new Set(factQuantities.filter((q) => !own.includes(q)))];
        const sameKind = differing.filter((d) => replacing.length === 1 && valueKind(d) === valueKind(replacing[0]!));
        const swap = differing.length === 1 ? differing[0]! : sameKind.length === 1 ? sameKind[0]! : null;
        let corrected: string;
        if (range) corrected = range;
        else if (swap && replacing.length === 1) corrected = replaceValue(sentence, swap, fact, replacing[0]!);
        else if (terse) continue;
        else corrected = fact;
        best = { article, sentence, fact, corrected, score };
      }
    }
  }
  return best && { article: best.article, sentence: best.sentence, fact: best.fact, corrected: best.corrected };
}

const RANGE = /\b(\d+(?:[.,]\d+)?)\s*(?:to|-|–)\s*(\d+(?:[.,]\d+)?)(?=\s*([a-z]+(?:\s+days?)?))?/gi;

/** A sentence's one range of values ("5 to 7 business days") given the fact's one range of the same kind ("3 to 5 days"): the numbers replaced, the sentence's unit kept. */
function rangeSwap(sentence: string, fact: string): string | null {
  const mine = [...sentence.matchAll(RANGE)];
  const theirs = [...fact.matchAll(RANGE)];
  if (mine.length !== 1 || theirs.length !== 1) return null;
  const [a, b] = [mine[0]!, theirs[0]!];
  if (a[1] === b[1] && a[2] === b[2]) return null;
  const kind = (m: RegExpMatchArray) => valueKind(factValues(`${m[2]} ${m[3] ?? ''}`.trim())[0] ?? m[2]!);
  if (kind(a) !== kind(b)) return null;
  return `${sentence.slice(0, a.index)}${b[1]} to ${b[2]}${sentence.slice(a.index! + a[0].length)}`;
}

/** `sentence` with its value `swap` replaced by the fact's `value`, the word after it taking the fact's form ("1 point" -> "2 points"). */
function replaceValue(sentence: string, swap: string, fact: string, value: string): string {
  const written = valueAsWritten(fact, value);
  const after = new RegExp(`${escape(written)}\\s+([A-Za-z]+)`, 'i').exec(fact)?.[1];
  return sentence.replace(new RegExp(`${escape(swap)}(\\s+([A-Za-z]+))?`, 'i'), (_m, gap: string | undefined, word: string | undefined) => {
    if (!gap || !word) return written;
    const same = after && terms(after)[0] !== undefined && terms(after)[0] === terms(word)[0];
    return `${written} ${same ? after : word}`;
  });
}

/** The article with `correction` applied, keeping the rest of its text. */
export function corrected(body: string, correction: Pick<Correction, 'sentence' | 'corrected'>): string {
  return body.replace(correction.sentence, /[.!?]$/.test(correction.corrected) ? correction.corrected : `${correction.corrected}.`);
}

/**
 * The article that covers the subject of the question (its title names what the question asks
 * about, in the same compound: "gift wrap" is not "gift cards"), the one whose text shares most of
 * the facts' words first; null when none does.
 */
export function coveringArticle(articles: readonly DiagnoseArticle[], question: string, facts: readonly string[]): DiagnoseArticle | null {
  const askedWords = tokenize(question);
  const factTerms = new Set(facts.flatMap((f) => terms(f)));
  let best: { article: DiagnoseArticle; score: number } | null = null;
  for (const article of articles) {
    const titleWords = tokenize(article.title);
    const titleTerms = new Set(terms(article.title));
    const shared = [...new Set(terms(question).filter((t) => titleTerms.has(t)))];
    if (shared.length === 0) continue;
    if (shared.every((t) => otherCompound(t, askedWords, titleWords))) continue;
    // A title that opens with an action ("Exporting your data", "Washing your jacket") is about that action.
    const action = /^[a-z]{3,}ing$/i.test(titleWords[0] ?? '') ? terms(titleWords[0]!)[0] : undefined;
    if (action && !shared.includes(action)) continue;
    const body = new Set(terms(article.body));
    const score = shared.reduce((s, t) => s + rarity(t), 0) + [...factTerms].filter((t) => body.has(t)).length * 0.5;
    if (!best || score > best.score) best = { article, score };
  }
  return best?.article ?? null;
}

/** Whether the term heads another compound in the title than in the question ("gift wrap" against "gift cards"). */
function otherCompound(term: string, asked: string[], title: string[]): boolean {
  const next = (words: string[]) => {
    const i = words.findIndex((w) => terms(w)[0] === term);
    const following = i >= 0 ? words[i + 1] : undefined;
    return following && !STOPWORDS.has(following) ? terms(following)[0] : undefined;
  };
  const a = next(asked);
  const b = next(title);
  return a !== undefined && b !== undefined && a !== b;
}

/** An article's text with a new fact added at its end. */
export function withFact(body: string, facts: readonly string[]): string {
  return `${body.trimEnd()}${/[.!?]$/.test(body.trimEnd()) ? '' : '.'} ${facts.join(' ')}`.trim();
}

const QUESTION_OPENING =
  /^(?:hi|hello|hey)[,!.\s]+|^(?:do|does|can|could|will|would|is|are)\s+(?:you|i|we|there)\s+(?:guys\s+)?(?:have|offer|sell|do|get|provide|a|an|any|be)?\s*(?:an?\s+|any\s+|some\s+)?|^(?:how|where|when|what|which|why)\s+(?:do|does|can|is|are)\s+(?:i|you|we)\s+/i;

/** A help-center title for a new article about the question: "Student discount" for "Do you have a student discount?". */
export function articleTitle(question: string): string {
  let text = squash(question).replace(/[?!.]+$/, '').trim();
  // "Do you ship to Canada?" is about shipping to Canada: the verb after "do you" becomes the title's head.
  const doing = /^(?:(?:hi|hello|hey)[,!.\s]+)?(?:do|does|can|could|will|would)\s+you\s+(?!have\b|offer\b|sell\b|provide\b|get\b|do\b)([a-z]+)\s+(?:to|on|in|for|at|with|from|my|your|our|the|a|an|this|that|it|them)\b/i.exec(text)?.[1];
  for (let i = 0; i < 2; i++) text = text.replace(QUESTION_OPENING, '').trim();
  if (doing && text.toLowerCase().startsWith(doing.toLowerCase())) text = `${gerund(doing.toLowerCase())}${text.slice(doing.length)}`;
  text = text.replace(/\bmy\b/gi, 'your').replace(/\bI\b/g, 'you');
  const title = text.charAt(0).toUpperCase() + text.slice(1);
  return title.length > 80 ? `${title.slice(0, 79).trimEnd()}…` : title || 'New article';
}

/** The -ing form of a verb (ship -> shipping, deliver -> delivering, make -> making). */
function gerund(verb: string): string {
  const forms = inflections(verb).filter((f) => f.endsWith('ing'));
  return forms[forms.length - 1] ?? `${verb}ing`;
}

/** A prompt section's title as a person writes one: the fact's two most distinctive words the question does not hold ("Final sale"). */
export function sectionTitle(fact: string, question: string, articleTitle?: string): string {
  const known = new Set(terms(`${question} ${articleTitle ?? ''}`));
  // Names said in the fact ("Klarna") first, then its rarest words, in the fact's order.
  const names = new Set((fact.slice(1).match(/\b\p{Lu}[\p{L}&'-]+/gu) ?? []).map((w) => w.toLowerCase()));
  const knownConcepts = conceptsOf(`${question} ${articleTitle ?? ''}`).groups;
  const said = (w: string) => known.has(terms(w)[0] ?? w) || [...conceptsOf(w).groups].some((g) => knownConcepts.has(g));
  const all = [...new Set(tokenize(fact).filter((w) => !STOPWORDS.has(w) && w.length > 2 && !/\d/.test(w) && !said(w)))];
  // Common words ("reach", "pay") name nothing when rarer ones are there.
  const rare = all.filter((w) => names.has(w) || !COMMON_STEMS.has(terms(w)[0] ?? w));
  const words = rare.length ? rare : all;
  const chosen = [...words].sort((a, b) => Number(names.has(b)) - Number(names.has(a)) || rarity(terms(b)[0] ?? b) - rarity(terms(a)[0] ?? a)).slice(0, 2);
  const original = (w: string) => (names.has(w) ? (fact.match(new RegExp(`\\b${w}\\b`, 'i'))?.[0] ?? w) : w);
  const phrase = words.filter((w) => chosen.includes(w)).map(original).join(' ');
  // "Payment methods: Klarna instalments", as a lead names a section of the prompt.
  const title = articleTitle ? `${truncateAtWord(articleTitle, 40)}: ${phrase || 'what to include'}` : phrase || 'Answer details';
  return title.charAt(0).toUpperCase() + title.slice(1);
}

/** The question's words that name its topic for a guideline section: those the article's title or sentence also holds, the rarest first (at most `count`). */
export function topicOf(question: string, article: DiagnoseArticle, sentence: string, count: number): string[] {
  const said = new Set(terms(`${article.title} ${sentence}`));
  const words = [...new Set(tokenize(question).filter((w) => !STOPWORDS.has(w) && w.length > 2))];
  const shared = words.filter((w) => said.has(terms(w)[0] ?? w));
  const pool = shared.length ? shared : words;
  const chosen = [...pool].sort((a, b) => rarity(terms(b)[0] ?? b) - rarity(terms(a)[0] ?? a)).slice(0, count);
  return pool.filter((w) => chosen.includes(w));
}
