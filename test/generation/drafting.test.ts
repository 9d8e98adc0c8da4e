// The built-in article drafter and question writer on help-center page shapes (test/generation/pages.ts),
// read as ingestion reads them (extractHtml), and the index-page rule of generate_knowledge.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { draftArticle } from '../../src/ai/builtin/article.js';
import { generateKnowledge } from '../../src/ai/builtin/generate-knowledge.js';
import { indexPage } from '../../src/ai/builtin/index-page.js';
import { questionFromStatement, questionFromTitle } from '../../src/ai/builtin/questions.js';
import { extractHtml } from '../../src/ingest/extract/html.js';
import { ACCOUNT_CATEGORY, APP_WONT_OPEN, BILLING_FAQ, CONTACT_US, GETTING_STARTED_CATEGORY, HELP_HOME, RESET_PASSWORD, RETURN_ITEM, SHIPPING_COUNTRIES } from './pages.js';

/** A page as a knowledge job reads it: the source's paragraphs joined by blank lines, with its title. */
function read(html: string): { text: string; title: string } {
  const page = extractHtml(html);
  return { text: page.paragraphs.join('\n\n'), title: page.title };
}
const draft = (html: string) => draftArticle(read(html));

/** First words a customer's question starts with (English). */
const ASKS = /^(?:how|what|why|when|where|who|which|can|could|do|does|is|are|should|will|would|was|were|did|have|has)\b/i;

