// HTML main-content extraction.
//
// One pass over the DOM turns the page into a flat list of text blocks (headings, paragraphs, list
// items, table rows, code blocks), skipping obvious boilerplate (scripts, navigation, cookie
// banners, share bars...: classify.ts). Each block adds "good" (long, low-link text) or "bad" (link
// lists, short fragments) weight to all its ancestors; the element with the best good-minus-bad
// balance is the main-content container (container.ts), and its blocks (minus link-dense ones) are
// the result. Everything is linear in the size of the DOM, and recursion is depth-capped so
// pathological nesting stays cheap.
import { parseHTML } from 'linkedom';
import { clampTitle, normaliseCode, normaliseSpace, tidyParagraphs } from './text.js';
import { BLOCK_TAGS, attr, classify } from './classify.js';
import { CARD_LIST_MIN, chooseContainer, isInside, keepBlock, markCards } from './container.js';
import { jsonLdTexts, metaDescription, noscriptTexts } from './page-data.js';
import type { Extracted } from './types.js';

// linkedom's DOM is structurally the standard one; describe just what we use.
interface DomNode {
  nodeType: number;
  parentElement: DomElement | null;
  firstChild: DomNode | null;
  nextSibling: DomNode | null;
  textContent: string | null;
}
export interface DomElement extends DomNode {
  localName: string;
  childNodes: ArrayLike<DomNode>;
  replaceWith(...nodes: DomNode[]): void;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): Iterable<DomElement>;
}
interface DomDocument {
  documentElement: DomElement | null;
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_NODE = 4;

/** Beyond this depth a subtree is read as flat text: bounded stack and time on hostile nesting. */
const MAX_DEPTH = 200;

/** A boilerplate-looking element holding more than this share of the page's text may be a wrapper. */
const TRUSTED_MARK_SHARE = 0.25;
/** A run of at least this many like siblings, holding this share of the page's text, is content. */
const CONTENT_RUN_MIN = 3;
const CONTENT_RUN_SHARE = 0.4;

const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

export type BlockKind = 'heading' | 'text' | 'item' | 'pre' | 'row';

export interface Block {
  text: string;
  /** Non-space characters, and how many of them sit inside links. */
  chars: number;
  linkChars: number;
  kind: BlockKind;
  /** Nearest block-level ancestor: where the block's weight starts climbing. */
  el: DomElement;
  /** Innermost boilerplate-looking ancestor, if any. */
  mark: DomElement | null;
  /** A clickable card's text (see markCards): prose, however linked. */
  card?: boolean;
}

const nonSpaceLength = (text: string) => text.replace(/\s+/g, '').length;

interface Measure {
  /** Visible text characters (no whitespace, scripts or styles). */
  size: number;
  /** Holds a <main>, [role=main], [itemprop=articleBody] or <h1>. */
  hasMain: boolean;
  hasTable: boolean;
}

const INVISIBLE_TAGS = new Set(['script', 'style', 'noscript', 'template', 'head']);

function isMainMarker(el: DomElement): boolean {
  const tag = el.localName;
  return tag === 'main' || tag === 'h1' || attr(el, 'role') === 'main' || attr(el, 'itemprop') === 'articleBody';
}

/** One bottom-up pass recording each element's text size and markers, so later checks are O(1). */
function measureTree(el: DomElement, into: Map<DomElement, Measure>, depth = 0, noscripts?: DomElement[]): Measure {
  const measure: Measure = { size: 0, hasMain: false, hasTable: false };
  if (depth > MAX_DEPTH) {
    measure.size = nonSpaceLength(el.textContent ?? '');
  } else {
    for (let child = el.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE || child.nodeType === CDATA_NODE) {
        measure.size += nonSpaceLength(child.textContent ?? '');
      } else if (child.nodeType === ELEMENT_NODE && INVISIBLE_TAGS.has((child as DomElement).localName)) {
        if ((child as DomElement).localName === 'noscript') noscripts?.push(child as DomElement);
      } else if (child.nodeType === ELEMENT_NODE) {
        const inner = measureTree(child as DomElement, into, depth + 1, noscripts);
        measure.size += inner.size;
        measure.hasMain ||= inner.hasMain || isMainMarker(child as DomElement);
        measure.hasTable ||= inner.hasTable || (child as DomElement).localName === 'table';
      }
    }
  }
  into.set(el, measure);
  return measure;
}

