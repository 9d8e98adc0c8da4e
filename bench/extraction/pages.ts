// Debug helper: per-page F1 of extractHtml on both sets, one "set id f1" line each, for diffing runs.
// Usage: node --import tsx bench/extraction/pages.ts > before.txt; ...; diff before.txt after.txt
import { extractHtml } from '../../src/ingest/extract/index.js';
import { loadAeb, loadWcxb } from './data.js';
import { aebPage, aebPageF1, wcxbPage } from './scorers.js';

const text = (html: string, url: string) => extractHtml(html, url).paragraphs.join('\n');
for (const c of loadAeb()) console.log(`aeb ${c.id.slice(0, 16)} ${aebPageF1(aebPage(text(c.html, c.url), c.gold)).toFixed(3)}`);
for (const c of loadWcxb()) console.log(`wcxb ${c.id} ${wcxbPage(text(c.html, c.url), c.gold, c.with, c.without).f1.toFixed(3)}`);