describe('article drafting from help-center pages', () => {
  it('keeps bulleted and numbered lists as list items under their headings', () => {
    const { mainKnowledge } = draft(RESET_PASSWORD);
    assert.match(mainKnowledge, /## Steps\n\n1\. On the sign-in page click Forgot password\?\n2\. Enter the email address of your account\n3\. Open the link/);
    assert.match(
      mainKnowledge,
      /## Before you start\n\n- Check your spam folder\n- The link expires after 24 hours\n- Single sign-on accounts reset the password with their provider\n\nStill stuck\?/,
    );
    assert.doesNotMatch(mainKnowledge, /## (?:Check|The link|Single)/);
  });

  it('tells a heading from the items of the lists around it (noun phrases, then sentences with periods)', () => {
    const { mainKnowledge } = draft(RETURN_ITEM);
    assert.match(mainKnowledge, /## What you need\n\n- Your order number\n- The original packaging\n- A printed return label\n\n## Items we cannot take back\n\n- Gift cards\.\n- Personalised items\.\n- Opened software and downloads\./);
  });

  it('keeps a list of names an article gives (countries) as items, not headings', () => {
    const { mainKnowledge } = draft(SHIPPING_COUNTRIES);
    assert.doesNotMatch(mainKnowledge, /##/);
    assert.match(mainKnowledge, /- Austria\n- Belgium\n- Denmark\n- France\n- Germany\n- Ireland\n- Italy\n- Netherlands\n- Spain\n- Sweden/);
  });

  it('keeps a short heading after a list a heading, and numbered steps with their sentences', () => {
    assert.match(
      draft(CONTACT_US).mainKnowledge,
      /- Chat – open the chat bubble in the app, we reply within minutes\n- Email – write to help@bloom\.test, we answer within 24 hours\n\n## Opening hours\n\nMonday to Friday/,
    );
    assert.match(draft(APP_WONT_OPEN).mainKnowledge, /Try these steps in order:\n\n1\. Restart your phone\.\n2\. Update the app/);
  });

  it("drops the page's headline when short lines follow it, and keeps those lines as a list", () => {
    const { title, mainKnowledge } = draftArticle({ text: 'Opening hours\n\nMonday to Friday 9:00 to 17:00\n\nSaturday 10:00 to 14:00\n\nClosed on Sundays', title: 'Opening hours | Bloom Help' });
    assert.deepEqual([title, mainKnowledge], ['Opening hours', '- Monday to Friday 9:00 to 17:00\n- Saturday 10:00 to 14:00\n- Closed on Sundays']);
  });

  it('keeps an FAQ page as question headings with their answers', () => {
    const { mainKnowledge, questions } = draft(BILLING_FAQ);
    assert.match(mainKnowledge, /## When will I be charged\?\n\nYour card is charged on the first day of each billing period\./);
    assert.deepEqual(questions.slice(0, 4), [
      'When will I be charged?', 'Can I get an invoice?', 'Which payment methods do you accept?', 'How do I cancel my subscription?',
    ]);
  });

  it('writes questions a customer would ask, never a step with a question mark', () => {
    assert.ok(!draft(APP_WONT_OPEN).questions.some((q) => /keep/.test(q)), '"Your data is kept in your account." says where, not how long');
    for (const page of [RESET_PASSWORD, RETURN_ITEM, BILLING_FAQ, SHIPPING_COUNTRIES, CONTACT_US]) {
      const { questions } = draft(page);
      assert.ok(questions.length >= 1, JSON.stringify(questions));
      for (const question of questions) assert.match(question, ASKS, `"${question}" is not a customer's question`);
    }
    const reset = draft(RESET_PASSWORD).questions;
    assert.ok(reset.includes('How do I reset my password?'), JSON.stringify(reset));
    assert.ok(!reset.some((q) => /click|before you start/i.test(q)), JSON.stringify(reset));
    assert.ok(draft(RETURN_ITEM).questions.includes('How do I return an item?'));
  });
});

describe('questions from headings', () => {
  it('turns a heading that opens with a question word but is no question into one, or gives none', () => {
    assert.equal(questionFromTitle('What you need'), 'What do I need?');
    assert.equal(questionFromTitle('What you need to know about refunds'), 'What do I need to know about refunds?');
    assert.equal(questionFromTitle('How we protect your data'), 'How do you protect my data?');
    assert.equal(questionFromTitle('Why it matters'), null);
    assert.equal(questionFromTitle('Before you start'), null);
    assert.equal(questionFromTitle('After your order ships'), null);
    assert.equal(questionFromTitle('On the sign-in page click Forgot password?'), null);
    assert.equal(questionFromTitle('Forgot your password?'), 'Forgot your password?');
    assert.equal(questionFromTitle('Where is my order?'), 'Where is my order?');
  });
});

describe('questions from statements', () => {
  it('asks how long or when only when the statement gives a time, not a place', () => {
    assert.equal(questionFromStatement('Refunds are processed within 5 business days.'), 'How long does it take to process a refund?');
    assert.equal(questionFromStatement('Invoices are issued on the first day of each month.'), 'When are invoices issued?');
    assert.equal(questionFromStatement('Reports are sent every Monday.'), 'When are reports sent?');
    assert.equal(questionFromStatement('Your data is kept in your account.'), null);
    assert.equal(questionFromStatement('Invoices are stored on our servers in the EU.'), null);
  });
});

describe('index pages', () => {
  it('recognises a category page and a help-center home page as lists of other articles', () => {
    for (const page of [ACCOUNT_CATEGORY, HELP_HOME, GETTING_STARTED_CATEGORY]) {
      const { text, title } = read(page);
      assert.ok(indexPage(text), `${title} is an index page`);
    }
  });

  it('does not take an article with lists, an FAQ or a list of countries for an index page', () => {
    for (const page of [RESET_PASSWORD, RETURN_ITEM, BILLING_FAQ, SHIPPING_COUNTRIES, CONTACT_US, APP_WONT_OPEN]) {
      const { text, title } = read(page);
      assert.equal(indexPage(text), null, title);
    }
    const checklist = ['Restart the app', 'Check your internet connection', 'Update to the latest version', 'Clear the cache', 'Sign out and sign in again', 'Reinstall the app'];
    assert.equal(indexPage(checklist.join('\n\n')), null, 'a checklist of steps is knowledge');
    const terseFaq = [
      'Shipping FAQ', 'Do you ship abroad?', 'Yes, to 20 countries.', 'How long does delivery take?', '3 to 5 business days.',
      'Can I change my address?', 'Yes, until the order ships.', 'Do you ship to PO boxes?', 'No.', 'Is shipping free?', 'Over 50 EUR, yes.',
    ];
    assert.equal(indexPage(terseFaq.join('\n\n')), null, 'an FAQ with one-line answers is knowledge');
  });

  it('links an index page as DO_NOTHING with the reason, and drafts it when DO_NOTHING is not allowed', () => {
    const { text, title } = read(ACCOUNT_CATEGORY);
    const folders = [{ id: 'f', path: ['Account'], description: '', articleTitles: [] }];
    const input = { text, titleHint: title, instructions: '', candidates: [], folders, linkedArticleId: null };
    const nothing = generateKnowledge({ ...input, allowed: ['ADD_ARTICLE_TO_FOLDER', 'UPDATE_ARTICLE', 'DO_NOTHING'] });
    assert.deepEqual([nothing.operation, nothing.articleId, nothing.folderId, nothing.article], ['DO_NOTHING', null, null, null]);
    assert.match(nothing.reason, /^An index page: it lists other articles \(8 of its 11 lines are article titles, such as "Reset your password" and "Change the email address of your account"\)/);
    const forced = generateKnowledge({ ...input, allowed: ['ADD_ARTICLE_TO_FOLDER'] });
    assert.equal(forced.operation, 'ADD_ARTICLE_TO_FOLDER', 'the editor who allows only ADD gets an article');
  });
});