const NO_MEASURE: Measure = { size: 0, hasMain: false, hasTable: false };

/**
 * 'mark': boilerplate-looking by class/id, style-hidden, or a <header>/<form>. Usually dropped, but
 * class names lie often enough ("Page-ad-margins", "modal-enabled" on the article wrapper, a
 * visibility:hidden wrapper waiting for JS) that one holding the page's main content is kept as a
 * soft mark: its text counts against every element above it, and it is dropped only when it sits
 * strictly inside the chosen container.
 */
/** Line-number gutters of code highlighters would glue digits onto every code line. */
const LINE_NUMBERS = /(?:^|[\s_-])(?:line-?numbers?|linenos?|lineno|gutter|line-?number)(?:$|[\s_-])/i;

/** Raw text of a code block, without embedded styles/scripts or line-number gutters. */
function codeText(el: DomElement, depth = 0): string {
  if (depth > MAX_DEPTH) return el.textContent ?? '';
  let text = '';
  for (let child = el.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === TEXT_NODE || child.nodeType === CDATA_NODE) text += child.textContent ?? '';
    else if (child.nodeType === ELEMENT_NODE) {
      const inner = child as DomElement;
      if (INVISIBLE_TAGS.has(inner.localName) || inner.localName === 'button') continue;
      if (LINE_NUMBERS.test(`${attr(inner, 'class')} ${attr(inner, 'id')}`)) continue;
      if (inner.localName === 'br') {
        text += '\n';
      } else if (BLOCK_TAGS.has(inner.localName)) {
        // Block children are lines of their own (highlighters wrap each line, or a line number and
        // its code, in divs), as a browser would render them: never glue "2" onto "import".
        const innerText = codeText(inner, depth + 1);
        if (innerText !== '' && text !== '' && !text.endsWith('\n')) text += '\n';
        text += innerText;
        if (innerText !== '' && !text.endsWith('\n')) text += '\n';
      } else {
        text += codeText(inner, depth + 1);
      }
    }
  }
  return text;
}


/** Turns a DOM subtree into text blocks, skipping boilerplate. */
class BlockWalker {
  readonly blocks: Block[] = [];
  private parts: string[] = [];
  private chars = 0;
  private linkChars = 0;
  private linkDepth = 0;
  private blockEl: DomElement;
  private blockTag: string;
  private mark: DomElement | null = null;
  private olCounters: number[] = [];
  /** Number of the ordered-list item whose first text block is still to come. */
  private itemPrefix = '';
  private readonly pageSize: number;

  constructor(root: DomElement, private readonly measures: Map<DomElement, Measure>) {
    this.blockEl = root;
    this.blockTag = root.localName;
    this.pageSize = this.measureOf(root).size;
  }

  private measureOf(el: DomElement): Measure {
    return this.measures.get(el) ?? NO_MEASURE;
  }

  /** Whether each parent seen holds a list of cards (see isCardHeader). */
  private readonly cardLists = new Map<DomElement, boolean>();

  /**
   * The <header> of one card in a list of cards (CARD_LIST_MIN or more sibling <article>
   * elements: a news river, search results) holds the card's headline and summary, which are the
   * list's content; a lone article's header is its title and byline.
   */
  private isCardHeader(el: DomElement): boolean {
    const card = el.parentElement;
    const list = card?.parentElement;
    if (!card || card.localName !== 'article' || !list) return false;
    let isList = this.cardLists.get(list);
    if (isList === undefined) {
      let cards = 0;
      for (let sibling = list.firstChild; sibling && cards < CARD_LIST_MIN; sibling = sibling.nextSibling) {
        if (sibling.nodeType === ELEMENT_NODE && (sibling as DomElement).localName === 'article') cards += 1;
      }
      isList = cards >= CARD_LIST_MIN;
      this.cardLists.set(list, isList);
    }
    return isList;
  }

