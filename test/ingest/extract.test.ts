import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  UnsupportedContentError, decodeText, detectContentKind, extractContent, extractHtml,
} from '../../src/ingest/extract/index.js';
import { docx, pdf, wordParagraph, zip } from '../support/documents.js';
import { crawlFixtures } from '../support/processes.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

// ---------------------------------------------------------------------------------------------

describe('detectContentKind', () => {
  it('uses the MIME type first, ignoring parameters and case', () => {
    assert.equal(detectContentKind({ contentType: 'text/html' }), 'html');
    assert.equal(detectContentKind({ contentType: 'TEXT/HTML; charset=utf-8' }), 'html');
    assert.equal(detectContentKind({ contentType: 'application/xhtml+xml' }), 'html');
    assert.equal(detectContentKind({ contentType: 'application/pdf', filename: 'x.docx' }), 'pdf');
    assert.equal(detectContentKind({ contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }), 'docx');
    assert.equal(detectContentKind({ contentType: 'text/markdown' }), 'markdown');
    assert.equal(detectContentKind({ contentType: 'text/plain' }), 'text');
  });
  it('rejects specific unsupported types whatever the name says', () => {
    assert.equal(detectContentKind({ contentType: 'image/png', filename: 'a.pdf' }), null);
    assert.equal(detectContentKind({ contentType: 'application/zip' }), null);
  });
  it('falls back to the extension for generic or missing types', () => {
    assert.equal(detectContentKind({ filename: 'Guide.PDF' }), 'pdf');
    assert.equal(detectContentKind({ contentType: 'application/octet-stream', filename: 'notes.md' }), 'markdown');
    assert.equal(detectContentKind({ filename: '/docs/readme.txt' }), 'text');
    assert.equal(detectContentKind({ filename: 'page.htm' }), 'html');
    assert.equal(detectContentKind({ filename: 'report.docx' }), 'docx');
    assert.equal(detectContentKind({ filename: 'photo.jpg' }), null);
  });
  it('sniffs the bytes for octet-stream or missing types', () => {
    assert.equal(detectContentKind({ contentType: 'application/octet-stream', body: pdf('Hi') }), 'pdf');
    assert.equal(detectContentKind({ body: docx(wordParagraph('x')) }), 'docx');
    assert.equal(detectContentKind({ body: zip({ 'a.txt': 'plain zip' }) }), null);
    assert.equal(detectContentKind({ body: utf8('\ufeff  <!DOCTYPE html><html></html>') }), 'html');
    assert.equal(detectContentKind({ body: utf8('<HTML><body>x</body></HTML>') }), 'html');
    assert.equal(detectContentKind({ body: utf8('<!-- licence -->\n<!doctype html><html>') }), 'html');
    assert.equal(detectContentKind({ body: utf8('just some words') }), null);
    assert.equal(detectContentKind({}), null);
  });
});

describe('decodeText', () => {
  it('honours byte-order marks over any label', () => {
    assert.equal(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0xc3, 0xa9]), 'windows-1252'), 'hé');
    assert.equal(decodeText(new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0xe9, 0x00])), 'hé');
    assert.equal(decodeText(new Uint8Array([0xfe, 0xff, 0x00, 0x68, 0x00, 0xe9])), 'hé');
  });
  it('uses the charset argument, then <meta> for HTML, then UTF-8', () => {
    const latin = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80]); // "café €" in windows-1252
    assert.equal(decodeText(latin, 'windows-1252'), 'café €');
    const page = Buffer.concat([Buffer.from('<html><head><meta charset="windows-1252"></head><body>'), Buffer.from(latin), Buffer.from('</body></html>')]);
    assert.match(decodeText(page, null, 'html'), /café €/);
    const httpEquiv = Buffer.concat([Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">'), Buffer.from([0xe9])]);
    assert.match(decodeText(httpEquiv, undefined, 'html'), /é$/);
    assert.equal(decodeText(utf8('naïve'), null, 'text'), 'naïve');
  });
  it('falls back to UTF-8 for bogus labels without throwing', () => {
    assert.equal(decodeText(utf8('héllo'), 'unicode'), 'héllo');
    assert.equal(decodeText(utf8('héllo'), 'x-no-such-charset'), 'héllo');
    assert.match(decodeText(utf8('<meta http-equiv="Content-Type" content="text/html; charset=unicode">ünï'), null, 'html'), /ünï$/);
  });
});

