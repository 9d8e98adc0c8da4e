// POST /v2/knowledge/public/search: BM25 ranking on a fixed corpus and the highlights of each match.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { type Article, CORPUS, type Name, searchHelpers } from './support.js';

describe('knowledge search route', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());
  const { ok, newFolder, newArticle, search, ids, sorted } = searchHelpers(() => t);

  /** The BM25 parameters the route uses. */
  const { k1, b } = { k1: 1.2, b: 0.75 };

  describe('ranking on a fixed corpus', () => {
    let w: Tenant;
    const id = {} as Record<Name, string>;
    const names = new Map<string, Name>();
    /** Result names, best first. */
    const ranked = async (query: string, extra: object = {}) => (await ids(w, query, extra)).map((x) => names.get(x) ?? x);
    before(async () => {
      w = await makeTenant(t);
      const folder = await newFolder(w, 'Help centre');
      for (const name of Object.keys(CORPUS) as Name[]) {
        id[name] = (await newArticle(w, folder, CORPUS[name])).id;
        names.set(id[name], name);
      }
    });

    it('ranks the article whose title is the query first', async () => {
      assert.deepEqual(await ranked('Refund policy'), ['refund', 'subscription']);
      assert.deepEqual(await ranked('Download invoices'), ['invoices', 'deletion']);
      assert.deepEqual(await ranked('Cancel'), ['subscription']);
    });

    it('finds words that are only in one body', async () => {
      assert.deepEqual(await ranked('exchanged for cash'), ['gift']);
      assert.deepEqual(await ranked('thirty minutes'), ['password']);
    });

    it('finds an article through a paraphrase listed in its questions', async () => {
      assert.deepEqual(await ranked('moved house'), ['address']);
      assert.deepEqual(await ranked('Where are my receipts'), ['invoices']);
    });

    it('finds an article through its keywords alone, scored by per-field BM25', async () => {
      const results = await search(w, { query: 'privacy' });
      assert.deepEqual(results.map((r) => names.get(r.article.id)), ['deletion']);
      // One keyword hit among 8 articles: idf ln(1 + 7.5/1.5); keyword field of 2 tokens, average 14/8 tokens; weight 2.
      const keywordTokens = Object.values(CORPUS).reduce((sum, c) => sum + c.keywords.length, 0);
      assert.equal(keywordTokens, 14);
      const expected = Math.log(1 + 7.5 / 1.5) * ((2 * 1 * (k1 + 1)) / (1 + k1 * (1 - b + (b * 2) / (keywordTokens / 8))));
      assert.ok(Math.abs(results[0]!.score - expected) < 1e-4, `${results[0]!.score} vs ${expected}`);
    });

    it('weighs title over keywords over body for the same word', async () => {
      // 'delivery': in the address title, the shipping keywords and the refund body.
      assert.deepEqual(await ranked('delivery'), ['address', 'shipping', 'refund']);
      assert.deepEqual(await ranked('gift card delivery'), ['gift', 'address', 'shipping', 'refund']);
    });

    it('stems English words on both sides', async () => {
      assert.deepEqual(await ranked('refunding'), ['refund', 'subscription']);
      assert.deepEqual(await ranked('shipped'), ['shipping', 'address']);
      assert.deepEqual(await ranked('deleting accounts and invoicing'), ['deletion', 'invoices', 'subscription']);
    });

    it('ranks several query words by their summed evidence', async () => {
      assert.deepEqual(await ranked('delete account invoices'), ['deletion', 'invoices', 'subscription']);
      assert.deepEqual(await ranked('password invoice'), ['password', 'invoices', 'deletion']);
      assert.deepEqual(await ranked('Can I pay with a voucher?'), ['gift', 'subscription']);
    });

    it('finds nothing for stopwords only or words in no article', async () => {
      for (const query of ['how do I', 'How do I ... ?', 'the', 'xylophone', 'zebra quokka']) {
        assert.deepEqual(await search(w, { query }), [], query);
      }
    });

    it('truncates to limit, default 10, keeping the order', async () => {
      assert.deepEqual(await ranked('gift card delivery', { limit: 2 }), ['gift', 'address']);
      assert.deepEqual(await ranked('gift card delivery', { limit: 1 }), ['gift']);
      assert.deepEqual(await ranked('gift card delivery', { limit: 50 }), ['gift', 'address', 'shipping', 'refund']);
      assert.deepEqual(await ranked('  refund  '), await ranked('refund'), 'the query is trimmed');
    });

    it('answers the documented article fields', async () => {
      const [hit] = await search(w, { query: 'voucher' });
      const created = (await ok<Article[]>(200, 'POST', '/v2/hc-articles/ids/public', w.readKey, { articleIds: [id.gift] }))[0]!;
      assert.deepEqual(Object.keys(hit!).sort(), ['article', 'highlights', 'score']);
      assert.deepEqual(hit!.article, {
        id: id.gift, title: 'Gift cards', parentFolderId: created.parentFolderId, questions: CORPUS.gift.questions, keywords: CORPUS.gift.keywords,
        escalation: false, public: false, version: 1, origin: 'API_CREATED', updatedAt: created.updatedAt,
      });
      assert.equal(typeof hit!.score, 'number');
      assert.ok(hit!.score > 0);
    });

    it('breaks ties by article id and limits to 10 by default', async () => {
      const same = await makeTenant(t);
      const folder = await newFolder(same);
      const made: string[] = [];
      const hours = { title: 'Opening hours', mainKnowledge: 'We are open on weekdays, from nine to five, and closed on holidays.', questions: ['When are you open?', 'Are you closed on Sunday?'], keywords: ['hours', 'schedule'] };
      for (let i = 0; i < 12; i += 1) made.push((await newArticle(same, folder, hours)).id);
      await newArticle(same, folder, CORPUS.shipping);
      const expected = sorted(made);
      const results = await search(same, { query: 'opening hours' });
      assert.deepEqual(results.map((r) => r.article.id), expected.slice(0, 10));
      assert.equal(new Set(results.map((r) => r.score)).size, 1, 'identical articles score the same');
      assert.deepEqual(await ids(same, 'opening hours', { limit: 50 }), expected);
      assert.deepEqual(await ids(same, 'opening hours', { limit: 3 }), expected.slice(0, 3));
      // Many query words summed over four fields: still exactly equal, still in id order.
      const many = await search(same, { query: 'open hours weekdays nine five closed holidays sunday schedule', limit: 50 });
      assert.deepEqual(many.map((r) => r.article.id).slice(0, 12), expected);
      assert.equal(new Set(many.slice(0, 12).map((r) => r.score)).size, 1);
    });
  });

  describe('highlights', () => {
    let w: Tenant;
    const id = {} as Record<Name, string>;
    before(async () => {
      w = await makeTenant(t);
      const folder = await newFolder(w);
      for (const name of Object.keys(CORPUS) as Name[]) id[name] = (await newArticle(w, folder, CORPUS[name])).id;
    });
    const marks = async (query: string) => (await search(w, { query })).map((r) => [r.article.id, r.highlights]);

    it('marks the matching title, keywords and body passage, stemmed', async () => {
      assert.deepEqual(await marks('refunding'), [
        [id.refund, [
          { field: 'title', snippet: '<mark>Refund</mark> policy' },
          { field: 'keywords', snippet: '<mark>refund</mark>' },
          { field: 'mainKnowledge', snippet: '<mark>refund</mark> purchases within 30 days of delivery. <mark>Refunds</mark> go back to the original payment method within five business days' },
        ]],
        [id.subscription, [
          { field: 'mainKnowledge', snippet: 'time. Your plan stays active until the end of the paid period; no partial <mark>refund</mark> is given' },
        ]],
      ]);
    });

    it('marks only the questions that match', async () => {
      assert.deepEqual(await marks('money back'), [
        [id.refund, [
          { field: 'questions', snippet: 'How can I get my <mark>money</mark> <mark>back</mark>?' },
          { field: 'mainKnowledge', snippet: 'refund purchases within 30 days of delivery. Refunds go <mark>back</mark> to the original payment method within five business days' },
        ]],
      ]);
      assert.deepEqual(await marks('moved house'), [[id.address, [{ field: 'questions', snippet: 'I <mark>moved</mark> to a new <mark>house</mark>' }]]]);
    });

    it('marks a body passage found by words of the body only', async () => {
      assert.deepEqual(await marks('exchanged for cash'), [
        [id.gift, [{ field: 'mainKnowledge', snippet: 'expire and can be combined with other payment methods. A gift card cannot be <mark>exchanged</mark> for <mark>cash</mark>' }]],
      ]);
    });

    it('marks every field for a word found everywhere', async () => {
      assert.deepEqual(await marks('I forgot my password'), [
        [id.password, [
          { field: 'title', snippet: 'Reset your <mark>password</mark>' },
          { field: 'questions', snippet: 'I <mark>forgot</mark> my <mark>password</mark>' },
          { field: 'keywords', snippet: '<mark>password</mark>' },
          { field: 'mainKnowledge', snippet: 'Open Settings and choose Reset <mark>password</mark>. We email you a link that stays valid for thirty minutes' },
        ]],
      ]);
    });
  });

  describe('highlights of articles holding markup', () => {
    it('escapes the article text: a snippet\'s only markup is <mark> around matches', async () => {
      const w = await makeTenant(t);
      await newArticle(w, await newFolder(w), {
        title: 'Refund <img src=x onerror=alert(1)> rules <mark>fake</mark>',
        mainKnowledge: 'A <b>refund</b> takes <script>alert(2)</script> five days.',
        questions: ['Is a <i>refund</i> possible?'],
        keywords: ['<u>refund</u>'],
      });
      const [hit] = await search(w, { query: 'refund' });
      assert.deepEqual(hit!.highlights.map((h) => h.field), ['title', 'questions', 'keywords', 'mainKnowledge']);
      for (const { field, snippet } of hit!.highlights) {
        assert.equal(snippet.match(/<mark>/g)?.length, 1, `${field}: ${snippet}`);
        assert.ok(!snippet.replace(/<\/?mark>/g, '').includes('<'), `${field}: ${snippet}`);
      }
      assert.equal(hit!.highlights[0]!.snippet, '<mark>Refund</mark> &lt;img src=x onerror=alert(1)&gt; rules &lt;mark&gt;fake&lt;/mark&gt;');
      assert.equal(hit!.highlights[1]!.snippet, 'Is a &lt;i&gt;<mark>refund</mark>&lt;/i&gt; possible?');
    });
  });

});
