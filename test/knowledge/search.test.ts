import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { assertError, expectStatus, securitySuite } from '../support/security.js';

interface Content { title: string; mainKnowledge: string; questions: string[]; keywords: string[] }
interface Article extends Content { id: string; parentFolderId: string; version: number; isDraft: boolean; updatedAt: string }
interface Highlight { field: 'title' | 'questions' | 'keywords' | 'mainKnowledge'; snippet: string }
interface Result { article: { id: string; title: string }; score: number; highlights: Highlight[] }

const SEARCH = '/v2/knowledge/public/search';

const CORPUS = {
  refund: {
    title: 'Refund policy',
    questions: ['How can I get my money back?', 'Can I return an item?'],
    keywords: ['refund', 'return'],
    mainKnowledge: 'We refund purchases within 30 days of delivery. Refunds go back to the original payment method within five business days.',
  },
  shipping: {
    title: 'Shipping times',
    questions: ['When will my order arrive?'],
    keywords: ['delivery', 'shipping'],
    mainKnowledge: 'Standard shipping takes three to five business days. Express shipping arrives the next day.',
  },
  password: {
    title: 'Reset your password',
    questions: ['I forgot my password', 'I cannot log in'],
    keywords: ['password', 'login'],
    mainKnowledge: 'Open Settings and choose Reset password. We email you a link that stays valid for thirty minutes.',
  },
  deletion: {
    title: 'Delete your account',
    questions: ['How do I close my account?'],
    keywords: ['account', 'privacy'],
    mainKnowledge: 'Account deletion is permanent. Your invoices are kept for seven years as the law requires.',
  },
  invoices: {
    title: 'Download invoices',
    questions: ['Where can I find my receipts?'],
    keywords: ['billing', 'invoice'],
    mainKnowledge: 'Invoices are in Billing, under Documents. Each invoice is a PDF you can download or forward.',
  },
  address: {
    title: 'Change your delivery address',
    questions: ['I moved to a new house'],
    keywords: ['address'],
    mainKnowledge: 'You can change the address of an order until it ships. After that, contact the carrier.',
  },
  gift: {
    title: 'Gift cards',
    questions: ['Can I pay with a voucher?'],
    keywords: ['voucher'],
    mainKnowledge: 'Gift cards never expire and can be combined with other payment methods. A gift card cannot be exchanged for cash.',
  },
  subscription: {
    title: 'Cancel a subscription',
    questions: ['How do I stop paying every month?'],
    keywords: ['subscription', 'cancel'],
    mainKnowledge: 'Cancel from Account > Plan at any time. Your plan stays active until the end of the paid period; no partial refund is given.',
  },
} satisfies Record<string, Content>;
type Name = keyof typeof CORPUS;

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const { k1, b } = { k1: 1.2, b: 0.75 };

/** Scores never increase down the list; equal scores come in ascending id order. */
function assertRanked(results: Result[]): void {
  for (let i = 1; i < results.length; i += 1) {
    const [prev, next] = [results[i - 1]!, results[i]!];
    assert.ok(prev.score > next.score || (prev.score === next.score && prev.article.id < next.article.id),
      `result ${i - 1} (${prev.article.id} ${prev.score}) before result ${i} (${next.article.id} ${next.score})`);
  }
}

