// Choosing a page's main-content container from its text blocks (html.ts walks the page into blocks):
// each block weighs for or against its ancestors, and the best balance wins.
import type { Block, DomElement } from './html.js';

/** Cards (sibling <article>s, linked paragraphs) on a page for them to read as a list of cards. */
export const CARD_LIST_MIN = 3;

/** Link share above which a block reads as navigation. */
const LINK_DENSITY_MAX = 0.5;
/** Text long enough to be prose rather than a label. */
const PROSE_CHARS = 60;
/** How much a unit of boilerplate text costs relative to a unit of content. */
const BAD_WEIGHT = 0.75;
/** Short link-free blocks (labels, dates, bylines) are weak evidence of boilerplate. */
const SHORT_WEIGHT = 0.1;
/** Score factor for candidates inside boilerplate-looking markup. */
const MARKED_FACTOR = 0.5;
/** Words a short block needs to read as a sentence. */
const SENTENCE_WORDS = 5;

/**
 * A short definition that is still a sentence ("Closes the connection.": the one-line member
 * descriptions of reference pages) is prose, however short.
 */
function isSentence(text: string): boolean {
  return /[.!?]$/.test(text) && /^[A-Z]/.test(text) && text.split(/\s+/).length >= SENTENCE_WORDS;
}

function inDefinition(el: DomElement): boolean {
  return el.localName === 'dd' || el.parentElement?.localName === 'dd';
}

/**
 * A link holding a whole paragraph of prose, one of several on the page, is a card made clickable
 * as a whole (the courses of a catalogue, the stories of a river), not navigation: navigation
 * links are a few words each. (A lone one is a promotion; one in a list item, a sidebar teaser.)
 */
const LINKED_PROSE_CHARS = 150;
const LINKED_PROSE_SHARE = 0.9;

export function markCards(blocks: Block[]): void {
  const cards = blocks.filter((block) => {
    if (block.kind !== 'text' || block.chars < LINKED_PROSE_CHARS || block.linkChars < LINKED_PROSE_SHARE * block.chars || !isSentence(block.text)) return false;
    for (let el: DomElement | null = block.el; el; el = el.parentElement) if (el.localName === 'li') return false;
    return true;
  });
  if (cards.length >= CARD_LIST_MIN) for (const block of cards) block.card = true;
}

function linkDensity(block: Block): number {
  return block.chars === 0 ? 0 : block.linkChars / block.chars;
}

/** Mostly link text, and not a clickable card: navigation. */
function readsAsLinks(block: Block): boolean {
  return linkDensity(block) > LINK_DENSITY_MAX && !block.card;
}

function blockWeights(block: Block): { good: number; bad: number } {
  // A definition term is the name of what the next <dd> documents, linked or not (API references
  // link every member to its own page): structure of the content, not navigation.
  if (block.el.localName === 'dt') return { good: 0, bad: block.chars * SHORT_WEIGHT };
  if (readsAsLinks(block)) return { good: 0, bad: block.chars };
  if (block.kind === 'pre' || block.chars >= PROSE_CHARS || (inDefinition(block.el) && isSentence(block.text))) return { good: block.chars - block.linkChars, bad: block.linkChars };
  return { good: 0, bad: block.chars * SHORT_WEIGHT };
}

export function chooseContainer(blocks: Block[], root: DomElement): DomElement {
  const totals = new Map<DomElement, { good: number; bad: number; inMark: boolean }>();
  for (const block of blocks) {
    let { good, bad } = blockWeights(block);
    let inMark = block.mark !== null;
    for (let el: DomElement | null = block.el; el; el = el.parentElement) {
      const total = totals.get(el);
      if (total) {
        total.good += good;
        total.bad += bad;
        total.inMark ||= inMark;
      } else {
        totals.set(el, { good, bad, inMark });
      }
      if (el === root) break;
      // Above a boilerplate-looking element its text is all cost.
      if (el === block.mark) {
        good = 0;
        bad = block.chars;
        inMark = false;
      }
    }
  }
  let best = root;
  let bestScore = -Infinity;
  let bestGood = 0;
  for (const [el, total] of totals) {
    // A container inside boilerplate-looking markup (a teaser rail big enough to be kept) must win clearly.
    const score = (total.good - BAD_WEIGHT * total.bad) * (total.inMark ? MARKED_FACTOR : 1);
    if (score > bestScore) {
      best = el;
      bestScore = score;
      bestGood = total.good;
    }
  }
  // No prose anywhere (a stub page, a link hub): keep the whole page rather than one fragment.
  if (bestScore <= 0) return root;
  if (bestGood < DIRECTORY_MAX_PROSE) return directoryContainer(blocks, root);
  return best;
}

/** Below this much prose in the best container, the page is read as a link directory. */
const DIRECTORY_MAX_PROSE = 200;
/** Share of the page's (unmarked) text a link directory's container must hold. */
const DIRECTORY_SHARE = 0.8;

/**
 * A page with next to no prose (a wiki page that is a list of links, an index of articles) has no
 * prose container to find: its content is the lists themselves. Take the smallest element holding
 * most of the page's text outside boilerplate-looking markup; all such elements nest, so the one
 * with the least text is the deepest.
 */
function directoryContainer(blocks: Block[], root: DomElement): DomElement {
  const mass = new Map<DomElement, number>();
  let total = 0;
  for (const block of blocks) {
    if (block.mark) continue;
    total += block.chars;
    for (let el: DomElement | null = block.el; el; el = el.parentElement) {
      mass.set(el, (mass.get(el) ?? 0) + block.chars);
      if (el === root) break;
    }
  }
  let best = root;
  let bestMass = Infinity;
  for (const [el, chars] of mass) {
    if (chars >= total * DIRECTORY_SHARE && chars < bestMass) {
      best = el;
      bestMass = chars;
    }
  }
  return best;
}

/** Standard page furniture sentences that survive inside content containers. */
const BOILERPLATE_LINES = [
  /^(?:©|\(c\)\s|copyright\b)/i,
  /\ball rights reserved\b/i,
  /\bcontent of this page is licensed under\b/i,
  /^(?:last (?:updated|modified|edited|reviewed)|page last (?:updated|modified))\b/i,
  /^(?:was this (?:page|article|information) helpful|is this page helpful|did this (?:page|article) help)/i,
  /^(?:edit (?:this page|on github)|improve this (?:page|doc)|report an issue|share (?:this|on)\b|follow us\b|skip to\b|advertisement$)/i,
];

/**
 * Within the container: link-dense prose ("Read more: ...", tag lines) goes, while link-dense list
 * items, headings and rows stay (documentation link lists are content); so do furniture lines.
 */
export function keepBlock(block: Block): boolean {
  // Markup shown as text: escaped <noscript> pixels, raw embed codes.
  if (block.kind !== 'pre' && /^<[a-z!/][^>]*>/i.test(block.text) && block.text.endsWith('>')) return false;
  if (block.kind === 'text' && readsAsLinks(block)) return false;
  if (block.kind !== 'pre' && block.text.length < 200 && BOILERPLATE_LINES.some((re) => re.test(block.text))) return false;
  return true;
}

export function isInside(el: DomElement, container: DomElement): boolean {
  for (let node: DomElement | null = el; node; node = node.parentElement) if (node === container) return true;
  return false;
}
