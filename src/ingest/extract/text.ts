// Small text helpers shared by the extractors.

/** Collapse every run of whitespace (NBSP included) to one space and trim. */
export function normaliseSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Code blocks keep their line structure: trim line ends, drop leading/trailing blank lines. */
export function normaliseCode(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[\s\u00a0]+$/, '').replace(/\t/g, '  '))
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}

/** Final clean-up for any extractor: drop empty paragraphs and exact consecutive duplicates. */
export function tidyParagraphs(paragraphs: Iterable<string>): string[] {
  const out: string[] = [];
  for (const paragraph of paragraphs) {
    if (paragraph.length === 0 || !/\S/.test(paragraph)) continue;
    if (out[out.length - 1] === paragraph) continue;
    out.push(paragraph);
  }
  return out;
}

/** Titles are one line and bounded, whatever the source offers. */
export function clampTitle(title: string, max = 200): string {
  const clean = normaliseSpace(title);
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.6 ? cut.slice(0, space) : cut).trim();
}

/** A title from a file name: no directory, no extension, separators as spaces. */
export function titleFromFilename(filename: string | null | undefined): string {
  if (!filename) return '';
  const base = filename.split(/[\\/]/).pop() ?? '';
  return clampTitle(base.replace(/\.[a-z0-9]{1,5}$/i, '').replace(/[_]+/g, ' '));
}