  /** How many content runs (see inContentRun) the walk is inside. */
  private runDepth = 0;
  /** Text size of each run of siblings sharing a class attribute, by parent (see inContentRun). */
  private readonly runs = new Map<DomElement, Map<string, { count: number; size: number }>>();

  /**
   * One of CONTENT_RUN_MIN or more siblings with the same class that together hold
   * CONTENT_RUN_SHARE of the page: the repeated unit of the content (a review's product
   * "widgets", a builder's blocks), not a sidebar's few widgets.
   */
  private inContentRun(el: DomElement): boolean {
    const parent = el.parentElement;
    const cls = attr(el, 'class');
    if (!parent || cls === '') return false;
    let byClass = this.runs.get(parent);
    if (!byClass) {
      byClass = new Map();
      for (let child = parent.firstChild; child; child = child.nextSibling) {
        if (child.nodeType !== ELEMENT_NODE) continue;
        const key = attr(child as DomElement, 'class');
        const run = byClass.get(key) ?? { count: 0, size: 0 };
        run.count += 1;
        run.size += this.measureOf(child as DomElement).size;
        byClass.set(key, run);
      }
      this.runs.set(parent, byClass);
    }
    const run = byClass.get(cls);
    return run !== undefined && run.count >= CONTENT_RUN_MIN && run.size >= this.pageSize * CONTENT_RUN_SHARE;
  }

