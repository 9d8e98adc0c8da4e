import type { Block } from './article.js';
import { splitSentences, stripMarkdown as plain } from '../../text/sentences.js';

/**
 * Lists a page lost the markers of. Ingestion gives a page's bulleted items as plain lines (only
 * numbered items keep "1. "), so a run of short lines is read back as a list before a short line
 * can become a heading (article.ts). The rules:
 * - a list line is a paragraph of one sentence, not a question, not ending with ":": up to 14
 *   words without end punctuation, or up to 6 words ending with "." or "!";
 * - a run of at least LIST_MIN consecutive list lines is a list; its lines become "- " items, except
 *   a line that heads the list: the first line when it opens with a question word but is no
 *   question ("What you need") or when the run follows another list (a new list needs a heading),
 *   and an unpunctuated line followed by items that end with a period ("Items we cannot take
 *   back" above "Gift cards."), which then starts a list of its own; and the last line when
 *   prose follows it and it is under half the median length of the run's other lines ("Opening
 *   hours" after two long items);
 * - shorter runs are left to the heading rule (two short lines are more often a heading and a
 *   subheading than a two-item list).
 * A line is never made a heading when it can be an item: a heading read as an item loses nothing,
 * an item read as a heading breaks the article.
 */
const LIST_MIN = 3;
const MAX_LINE_WORDS = 14;
const MAX_PUNCTUATED_WORDS = 6;

type Style = 'bare' | 'stop';

function listLine(block: Block): Style | null {
  if (block.kind !== 'para') return null;
  const text = plain(block.text).trim();
  if (!/\p{L}/u.test(text) || /[?:;,]$/.test(text) || splitSentences(text).length !== 1) return null;
  const count = text.split(/\s+/).length;
  if (/[.!…]$/.test(text)) return count <= MAX_PUNCTUATED_WORDS ? 'stop' : null;
  return count <= MAX_LINE_WORDS ? 'bare' : null;
}

/** "What you need", "How it works": a question word opening a heading, not a question. */
const opensWithQuestionWord = (text: string): boolean => /^(?:how|what|why|when|where|who|which)\s/i.test(plain(text));

/** The blocks with the lists of short lines made items (and the lines that head them made headings). */
export function restoreLists(blocks: Block[]): Block[] {
  const out = [...blocks];
  let i = 0;
  while (i < out.length) {
    const start = i;
    while (i < out.length && listLine(out[i]!) !== null) i++;
    if (i - start >= LIST_MIN) markRun(out, start, i);
    if (i === start) i++;
  }
  return out;
}

function markRun(blocks: Block[], start: number, end: number): void {
  const styles = blocks.slice(start, end).map((b) => listLine(b)!);
  // The last line heads the prose after the run when it is far shorter than the run's other lines.
  const last = blocks[end - 1]!;
  const after = blocks[end];
  const others = blocks.slice(start, end - 1).map((b) => b.text.length).sort((a, b) => a - b);
  const median = others[Math.floor(others.length / 2)] ?? 0;
  if (styles.at(-1) === 'bare' && after?.kind === 'para' && after.text.length > last.text.length && last.text.length < median / 2) {
    blocks[end - 1] = { ...last, kind: 'heading', text: plain(last.text), level: 2 };
    styles.pop();
  }
  const before = blocks[start - 1];
  const heading = (i: number) => {
    blocks[i] = { ...blocks[i]!, kind: 'heading', text: plain(blocks[i]!.text), level: 2 };
  };
  const item = (i: number) => {
    blocks[i] = { ...blocks[i]!, kind: 'item', marker: '- ' };
  };
  const first = blocks[start]!;
  const headed = styles[0] === 'bare' && (opensWithQuestionWord(first.text) || before?.kind === 'item' || before?.kind === 'row');
  for (let k = 0; k < styles.length; k++) {
    const index = start + k;
    // An unpunctuated line above two or more lines ending with a period heads them.
    const headsStops = styles[k] === 'bare' && styles[k + 1] === 'stop' && styles[k + 2] === 'stop';
    if ((k === 0 && headed) || headsStops) heading(index);
    else item(index);
  }
}
