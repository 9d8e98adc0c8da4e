// Which elements of a page are page furniture: by tag, ARIA role, visibility and the words of their
// class and id (the vocabulary of html.ts's block walker).
import type { DomElement } from './html.js';

/** Never content (or never readable text). */
const SKIP_TAGS = new Set([
  'script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'embed', 'canvas',
  'video', 'audio', 'map', 'button', 'input', 'select', 'textarea', 'option', 'datalist', 'nav',
  'aside', 'footer', 'dialog', 'head', 'title', 'meta', 'link', 'base', 'picture', 'source', 'img',
  'menu', 'label', 'output', 'progress', 'meter', 'slot',
]);

/** Page furniture that occasionally wraps real content (ASP.NET page forms, article headers). */
const WEAK_SKIP_TAGS = new Set(['header', 'form']);

const SKIP_ROLES = new Set([
  'navigation', 'banner', 'contentinfo', 'complementary', 'search', 'menu', 'menubar', 'dialog',
  'alertdialog', 'toolbar', 'tablist', 'button', 'tooltip', 'status',
]);

/** Class/id words that mark boilerplate whatever its size (matched at a word start). */
const STRONG_BOILERPLATE = new RegExp(
  '(?:^|[\\s_-])(?:' + [
    'cookie', 'consent', 'gdpr', 'share', 'sharing', 'social', 'newsletter', 'subscribe',
    'subscription', 'related', 'recommend', 'comment', 'disqus', 'breadcrumb', 'advert', 'sponsor',
    'promo', 'popup', 'modal', 'outbrain', 'taboola', 'skip-?link', 'skip-to', 'print-?only',
    'screen-reader', 'sr-only', 'visually-?hidden', 'author-?bio', 'byline', 'dateline', 'pagination',
    'pager', 'signup', 'sign-up', 'login', 'feedback', 'rating',
    'edit-?page', 'edit-?link', 'tags', 'tag-?list', 'most-?popular', 'trending',
    'read-?more', 'more-?stories', 'next-?prev', 'prev-?next', 'announcement', 'alert',
  ].join('|') + ')',
  'i',
);
/** Whole-token matches, for words that are too short or too common as prefixes. */
const STRONG_TOKENS = new Set(['ad', 'ads', 'adv', 'advertisement', 'meta', 'caption', 'credit', 'credits', 'hide', 'nocontent']);

/** Class/id words for layout furniture; trusted only when the element holds a small part of the page. */
const WEAK_BOILERPLATE = /(?:^|[\s_-])(?:nav|navbar|navigation|menu|sidebar|side-?bar|header|footer|masthead|widget|banner|toolbar|topbar|top-bar|utility|rail|aside|drawer|offcanvas)/i;

/** Elements that start a new text block. */
export const BLOCK_TAGS = new Set([
  'address', 'article', 'blockquote', 'body', 'center', 'dd', 'details', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup',
  'hr', 'li', 'main', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'thead', 'tfoot',
  'tr', 'td', 'th', 'ul', 'br', 'form', 'caption', 'html', 'legend', 'listing', 'xmp', 'plaintext',
]);

export function attr(el: DomElement, name: string): string {
  return el.getAttribute(name) ?? '';
}

function isStyleHidden(el: DomElement): boolean {
  const style = attr(el, 'style');
  return style !== '' && /(?:display\s*:\s*none|visibility\s*:\s*hidden)/i.test(style);
}

/** `weak`: a mark by layout class words alone ("widget", "sidebar"), which repeated content may carry. */
type Verdict = 'keep' | 'skip' | 'mark' | 'weak';

/** Words in an id above which it is an anchor slug made from a heading, not a component name. */
const SLUG_ID_WORDS = 5;

/**
 * Ids generated from heading text ("sign-up-for-an-account-and-get-a-key") say what the section is
 * about, not what kind of page furniture it is, so they are not matched against boilerplate words.
 * Nor is the id a "skip to" link jumps to ("skip-to-products"): that is where the content starts.
 */
function slugFreeId(id: string): string {
  if (id === '') return id;
  return id.split(/[-_]+/).length >= SLUG_ID_WORDS || /^skip-?to\b/i.test(id) ? '' : id;
}

/**
 * Page builders wrap every piece of a page in a "widget" (Elementor: `elementor-widget-wrap >
 * elementor-widget elementor-widget-text-editor > elementor-widget-container`). The structural
 * wrappers are no furniture, and neither is a widget of a content type (text, headings,
 * testimonials, accordions...): their names are left out. Other widgets (forms, post info, menus,
 * buttons) still read as widgets.
 */
const BUILDER_WRAPPERS = /(^|\s)elementor-widget-(?:wrap|container)(?=\s|$)/g;
const BUILDER_CONTENT_WIDGET = /(^|\s)elementor-widget-(?:text-editor|theme-post-content|testimonial|testimonial-carousel|accordion|toggle|tabs|icon-box|image-box|price-table|price-list|blockquote|animated-headline|counter)(?=\s|$)/;

function builderFreeNames(names: string): string {
  if (!names.includes('elementor-widget')) return names;
  const unwrapped = names.replace(BUILDER_WRAPPERS, '$1');
  return (BUILDER_CONTENT_WIDGET.test(unwrapped) ? unwrapped.replace(/(^|\s)elementor-widget(?:-[\w-]+)?(?=\s|$)/g, '$1') : unwrapped).trim();
}

/** Decide whether an element is boilerplate by tag, role, visibility and class/id words. */
export function classify(el: DomElement): Verdict {
  const tag = el.localName;
  if (SKIP_TAGS.has(tag)) return 'skip';
  if (tag === 'html' || tag === 'body' || tag === 'main' || tag === 'article') return 'keep';
  const role = attr(el, 'role');
  // Inactive tabs of a tab set (one per programming language, OS...) are hidden only until clicked:
  // they are the document's content as much as the visible tab.
  if (role === 'tabpanel') return 'keep';
  if (el.hasAttribute('hidden') || attr(el, 'aria-hidden') === 'true') return 'skip';
  if (isStyleHidden(el)) return 'mark';
  if (role === 'main' || role === 'article') return 'keep';
  if (SKIP_ROLES.has(role)) return 'skip';
  if (WEAK_SKIP_TAGS.has(tag)) return 'mark';
  // Inline formatting (and anything inside code) carries highlighter classes like "comment".
  if (!BLOCK_TAGS.has(tag) && tag !== 'span' && tag !== 'a') return 'keep';
  const cls = attr(el, 'class');
  const id = attr(el, 'id');
  if (cls === '' && id === '') return 'keep';
  // camelCase names ("RightRailContainer") split into words like kebab-case ones.
  const names = builderFreeNames(`${cls} ${slugFreeId(id)}`.trim().replace(/([a-z])([A-Z])/g, '$1-$2'));
  if (names === '') return 'keep';
  if (attr(el, 'itemprop') === 'articleBody') return 'keep';
  if (STRONG_BOILERPLATE.test(names)) return tag === 'span' || tag === 'a' ? 'keep' : 'mark';
  for (const token of names.toLowerCase().split(/[\s_-]+/)) if (STRONG_TOKENS.has(token)) return 'mark';
  if (WEAK_BOILERPLATE.test(names)) return tag === 'span' || tag === 'a' ? 'keep' : 'weak';
  return 'keep';
}