  walk(el: DomElement, depth: number): void {
    for (let child = el.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE || child.nodeType === CDATA_NODE) this.addText(child.textContent ?? '');
      else if (child.nodeType === ELEMENT_NODE) this.visit(child as DomElement, depth + 1);
    }
  }

  private visit(el: DomElement, depth: number): void {
    if (depth > MAX_DEPTH) {
      this.addText(el.textContent ?? '');
      return;
    }
    const tag = el.localName;
    if (tag === 'br' || tag === 'hr') {
      this.flush();
      return;
    }
    const verdict = classify(el);
    if (verdict === 'skip') return;
    if (verdict === 'weak' && (this.runDepth > 0 || this.inContentRun(el))) {
      // The repeated unit of the content (and the parts of it, named alike) is content.
      this.runDepth += 1;
      this.visitKept(el, tag, depth);
      this.runDepth -= 1;
      return;
    }
    if ((verdict === 'mark' && !(tag === 'header' && this.isCardHeader(el))) || verdict === 'weak') {
      // Trust the class name unless the element holds the main content or a good part of the page.
      const measure = this.measureOf(el);
      if (!measure.hasMain && measure.size < this.pageSize * TRUSTED_MARK_SHARE) return;
      const saved = this.mark;
      this.mark = el;
      this.visitKept(el, tag, depth);
      this.mark = saved;
      return;
    }
    this.visitKept(el, tag, depth);
  }

  private visitKept(el: DomElement, tag: string, depth: number): void {
    if (tag === 'pre' || tag === 'listing' || tag === 'xmp' || tag === 'plaintext') {
      this.flush();
      this.push(normaliseCode(codeText(el)), 'pre', el, 0);
      return;
    }
    if (tag === 'tr' && this.isDataRow(el)) {
      this.flush();
      this.pushRow(el);
      return;
    }
    if (tag === 'a') {
      this.linkDepth += 1;
      this.walk(el, depth);
      this.linkDepth -= 1;
      return;
    }
    if (!BLOCK_TAGS.has(tag)) {
      this.walk(el, depth);
      return;
    }
    this.flush();
    const saved = [this.blockEl, this.blockTag, this.olCounters] as const;
    this.blockEl = el;
    this.blockTag = tag;
    if (tag === 'ol') this.olCounters = [...this.olCounters, (Number.parseInt(attr(el, 'start'), 10) || 1) - 1];
    // Ordered items keep their number, as a reader (and Markdown) would show them.
    if (tag === 'li' && el.parentElement?.localName === 'ol' && this.olCounters.length > 0) {
      const last = this.olCounters.length - 1;
      const number = (this.olCounters[last] ?? 0) + 1;
      this.olCounters[last] = number;
      this.itemPrefix = `${number}. `;
    }
    this.walk(el, depth);
    this.flush();
    [this.blockEl, this.blockTag, this.olCounters] = saved;
  }

  /** Layout tables (a row holding a nested table or a whole article) are walked like divs. */
  private isDataRow(tr: DomElement): boolean {
    const measure = this.measureOf(tr);
    return !measure.hasTable && measure.size < 1500;
  }

  private pushRow(tr: DomElement): void {
    const cells: string[] = [];
    let links = 0;
    for (let cell = tr.firstChild; cell; cell = cell.nextSibling) {
      if (cell.nodeType !== ELEMENT_NODE) continue;
      const tag = (cell as DomElement).localName;
      if (tag !== 'td' && tag !== 'th') continue;
      const inner = new BlockWalker(cell as DomElement, this.measures);
      inner.walk(cell as DomElement, 0);
      inner.flush();
      const text = inner.blocks.map((b) => b.text).join(' ');
      links += inner.blocks.reduce((sum, b) => sum + b.linkChars, 0);
      if (text !== '') cells.push(text);
    }
    if (cells.length > 0) this.push(cells.join(' | '), 'row', tr, links);
  }

  private addText(text: string): void {
    if (text === '') return;
    this.parts.push(text);
    if (this.linkDepth > 0) this.linkChars += nonSpaceLength(text);
  }

  flush(): void {
    if (this.parts.length === 0) return;
    let text = normaliseSpace(this.parts.join(''));
    const links = this.linkChars;
    this.parts = [];
    this.linkChars = 0;
    if (text === '') return;
    if (this.itemPrefix !== '') {
      text = this.itemPrefix + text;
      this.itemPrefix = '';
    }
    const kind: BlockKind = HEADING_TAGS.has(this.blockTag) ? 'heading' : this.blockTag === 'li' || this.blockTag === 'dd' || this.blockTag === 'dt' ? 'item' : 'text';
    this.push(text, kind, this.blockEl, links);
  }

  private push(text: string, kind: BlockKind, el: DomElement, linkChars: number): void {
    if (text === '') return;
    const chars = nonSpaceLength(text);
    if (chars === 0) return;
    this.blocks.push({ text, chars, linkChars: Math.min(linkChars, chars), kind, el, mark: this.mark });
    this.chars += chars;
  }
}

// ---------------------------------------------------------------------------------------------
// Title.

const TITLE_SEPARATORS = /\s+[|\-–—:·•»]\s+/;

/** "<Article> | Site" -> "<Article>": keep the longest segment (site names are usually short). */
function cleanDocumentTitle(title: string): string {
  const clean = normaliseSpace(title);
  const parts = clean.split(TITLE_SEPARATORS).map((p) => p.trim()).filter((p) => p !== '');
  if (parts.length < 2) return clean;
  return parts.reduce((a, b) => (b.length > a.length ? b : a));
}

