// The widget reads a reply's Markdown into a tree of a few known elements (widget/src/markdown.ts);
// the browser test renders real replies. Here: what each construct becomes, and that nothing in a
// reply (HTML, script links, odd URLs) becomes anything but text or a safe link.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type MdNode, parseMarkdown, safeHref } from '../../widget/src/markdown.js';

/** A compact reading of the tree: elements as [tag, ...children], links as ['a', href, ...children]. */
function read(nodes: readonly MdNode[]): unknown[] {
  return nodes.map((n) => (typeof n === 'string' ? n : n.tag === 'a' ? ['a', n.href, ...read(n.children)] : [n.tag, ...read(n.children)]));
}
const md = (source: string) => read(parseMarkdown(source));

describe('reply Markdown', () => {
  it('paragraphs keep their line breaks; bold, italics and code', () => {
    assert.deepEqual(md('Hello **Ada**,\nyour order ships in *2 days*.\n\nUse `RESET-42` at checkout.'), [
      ['p', 'Hello ', ['strong', 'Ada'], ',', ['br'], 'your order ships in ', ['em', '2 days'], '.'],
      ['p', 'Use ', ['code', 'RESET-42'], ' at checkout.'],
    ]);
    assert.deepEqual(md('__also bold__ and _also italic_'), [['p', ['strong', 'also bold'], ' and ', ['em', 'also italic']]]);
  });

  it('leaves snake_case, arithmetic and lone markers as they are', () => {
    assert.deepEqual(md('order_id and 2*3*4 and a * b and ** nothing'), [['p', 'order_id and 2*3*4 and a * b and ** nothing']]);
  });

  it('lists, numbered lists, fenced code, quotes; a heading reads as a bold line', () => {
    assert.deepEqual(md('## Returns\nYou can:\n- print the label\n- drop it off\n  at any store\n\n1. Open Orders\n2) Pick the order'), [
      ['p', ['strong', 'Returns']],
      ['p', 'You can:'],
      ['ul', ['li', 'print the label'], ['li', 'drop it off', ' ', 'at any store']],
      ['ol', ['li', 'Open Orders'], ['li', 'Pick the order']],
    ]);
    assert.deepEqual(md('```\n<b>not bold</b>\n  kept\n```\n> quoted **text**'), [
      ['pre', ['code', '<b>not bold</b>\n  kept']],
      ['blockquote', ['p', 'quoted ', ['strong', 'text']]],
    ]);
  });

  it('links: http, https and mailto only; the rest stays text', () => {
    assert.deepEqual(md('See [our policy](https://shop.example/returns?x=1) or <mailto:help@shop.example>.'), [
      ['p', 'See ', ['a', 'https://shop.example/returns?x=1', 'our policy'], ' or ', ['a', 'mailto:help@shop.example', 'help@shop.example'], '.'],
    ]);
    assert.deepEqual(md('Go to https://shop.example/track, then wait.'), [['p', 'Go to ', ['a', 'https://shop.example/track', 'https://shop.example/track'], ', then wait.']]);
    assert.deepEqual(md('[click](javascript:alert(1)) [x](data:text/html,<b>) [y](/relative) [z](vbscript:msgbox)'), [
      ['p', '[click](javascript:alert(1)) [x](data:text/html,<b>) [y](/relative) [z](vbscript:msgbox)'],
    ]);
    assert.equal(safeHref(' JAVASCRIPT:alert(1)'), null);
    assert.equal(safeHref('java\tscript:alert(1)'), null);
    assert.equal(safeHref('HTTPS://Shop.Example/a b'), 'https://shop.example/a%20b');
  });

  it('HTML in a reply is text: no element comes from it', () => {
    const tree = parseMarkdown('<img src=x onerror="alert(1)"><script>alert(2)</script>\n<a href="javascript:alert(3)">hi</a>');
    assert.deepEqual(read(tree), [['p', '<img src=x onerror="alert(1)"><script>alert(2)</script>', ['br'], '<a href="javascript:alert(3)">hi</a>']]);
  });

  it('Windows line ends, blank lines and rules are read as breaks between blocks', () => {
    assert.deepEqual(md('one\r\ntwo\r\n\r\n---\r\nthree'), [['p', 'one', ['br'], 'two'], ['p', 'three']]);
    assert.deepEqual(md(''), []);
  });
});
