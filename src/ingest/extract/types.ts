// Shared types of the content extractors.

export interface Extracted {
  title: string;
  paragraphs: string[];
}

export type ContentKind = 'html' | 'pdf' | 'docx' | 'markdown' | 'text';

/** Thrown for content we cannot extract; the message is user-facing, e.g. 'unsupported content type: image/png'. */
export class UnsupportedContentError extends Error {
  override name = 'UnsupportedContentError';
}