describe('extractHtml', () => {
  const page = `<!doctype html><html><head><title>Resetting your password | Acme Help Center</title>
    <style>p { color: red }</style><script>var tracking = "do not index";</script></head><body>
    <div id="cookie-banner">We use cookies to improve your experience. Accept all cookies?</div>
    <header class="site-header"><a href="/">Acme</a><nav><a href="/a">Products</a> <a href="/b">Pricing</a></nav></header>
    <div class="layout">
      <aside class="sidebar"><ul><li><a href="/1">Billing</a></li><li><a href="/2">Accounts</a></li></ul></aside>
      <main><article>
        <h1>Resetting your password</h1>
        <p>If you forgot your password, you can reset it from the sign-in page in a few steps.</p>
        <h2>Steps</h2>
        <ol><li>Open the sign-in page and click <a href="/forgot">Forgot password</a>.</li><li>Enter the e-mail address of your account.</li></ol>
        <table><tr><th>Plan</th><th>Reset by</th></tr><tr><td>Free</td><td>E-mail link</td></tr></table>
        <pre><code>curl -X POST https://api.acme.test/reset
  -d email=me@example.com</code></pre>
        <p>The link in the e-mail expires after   24 hours,
           so use it promptly.</p>
        <div class="share-buttons"><a href="#">Share on Twitter</a> <a href="#">Share on Facebook</a></div>
      </article></main>
    </div>
    <form><input name="q"><button>Search</button></form>
    <footer><p>© 2024 Acme Inc. All rights reserved.</p></footer>
    </body></html>`;

  it('keeps the main content as readable paragraphs and drops boilerplate', () => {
    const { title, paragraphs } = extractHtml(page, 'https://help.acme.test/reset');
    assert.equal(title, 'Resetting your password');
    assert.deepEqual(paragraphs, [
      'Resetting your password',
      'If you forgot your password, you can reset it from the sign-in page in a few steps.',
      'Steps',
      '1. Open the sign-in page and click Forgot password.',
      '2. Enter the e-mail address of your account.',
      'Plan | Reset by',
      'Free | E-mail link',
      'curl -X POST https://api.acme.test/reset\n  -d email=me@example.com',
      'The link in the e-mail expires after 24 hours, so use it promptly.',
    ]);
  });

  it('cleans site suffixes from the document title when there is no matching <h1>', () => {
    const html = '<html><head><title>Shipping times - Acme Support</title></head><body><p>Orders ship within two business days from our warehouse in Ohio.</p></body></html>';
    assert.deepEqual(extractHtml(html), { title: 'Shipping times', paragraphs: ['Orders ship within two business days from our warehouse in Ohio.'], method: 'main_content' });
    const og = '<html><head><meta property="og:title" content="Returns policy"><title>Acme</title></head><body><p>Return any item within thirty days of delivery for a full refund.</p></body></html>';
    assert.equal(extractHtml(og).title, 'Returns policy');
  });

  it('removes exact consecutive duplicates and empty blocks', () => {
    const html = '<html><body><article><p>Same paragraph text repeated here for the test.</p><p>Same paragraph text repeated here for the test.</p><p>  </p><p>Another distinct paragraph follows the duplicated one.</p></article></body></html>';
    assert.deepEqual(extractHtml(html).paragraphs, ['Same paragraph text repeated here for the test.', 'Another distinct paragraph follows the duplicated one.']);
  });

  it('finishes quickly on the crawl test site pages (spider trap, bogus charset)', () => {
    const dir = path.join(crawlFixtures, 'nutch-fetch-test-site');
    const trap = readFileSync(path.join(dir, 'nested_spider_trap.html'));
    let start = performance.now();
    const trapResult = extractHtml(decodeText(trap, null, 'html'));
    assert.ok(performance.now() - start < 1000, 'spider trap extraction is bounded');
    assert.equal(trapResult.title, 'nested spider trap');
    assert.deepEqual(trapResult.paragraphs, ['Nutch fetcher test page']);

    const exception = readFileSync(path.join(dir, 'exception.html'));
    start = performance.now();
    const result = extractHtml(decodeText(exception, null, 'html'));
    assert.ok(performance.now() - start < 1000);
    assert.equal(result.title, 'Exception');
    assert.deepEqual(result.paragraphs, ['!!Trying to parse this one will fail with a MalformedInputException!! Nutch fetcher test page.']);
  });

  it('keeps the hidden panels of a tab set but not other hidden elements', () => {
    const html = `<html><body><main><h1>Install the SDK</h1>
      <p>Pick your programming language below and run the install command shown for it.</p>
      <div role="tablist"><button role="tab">Python</button><button role="tab">Node.js</button></div>
      <div role="tabpanel"><pre>pip install acme</pre></div>
      <div role="tabpanel" hidden style="display:none"><pre>npm install acme</pre></div>
      <div hidden><p>A hidden survey that never shows up on the page for anyone.</p></div>
      </main></body></html>`;
    const { paragraphs } = extractHtml(html);
    assert.ok(paragraphs.includes('pip install acme'));
    assert.ok(paragraphs.includes('npm install acme'));
    assert.ok(!paragraphs.some((p) => p.includes('survey')));
  });

  it('does not read heading-slug ids as boilerplate class words', () => {
    const html = `<html><body><article><h1>Quickstart</h1>
      <p>This quickstart walks you through your first request to the messaging API.</p>
      <section id="sign-up-for-an-account-and-get-a-key"><h2>Sign up for an account and get a key</h2>
      <p>Create an account in the console, then copy the API key shown on the dashboard.</p></section>
      <div id="signup"><p>Sign up to our newsletter for monthly product news and tips.</p></div>
      </article></body></html>`;
    const { paragraphs } = extractHtml(html);
    assert.ok(paragraphs.includes('Create an account in the console, then copy the API key shown on the dashboard.'));
    assert.ok(!paragraphs.some((p) => p.includes('newsletter')));
  });

  it('puts block-level lines of a code block on lines of their own', () => {
    const html = `<html><body><article><p>Run this script to print the name of the operating system you are on.</p>
      <pre><div><span>1</span><div><span>import</span> os</div></div><div><span>2</span><div>print(os.name)</div></div></pre>
      </article></body></html>`;
    assert.ok(extractHtml(html).paragraphs.includes('1\nimport os\n2\nprint(os.name)'));
  });

  it('keeps the link lists of a page that is a link directory', () => {
    const items = ['Tuning your server by Greg Smith', 'Query profiling by Jane Doe', 'Faster counting by Joe Nelson',
      'Row count estimates by David Conlin', 'Index-only scans by David Conlin', 'Logging checkpoints']
      .map((t) => `<li><a href="/wiki/${t.length}">${t}</a></li>`).join('');
    const html = `<html><body><div class="siteNotice">From the Example wiki</div>
      <div id="content"><h2>How to ask effective questions about slow queries on the project mailing lists</h2>
      <ul>${items}</ul><h2>Hardware</h2><ul>${items}</ul></div></body></html>`;
    const { paragraphs } = extractHtml(html);
    assert.ok(paragraphs.includes('Tuning your server by Greg Smith'));
    assert.ok(paragraphs.includes('Hardware'));
    assert.ok(!paragraphs.includes('From the Example wiki'));
  });

  it('reads a reference page of linked terms with one-line definitions as content', () => {
    const members = ['binaryType|The binary data type in use.', 'bufferedAmount|The number of queued bytes.',
      'close()|Closes the connection right away.', 'send()|Enqueues data to be sent.', 'url|The absolute URL of the socket.',
      'protocol|The protocol the server picked.', 'readyState|The state of the connection.', 'extensions|The extensions the server chose.']
      .map((m) => m.split('|')).map(([term, text]) => `<dt><a href="/ref/${term}">WebSocket.prototype.${term}</a> <a href="/ref/readonly">(read only)</a></dt><dd><p>${text}</p></dd>`).join('');
    const html = `<html><body><div class="page">
      <div class="toc"><ul><li><a href="#a">Constructor</a></li><li><a href="#b">Properties</a></li><li><a href="#c">Methods</a></li></ul></div>
      <div class="body"><h2>Members</h2><dl>${members}</dl>
      <section><h2>Events</h2><p>Listen to these events with addEventListener() or by assigning a handler to the matching property of the socket.</p>
      <p>Events fire in the order the server sends them; a close event always comes last, after any error event for the connection and after every pending message.</p></section></div>
      </div></body></html>`;
    const { paragraphs } = extractHtml(html);
    assert.ok(paragraphs.includes('WebSocket.prototype.binaryType (read only)'));
    assert.ok(paragraphs.includes('Closes the connection right away.'));
    assert.ok(paragraphs.some((p) => p.startsWith('Listen to these events')));
  });

  it('stays bounded on hostile nesting', () => {
    const html = `<html><body><p>${'<i><b>'.repeat(4000)}deep text</p></body></html>`;
    const start = performance.now();
    assert.deepEqual(extractHtml(html).paragraphs, ['deep text']);
    assert.ok(performance.now() - start < 2000);
  });
});

