// Shared types of the content extractors.

export interface Extracted {
  title: string;
  paragraphs: string[];
  /** For HTML: the step that gave the text (main_content, text_blocks, page_blocks, structured_data, meta_description). */
  method?: 'main_content' | 'text_blocks' | 'page_blocks' | 'structured_data' | 'meta_description';
}

/** What an extractor reads: the bytes and what the response or the upload said about them. */
export interface ExtractInput {
  body: Uint8Array;
  contentType?: string | null;
  charset?: string | null;
  filename?: string | null;
  url?: string | null;
}

export type ContentKind = 'html' | 'pdf' | 'docx' | 'markdown' | 'text';

/** Thrown for content we cannot extract; the message is user-facing, e.g. 'unsupported content type: image/png'. */
export class UnsupportedContentError extends Error {
  override name = 'UnsupportedContentError';
}
