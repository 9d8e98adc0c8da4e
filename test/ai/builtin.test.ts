import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_KNOWLEDGE_CHARS, cleanTitle, draftArticle, type ArticleDraft } from '../../src/ai/builtin/article.js';
import { decide, type ExistingArticle, type FolderOption, type KnowledgeOperation } from '../../src/ai/builtin/decide.js';
import { questionFromTitle } from '../../src/ai/builtin/questions.js';
import { similarity, splitSentences, stem, tokenize } from '../../src/ai/builtin/text.js';
import { treeTemplate, type TemplateFolder } from '../../src/ai/builtin/tree.js';

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

describe('decide', () => {
  const ALL: KnowledgeOperation[] = ['ADD_ARTICLE_TO_FOLDER', 'UPDATE_ARTICLE', 'DO_NOTHING'];
  const draft: ArticleDraft = draftArticle({
    text: 'Refund policy\n\nYou can request a refund within 30 days of delivery. Refunds are paid to the original payment method within 5 business days.\n\nHow do I request a refund?\n\nOpen your order history, choose the order and press "Request refund".',
  });
  const article = (id: string, from: ArticleDraft, parentFolderId: string): ExistingArticle => ({ id, ...from, parentFolderId });
  const same = article('same', draft, 'f-refunds');
  const older = { ...same, id: 'older', mainKnowledge: 'You can request a refund within 14 days of delivery. Refunds are paid to the original payment method.' };
  const shipping = article('ship', draftArticle({ text: 'Shipping costs 5 euros in Germany and is free above 50 euros.', title: 'Shipping costs' }), 'f-shipping');
  const folders: FolderOption[] = [
    { id: 'f-shipping', path: ['Shipping'], description: 'Delivery times and costs.', articleTitles: ['Shipping costs'] },
    { id: 'f-refunds', path: ['Billing', 'Refunds'], description: 'Refunds and returns.', articleTitles: ['Refund policy'] },
  ];

  it('does nothing when an article already says the same', () => {
    assert.deepEqual(decide({ draft, candidates: [shipping, same], folders, allowed: ALL }), {
      operation: 'DO_NOTHING',
      articleId: 'same',
      folderId: null,
      reason: 'Already covered by "Refund policy": content similarity 1.00 (duplicate threshold 0.92), title similarity 1.00.',
    });
  });

  it("updates the source's own article", () => {
    assert.deepEqual(decide({ draft, candidates: [shipping, older], folders, allowed: ALL, linkedArticleId: 'ship' }), {
      operation: 'UPDATE_ARTICLE',
      articleId: 'ship',
      folderId: null,
      reason: 'This source already produced "Shipping costs" (match 0.02), so that article follows its new content.',
    });
    // A linked id that is not among the candidates is ignored.
    assert.equal(decide({ draft, candidates: [shipping, older], folders, allowed: ALL, linkedArticleId: 'gone' }).articleId, 'older');
  });

  it('updates the closest article above the threshold', () => {
    assert.deepEqual(decide({ draft, candidates: [shipping, older], folders, allowed: ALL }), {
      operation: 'UPDATE_ARTICLE',
      articleId: 'older',
      folderId: null,
      reason: 'Closest article "Refund policy" matches at 0.90 (update threshold 0.50).',
    });
  });

  it('adds to the most similar folder otherwise', () => {
    assert.deepEqual(decide({ draft, candidates: [shipping], folders, allowed: ALL }), {
      operation: 'ADD_ARTICLE_TO_FOLDER',
      articleId: null,
      folderId: 'f-refunds',
      reason: 'No existing article matches closely enough: the closest, "Shipping costs", matches at 0.02 (update threshold 0.50); adding it to folder "Billing > Refunds" (folder match 0.75).',
    });
    const twins: FolderOption[] = [
      { id: 'a', path: ['Misc'], description: '', articleTitles: [] },
      { id: 'b', path: ['Other'], description: '', articleTitles: [] },
    ];
    const tie = decide({ draft, candidates: [], folders: twins, allowed: ALL });
    assert.deepEqual(tie, {
      operation: 'ADD_ARTICLE_TO_FOLDER',
      articleId: null,
      folderId: 'a',
      reason: 'No existing article is a candidate; adding it to folder "Misc" (folder match 0.00).',
    });
  });

  it('falls back when the preferred operation is not allowed', () => {
    const check = (candidates: ExistingArticle[], allowed: KnowledgeOperation[], expected: object, list = folders) =>
      assert.deepEqual(decide({ draft, candidates, folders: list, allowed }), expected);
    // Preferred UPDATE → ADD, else DO_NOTHING.
    check([shipping, older], ['ADD_ARTICLE_TO_FOLDER', 'DO_NOTHING'], {
      operation: 'ADD_ARTICLE_TO_FOLDER',
      articleId: null,
      folderId: 'f-refunds',
      reason: 'Closest article "Refund policy" matches at 0.90 (update threshold 0.50), but updating an article is not allowed; adding it to folder "Billing > Refunds" (folder match 0.75) instead.',
    });
    check([shipping, older], ['DO_NOTHING'], {
      operation: 'DO_NOTHING',
      articleId: null,
      folderId: null,
      reason: 'Closest article "Refund policy" matches at 0.90 (update threshold 0.50), but updating an article is not allowed; doing nothing instead.',
    });
    // Preferred ADD → UPDATE of the best candidate, else DO_NOTHING.
    check([shipping], ['UPDATE_ARTICLE', 'DO_NOTHING'], {
      operation: 'UPDATE_ARTICLE',
      articleId: 'ship',
      folderId: null,
      reason: 'No existing article matches closely enough: the closest, "Shipping costs", matches at 0.02 (update threshold 0.50), but adding an article is not allowed; updating the closest article "Shipping costs" (match 0.02) instead.',
    });
    check([], ['UPDATE_ARTICLE', 'DO_NOTHING'], {
      operation: 'DO_NOTHING',
      articleId: null,
      folderId: null,
      reason: 'No existing article is a candidate, but adding an article is not allowed; doing nothing instead.',
    });
    // ADD without folders is impossible.
    check([shipping], ALL, {
      operation: 'UPDATE_ARTICLE',
      articleId: 'ship',
      folderId: null,
      reason: 'No existing article matches closely enough: the closest, "Shipping costs", matches at 0.02 (update threshold 0.50), but adding an article is not possible (no folder is available); updating the closest article "Shipping costs" (match 0.02) instead.',
    }, []);
    // Preferred DO_NOTHING → UPDATE of the duplicate, else ADD.
    check([same], ['UPDATE_ARTICLE', 'ADD_ARTICLE_TO_FOLDER'], {
      operation: 'UPDATE_ARTICLE',
      articleId: 'same',
      folderId: null,
      reason: 'Already covered by "Refund policy": content similarity 1.00 (duplicate threshold 0.92), title similarity 1.00, but doing nothing is not allowed; updating "Refund policy" (match 1.00) instead.',
    });
    check([same], ['ADD_ARTICLE_TO_FOLDER'], {
      operation: 'ADD_ARTICLE_TO_FOLDER',
      articleId: null,
      folderId: 'f-refunds',
      reason: 'Already covered by "Refund policy": content similarity 1.00 (duplicate threshold 0.92), title similarity 1.00, but doing nothing is not allowed; adding it to folder "Billing > Refunds" (folder match 0.75) instead.',
    });
  });

  it('answers an allowed operation with a null id when none is possible', () => {
    assert.deepEqual(decide({ draft, candidates: [], folders: [], allowed: ['ADD_ARTICLE_TO_FOLDER'] }), {
      operation: 'ADD_ARTICLE_TO_FOLDER',
      articleId: null,
      folderId: null,
      reason: 'No existing article is a candidate, but no allowed operation is possible (ADD_ARTICLE_TO_FOLDER: no folder is available).',
    });
    assert.deepEqual(decide({ draft, candidates: [], folders, allowed: ['UPDATE_ARTICLE'] }), {
      operation: 'UPDATE_ARTICLE',
      articleId: null,
      folderId: null,
      reason: 'No existing article is a candidate, but no allowed operation is possible (UPDATE_ARTICLE: no candidate article).',
    });
  });

  it('always answers one of the allowed operations', () => {
    const subsets: KnowledgeOperation[][] = [[ALL[0]!], [ALL[1]!], [ALL[2]!], [ALL[0]!, ALL[1]!], [ALL[0]!, ALL[2]!], [ALL[1]!, ALL[2]!], ALL];
    for (const allowed of subsets) {
      for (const candidates of [[], [shipping], [shipping, older], [same]]) {
        for (const list of [[], folders]) {
          const result = decide({ draft, candidates, folders: list, allowed });
          assert.ok(allowed.includes(result.operation), JSON.stringify({ allowed, result }));
          if (result.operation !== 'ADD_ARTICLE_TO_FOLDER') assert.equal(result.folderId, null);
          if (result.operation === 'ADD_ARTICLE_TO_FOLDER') assert.equal(result.articleId, null);
          assert.deepEqual(decide({ draft, candidates, folders: list, allowed }), result);
        }
      }
    }
  });
});