describe('extractHtml fallbacks: a page with readable text never comes out empty', () => {
  const shell = (head: string, body: string) => `<!doctype html><html><head><title>Widget</title>${head}</head><body>${body}</body></html>`;

  it('reads the main content first and says so', () => {
    const out = extractHtml(shell('', '<main><p>The widget ships in two colours and fits every standard mount.</p></main>'));
    assert.deepEqual([out.method, out.paragraphs], ['main_content', ['The widget ships in two colours and fits every standard mount.']]);
  });

  it('takes every block of a listing page, whose content is its many short items', () => {
    // Search results inside the filter form (a form reads as boilerplate): the main content found is
    // the heading and its line, a twentieth of the page's text, and the page's blocks are mostly short.
    const tiles = Array.from({ length: 40 }, (_, i) => `<li class="tile"><h3>Vintage poster no. ${i}</h3><div>$${10 + i}.00</div><div>Free shipping</div></li>`).join('');
    const html = shell('', `<header><nav><a href="/">Home</a></nav></header><main><h1>Posters</h1><p>Prints and posters from our collection.</p></main><form action="/search"><ul>${tiles}</ul></form><footer>© 2026 Shop</footer>`);
    const out = extractHtml(html);
    assert.equal(out.method, 'page_blocks');
    assert.ok(out.paragraphs.includes('Prints and posters from our collection.'));
    assert.ok(out.paragraphs.includes('Vintage poster no. 39'), JSON.stringify(out.paragraphs.slice(0, 8)));
    assert.ok(out.paragraphs.includes('$49.00'));
    assert.ok(!out.paragraphs.some((p) => p.includes('© 2026 Shop')), 'boilerplate elements stay out');
    // The same tiles under an article holding a third of the page's text: the article is the content.
    const article = shell('', `<main><h1>Refunds</h1>${[1, 2, 3, 4, 5, 6].map((n) => `<p>Refunds of orders in zone ${n} are paid to the original payment method within five business days after the return arrives.</p>`).join('')}</main><form><ul>${tiles}</ul></form>`);
    assert.equal(extractHtml(article).method, 'main_content');
  });

  it('reads a page whose content is in <noscript> (a forum crawler view) as a browser without script shows it', () => {
    const posts = [
      'After the upgrade my containers cannot resolve each other by name, although both are on the same user-defined network.',
      'Docker answers names only on user-defined networks; check that both containers were started with --network and not on the default bridge.',
      'That was it: the second container had been started on the default bridge. Moving it to the shared network fixed the lookups.',
      'Marking this as solved. For anyone landing here later, docker network inspect lists the containers attached to a network.',
    ];
    const crawler = `<div id="main-outlet"><h1>Containers cannot resolve each other</h1>${posts.map((p, i) => `<div class="topic-body crawler-post" id="post_${i + 1}"><span class="creator">user${i}</span><div class="post"><p>${p}</p></div></div>`).join('')}</div>`;
    const html = shell('', `<header><a href="/">Community Forums</a><p>Share and learn in the community.</p></header><section id="main"></section><noscript data-path="/t/1">${crawler}</noscript>`);
    const out = extractHtml(html);
    assert.notEqual(out.method, 'structured_data', 'read as the page, not as a fallback');
    for (const post of posts) assert.ok(out.paragraphs.includes(post), post);
    assert.ok(!out.paragraphs.includes('Share and learn in the community.'));
    // A short <noscript> notice beside a page's visible content stays out of it.
    const notice = extractHtml(shell('', `<main>${posts.map((p) => `<p>${p}</p>`).join('')}</main><noscript><p>Please enable JavaScript to see the comments and the rest of this community's threads.</p></noscript>`));
    assert.deepEqual(notice.paragraphs, posts);
  });

  it("reads a page builder's text widgets as content and its other widgets as furniture", () => {
    // Elementor wraps every piece of a page in "widget" classes, which alone would mark it all as
    // sidebar widgets (each holds a small part of the page, so none reads as a wrapper).
    const widget = (type: string, inner: string) => `<div class="elementor-element elementor-widget elementor-widget-${type}" data-widget_type="${type}.default"><div class="elementor-widget-container">${inner}</div></div>`;
    const section = (...widgets: string[]) => `<section class="elementor-section elementor-top-section"><div class="elementor-container"><div class="elementor-column"><div class="elementor-widget-wrap elementor-element-populated">${widgets.join('')}</div></div></div></section>`;
    const testimonials = [
      'Our daughter has taken piano lessons for two years and loves every one of them; her teacher is patient and always well prepared.',
      'Finding a reliable guitar teacher used to be hard. The lessons here are fun, punctual and our son has made great progress.',
      'The singing teacher helped me pass my grade five exam with a distinction, and the lessons fitted around my shifts.',
      'Drum lessons at home saved us the weekly drive, and the teacher brought a practice pad so the neighbours stayed friendly.',
      'I started the violin at sixty and was worried I was too old; two terms later I play in a community orchestra.',
      'Booking and rescheduling lessons is easy, and the termly progress reports tell us exactly what to practise next.',
    ];
    const html = shell('', `<div class="elementor elementor-24891">${testimonials.map((t) => section(widget('text-editor', `<p>${t}</p>`))).join('')}${section(widget('form', '<form><label>Sign up for our newsletter and get one free lesson</label><input name="email"></form>'), widget('post-info', '<ul><li>Posted by the team</li><li>March 2026</li></ul>'))}</div>`);
    const out = extractHtml(html);
    assert.deepEqual(out.paragraphs, testimonials);
  });

  it("reads the headers of a list of cards (a news river) as the list's content", () => {
    const stories = [
      ['New colours for the studio headphones', 'The studio headphones now come in three retailer-exclusive colours, available from next week.'],
      ['Hands on: live translation in the new earbuds', 'Live translation works in five languages and needs a phone nearby; heart-rate monitoring is on by default.'],
      ['Firmware 7.1 for the over-ear headphones', 'The update improves the noise cancellation and fixes the pairing bug some owners reported after 7.0.'],
      ['The wired adapter is discontinued', 'Owners of older wired headphones will need a third-party adapter once the stock runs out.'],
    ];
    const cards = stories.map(([headline, summary]) => `<article class="river-article"><a href="/s" aria-hidden="true"><img src="/i.jpg" alt=""></a><header><h2><a href="/s">${headline}</a></h2><p class="river-desc">${summary}</p></header></article>`).join('');
    const out = extractHtml(shell('', `<header><nav><a href="/">News</a><a href="/reviews">Reviews</a></nav></header><main><h1>Headphones</h1><section class="col-main">${cards}</section></main>`));
    for (const [headline, summary] of stories) {
      assert.ok(out.paragraphs.includes(headline!), headline);
      assert.ok(out.paragraphs.includes(summary!), summary);
    }
    // One article's own header (its title and byline) is still furniture.
    const single = extractHtml(shell('', `<article><header><h1>Firmware 7.1</h1><p class="byline">By the news desk</p></header>${stories.map(([, summary]) => `<p>${summary}</p>`).join('')}</article>`));
    assert.ok(!single.paragraphs.some((p) => p.includes('By the news desk')));
  });

  it('reads cards linked as a whole (a course catalogue) as content, and a lone linked promotion as not', () => {
    const courses = [
      ['Professional Certificate Program in Digital Transformation', 'Assess the tools and strategies that are reshaping industries, and learn to lead a transformation programme from its first pilot to its rollout. Eight live sessions and a capstone project.'],
      ['Professional Certificate Program in Machine Learning', 'Master the machine learning strategies that are changing products and services, from framing a problem to running a model in production. Taught online over twelve weeks with weekly labs.'],
      ['Professional Certificate Program in Sustainability', 'Learn to evolve and implement sustainable systems in your organisation, with the measurement frameworks that regulators and investors now expect. Available in English and in Spanish.'],
      ['Professional Certificate Program in Product Management', 'Acquire the knowledge and skills an effective product leader needs, from discovery interviews to roadmaps and the pricing of a new product. Includes two residential weeks on campus.'],
    ];
    const cards = courses.map(([name, about]) => `<div class="views-row"><a href="/c"><div class="field-title">${name}</div><p>${about}</p></a></div>`).join('');
    const out = extractHtml(shell('', `<header><nav><a href="/">Home</a><a href="/programs">Programs</a></nav></header><main><h1>Certificate programs</h1><h2>Solve problems. Grow your network.</h2><div class="view-content">${cards}</div></main>`));
    for (const [, about] of courses) assert.ok(out.paragraphs.includes(about!), about);
    const paragraphs = courses.map(([, about]) => `<p>${about}</p>`).join('');
    const promo = 'Get access to the fastest growing subscription service for investors, with research, portfolio tools and daily market commentary.';
    const article = extractHtml(shell('', `<article><h1>Markets today</h1>${paragraphs}<p><a href="/subscribe">${promo}</a></p></article>`));
    assert.ok(!article.paragraphs.includes(promo));
  });

  it('reads a run of like "widgets" holding most of the page as content, and a sidebar\'s few widgets as furniture', () => {
    const reviews = [
      ['Best dishwasher', 'The quietest dishwasher we tested cleaned baked-on lasagne in one normal cycle and dried plastic containers without the heated-dry option.'],
      ['Best refrigerator', 'Temperatures held within half a degree through a week of door openings, and the shelves fold away to fit a sheet cake or a turkey.'],
      ['Best range', 'The induction hob boiled a litre of water in under three minutes, and the oven held its temperature within five degrees while roasting.'],
      ['Best washer', 'It removed grass, wine and chocolate stains on the normal cycle, and a full load of towels finished in under an hour.'],
    ];
    const widget = ([name, text]: string[]) => `<div class="c-product-widget c-product-widget--big"><div class="c-product-widget__product"><div class="c-product-widget__content"><h3>${name}</h3><p>${text}</p></div></div></div>`;
    const sidebar = '<div class="sidebar"><div class="widget"><p>Sign up for the deals newsletter and never miss a sale again.</p></div><div class="widget"><p>Follow our testers as they review a new appliance every day.</p></div></div>';
    const out = extractHtml(shell('', `<main><h1>The best appliances of the year</h1><p>Every year we test the latest large appliances; these are the ones that stood out.</p>${reviews.map(widget).join('')}</main>${sidebar}`));
    for (const [name, text] of reviews) {
      assert.ok(out.paragraphs.includes(name!), name);
      assert.ok(out.paragraphs.includes(text!), text);
    }
    assert.ok(!out.paragraphs.some((p) => p.includes('newsletter')));
  });

  it('reads the element a "skip to" link jumps to as content, whatever its id says', () => {
    const shoes = ['Road running shoe with a carbon plate for race days', 'Trail running shoe with a grippy outsole for wet rock', 'Daily trainer with extra cushioning for long easy runs'];
    const grid = `<div id="skip-to-products" class="product-grid__items">${shoes.map((s) => `<div class="product-card"><div class="product-card__title">${s}</div><div class="product-card__price">$120</div></div>`).join('')}</div>`;
    // The store's menus and footer hold most of the page's text, so the id is all that marks the grid.
    const footer = `<footer>${Array.from({ length: 12 }, (_, i) => `<p>Store ${i}: open every day from nine to six, with free fittings and returns within thirty days.</p>`).join('')}</footer>`;
    const out = extractHtml(shell('', `<a href="#skip-to-products" class="skip-link">Skip to products</a><main><h1>Running shoes</h1>${grid}</main>${footer}`));
    for (const shoe of shoes) assert.ok(out.paragraphs.includes(shoe), shoe);
    assert.ok(!out.paragraphs.includes('Skip to products'));
  });

  it('falls back to the JSON-LD of a page whose content is rendered by script', () => {
    const ld = { '@context': 'https://schema.org', '@type': 'Product', name: 'Widget', description: 'A <b>sturdy</b> widget for every standard mount, in two colours.', review: [{ '@type': 'Review', reviewBody: 'Fitted it in five minutes, works as described.' }] };
    const out = extractHtml(shell(`<script type="application/ld+json">${JSON.stringify(ld)}</script><script type="application/ld+json">{broken</script>`, '<div id="app"></div><script>render()</script>'));
    assert.deepEqual([out.method, out.paragraphs], ['structured_data', ['A sturdy widget for every standard mount, in two colours.', 'Fitted it in five minutes, works as described.']]);
  });

  it('falls back to <noscript> text, then to the meta description', () => {
    const noscript = extractHtml(shell('', '<div id="app"></div><noscript>This forum needs JavaScript. The latest thread: how to fit the widget on a curved wall.</noscript>'));
    assert.deepEqual([noscript.method, noscript.paragraphs], ['structured_data', ['This forum needs JavaScript. The latest thread: how to fit the widget on a curved wall.']]);
    const meta = extractHtml(shell('<meta name="description" content="Profile of Ada, who builds widgets and writes about mounts.">', '<div id="app"></div>'));
    assert.deepEqual([meta.method, meta.paragraphs], ['meta_description', ['Profile of Ada, who builds widgets and writes about mounts.']]);
    assert.deepEqual(extractHtml(shell('', '<div id="app"></div>')).paragraphs, [], 'nothing readable: nothing');
  });
});

