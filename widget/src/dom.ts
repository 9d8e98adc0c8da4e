// Small DOM helpers: elements with attributes and children, Markdown trees rendered as elements
// (never as HTML), icons as SVG paths, and the accent colour's readable text colour.
import type { MdNode } from './markdown';

type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string | boolean> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) if (child) element.append(child);
  return element;
}

/** A Markdown tree (markdown.ts) as elements: tags from its fixed list, text as text nodes. */
export function renderMarkdown(nodes: readonly MdNode[]): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const node of nodes) {
    if (typeof node === 'string') {
      fragment.append(document.createTextNode(node));
      continue;
    }
    const element = document.createElement(node.tag);
    if (node.tag === 'a' && node.href) {
      element.setAttribute('href', node.href);
      element.setAttribute('target', '_blank');
      element.setAttribute('rel', 'noopener noreferrer nofollow');
    }
    element.append(renderMarkdown(node.children));
    fragment.append(element);
  }
  return fragment;
}

const SVG = 'http://www.w3.org/2000/svg';

export function icon(path: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const p = document.createElementNS(SVG, 'path');
  p.setAttribute('d', path);
  svg.append(p);
  return svg;
}

export const ICONS = {
  chat: 'M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H8l-4 4V5a2 2 0 0 1 2-2Zm3 6v2h10V9H7Zm0-3v2h10V6H7Zm0 6v2h7v-2H7Z',
  thumbUp: 'M1 21h4V9H1v12zm22-11c0-1.1-.9-2-2-2h-6.31l.95-4.57.03-.32c0-.41-.17-.79-.44-1.06L14.17 1 7.59 7.59C7.22 7.95 7 8.45 7 9v10c0 1.1.9 2 2 2h9c.83 0 1.54-.5 1.84-1.22l3.02-7.05c.09-.23.14-.47.14-.73v-2z',
  thumbDown: 'M15 3H6c-.83 0-1.54.5-1.84 1.22l-3.02 7.05c-.09.23-.14.47-.14.73v2c0 1.1.9 2 2 2h6.31l-.95 4.57-.03.32c0 .41.17.79.44 1.06L9.83 23l6.59-6.59c.36-.36.58-.86.58-1.41V5c0-1.1-.9-2-2-2zm4 0v12h4V3h-4z',
  close: 'M18.3 5.7 12 12l6.3 6.3-1.4 1.4L10.6 13.4 4.3 19.7 2.9 18.3 9.2 12 2.9 5.7 4.3 4.3l6.3 6.3 6.3-6.3 1.4 1.4Z',
} as const;

const DEFAULT_ACCENT = '#2457c5';

/**
 * `data-color` as the browser reads it (any CSS colour; an invalid one is the default), and the
 * text colour on it with the better WCAG contrast: white or near-black.
 */
export function accentColors(requested: string | null, probe: HTMLElement): { accent: string; onAccent: string } {
  const accent = requested && CSS.supports('color', requested) ? requested : DEFAULT_ACCENT;
  probe.style.color = accent;
  const [r = 0, g = 0, b = 0] = (getComputedStyle(probe).color.match(/[\d.]+/g) ?? []).map(Number);
  probe.style.color = '';
  const channel = (c: number) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const onWhite = 1.05 / (luminance + 0.05);
  const onDark = (luminance + 0.05) / 0.0603;
  return { accent, onAccent: onWhite >= onDark ? '#ffffff' : '#1a1a1a' };
}