function pickTitle(root: DomElement, blocks: Block[]): string {
  const ogMeta = root.querySelector('meta[property="og:title"], meta[name="og:title"], meta[name="twitter:title"]');
  const og = ogMeta ? normaliseSpace(attr(ogMeta, 'content')) : '';
  const docTitle = normaliseSpace(root.querySelector('title')?.textContent ?? '');
  const h1 = normaliseSpace(root.querySelector('h1')?.textContent ?? '');
  const lower = (s: string) => s.toLowerCase();
  // An <h1> that the document title or og:title confirms is the page's own headline.
  if (h1 !== '' && h1.length <= 300 && (lower(docTitle).includes(lower(h1)) || lower(og).includes(lower(h1)))) return clampTitle(h1);
  if (og !== '') return clampTitle(cleanDocumentTitle(og));
  if (docTitle !== '') return clampTitle(cleanDocumentTitle(docTitle));
  if (h1 !== '') return clampTitle(h1);
  const heading = blocks.find((b) => b.kind === 'heading');
  return clampTitle(heading?.text ?? blocks[0]?.text ?? '');
}

// ---------------------------------------------------------------------------------------------

/** The extraction's intermediate state; exported for the benchmark's debug output. */
export interface HtmlAnalysis {
  title: string;
  blocks: Block[];
  container: DomElement | null;
  kept: Block[];
  root: DomElement;
}

const parseRoot = (html: string) => (parseHTML(html) as unknown as { document: DomDocument }).document.documentElement;

/**
 * The document's root element. The whole document rather than document.body: linkedom's body
 * getter can return a stray empty <body>, and it throws when markup before the doctype (a licence
 * comment, say) leaves the document without a root element; such pages are re-parsed wrapped.
 */
function parseDocument(html: string): DomElement {
  const root = parseRoot(html);
  if (root) return root;
  const stripped = html.replace(/^(?:\s|<!--[\s\S]*?-->|<!doctype[^>]*>|<\?xml[^>]*>)*/i, '');
  return parseRoot(stripped) ?? parseRoot(`<!DOCTYPE html><html><body>${stripped}</body></html>`) ?? (parseRoot('<html></html>') as DomElement);
}

/**
 * A page that keeps its content in <noscript> (a forum's crawler view, the server-rendered
 * fallback of a page built by script) is read as a browser without script shows it: when the text
 * of its <noscript> elements outweighs the rest of the body, they are unwrapped in place.
 */
const NOSCRIPT_CONTENT_MIN_CHARS = 200;

/** The parsed document and each element's measure, with <noscript> content shown when it is the page's content. */
function readDocument(html: string): { root: DomElement; measures: Map<DomElement, Measure> } {
  const root = parseDocument(html);
  let measures = new Map<DomElement, Measure>();
  const noscripts: DomElement[] = [];
  const visible = measureTree(root, measures, 0, noscripts).size;
  const hidden = noscripts.reduce((sum, el) => sum + measureTree(el, measures).size, 0);
  if (hidden >= NOSCRIPT_CONTENT_MIN_CHARS && hidden > visible) {
    for (const el of noscripts) el.replaceWith(...Array.from(el.childNodes));
    measures = new Map();
    measureTree(root, measures);
  }
  return { root, measures };
}

/** Every text block of a document, boilerplate tags skipped but no main-content selection. */
export function extractHtmlBlocks(html: string): { text: string; kind: BlockKind }[] {
  const { root, measures } = readDocument(html);
  const walker = new BlockWalker(root, measures);
  walker.walk(root, 0);
  walker.flush();
  return walker.blocks.map(({ text, kind }) => ({ text, kind }));
}

export function analyseHtml(html: string): HtmlAnalysis {
  const { root, measures } = readDocument(html);
  const walker = new BlockWalker(root, measures);
  walker.walk(root, 0);
  walker.flush();
  const blocks = walker.blocks;
  markCards(blocks);
  const container = chooseContainer(blocks, root);
  const kept = blocks.filter((b) => isInside(b.el, container) && keepBlock(b)
    && !(b.mark && b.mark !== container && isInside(b.mark, container)));
  return { title: pickTitle(root, blocks), blocks, container, kept, root };
}

