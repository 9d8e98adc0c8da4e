// PDF and DOCX extraction through unpdf and mammoth (loaded lazily: most sources are HTML).
import { extractHtmlBlocks } from './html.js';
import { clampTitle, normaliseSpace, tidyParagraphs, titleFromFilename } from './text.js';
import type { Extracted } from './types.js';

/** Paragraphs of one PDF page: blank lines, or a line ending a sentence followed by a capitalised one. */
function pdfPageParagraphs(text: string): string[] {
  const blocks = text.replace(/\r\n?/g, '\n').split(/\n\s*\n/);
  const paragraphs: string[] = [];
  for (const block of blocks) {
    let current: string[] = [];
    for (const line of block.split('\n')) {
      const trimmed = line.trim();
      if (trimmed === '') continue;
      const previous = current[current.length - 1];
      if (previous !== undefined && /[.!?:]["')\]]?$/.test(previous) && /^[\p{Lu}\p{N}•\-–]/u.test(trimmed) && previous.length < 60) {
        paragraphs.push(normaliseSpace(current.join(' ')));
        current = [];
      }
      current.push(trimmed);
    }
    if (current.length > 0) paragraphs.push(normaliseSpace(current.join(' ').replace(/(\p{L})- (\p{Ll})/gu, '$1$2')));
  }
  return paragraphs;
}

export async function extractPdf(body: Uint8Array, filename?: string | null): Promise<Extracted> {
  const { extractText, getDocumentProxy, getMeta } = await import('unpdf');
  // pdf.js may detach the buffer it is given: hand it a copy.
  const pdf = await getDocumentProxy(new Uint8Array(body));
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    const paragraphs = tidyParagraphs(text.flatMap(pdfPageParagraphs));
    let metaTitle = '';
    try {
      const { info } = await getMeta(pdf);
      if (typeof info.Title === 'string') metaTitle = normaliseSpace(info.Title);
    } catch {
      // broken metadata is no reason to fail the document
    }
    const firstLine = text.join('\n').split('\n').map((line) => line.trim()).find((line) => line !== '') ?? '';
    return { title: clampTitle(metaTitle || firstLine) || titleFromFilename(filename), paragraphs };
  } finally {
    await pdf.destroy();
  }
}

export async function extractDocx(body: Uint8Array, filename?: string | null): Promise<Extracted> {
  const mammoth = (await import('mammoth')).default;
  const { value: html } = await mammoth.convertToHtml({ buffer: Buffer.from(body.buffer, body.byteOffset, body.length) });
  // A Word document is all content: reuse the HTML block walker without the main-content selection.
  const blocks = extractHtmlBlocks(`<html><body>${html}</body></html>`);
  const heading = blocks.find((b) => b.kind === 'heading');
  return {
    title: clampTitle(heading?.text ?? '') || titleFromFilename(filename),
    paragraphs: tidyParagraphs(blocks.map((b) => b.text)),
  };
}
