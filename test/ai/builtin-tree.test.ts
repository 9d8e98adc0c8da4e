// The built-in engine's knowledge-tree templates from outlines, lists and loose prompts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { treeTemplate, type TemplateFolder } from '../../src/ai/builtin/initialize-tree.js';

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
