// Markdown and plain-text extraction.
import { clampTitle, normaliseCode, normaliseSpace, tidyParagraphs, titleFromFilename } from './text.js';
import type { Extracted } from './types.js';

/** Plain text: paragraphs are separated by blank lines; the title is the first line. */
export function extractText(text: string, filename?: string | null): Extracted {
  const normalised = text.replace(/\r\n?/g, '\n');
  const paragraphs = tidyParagraphs(normalised.split(/\n[ \t\u00a0]*\n/).map(normaliseSpace));
  const firstLine = normalised.split('\n').map((line) => line.trim()).find((line) => line !== '') ?? '';
  return { title: clampTitle(firstLine) || titleFromFilename(filename), paragraphs };
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/;
const TABLE_DIVIDER = /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const SETEXT = /^ {0,3}(?:=+|-+)\s*$/;

/** Inline Markdown to plain text: links and images keep their text, emphasis and code marks go. */
function inlineText(text: string): string {
  return normaliseSpace(
    text
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
      .replace(/<\/?[a-z][^>]*>/gi, ' ')
      .replace(/(\*\*|__)(.+?)\1/g, '$2')
      .replace(/(^|[^\w*])[*_](?=\S)(.+?)(?<=\S)[*_](?!\w)/g, '$1$2')
      .replace(/`([^`]+)`/g, '$1'),
  );
}

function tableRow(line: string): string {
  const cells = line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((cell) => inlineText(cell));
  return cells.filter((cell) => cell !== '').join(' | ');
}

/**
 * Markdown: one paragraph per block. Headings lose their '#', list items their markers, fenced
 * code stays one paragraph with its newlines, table rows read 'a | b'. Front matter is dropped.
 */
export function extractMarkdown(markdown: string, filename?: string | null): Extracted {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const paragraphs: string[] = [];
  let title = '';
  let buffer: string[] = [];
  const flush = () => {
    const text = inlineText(buffer.join(' '));
    if (text !== '') paragraphs.push(text);
    buffer = [];
  };
  let i = 0;
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
    if (end > 0) i = end + 1;
  }
  for (; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const marker = fence[1] ?? '```';
      const code: string[] = [];
      for (i += 1; i < lines.length && !(lines[i] ?? '').trimStart().startsWith(marker); i += 1) code.push(lines[i] ?? '');
      const text = normaliseCode(code.join('\n'));
      if (text !== '') paragraphs.push(text);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      const text = inlineText(heading[2] ?? '');
      if (text !== '') paragraphs.push(text);
      if (!title && heading[1] === '#') title = text;
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    // Setext heading: a text line underlined with === or ---.
    if (buffer.length > 0 && SETEXT.test(line)) {
      const text = inlineText(buffer.join(' '));
      buffer = [];
      if (text !== '') paragraphs.push(text);
      if (!title && line.trim().startsWith('=')) title = text;
      continue;
    }
    if (line.includes('|') && TABLE_DIVIDER.test(lines[i + 1] ?? '')) {
      flush();
      paragraphs.push(tableRow(line));
      for (i += 2; i < lines.length && (lines[i] ?? '').includes('|') && (lines[i] ?? '').trim() !== ''; i += 1) paragraphs.push(tableRow(lines[i] ?? ''));
      i -= 1;
      continue;
    }
    if (LIST_ITEM.test(line)) {
      flush();
      buffer.push(line.replace(LIST_ITEM, ''));
      continue;
    }
    if (/^ {0,3}(?:[-*_]\s*){3,}$/.test(line)) {
      flush(); // thematic break
      continue;
    }
    buffer.push(line.replace(/^\s*>+\s?/, ''));
  }
  flush();
  return { title: clampTitle(title) || titleFromFilename(filename), paragraphs: tidyParagraphs(paragraphs) };
}
