// Content extraction for knowledge sources: bytes + metadata in, a title and clean paragraphs out.
import { extractDocx, extractPdf } from './binary.js';
import { decodeText } from './decode.js';
import { detectContentKind } from './detect.js';
import { extractHtml } from './html.js';
import { extractMarkdown, extractText } from './plain.js';
import { tidyParagraphs } from './text.js';
import { type Extracted, type ExtractInput, UnsupportedContentError } from './types.js';

export type { ContentKind, Extracted, ExtractInput } from './types.js';
export { UnsupportedContentError } from './types.js';
export { decodeText } from './decode.js';
export { detectContentKind, MIME_TYPE_OF_KIND } from './detect.js';
export { extractHtml } from './html.js';
export { extractMarkdown, extractText } from './plain.js';

function describeType(contentType: string | null | undefined, filename: string | null | undefined): string {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type) return type;
  return filename ? `unknown (${filename.split(/[\\/]/).pop()})` : 'unknown';
}

/** Bytes to title and paragraphs with the extractor of their type; UnsupportedContentError says why not. */
export async function extractContent(input: ExtractInput): Promise<Extracted> {
  const filename = input.filename ?? (input.url ? new URL(input.url, 'http://x').pathname : null);
  const kind = detectContentKind({ contentType: input.contentType, filename, body: input.body });
  if (kind === null) throw new UnsupportedContentError(`unsupported content type: ${describeType(input.contentType, input.filename)}`);
  let result: Extracted;
  try {
    switch (kind) {
      case 'html':
        result = extractHtml(decodeText(input.body, input.charset, 'html'), input.url ?? undefined);
        break;
      case 'pdf':
        result = await extractPdf(input.body, input.filename);
        break;
      case 'docx':
        result = await extractDocx(input.body, input.filename);
        break;
      case 'markdown':
        result = extractMarkdown(decodeText(input.body, input.charset, 'markdown'), input.filename);
        break;
      case 'text':
        result = extractText(decodeText(input.body, input.charset, 'text'), input.filename);
        break;
    }
  } catch (error) {
    if (error instanceof UnsupportedContentError) throw error;
    // Corrupt PDFs / DOCX surface as library errors; to the user they are unreadable documents.
    throw new UnsupportedContentError(`could not read ${kind} document: ${error instanceof Error ? error.message : String(error)}`);
  }
  const paragraphs = tidyParagraphs(result.paragraphs);
  if (paragraphs.length === 0) throw new UnsupportedContentError('no extractable text');
  return { title: result.title, paragraphs, ...(result.method ? { method: result.method } : {}) };
}