describe('extractContent', () => {
  it('dispatches HTML with the declared charset', async () => {
    const body = Buffer.concat([Buffer.from('<html><head><title>Caf\u00e9</title></head><body><p>Le caf'), Buffer.from([0xe9]), Buffer.from(' est servi chaque matin dans le hall principal.</p></body></html>')]);
    const result = await extractContent({ body, contentType: 'text/html', charset: 'windows-1252' });
    assert.deepEqual(result.paragraphs, ['Le café est servi chaque matin dans le hall principal.']);
  });

  it('extracts Markdown blocks', async () => {
    const markdown = [
      '---', 'layout: doc', '---',
      '# Getting started', '', 'Install the **CLI** with [npm](https://npmjs.com):', '',
      '```sh', 'npm i -g acme', 'acme login', '```', '',
      '- First *item*', '- Second item', '1. Numbered', '',
      '| Plan | Price |', '| --- | ---: |', '| Free | 0 |', '| Pro | 10 |', '',
      '## Next steps', 'Read the `config` guide.',
    ].join('\n');
    const result = await extractContent({ body: utf8(markdown), contentType: 'text/markdown', filename: 'start.md' });
    assert.deepEqual(result, {
      title: 'Getting started',
      paragraphs: ['Getting started', 'Install the CLI with npm:', 'npm i -g acme\nacme login', 'First item', 'Second item', 'Numbered', 'Plan | Price', 'Free | 0', 'Pro | 10', 'Next steps', 'Read the config guide.'],
    });
    const untitled = await extractContent({ body: utf8('Just text.'), filename: 'my_notes.md' });
    assert.equal(untitled.title, 'my notes');
  });

  it('extracts plain text split on blank lines', async () => {
    const text = '  Refund policy  \r\n\r\nRefunds are issued   within\n5 days.\n\n\n\nContact   support for help.\n';
    assert.deepEqual(await extractContent({ body: utf8(text), contentType: 'text/plain; charset=utf-8' }), {
      title: 'Refund policy',
      paragraphs: ['Refund policy', 'Refunds are issued within 5 days.', 'Contact support for help.'],
    });
  });

  it('extracts a DOCX through mammoth and the HTML walker', async () => {
    const body = docx(wordParagraph('Onboarding guide', 'Heading1') + wordParagraph('Welcome to   the team.') + wordParagraph('Your laptop arrives on day one.'));
    const result = await extractContent({ body, filename: 'onboarding.docx' });
    assert.deepEqual(result, { title: 'Onboarding guide', paragraphs: ['Onboarding guide', 'Welcome to the team.', 'Your laptop arrives on day one.'] });
    const untitled = await extractContent({ body: docx(wordParagraph('Plain body text only.')), contentType: 'application/octet-stream', filename: 'memo.docx' });
    assert.deepEqual(untitled, { title: 'memo', paragraphs: ['Plain body text only.'] });
  });

  it('extracts a PDF through unpdf', async () => {
    const withTitle = await extractContent({ body: pdf('Hello from a PDF page.', 'Release notes'), contentType: 'application/pdf' });
    assert.deepEqual(withTitle, { title: 'Release notes', paragraphs: ['Hello from a PDF page.'] });
    const sniffed = await extractContent({ body: pdf('Warranty terms apply.'), contentType: 'application/octet-stream' });
    assert.deepEqual(sniffed, { title: 'Warranty terms apply.', paragraphs: ['Warranty terms apply.'] });
  });

  it('throws UnsupportedContentError for unsupported types and empty documents', async () => {
    await assert.rejects(extractContent({ body: new Uint8Array([0x89, 0x50]), contentType: 'image/png' }),
      (error: unknown) => error instanceof UnsupportedContentError && error.message === 'unsupported content type: image/png');
    await assert.rejects(extractContent({ body: utf8('<html><body><script>x()</script></body></html>'), contentType: 'text/html' }),
      (error: unknown) => error instanceof UnsupportedContentError && error.message === 'no extractable text');
    await assert.rejects(extractContent({ body: utf8('%PDF-1.4 broken'), contentType: 'application/pdf' }), UnsupportedContentError);
  });
});
