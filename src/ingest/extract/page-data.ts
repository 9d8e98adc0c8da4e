import type { DomElement } from './html.js';
import { normaliseSpace } from './text.js';

/**
 * A page's text outside its rendered body, for the last steps of extractHtml when the body gives
 * none (content rendered by script): its JSON-LD, its <noscript> elements, its meta description.
 */

/** JSON-LD keys whose string values are a page's text. */
const JSON_LD_TEXT_KEYS = new Set(['articleBody', 'text', 'description', 'reviewBody', 'answerExplanation', 'abstract']);

/** The texts of a page's JSON-LD, in document order, markup in them stripped. */
export function jsonLdTexts(root: DomElement): string[] {
  const out: string[] = [];
  const visit = (value: unknown, depth: number) => {
    if (depth > 12 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (typeof item === 'string' && JSON_LD_TEXT_KEYS.has(key)) {
        const text = normaliseSpace(item.replace(/<[^>]*>/g, ' '));
        if (text.length >= 20 && !out.includes(text)) out.push(text);
      } else {
        visit(item, depth + 1);
      }
    }
  };
  for (const script of root.querySelectorAll('script[type="application/ld+json"]')) {
    try {
      visit(JSON.parse(script.textContent ?? ''), 0);
    } catch {
      // A malformed JSON-LD block gives nothing.
    }
  }
  return out;
}

/** Readable text inside <noscript> elements (markup in them is text to the parser: stripped). */
export function noscriptTexts(root: DomElement): string[] {
  return [...root.querySelectorAll('noscript')].map((el) => normaliseSpace((el.textContent ?? '').replace(/<[^>]*>/g, ' '))).filter((text) => text.length >= 40);
}

/** The page's description or og:description meta tag, whitespace normalised ('' when none). */
export function metaDescription(root: DomElement): string {
  const meta = root.querySelector('meta[name="description"], meta[property="og:description"], meta[name="og:description"], meta[name="twitter:description"]');
  return meta ? normaliseSpace(meta.getAttribute('content') ?? '') : '';
}
