// The built-in engine's text handling and article drafting: stemming, sentences and tokens,
// draftArticle (including tables) and questionFromTitle.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_KNOWLEDGE_CHARS, cleanTitle, draftArticle } from '../../src/ai/builtin/article.js';
import { questionFromStatement, questionFromTitle } from '../../src/ai/builtin/questions.js';
import { splitSentences } from '../../src/text/sentences.js';
import { similarity } from '../../src/text/similarity.js';
import { stem, tokenize } from '../../src/text/terms.js';

describe('text', () => {
  it('stems like Porter2 (Snowball English)', () => {
    const pairs: [string, string][] = [
      ['caresses', 'caress'], ['ponies', 'poni'], ['ties', 'tie'], ['cries', 'cri'], ['gaps', 'gap'], ['gas', 'gas'],
      ['kiwis', 'kiwi'], ['hopping', 'hop'], ['hoping', 'hope'], ['agreed', 'agre'], ['feed', 'feed'],
      ['generously', 'generous'], ['generate', 'generat'], ['conditional', 'condit'], ['relational', 'relat'],
      ['knightly', 'knight'], ['consignment', 'consign'], ['abnormality', 'abnorm'], ['durability', 'durabl'],
      ['dying', 'die'], ['skies', 'sky'], ['news', 'news'], ['succeeded', 'succeed'], ['ebbed', 'eb'],
      ['lovingness', 'loving'], ['loftily', 'loftili'], ['accompanied', 'accompani'], ['passwords', 'password'],
      ['resetting', 'reset'], ['shipping', 'ship'], ['refunds', 'refund'], ["customer's", 'custom'],
    ];
    for (const [word, expected] of pairs) assert.equal(stem(word), expected, word);
  });

  it('splits sentences around abbreviations, decimals, URLs and lists', () => {
    assert.deepEqual(
      splitSentences('See e.g. Visa. Dr. Smith said 2.5 is fine! Visit https://acme.com/a.b?x=1. Then go. U.S. Customers pay.'),
      ['See e.g. Visa.', 'Dr. Smith said 2.5 is fine!', 'Visit https://acme.com/a.b?x=1.', 'Then go.', 'U.S. Customers pay.'],
    );
    assert.deepEqual(splitSentences('1. Open the app\nShoes, bags etc. Shipping is free... or not? yes.'), [
      '1. Open the app',
      'Shoes, bags etc.',
      'Shipping is free... or not? yes.',
    ]);
    assert.deepEqual(splitSentences('你好。再见！Bye.'), ['你好。', '再见！', 'Bye.']);
    assert.deepEqual(splitSentences('  \n\n '), []);
  });

  it('tokenizes Unicode words, keeping decimals, hyphens and apostrophes; CJK as character pairs', () => {
    assert.deepEqual(tokenize('Don’t reset the e-bike’s 2.5 GHz Wi-Fi, café!'), ["don't", 'reset', 'the', "e-bike's", '2.5', 'ghz', 'wi-fi', 'café']);
    assert.deepEqual(tokenize('配送時間 ok'), ['配送', '送時', '時間', 'ok']);
    assert.deepEqual(tokenize('🎉 🙂'), []);
  });

  it('measures similarity on stemmed terms without stopwords', () => {
    assert.equal(similarity('Resetting your passwords', 'reset the password'), 1);
    assert.equal(similarity('Refund policy', 'Shipping costs'), 0);
    assert.equal(similarity('', 'anything'), 0);
    const partial = similarity('refund policy', 'refund window');
    assert.ok(partial > 0.49 && partial < 0.51, String(partial));
  });
});

