// Choosing an extractor: MIME type first, then the file extension, then the bytes themselves.
import type { ContentKind } from './types.js';

const MIME_KINDS: Record<string, ContentKind> = {
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'application/pdf': 'pdf',
  'application/x-pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/plain': 'text',
};

/** The MIME type Parley records for content extracted as each kind. */
export const MIME_TYPE_OF_KIND: Record<ContentKind, string> = {
  html: 'text/html',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  markdown: 'text/markdown',
  text: 'text/plain',
};

const EXTENSION_KINDS: Record<string, ContentKind> = {
  html: 'html', htm: 'html', xhtml: 'html',
  pdf: 'pdf',
  docx: 'docx',
  md: 'markdown', markdown: 'markdown', mdown: 'markdown', mkd: 'markdown',
  txt: 'text', text: 'text',
};

/** Types that say nothing about the content: decide from the name or the bytes instead. */
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown', 'application/x-download', 'application/force-download']);

function extensionOf(filename: string): string {
  const base = filename.split(/[?#]/)[0]?.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

function startsWith(body: Uint8Array, ascii: string, offset = 0): boolean {
  if (body.length < offset + ascii.length) return false;
  for (let i = 0; i < ascii.length; i += 1) if (body[offset + i] !== ascii.charCodeAt(i)) return false;
  return true;
}

/** A .docx is a zip whose entries include word/document.xml (names are stored uncompressed). */
function isDocxZip(body: Uint8Array): boolean {
  if (!startsWith(body, 'PK\u0003\u0004')) return false;
  return Buffer.from(body.buffer, body.byteOffset, body.length).indexOf('word/document.xml', 0, 'latin1') >= 0;
}

/** Sniff the first bytes: %PDF, a Word zip, or HTML markup (after an optional BOM and whitespace). */
export function sniffKind(body: Uint8Array): ContentKind | null {
  // PDF readers accept the header anywhere in the first KiB.
  const first = Buffer.from(body.buffer, body.byteOffset, Math.min(body.length, 1024)).toString('latin1');
  if (first.includes('%PDF-')) return 'pdf';
  if (isDocxZip(body)) return 'docx';
  const text = first.replace(/^(?:\u00ef\u00bb\u00bf|\u00fe\u00ff|\u00ff\u00fe)/, '').replace(/\u0000/g, '').trimStart().toLowerCase();
  if (text.startsWith('<!doctype html') || text.startsWith('<html') || /^(?:<!--[\s\S]*?-->\s*)+<(?:!doctype html|html)/.test(text)) return 'html';
  return null;
}

export function detectContentKind(input: { contentType?: string | null; filename?: string | null; body?: Uint8Array }): ContentKind | null {
  const type = (input.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const byType = MIME_KINDS[type];
  if (byType) return byType;
  const generic = GENERIC_TYPES.has(type);
  // A specific type we do not handle (image/png, application/zip...) stays unsupported whatever the name says.
  if (!generic && type !== '') return null;
  const byName = input.filename ? EXTENSION_KINDS[extensionOf(input.filename)] : undefined;
  if (byName) return byName;
  return input.body ? sniffKind(input.body) : null;
}
