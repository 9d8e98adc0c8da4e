// The Markdown of a reply, read into a tree of a few known elements. Nothing in a reply becomes
// HTML: the tree holds tag names from a fixed list, text, and link targets that passed `safeHref`;
// the view builds elements from it with createElement and createTextNode. So a reply (the agent's
// or a person's) can format text, but never inject markup, scripts or styles into the page.
// Pure code with no DOM: tested in Node (test/widget/markdown.test.ts).

export type InlineTag = 'strong' | 'em' | 'code' | 'a' | 'br';
export type BlockTag = 'p' | 'ul' | 'ol' | 'li' | 'pre' | 'blockquote';
export type MdNode = string | MdElement;
export interface MdElement {
  tag: InlineTag | BlockTag;
  children: MdNode[];
  /** Links only: an http(s) or mailto address. */
  href?: string;
}

/** Link targets a reply may carry: http, https and mailto, absolute. Anything else is shown as text. */
export function safeHref(raw: string): string | null {
  const href = raw.trim();
  if (/^mailto:[^\s<>"]+@[^\s<>"]+$/i.test(href)) return href;
  try {
    const url = new URL(href);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

interface InlineRule {
  pattern: RegExp;
  build: (match: RegExpExecArray) => MdNode;
}

const INLINE: InlineRule[] = [
  { pattern: /`([^`\n]+)`/, build: (m) => ({ tag: 'code', children: [m[1]!] }) },
  {
    pattern: /\[([^\]\n]+)\]\(([^()\s]+(?:\([^()\s]*\))?[^()\s]*)\)/,
    build: (m) => {
      const href = safeHref(m[2]!);
      return href ? { tag: 'a', href, children: inline(m[1]!) } : m[0];
    },
  },
  { pattern: /<((?:https?:\/\/|mailto:)[^\s<>]+)>/, build: (m) => link(m[1]!) },
  { pattern: /\*\*(?=\S)([^\n]*?\S)\*\*|__(?=\S)([^\n]*?\S)__/, build: (m) => ({ tag: 'strong', children: inline(m[1] ?? m[2]!) }) },
  { pattern: /(?<![\w*])\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![\w*])|(?<![\w_])_(?=[^\s_])([^_\n]*?[^\s_])_(?![\w_])/, build: (m) => ({ tag: 'em', children: inline(m[1] ?? m[2]!) }) },
  // A bare address, without the sentence's closing punctuation.
  { pattern: /\bhttps?:\/\/[^\s<>()]*[^\s<>().,;:!?'"]/, build: (m) => link(m[0]) },
];

function link(address: string): MdNode {
  const href = safeHref(address);
  return href ? { tag: 'a', href, children: [address.replace(/^mailto:/i, '')] } : address;
}

/** Inline formatting of one block's text: the earliest match of any rule wins, the text around it stays text. */
export function inline(text: string): MdNode[] {
  const out: MdNode[] = [];
  let rest = text;
  while (rest) {
    let best: { rule: InlineRule; match: RegExpExecArray } | null = null;
    for (const rule of INLINE) {
      const match = rule.pattern.exec(rest);
      if (match && (!best || match.index < best.match.index)) best = { rule, match };
    }
    if (!best) {
      pushText(out, rest);
      break;
    }
    if (best.match.index > 0) pushText(out, rest.slice(0, best.match.index));
    const node = best.rule.build(best.match);
    if (typeof node === 'string') pushText(out, node);
    else out.push(node);
    rest = rest.slice(best.match.index + best.match[0].length);
  }
  return out;
}

function pushText(out: MdNode[], text: string): void {
  const last = out.at(-1);
  if (typeof last === 'string') out[out.length - 1] = last + text;
  else out.push(text);
}

/** Lines of a paragraph keep their breaks (a chat reply's line breaks are meant). */
function lines(text: string[]): MdNode[] {
  return text.flatMap((line, i) => (i === 0 ? inline(line) : [{ tag: 'br', children: [] } as MdNode, ...inline(line)]));
}

const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^\s{0,3}\d{1,9}[.)]\s+(.*)$/;
const FENCE = /^\s{0,3}(```|~~~)/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;

/** A reply's Markdown as blocks: paragraphs, lists, code, quotes; headings read as bold paragraphs. */
export function parseMarkdown(source: string): MdElement[] {
  const input = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: MdElement[] = [];
  let i = 0;
  while (i < input.length) {
    const line = input[i]!;
    if (!line.trim() || RULE.test(line)) {
      i += 1;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const code: string[] = [];
      i += 1;
      while (i < input.length && !input[i]!.trimStart().startsWith(fence[1]!)) code.push(input[i++]!);
      i += 1;
      blocks.push({ tag: 'pre', children: [{ tag: 'code', children: [code.join('\n')] }] });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ tag: 'p', children: [{ tag: 'strong', children: inline(heading[1]!) }] });
      i += 1;
      continue;
    }
    const list = BULLET.test(line) ? BULLET : NUMBERED.test(line) ? NUMBERED : null;
    if (list) {
      const items: MdElement[] = [];
      while (i < input.length && input[i]!.trim()) {
        const item = list.exec(input[i]!);
        // A line that does not start an item continues the one before it.
        if (item) items.push({ tag: 'li', children: inline(item[1]!) });
        else items.at(-1)!.children.push(' ', ...inline(input[i]!.trim()));
        i += 1;
      }
      blocks.push({ tag: list === BULLET ? 'ul' : 'ol', children: items });
      continue;
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (i < input.length && QUOTE.test(input[i]!)) quoted.push(QUOTE.exec(input[i++]!)![1]!);
      blocks.push({ tag: 'blockquote', children: parseMarkdown(quoted.join('\n')) });
      continue;
    }
    const paragraph: string[] = [];
    while (i < input.length && input[i]!.trim() && !FENCE.test(input[i]!) && !HEADING.test(input[i]!) && !(paragraph.length && (BULLET.test(input[i]!) || NUMBERED.test(input[i]!)))) {
      paragraph.push(input[i++]!.trim());
    }
    blocks.push({ tag: 'p', children: lines(paragraph) });
  }
  return blocks;
}