describe('knowledge search route', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  const ok = <T>(status: number, method: string, path: string, key: string, body?: unknown) => expectStatus<T>(t, status, method, path, key, body);
  const fail = async (w: Tenant, body: unknown, status: number, message?: string | RegExp) =>
    assertError(await t.request('POST', SEARCH, { key: w.readKey, body }), status, message);
  const newFolder = async (w: Tenant, title = 'Help', parentFolderId?: string) =>
    (await ok<{ id: string }>(201, 'POST', '/v2/hc-folders/public', w.key, { title, description: '', parentFolderId })).id;
  const setFolderActive = (w: Tenant, id: string, title: string, active: boolean) =>
    ok(200, 'PUT', `/v2/hc-folders/${id}/public`, w.key, { title, description: '', active });
  const newArticle = (w: Tenant, parentFolderId: string, c: Content, extra: object = {}) =>
    ok<Article>(201, 'POST', '/v2/hc-articles/public', w.key, { agentInstruction: '', escalation: false, ...c, parentFolderId, ...extra });
  const newAgent = async (w: Tenant, name = 'Bot') => (await ok<{ id: string }>(201, 'POST', '/v2/bots/public', w.key, { name })).id;
  const assign = async (w: Tenant, botId: string, ...folderIds: string[]) =>
    assert.deepEqual(
      await ok(200, 'POST', '/v2/hc-bot-folder-junctions/public', w.key, { junctions: folderIds.map((folderId) => ({ folderId, botId, action: 'ADD' })) }),
      { status: true },
    );
  const search = async (w: Tenant, body: object) => {
    const { results } = await ok<{ results: Result[] }>(200, 'POST', SEARCH, w.readKey, body);
    assertRanked(results);
    return results;
  };
  const ids = async (w: Tenant, query: string, extra: object = {}) => (await search(w, { query, ...extra })).map((r) => r.article.id);
  const sorted = (list: string[]) => [...list].sort();

  describe('security', () => {
    securitySuite(() => t, {
      method: 'POST',
      scope: 'read',
      request: async (app, w) => {
        await newArticleVia(app, w, 'Refund policy');
        return { path: SEARCH, body: { query: 'refund' } };
      },
      otherWorkspace: {
        // The agent belongs to the owner's workspace: the caller's key does not see it.
        request: async (app, owner) => {
          await newArticleVia(app, owner, 'Refund policy');
          const botId = (await expectStatus<{ id: string }>(app, 201, 'POST', '/v2/bots/public', owner.key, { name: 'Theirs' })).id;
          return { path: SEARCH, body: { query: 'refund', botId } };
        },
      },
    });

    it('never returns the articles of another workspace, even with the same text', async () => {
      const [w, other] = [await makeTenant(t), await makeTenant(t)];
      const mine = await newArticle(w, await newFolder(w), CORPUS.refund);
      const theirs = await newArticle(other, await newFolder(other), CORPUS.refund);
      const alsoTheirs = await newArticle(other, await newFolder(other), { ...CORPUS.refund, title: 'Refund policy for partners' });
      assert.deepEqual(await ids(w, 'refund policy'), [mine.id]);
      assert.deepEqual(await ids(w, 'partners'), []);
      assert.deepEqual(await ids(other, 'refund policy'), [theirs.id, alsoTheirs.id]);
      // The other workspace's articles do not count in this one's statistics either: same text, same score.
      const [a] = await search(w, { query: 'money back' });
      const solo = await makeTenant(t);
      await newArticle(solo, await newFolder(solo), CORPUS.refund);
      const [c] = await search(solo, { query: 'money back' });
      assert.equal(a!.score, c!.score);
    });
  });

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

  describe('scope', () => {
    it('never finds drafts; finds their text once published', async () => {
      const w = await makeTenant(t);
      const folder = await newFolder(w);
      const live = await newArticle(w, folder, { title: 'Parcel lockers', mainKnowledge: 'Pick up parcels from a locker.', questions: [], keywords: [] });
      const draft = await ok<Article>(201, 'POST', `/v2/hc-articles/${live.id}/draft/public`, w.key, {
        title: 'Parcel lockers and kangaroos', mainKnowledge: 'Pick up parcels from a locker, kangaroo-proof.', agentInstruction: '', questions: [], keywords: [], escalation: false,
      });
      const standalone = await newArticle(w, folder, { title: 'Quokka care', mainKnowledge: 'Quokkas like lockers.', questions: [], keywords: [] }, { isDraft: true });
      assert.deepEqual(await ids(w, 'kangaroo'), []);
      assert.deepEqual(await ids(w, 'quokka'), []);
      assert.deepEqual(await ids(w, 'parcel lockers'), [live.id], 'the draft copies are not found');

      await ok(200, 'POST', `/v2/hc-articles/${draft.id}/publish/public`, w.key, {});
      assert.deepEqual(await ids(w, 'kangaroo'), [live.id], 'the published text is found under the live article');
      const published = await ok<Article>(200, 'POST', `/v2/hc-articles/${standalone.id}/publish/public`, w.key, {});
      assert.notEqual(published.id, standalone.id);
      assert.deepEqual(await ids(w, 'quokka'), [published.id]);
    });

    it('never finds inactive articles', async () => {
      const w = await makeTenant(t);
      const folder = await newFolder(w);
      const a = await newArticle(w, folder, CORPUS.refund);
      const inactive = await newArticle(w, folder, CORPUS.subscription, { active: false });
      assert.deepEqual(await ids(w, 'refund'), [a.id]);
      await ok(200, 'PUT', `/v2/hc-articles/${a.id}/public`, w.key, { ...CORPUS.refund, agentInstruction: '', escalation: false, active: false });
      assert.deepEqual(await ids(w, 'refund'), []);
      await ok(200, 'PUT', `/v2/hc-articles/${inactive.id}/public`, w.key, { ...CORPUS.subscription, agentInstruction: '', escalation: false, active: true });
      assert.deepEqual(await ids(w, 'refund'), [inactive.id]);
    });

    it('never finds articles in an inactive folder or below one', async () => {
      const w = await makeTenant(t);
      const top = await newFolder(w, 'Top');
      const child = await newFolder(w, 'Child', top);
      const grandchild = await newFolder(w, 'Grandchild', child);
      const elsewhere = await newFolder(w, 'Elsewhere');
      const art = (folder: string, title: string) => newArticle(w, folder, { title, mainKnowledge: 'About warranty claims.', questions: [], keywords: [] });
      const [inTop, inChild, inGrandchild, inElsewhere] = [await art(top, 'Warranty top'), await art(child, 'Warranty child'), await art(grandchild, 'Warranty grandchild'), await art(elsewhere, 'Warranty elsewhere')];
      const all = sorted([inTop.id, inChild.id, inGrandchild.id, inElsewhere.id]);
      assert.deepEqual(sorted(await ids(w, 'warranty')), all);

      await setFolderActive(w, top, 'Top', false);
      assert.deepEqual(await ids(w, 'warranty'), [inElsewhere.id]);
      await setFolderActive(w, top, 'Top', true);
      await setFolderActive(w, child, 'Child', false);
      assert.deepEqual(sorted(await ids(w, 'warranty')), sorted([inTop.id, inElsewhere.id]));
      await setFolderActive(w, child, 'Child', true);
      assert.deepEqual(sorted(await ids(w, 'warranty')), all);

      await ok(200, 'PUT', `/v2/hc-articles/${inElsewhere.id}/move/public`, w.key, { parentFolderId: grandchild });
      await setFolderActive(w, grandchild, 'Grandchild', false);
      assert.deepEqual(sorted(await ids(w, 'warranty')), sorted([inTop.id, inChild.id]), 'a moved article follows its new folder');
    });

    it('follows updates of every indexed field and forgets deleted articles', async () => {
      const w = await makeTenant(t);
      const folder = await newFolder(w);
      const a = await newArticle(w, folder, CORPUS.gift);
      const put = (c: Content) => ok<Article>(200, 'PUT', `/v2/hc-articles/${a.id}/public`, w.key, { ...c, agentInstruction: '', escalation: false });
      assert.deepEqual(await ids(w, 'gift'), [a.id]);

      await put({ ...CORPUS.gift, title: 'Store credit' });
      assert.deepEqual(await ids(w, 'store credit'), [a.id]);
      assert.deepEqual((await search(w, { query: 'cards' }))[0]!.highlights.map((h) => h.field), ['mainKnowledge'], 'the old title no longer matches');
      await put({ title: 'Store credit', mainKnowledge: 'Credit never expires.', questions: ['Is my balance lost?'], keywords: ['balance'] });
      for (const gone of ['gift', 'voucher', 'cash', 'exchanged']) assert.deepEqual(await ids(w, gone), [], gone);
      assert.deepEqual(await ids(w, 'lost'), [a.id]);
      assert.deepEqual(await ids(w, 'expires'), [a.id]);
      await put({ title: 'Store credit', mainKnowledge: 'Credit never expires.', questions: [], keywords: [] });
      assert.deepEqual(await ids(w, 'lost balance'), []);

      await ok(200, 'POST', `/v2/hc-articles/${a.id}/revert/public`, w.key, { version: 1 });
      assert.deepEqual(await ids(w, 'voucher'), [a.id], 'a revert is indexed too');
      await ok(200, 'DELETE', `/v2/hc-articles/${a.id}/public`, w.key);
      assert.deepEqual(await ids(w, 'voucher'), []);
    });

    it("with botId searches only the agent's active folders and their descendants", async () => {
      const w = await makeTenant(t);
      const folders = {} as Record<string, string>;
      const articles = {} as Record<string, string>;
      const add = async (name: string, parent?: string) => {
        folders[name] = await newFolder(w, name, parent && folders[parent]);
        articles[name] = (await newArticle(w, folders[name], { title: `Warranty ${name}`, mainKnowledge: 'About warranty claims.', questions: [], keywords: [] })).id;
      };
      // alpha > beta > gamma; delta; epsilon (inactive) > zeta; eta > theta
      for (const [name, parent] of [['alpha'], ['beta', 'alpha'], ['gamma', 'beta'], ['delta'], ['epsilon'], ['zeta', 'epsilon'], ['eta'], ['theta', 'eta']] as [string, string?][]) {
        await add(name, parent);
      }
      await setFolderActive(w, folders.epsilon!, 'epsilon', false);
      const [one, two, three, idle] = [await newAgent(w, 'One'), await newAgent(w, 'Two'), await newAgent(w, 'Three'), await newAgent(w, 'Idle')];
      await assign(w, one, folders.alpha!, folders.epsilon!);
      await assign(w, two, folders.theta!);
      await assign(w, three, folders.alpha!, folders.beta!, folders.delta!);
      const found = async (botId?: string) => sorted(await ids(w, 'warranty', { botId, limit: 50 }));
      const of = (...names: string[]) => sorted(names.map((n) => articles[n]!));

      assert.deepEqual(await found(), of('alpha', 'beta', 'gamma', 'delta', 'eta', 'theta'));
      assert.deepEqual(await found(one), of('alpha', 'beta', 'gamma'), 'an inactive assigned folder adds nothing');
      assert.deepEqual(await found(two), of('theta'));
      assert.deepEqual(await found(three), of('alpha', 'beta', 'gamma', 'delta'), 'overlapping assignments count once');
      assert.deepEqual(await found(idle), []);
      assert.deepEqual(await found(one.toUpperCase()), of('alpha', 'beta', 'gamma'));

      await setFolderActive(w, folders.beta!, 'beta', false);
      assert.deepEqual(await found(one), of('alpha'));
      await ok(200, 'POST', '/v2/hc-bot-folder-junctions/public', w.key, { junctions: [{ folderId: folders.alpha!, botId: one, action: 'DELETE' }] });
      assert.deepEqual(await found(one), []);
    });

    it('answers 404 for a botId naming no agent of the workspace', async () => {
      const w = await makeTenant(t);
      const other = await makeTenant(t);
      await newArticle(w, await newFolder(w), CORPUS.refund);
      const foreign = await newAgent(other);
      const folder = await newFolder(other);
      await newArticle(other, folder, CORPUS.refund);
      await assign(other, foreign, folder);
      await fail(w, { query: 'refund', botId: UNKNOWN }, 404, 'agent not found');
      await fail(w, { query: 'refund', botId: foreign }, 404, 'agent not found');
      await fail(w, { query: 'how do I', botId: foreign }, 404, 'agent not found');
      const gone = await newAgent(w);
      await ok(200, 'DELETE', `/v2/bots/${gone}/public`, w.key);
      await fail(w, { query: 'refund', botId: gone }, 404, 'agent not found');
    });
  });

  describe('validation', () => {
    it('answers 400 naming the field', async () => {
      const w = await makeTenant(t);
      for (const [body, message] of [
        [{}, /^body\.query: Invalid input/],
        [{ query: '' }, /^body\.query: Too small/],
        [{ query: '   \n\t ' }, /^body\.query: Too small/],
        [{ query: 'x'.repeat(2001) }, /^body\.query: Too big/],
        [{ query: 5 }, /^body\.query: Invalid input/],
        [{ query: 'refund', limit: 0 }, /^body\.limit: Too small/],
        [{ query: 'refund', limit: 51 }, /^body\.limit: Too big/],
        [{ query: 'refund', limit: 2.5 }, /^body\.limit: /],
        [{ query: 'refund', limit: '5' }, /^body\.limit: /],
        [{ query: 'refund', limit: null }, /^body\.limit: /],
        [{ query: 'refund', botId: 'not-a-uuid' }, /^body\.botId: Invalid UUID/],
        [{ query: 'refund', botId: UNKNOWN, limit: 0 }, /^body\.limit: Too small/],
        [{ query: 'refund', offset: 10 }, /^body: Unrecognized key: "offset"/],
        [{ query: 'a\u0000b' }, 'body.query: contains a NUL character or invalid Unicode, which cannot be stored'],
        [['refund'], /^body/],
      ] as [unknown, string | RegExp][]) {
        await fail(w, body, 400, message);
      }
      // 2000 characters after trimming is within bounds.
      assert.deepEqual(await search(w, { query: `  ${'x'.repeat(2000)}  ` }), []);
    });

    it('answers 415 for a body that is not JSON and 400 for malformed JSON', async () => {
      const w = await makeTenant(t);
      const raw = (body: string, contentType: string) => t.request('POST', SEARCH, { key: w.readKey, raw: body, headers: { 'content-type': contentType } });
      assertError(await raw('query=refund', 'application/x-www-form-urlencoded'), 415, 'Content-Type must be application/json');
      assertError(await raw('refund', 'text/plain'), 415, 'Content-Type must be application/json');
      assertError(await raw('{"query":', 'application/json'), 400, /JSON/);
      assertError(await raw('', 'application/json'), 400);
    });
  });

  describe('hostile queries', () => {
    it('answers 200 for query syntax, quotes, backslashes and SQL, reading them as words', async () => {
      const w = await makeTenant(t);
      const folder = await newFolder(w);
      const refund = await newArticle(w, folder, CORPUS.refund);
      const subscription = await newArticle(w, folder, CORPUS.subscription);
      const both = [refund.id, subscription.id];
      for (const [query, expected] of [
        ['"refund"', both],
        ["'refund'", both],
        ["refund' | 'x", both],
        ['refund & policy | !money', both],
        ['!refund', both],
        ['(refund) <-> <money>', both],
        ['refund:* policy:A', both],
        ['refund:*', both],
        ['C:\\refund\\policy\\', both],
        ['\\\\', []],
        ['\\', []],
        ["'; drop table articles; --", []],
        ["refund'); DELETE FROM articles; --", both],
        ['&|!():*<>', []],
        ["''''", []],
        ['%_%', []],
        ["O'Brien's refund", both],
        ["http://example.com/it's/a:b*c", []],
        ['$1 $$ ::tsquery', []],
        ['é'.repeat(2000), []],
        ['😀'.repeat(1000), []],
        ['返金ポリシー', []],
      ] as [string, string[]][]) {
        const res = await t.request<{ results: Result[] }>('POST', SEARCH, { key: w.readKey, body: { query } });
        assert.equal(res.status, 200, `${query}: ${res.text}`);
        assert.deepEqual(res.body.results.map((r) => r.article.id), expected, query);
      }
      assert.deepEqual(await ids(w, 'refund'), both, 'nothing was dropped');
    });

    it('answers a 2000-character query', async () => {
      const w = await makeTenant(t);
      const folder = await newFolder(w);
      const id = {} as Record<Name, string>;
      for (const name of Object.keys(CORPUS) as Name[]) id[name] = (await newArticle(w, folder, CORPUS[name])).id;
      const repeated = 'refund '.repeat(300).slice(0, 2000);
      assert.equal(repeated.length, 2000);
      assert.deepEqual(await ids(w, repeated), [id.refund, id.subscription]);
      // Every word of every article, up to 2000 characters: the first 32 distinct terms are searched.
      const words = Object.values(CORPUS).flatMap((c) => [c.title, c.mainKnowledge, ...c.questions, ...c.keywords]).join(' ');
      const all = await search(w, { query: words.slice(0, 2000), limit: 50 });
      assert.ok(all.some((r) => r.article.id === Object.values(id)[0]), 'the first article, whose words come first, is found');
      // A term after the first 32 distinct ones is not searched.
      const padded = `${Array.from({ length: 32 }, (_, i) => `filler${i}x`).join(' ')} refund`;
      assert.deepEqual(await search(w, { query: padded }), []);
      assert.deepEqual(await ids(w, `${Array.from({ length: 31 }, (_, i) => `filler${i}x`).join(' ')} refund`), [id.refund, id.subscription]);
      const distinct = Array.from({ length: 400 }, (_, i) => `term${i}x`).join(' ').slice(0, 2000);
      assert.deepEqual(await search(w, { query: distinct }), []);
    });
  });
});

/** Creates a folder and an article as `owner` (for the security suite, which has no helpers of this file). */
async function newArticleVia(t: TestApp, owner: Tenant, title: string): Promise<string> {
  const folder = await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/hc-folders/public', owner.key, { title: 'Help', description: '' });
  const article = await expectStatus<{ id: string }>(t, 201, 'POST', '/v2/hc-articles/public', owner.key, {
    title, mainKnowledge: `About ${title}`, agentInstruction: '', questions: [], keywords: [], escalation: false, parentFolderId: folder.id,
  });
  return article.id;
}
