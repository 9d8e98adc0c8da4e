// POST /v2/knowledge/public/search: security, what an agent's scope lets it find, validation, and
// hostile queries.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant } from '../support/factories.js';
import { assertError, expectStatus, securitySuite } from '../support/security.js';
import { type Article, type Content, CORPUS, type Name, newArticleVia, type Result, SEARCH, searchHelpers, UNKNOWN } from './support.js';

describe('knowledge search route', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());
  const { ok, fail, newFolder, setFolderActive, newArticle, newAgent, assign, search, ids, sorted } = searchHelpers(() => t);

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