const HELP_PAGE = [
  'Skip to main content',
  'Reset your password',
  'If you forgot your password, you can reset it from the sign-in page. The reset link is valid for 24 hours.',
  'How do I reset my password?',
  'Open the sign-in page and click "Forgot password". Enter the email address of your account. We send you a reset link by email.',
  'Steps',
  '1. Open the sign-in page.\n2. Click Forgot password.\n3. Follow the reset link in the email.',
  'What if I do not receive the email?',
  'Check your spam folder. Reset emails come from no-reply@acme.com. If the email does not arrive within 10 minutes, contact support.',
  'Password requirements',
  'Passwords must have at least 12 characters, e.g. a sentence you remember.',
  'Share this article',
  'Was this article helpful? Yes No',
  '© 2026 Acme Inc. All rights reserved.',
  'We use cookies to improve your experience. By continuing to browse you accept our cookie policy.',
  'If you forgot your password, you can reset it from the sign-in page. The reset link is valid for 24 hours.',
].join('\n\n');

describe('draftArticle', () => {
  it('drafts a help page: clean title, facts kept, boilerplate and duplicates dropped', () => {
    const draft = draftArticle({ text: HELP_PAGE, title: 'Reset your password | Acme Help Center' });
    assert.equal(draft.title, 'Reset your password');
    assert.equal(
      draft.mainKnowledge,
      [
        'If you forgot your password, you can reset it from the sign-in page. The reset link is valid for 24 hours.',
        '## How do I reset my password?',
        'Open the sign-in page and click "Forgot password". Enter the email address of your account. We send you a reset link by email.',
        '## Steps',
        '1. Open the sign-in page.\n2. Click Forgot password.\n3. Follow the reset link in the email.',
        '## What if I do not receive the email?',
        'Check your spam folder. Reset emails come from no-reply@acme.com. If the email does not arrive within 10 minutes, contact support.',
        '## Password requirements',
        'Passwords must have at least 12 characters, e.g. a sentence you remember.',
      ].join('\n\n'),
    );
    assert.deepEqual(draft.questions, ['How do I reset my password?', 'What if I do not receive the email?', 'What are the password requirements?']);
    assert.deepEqual(draft.keywords, ['reset', 'password', 'reset link', 'forgot password', 'email', 'password requirements', 'sign-in']);
    assert.equal(draft.agentInstruction, '');
    // Without a hint, the page's first heading is the title.
    assert.equal(draftArticle({ text: HELP_PAGE }).title, 'Reset your password');
  });

  it('renders Markdown headings, lists and table rows, and finds question sentences', () => {
    const draft = draftArticle({
      text: '# Shipping costs\n\nShipping is free above 50 euros. Orders ship from Lyon.\n\n## International orders\n\n* EU: 5 euros\n* Rest of world: 15 euros\n\nCountry | Price\nFrance | 5\n\n## Can I pick up my order?\n\nYes, from our Lyon store. Is pickup free? It is free.',
    });
    assert.equal(draft.title, 'Shipping costs');
    assert.equal(
      draft.mainKnowledge,
      'Shipping is free above 50 euros. Orders ship from Lyon.\n\n## International orders\n\n- EU: 5 euros\n- Rest of world: 15 euros\n\n| Country | Price |\n| --- | --- |\n| France | 5 |\n\n## Can I pick up my order?\n\nYes, from our Lyon store. Is pickup free? It is free.',
    );
    assert.deepEqual(draft.questions, ['Can I pick up my order?', 'Is pickup free?', 'What are the international orders?', 'What are the shipping costs?']);
    assert.ok(draft.keywords.includes('shipping costs') && draft.keywords.includes('lyon'), draft.keywords.join());
  });

  it('titles free text by its first key sentence', () => {
    const draft = draftArticle({ text: 'Our refund window is 30 days from delivery. Contact support@acme.com to start a return.' });
    assert.equal(draft.title, 'Our refund window is 30 days from delivery');
    assert.equal(draft.mainKnowledge, 'Our refund window is 30 days from delivery. Contact support@acme.com to start a return.');
    assert.deepEqual(draft.keywords, ['refund window', 'delivery', 'contact', 'return']);
  });

  it('cleans page titles of site names only', () => {
    assert.equal(cleanTitle('Reset your password | Acme Help Center'), 'Reset your password');
    assert.equal(cleanTitle('Pricing - Acme'), 'Pricing');
    assert.equal(cleanTitle('Shipping — acme.com'), 'Shipping');
    assert.equal(cleanTitle('Step 1 - Create an account'), 'Step 1 - Create an account');
  });

  it('summarises knowledge over the cap: headings and salient sentences, in order', () => {
    const sections = Array.from({ length: 40 }, (_, s) => {
      const sentences = Array.from({ length: 10 }, (_, i) => `Section ${s} note ${i} explains a detail of procedure ${s * 10 + i} for the warehouse team.`);
      if (s === 17) sentences.push('Pricing starts at 9 euros per month for the basic plan.');
      return `Topic ${s}\n\n${sentences.join(' ')}`;
    });
    const text = sections.join('\n\n');
    assert.ok(text.length > 2 * MAX_KNOWLEDGE_CHARS);
    const draft = draftArticle({ text, instructions: 'Focus on pricing' });
    assert.ok(draft.mainKnowledge.length <= MAX_KNOWLEDGE_CHARS, String(draft.mainKnowledge.length));
    assert.ok(draft.mainKnowledge.length > MAX_KNOWLEDGE_CHARS * 0.9, String(draft.mainKnowledge.length));
    assert.ok(draft.mainKnowledge.includes('## Topic 17\n\n'));
    assert.ok(draft.mainKnowledge.includes('Pricing starts at 9 euros per month for the basic plan.'));
    // Everything kept appears in the original order.
    const pieces = draft.mainKnowledge.split(/\n\n|(?<=\.) /).map((p) => p.replace(/^## /, ''));
    const positions = pieces.map((p) => text.indexOf(p));
    assert.ok(positions.every((p) => p >= 0));
    assert.deepEqual([...positions].sort((a, b) => a - b), positions);
    assert.equal(draft.keywords[0], 'pricing');
  });

  it('never crashes and never returns an empty title', () => {
    const inputs = ['', '   ', '🎉 🙂', '配送について\n\n配送は通常3日以内に届きます。送料は無料です。', 'Livraison gratuite dès 50 €. Délais : 3 à 5 jours.', 'x'.repeat(30_000)];
    for (const text of inputs) {
      const draft = draftArticle({ text });
      assert.ok(draft.title.length > 0 && draft.title.length <= 200, text.slice(0, 20));
      assert.ok(draft.mainKnowledge.length <= MAX_KNOWLEDGE_CHARS);
      if (text.trim()) assert.ok(draft.mainKnowledge.length > 0);
      for (const q of draft.questions) assert.ok(q.endsWith('?'));
    }
    assert.deepEqual(draftArticle({ text: '' }), { title: 'Untitled', mainKnowledge: '', questions: [], keywords: [], agentInstruction: '' });
    const cjk = draftArticle({ text: '配送について\n\n配送は通常3日以内に届きます。送料は無料です。' });
    assert.deepEqual(cjk, { title: '配送について', mainKnowledge: '配送は通常3日以内に届きます。送料は無料です。', questions: [], keywords: ['配送について', '送料は無料です'], agentInstruction: '' });
  });

  it('handles 200 KB of input', () => {
    const paragraph = 'Orders ship within two business days from Lyon. Returns are free within 30 days of delivery.';
    const text = Array.from({ length: 2200 }, (_, i) => `${paragraph} Case ${i} has its own tracking number ${i * 7}.`).join('\n\n');
    assert.ok(text.length > 200_000);
    const draft = draftArticle({ text, title: 'Orders' });
    assert.equal(draft.title, 'Orders');
    assert.ok(draft.mainKnowledge.length <= MAX_KNOWLEDGE_CHARS && draft.mainKnowledge.length > 1000);
    assert.ok(draftArticle({ text: 'word '.repeat(40_000) }).mainKnowledge.length <= MAX_KNOWLEDGE_CHARS);
  });

  it('is deterministic', () => {
    assert.deepEqual(draftArticle({ text: HELP_PAGE, instructions: 'email' }), draftArticle({ text: HELP_PAGE, instructions: 'email' }));
  });
});

describe('questionFromTitle', () => {
  it('turns headings into natural questions', () => {
    const cases: [string, string | null][] = [
      ['Resetting your password', 'How do I reset my password?'],
      ['Reset your password', 'How do I reset my password?'],
      ['Cancel subscription', 'How do I cancel my subscription?'],
      ['How to contact us', 'How do I contact you?'],
      ['Who to contact', 'Who do I contact?'],
      ['How refunds work', 'How do refunds work?'],
      ['Sign in', 'How do I sign in?'],
      ['Shipping costs', 'What are the shipping costs?'],
      ['Delivery times', 'What are the delivery times?'],
      ['Refund policy', 'What is the refund policy?'],
      ['Order status', 'What is the order status?'],
      ['Contact information', 'What is the contact information?'],
      ['Contact support', 'How do I contact support?'],
      ['Battery care', 'What should I know about battery care?'],
      ['Returns and exchanges', 'What should I know about returns and exchanges?'],
      ['Shipping', 'How does shipping work?'],
      ['Refunds', 'How do refunds work?'],
      ['Account', 'How do I manage my account?'],
      ['Can I pay by invoice?', 'Can I pay by invoice?'],
      ['Overview', null],
      ['We are Acme', null],
      ['Délais de livraison', null],
      ['配送時間', null],
    ];
    for (const [title, question] of cases) assert.equal(questionFromTitle(title), question, title);
  });
});

describe('draftArticle: tables', () => {
  it('renders cell rows as a Markdown table with its header rule', () => {
    const text = 'Our plans are billed monthly and can be cancelled at any time.\n\nPlan | Price | Seats\n\nStarter | 10 € | 3\n\nBusiness | 30 € | 20';
    assert.equal(
      draftArticle({ text, title: 'Pricing' }).mainKnowledge,
      'Our plans are billed monthly and can be cancelled at any time.\n\n| Plan | Price | Seats |\n| --- | --- | --- |\n| Starter | 10 € | 3 |\n| Business | 30 € | 20 |',
    );
  });
});

describe('questionFromStatement', () => {
  it('turns statements into the questions they answer', () => {
    const cases: [string, string | null][] = [
      ['Customers on annual plans can cancel at the end of the current billing term.', 'Can I cancel my annual plan?'],
      ['Monthly plans can be cancelled at any time from the Billing page.', 'How do I cancel my monthly plan?'],
      ['You can export your invoices from the Billing page.', 'How do I export my invoices?'],
      ['To reset your password, open Settings and choose Security.', 'How do I reset my password?'],
      ['Admins can invite team members from Settings.', 'Can I invite team members?'],
      ['Deleted accounts can be restored within 30 days.', 'How do I restore my deleted account?'],
      ['Refunds are processed within 5 days.', 'How long does it take to process a refund?'],
      ['Invoices are issued on the first day of each month.', 'When are invoices issued?'],
      ['Shipping costs 5 EUR in Germany.', 'How much does shipping cost?'],
      ['Standard delivery takes 3 business days.', 'How long does standard delivery take?'],
      ['The Starter plan includes 3 seats.', 'What does the Starter plan include?'],
      ['It can take a while.', null],
      ['We are happy to help.', null],
      ['Was ist das?', null],
    ];
    for (const [statement, question] of cases) assert.equal(questionFromStatement(statement), question, statement);
  });

  it('gives an article of plain sentences its questions', () => {
    const draft = draftArticle({ text: 'Customers on annual plans can cancel at the end of the current billing term. Monthly plans can be cancelled at any time from the Billing page.' });
    assert.deepEqual(draft.questions, ['Can I cancel my annual plan?', 'How do I cancel my monthly plan?']);
  });
});
