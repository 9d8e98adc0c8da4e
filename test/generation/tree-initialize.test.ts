// The knowledge-generation routes through HTTP with the built-in engine: tree/initialize and its round trip
// through tree/persist.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { assertError, expectStatus } from '../support/security.js';
import { allArticles, type Article, csvRows, persistTree, startBuiltinApp, TREE_HEADER, TREE_INIT, useApp } from './support.js';

describe('knowledge generation routes (built-in engine)', () => {
  let t: TestApp;
  useApp(startBuiltinApp, (app) => ({ t } = app));

  describe('POST /v2/knowledge/public/tree/initialize', () => {
    const OUTLINE = [
      '# Orders',
      '- Shipping: we ship within 2 business days',
      '- Returns: 30 days, free',
      '# Account',
      '## Security',
      '- Password reset: use the link on the sign-in page',
      '- Deleting an account',
    ].join('\n');

    const initialize = (w: Tenant, initPrompt: unknown) => t.request<string>('POST', TREE_INIT, { key: w.writeKey, body: { initPrompt } });

    it('answers a CSV attachment that follows the outline, and tree/persist imports it unchanged as drafts', async () => {
      const w = await makeTenant(t);
      const res = await initialize(w, OUTLINE);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
      assert.equal(res.headers.get('content-disposition'), 'attachment; filename="knowledge-tree.csv"');

      const [header, ...rows] = csvRows(res.text);
      assert.deepEqual(header, TREE_HEADER);
      const cell = (row: string[], column: string) => row[TREE_HEADER.indexOf(column)];
      assert.deepEqual(
        rows.map((r) => [cell(r, 'folder_path'), cell(r, 'title'), cell(r, 'is_draft')]),
        [
          ['Orders', 'Shipping', 'true'],
          ['Orders', 'Returns', 'true'],
          ['Account', '', ''],
          ['Account / Security', 'Password reset', 'true'],
          ['Account / Security', 'Deleting an account', 'true'],
        ],
      );
      for (const row of rows) assert.equal(row.length, TREE_HEADER.length);
      assert.equal(cell(rows[0]!, 'main_knowledge'), 'We ship within 2 business days');
      assert.equal(cell(rows[3]!, 'main_knowledge'), 'Use the link on the sign-in page');
      assert.ok(cell(rows[4]!, 'main_knowledge')!.length > 0, 'an article without text gets a brief');
      // Nothing is saved by initialize.
      assert.deepEqual(await allArticles(t, w.key), []);

      const persisted = await persistTree(t, w.writeKey, res.text);
      assert.equal(persisted.status, 200, persisted.text);
      const body = persisted.body as { status: string; message: string; folders: { title: string; parentFolderId: string | null; id: string }[]; articles: Article[] };
      assert.equal(body.status, 'success');
      assert.equal(body.message, 'imported 4 article(s) into 3 folder(s) (3 created, 0 existing)');
      const byTitle = new Map(body.folders.map((f) => [f.title, f]));
      assert.deepEqual([...byTitle.keys()].sort(), ['Account', 'Orders', 'Security']);
      assert.equal(byTitle.get('Security')!.parentFolderId, byTitle.get('Account')!.id);
      assert.deepEqual(
        body.articles.map((a) => [a.title, a.isDraft, a.parentFolderId]),
        [
          ['Shipping', true, byTitle.get('Orders')!.id],
          ['Returns', true, byTitle.get('Orders')!.id],
          ['Password reset', true, byTitle.get('Security')!.id],
          ['Deleting an account', true, byTitle.get('Security')!.id],
        ],
      );
      const drafts = await expectStatus<{ articles: Article[] }>(t, 200, 'GET', '/v2/hc-articles/public?type=draft', w.key);
      assert.equal(drafts.articles.length, 4);
    });

    it('reads prose for its topics', async () => {
      const w = await makeTenant(t);
      const res = await initialize(w, 'We sell e-bikes online. Customers ask about delivery, warranty and battery care.');
      assert.equal(res.status, 200, res.text);
      const [, ...rows] = csvRows(res.text);
      assert.deepEqual(rows.map((r) => [r[0], r[2]]), [['E-bikes', 'Delivery'], ['E-bikes', 'Warranty'], ['E-bikes', 'Battery care']]);
      assert.equal((await persistTree(t, w.writeKey, res.text)).status, 200);
    });

    it(
      "answers 400 for a prompt with no topic ('...'), as the route documents",
      async () => {
        const w = await makeTenant(t);
        for (const prompt of ['...', '?', '!!!']) {
          assertError(await initialize(w, prompt), 400, 'initPrompt: no topics found; describe the help centre, for example as an outline of topics');
        }
      },
    );

    it('validates initPrompt: required, not blank, at most 20,000 characters', async () => {
      const w = await makeTenant(t);
      assertError(await t.request('POST', TREE_INIT, { key: w.key, body: {} }), 400, /^body\.initPrompt: /);
      assertError(await initialize(w, ''), 400, /^body\.initPrompt: /);
      assertError(await initialize(w, ' \n\t '), 400, /^body\.initPrompt: /);
      assertError(await initialize(w, 42), 400, /^body\.initPrompt: /);
      assertError(await initialize(w, `# Orders\n- ${'a'.repeat(20_000)}`), 400, /^body\.initPrompt: /);
      assertError(await t.request('POST', TREE_INIT, { key: w.key, body: { initPrompt: OUTLINE, format: 'json' } }), 400, /^body: .*format/);
      const longest = `# Orders\n- Shipping: ${'we ship fast '.repeat(2000)}`.slice(0, 20_000);
      const res = await initialize(w, longest);
      assert.equal(res.status, 200, res.text.slice(0, 500));
      assert.equal((await persistTree(t, w.writeKey, res.text)).status, 200);
    });
  });
});
