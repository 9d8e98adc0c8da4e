// Debug helper: show how extractHtml reads one WCXB or AEB page.
// Usage: node --import tsx bench/extraction/inspect.ts <id> [--blocks] [--gold]
import { analyseHtml, type DomElement } from '../../src/ingest/extract/html.js';
import { loadAeb, loadWcxb } from './data.js';
import { tokenize } from './scorers.js';

function describe(el: DomElement | null): string {
  const parts: string[] = [];
  for (let node = el; node; node = node.parentElement) {
    const cls = (node.getAttribute('class') ?? '').trim().split(/\s+/).slice(0, 2).join('.');
    const id = node.getAttribute('id');
    parts.unshift(`${node.localName}${id ? `#${id}` : ''}${cls ? `.${cls}` : ''}`);
  }
  return parts.join(' > ');
}

const [id, ...flags] = process.argv.slice(2);
const page = [...loadWcxb(), ...loadWcxb('wcxb-dev-mixed')].find((c) => c.id === id) ?? loadAeb().find((c) => c.id.startsWith(id ?? '?'));
if (!page) throw new Error(`no page ${id}`);
const analysis = analyseHtml(page.html);
console.log(`url: ${page.url}\ncontainer: ${describe(analysis.container)}`);
const kept = new Set(analysis.kept);
if (flags.includes('--blocks')) {
  for (const b of analysis.blocks) {
    const flag = kept.has(b) ? '+' : '-';
    console.log(`${flag} ${b.kind.padEnd(7)} ${String(b.chars).padStart(5)} ld=${(b.linkChars / b.chars).toFixed(2)} ${b.mark ? `M(${b.mark.localName}.${b.mark.getAttribute('class') ?? ''}#${b.mark.getAttribute('id') ?? ''}) ` : ''}${b.el.localName}.${(b.el.getAttribute('class') ?? '').slice(0, 30)} | ${b.text.slice(0, 110).replace(/\n/g, '⏎')}`);
  }
}
const predicted = analysis.kept.map((b) => b.text).join('\n');
const bag = (t: string) => { const m = new Map<string, number>(); for (const w of tokenize(t.toLowerCase())) m.set(w, (m.get(w) ?? 0) + 1); return m; };
const p = bag(predicted);
const g = bag(page.gold);
const missing: string[] = [];
const extra: string[] = [];
for (const [w, c] of g) if ((p.get(w) ?? 0) < c) missing.push(`${w}×${c - (p.get(w) ?? 0)}`);
for (const [w, c] of p) if ((g.get(w) ?? 0) < c) extra.push(`${w}×${c - (g.get(w) ?? 0)}`);
console.log(`missing (${missing.length}): ${missing.slice(0, 80).join(' ')}`);
console.log(`extra (${extra.length}): ${extra.slice(0, 80).join(' ')}`);
if (flags.includes('--gold')) console.log(`--- gold ---\n${page.gold}`);