/** Folder paths with their article titles: the shape of a template. */
const outline = (folders: TemplateFolder[]): [string, string[]][] => folders.map((f) => [f.path.join(' > '), f.articles.map((a) => a.title)]);

describe('treeTemplate', () => {
  it('builds folders and articles from a Markdown outline', () => {
    const tree = treeTemplate(`# Billing
Everything about invoices and payments.
## Refunds
- How long do refunds take? Within 14 days.
- Can I get a refund for a digital product? No, digital products are final.
## Invoices
Invoices are emailed monthly.
# Account
## Security
- Two-factor authentication
- Password rules: at least 12 characters.`);
    assert.deepEqual(outline(tree), [
      ['Billing', ['Invoices']],
      ['Billing > Refunds', ['How long do refunds take?', 'Can I get a refund for a digital product?']],
      ['Account', []],
      ['Account > Security', ['Two-factor authentication', 'Password rules']],
    ]);
    assert.equal(tree[0]?.description, 'Everything about invoices and payments.');
    assert.equal(tree[1]?.description, 'Articles about refunds.');
    assert.deepEqual(tree[1]?.articles[0], {
      title: 'How long do refunds take?',
      mainKnowledge: 'Within 14 days.',
      questions: ['How long do refunds take?'],
      keywords: ['refunds'],
    });
    assert.deepEqual(tree[3]?.articles[0], {
      title: 'Two-factor authentication',
      mainKnowledge: 'Describe two-factor authentication for customers: what it covers, the steps or conditions, and whom to contact.',
      questions: ['What should I know about two-factor authentication?'],
      keywords: ['two-factor authentication'],
    });
    assert.equal(tree[3]?.articles[1]?.mainKnowledge, 'At least 12 characters.');
  });

  it('builds from a nested list', () => {
    const tree = treeTemplate(`1. Orders
   - Tracking an order
   - Changing an order: possible within 1 hour.
     Contact support after that.
2. Returns
   - Return policy
   - Refunds
     - Card refunds
     - PayPal refunds
- Contact us`);
    assert.deepEqual(outline(tree), [
      ['Orders', ['Tracking an order', 'Changing an order']],
      ['Returns', ['Return policy']],
      ['Returns > Refunds', ['Card refunds', 'PayPal refunds']],
      ['General', ['Contact us']],
    ]);
    assert.equal(tree[0]?.articles[1]?.mainKnowledge, 'Possible within 1 hour. Contact support after that.');
    assert.deepEqual(tree[0]?.articles[0]?.questions, ['How do I track an order?']);
  });

  it('builds nested folders from > paths', () => {
    const tree = treeTemplate(`Folder: Account > Security
- Two-factor authentication
Account > Profile > Changing your name
Folder: Shipping`);
    assert.deepEqual(outline(tree), [
      ['Account', []],
      ['Account > Security', ['Two-factor authentication']],
      ['Account > Profile', ['Changing your name']],
      ['Shipping', ['Shipping']],
    ]);
    assert.deepEqual(tree[2]?.articles[0]?.questions, ['How do I change my name?']);
  });

  it('turns an enumeration in prose into articles, with the sentences about them', () => {
    const tree = treeTemplate('We are Acme, we sell e-bikes online. Customers ask about delivery times, battery care and warranty claims. Our warranty is two years.');
    assert.deepEqual(outline(tree), [['E-bikes', ['Delivery times', 'Battery care', 'Warranty claims']]]);
    assert.equal(tree[0]?.description, 'Articles about e-bikes.');
    assert.deepEqual(tree[0]?.articles.map((a) => a.mainKnowledge), [
      'Describe delivery times for customers: what it covers, the steps or conditions, and whom to contact.',
      'Describe battery care for customers: what it covers, the steps or conditions, and whom to contact.',
      'Our warranty is two years.',
    ]);
    assert.deepEqual(tree[0]?.articles[0]?.questions, ['What are the delivery times?']);
    assert.deepEqual(outline(treeTemplate('Topics: shipping, returns, sizing and payments')), [['General', ['Shipping', 'Returns', 'Sizing', 'Payments']]]);
  });

  it('merges duplicates and keeps limits', () => {
    const tree = treeTemplate('# Billing\n- Refunds\n# billing\n- refunds: within 14 days\n- Invoices');
    assert.deepEqual(outline(tree), [['Billing', ['Refunds', 'Invoices']]]);
    assert.equal(tree[0]?.articles[0]?.mainKnowledge, 'Within 14 days');
    const deep = treeTemplate('# A\n## B\n### C\n#### D\n##### E\n###### F\n- Leaf');
    assert.ok(deep.every((f) => f.path.length <= 5));
    assert.deepEqual(deep.at(-1)?.path, ['A', 'B', 'C', 'D', 'E']);
    const many = treeTemplate(Array.from({ length: 500 }, (_, i) => `- Topic ${i}`).join('\n'));
    assert.equal(many.reduce((n, f) => n + f.articles.length, 0), 200);
    const long = treeTemplate(`# ${'Very long heading '.repeat(20)}\n- Item`);
    assert.ok((long[0]?.path[0]?.length ?? 0) <= 120);
  });

  it('returns [] for a blank prompt and never crashes', () => {
    assert.deepEqual(treeTemplate(''), []);
    assert.deepEqual(treeTemplate(' \n\t '), []);
    assert.deepEqual(outline(treeTemplate('# 配送\n- 配送時間\n- 送料')), [['配送', ['配送時間', '送料']]]);
    assert.deepEqual(outline(treeTemplate('🎉🎉')), [['General', ['🎉🎉']]]);
    const big = Array.from({ length: 4000 }, (_, i) => `## Section ${i}\nCustomers ask about topic ${i}, item ${i} and more. Details follow here.`).join('\n');
    assert.ok(big.length > 200_000);
    const tree = treeTemplate(big);
    assert.equal(tree.reduce((n, f) => n + f.articles.length, 0), 200);
  });

  it('is deterministic', () => {
    const prompt = '# Orders\n- Tracking\n- Cancelling an order: before shipping.\nCustomers ask about gift cards, vouchers and invoices.';
    assert.deepEqual(treeTemplate(prompt), treeTemplate(prompt));
  });
});

