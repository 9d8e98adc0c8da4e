// Bytes to text with the usual precedence: byte-order mark, transport charset, in-document
// declaration (HTML only), UTF-8.
import type { ContentKind } from './types.js';

type Decoder = InstanceType<typeof TextDecoder>;

/** UTF-16 text of any script has zero bytes; without them a UTF-16 label is a mislabel. */
function looksLikeUtf16(body: Uint8Array): boolean {
  return body.subarray(0, 1024).includes(0);
}

function decoderFor(label: string | null | undefined, body: Uint8Array): Decoder | null {
  if (!label) return null;
  let decoder: Decoder;
  try {
    decoder = new TextDecoder(label.trim().replace(/^["']|["']$/g, '').toLowerCase());
  } catch {
    return null; // unknown label ('none', 'x-bogus'...): let the next source decide
  }
  // WHATWG maps the vague 'unicode' (and 'ucs-2'...) to UTF-16LE; honour it only for real UTF-16 bytes.
  if (decoder.encoding.startsWith('utf-16') && !looksLikeUtf16(body)) return null;
  return decoder;
}

function bomEncoding(body: Uint8Array): { encoding: string; length: number } | null {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (body[0] === 0xfe && body[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  if (body[0] === 0xff && body[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  return null;
}

/** <meta charset=...> or <meta http-equiv="Content-Type" content="...; charset=...">, in the first 4 KiB. */
export function metaCharset(body: Uint8Array): string | null {
  const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.length, 4096)).toString('latin1');
  for (const tag of head.match(/<meta\b[^>]*>/gi) ?? []) {
    const direct = /\bcharset\s*=\s*["']?\s*([\w.:-]+)/i.exec(tag);
    if (direct?.[1]) return direct[1];
  }
  return null;
}

/**
 * Node's TextDecoder decodes windows-1252 as ISO-8859-1 (0x80-0x9F become C1 controls); browsers,
 * and the pages that declare it, mean the Windows code page: map that range back.
 */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function fixCp1252(text: string): string {
  return text.replace(/[\u0080-\u009f]/g, (ch) => CP1252_HIGH[ch.charCodeAt(0) - 0x80] ?? ch);
}

export function decodeText(body: Uint8Array, charset?: string | null, kind?: ContentKind): string {
  const bom = bomEncoding(body);
  if (bom) return new TextDecoder(bom.encoding).decode(body.subarray(bom.length));
  const declared = decoderFor(charset, body) ?? (kind === 'html' || kind === undefined ? decoderFor(metaCharset(body), body) : null);
  const decoder = declared ?? new TextDecoder('utf-8');
  const text = decoder.decode(body);
  return decoder.encoding === 'windows-1252' ? fixCp1252(text) : text;
}