/**
 * Title and paragraphs of a page, in steps, so a page with any readable text gives text:
 * 1. `main_content`: the blocks of the chosen main-content container;
 * 2. `text_blocks`: else (or when the main content is short and the page's prose is far longer)
 *    every prose block of the page that is not link lists or boilerplate;
 *    `page_blocks`: when the text so chosen is under a fifth of the text of all the page's blocks
 *    (boilerplate elements left out), the page is a listing (a collection, search results, a
 *    catalogue) whose content is its many short items: all of them;
 * 3. `structured_data`: else the text of its JSON-LD (article bodies, descriptions, answers) and
 *    of its <noscript> elements;
 * 4. `meta_description`: else its description or og:description meta tag.
 * `method` says which step gave the text.
 */
export function extractHtml(html: string, _url?: string): Extracted {
  const { title, kept, blocks, root } = analyseHtml(html);
  const main = tidyParagraphs(kept.map((b) => b.text));
  const size = (list: string[]) => list.reduce((sum, p) => sum + p.length, 0);
  const mainSize = size(main);
  // The page's prose blocks, read only when the main content is short or missing.
  const prose = () => tidyParagraphs(blocks.filter((b) => b.kind !== 'heading' && keepBlock(b) && b.chars >= 20).map((b) => b.text));
  let chosen: { paragraphs: string[]; method: 'main_content' | 'text_blocks' } | null = null;
  if (main.length && mainSize >= MAIN_MIN_CHARS) {
    chosen = { paragraphs: main, method: 'main_content' };
  } else {
    const blocksProse = prose();
    // A main content far smaller than the page's prose is a wrong pick (a product page's title block, a listing's first card).
    const tooSmall = size(blocksProse) > MAIN_SHARE_MIN * Math.max(1, mainSize);
    if (main.length && !tooSmall) chosen = { paragraphs: main, method: 'main_content' };
    else if (blocksProse.length) chosen = { paragraphs: blocksProse, method: 'text_blocks' };
  }
  if (chosen) {
    const chosenSize = size(chosen.paragraphs);
    // The raw blocks bound the tidied page's size from above (tidying only drops paragraphs): most pages stop here.
    if (chosenSize < LISTING_SHARE * blocks.reduce((sum, b) => sum + b.text.length, 0)) {
      const page = tidyParagraphs(blocks.map((b) => b.text));
      if (chosenSize < LISTING_SHARE * size(page) && medianLength(page) < LISTING_MEDIAN_CHARS) return { title, paragraphs: page, method: 'page_blocks' };
    }
    return { title, ...chosen };
  }
  const structured = tidyParagraphs([...jsonLdTexts(root), ...noscriptTexts(root)]);
  if (structured.length) return { title, paragraphs: structured, method: 'structured_data' };
  const description = metaDescription(root);
  return { title, paragraphs: tidyParagraphs(description ? [description] : []), method: 'meta_description' };
}

/**
 * A main content shorter than this (characters) while the page's prose blocks hold MAIN_SHARE_MIN
 * times more is a wrong pick and gives way to the prose blocks (chosen on the WCXB dev sets: mixed
 * 0.702 -> 0.715, docs 0.932 -> 0.934, AEB unchanged).
 */
const MAIN_MIN_CHARS = 2000;
const MAIN_SHARE_MIN = 2;

/**
 * Text chosen from a page that is under this share of all its blocks' text means a listing page
 * (chosen on the WCXB mixed dev set: 0.715 -> 0.736, listings 0.651 -> 0.692, collections
 * 0.504 -> 0.589; docs 0.934 and AEB 0.962 unchanged, where the median guard keeps an article
 * with a long comment section as it was).
 */
const LISTING_SHARE = 0.2;
/** ...and whose blocks are mostly short: half of them under this many characters (item names, prices). */
const LISTING_MEDIAN_CHARS = 40;

function medianLength(paragraphs: string[]): number {
  const lengths = paragraphs.map((p) => p.length).sort((a, b) => a - b);
  return lengths[Math.floor(lengths.length / 2)] ?? 0;
}