describe('decide: a changed fact is not a duplicate', () => {
  const body = 'You can return any unused item within 30 days of delivery for a full refund. Refunds are paid within 5 business days.';
  const article: ExistingArticle = { id: 'returns', title: 'Returns and refunds', mainKnowledge: body, questions: [], keywords: [], parentFolderId: 'f' };
  const folders: FolderOption[] = [{ id: 'f', path: ['Returns'], description: '', articleTitles: ['Returns and refunds'] }];
  const ALL: KnowledgeOperation[] = ['ADD_ARTICLE_TO_FOLDER', 'UPDATE_ARTICLE', 'DO_NOTHING'];

  it('the same text (up to case, spacing and punctuation) is already covered', () => {
    const draft = draftArticle({ text: body.toUpperCase().replace(/\./g, '!'), title: 'Returns and refunds' });
    assert.equal(decide({ draft, candidates: [article], folders, allowed: ALL, linkedArticleId: 'returns' }).operation, 'DO_NOTHING');
  });

  it('one number changed (30 -> 14 days) updates the linked article', () => {
    const draft = draftArticle({ text: body.replace('30 days', '14 days'), title: 'Returns and refunds' });
    const decision = decide({ draft, candidates: [article], folders, allowed: ALL, linkedArticleId: 'returns' });
    assert.equal(decision.operation, 'UPDATE_ARTICLE');
    assert.equal(decision.articleId, 'returns');
  });
});

describe('treeTemplate: loose prompts', () => {
  const shape = (folders: TemplateFolder[]) => folders.map((f) => [f.path.join(' / '), f.articles.map((a) => a.title)]);

  it('reads a labelled list after a sentence, with figures in its entries', () => {
    assert.deepEqual(shape(treeTemplate('Online shoe store. Topics: sizes, shipping to EU, returns within 30 days, loyalty program.')), [
      ['General', ['Sizes', 'Shipping to EU', 'Returns within 30 days', 'Loyalty program']],
    ]);
  });

  it('reads an enumeration in prose whose entries hold figures', () => {
    const prompt = 'We are an online shoe store. Our customers ask about sizes, shipping to the EU, returns within 30 days and our loyalty program.';
    assert.deepEqual(shape(treeTemplate(prompt)), [['General', ['Sizes', 'Shipping to the EU', 'Returns within 30 days', 'Loyalty program']]]);
  });

  it('takes short title lines on their own as topics', () => {
    assert.deepEqual(shape(treeTemplate('Accounts\n\nCards\n\nTransfers')), [['General', ['Accounts', 'Cards', 'Transfers']]]);
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
