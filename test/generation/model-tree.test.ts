// Knowledge generation against a configured model (the AI SDK path), end to end: HTTP request ->
// job worker -> the fake OpenAI-compatible server -> the decision checked and written. This file:
// tree/initialize with the model.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { parseCsv, TREE_COLUMNS } from '../../src/modules/knowledge/tree-csv.js';
import { initializeTreeTask } from '../../src/modules/generation/generation.tasks.js';
import type { TestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import type { FakeLlm } from '../support/fake-llm.js';
import { assertError } from '../support/security.js';
import { type Article, chat, messageText, MODEL_API_KEY, MODEL_ENV, TREE_INIT, TREE_PERSIST, useModelApp } from './support.js';

describe('knowledge generation with a configured model (openai-compatible)', () => {
  let t: TestApp, fake: FakeLlm;
  useModelApp(MODEL_API_KEY, MODEL_ENV, (app) => ({ t, fake } = app));

  describe('tree/initialize with the model', () => {
    let w: Tenant;
    before(async () => {
      w = await makeTenant(t);
    });
    const PROMPT = 'An online shop for tea: refunds, shipping and loyalty points.';

    it('sends the initialize_tree task and writes the CSV from the answer, which tree/persist imports unchanged', async () => {
      fake.enqueue({
        json: {
          folders: [
            {
              path: [' Billing ', 'Refunds'],
              description: ' Refund rules ',
              articles: [
                {
                  title: ' Refund window ',
                  mainKnowledge: 'Refunds within 30 days, "no questions" asked.\nPaid in 5 days.',
                  questions: ['How long do I have?', 'Pay | back?', 'How long do I have?'],
                  keywords: ['refund', ' money '],
                },
                { title: '   ', mainKnowledge: 'dropped: no title', questions: [], keywords: [] },
              ],
            },
            { path: ['Shipping / Delivery'], description: 'Getting your tea', articles: [] },
          ],
        },
        usage: { inputTokens: 100, outputTokens: 200 },
      });
      const res = await t.request<string>('POST', TREE_INIT, { key: w.key, body: { initPrompt: PROMPT } });
      assert.equal(res.status, 200, res.text);
      assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);

      assert.equal(fake.requests.length, 1);
      const request = fake.requests[0]!;
      assert.equal(request.path, '/v1/chat/completions');
      assert.equal(request.headers.authorization, `Bearer ${MODEL_API_KEY}`);
      const body = chat(request);
      assert.equal(body.model, 'test-model');
      assert.equal(body.response_format.type, 'json_schema');
      assert.equal(body.response_format.json_schema.name, 'initialize_tree');
      assert.deepEqual(Object.keys(body.response_format.json_schema.schema.properties), ['folders']);
      assert.equal(messageText(request, 'system'), initializeTreeTask.system);
      assert.equal(messageText(request, 'user'), `Description of the knowledge base:\n${PROMPT}`);

      const records = parseCsv(res.text).map((r) => r.cells);
      assert.deepEqual(records, [
        [...TREE_COLUMNS],
        [
          'Billing / Refunds',
          'Refund rules',
          'Refund window',
          'Refunds within 30 days, "no questions" asked.\nPaid in 5 days.',
          '',
          'How long do I have? | Pay / back?',
          'refund | money',
          'false',
          'true',
          '',
          '',
        ],
        ['Shipping \\/ Delivery', 'Getting your tea', '', '', '', '', '', '', '', '', ''],
      ]);

      const form = new FormData();
      form.append('file', new Blob([res.text]), 'knowledge-tree.csv');
      const persisted = await fetch(`${t.url}${TREE_PERSIST}`, { method: 'POST', headers: { authorization: `Bearer ${w.key}` }, body: form });
      const persistedText = await persisted.text();
      assert.equal(persisted.status, 200, persistedText);
      const result = JSON.parse(persistedText) as { folders: { title: string; description: string }[]; articles: Article[] };
      assert.deepEqual(result.folders.map((f) => [f.title, f.description]).sort(), [
        ['Billing', ''],
        ['Refunds', 'Refund rules'],
        ['Shipping / Delivery', 'Getting your tea'],
      ]);
      assert.equal(result.articles.length, 1);
      const [article] = result.articles as [Article];
      assert.equal(article.title, 'Refund window');
      assert.equal(article.mainKnowledge, 'Refunds within 30 days, "no questions" asked.\nPaid in 5 days.');
      assert.deepEqual(article.questions, ['How long do I have?', 'Pay / back?']);
      assert.deepEqual(article.keywords, ['refund', 'money']);
      assert.equal(article.isDraft, true);
    });

    it('a model error answers 502 without the API key', async () => {
      fake.setHandler(() => ({ status: 401, body: { error: { message: `bad key ${MODEL_API_KEY}`, type: 'invalid_request_error', code: null } } }));
      const res = await t.request('POST', TREE_INIT, { key: w.key, body: { initPrompt: PROMPT } });
      assertError(res, 502, /^model call failed: HTTP 401 Unauthorized from .+\(bad key /);
      assert.equal((res.body as { error: string }).error, 'Bad Gateway');
      assert.ok(!res.text.includes(MODEL_API_KEY), res.text);
      assert.equal(fake.requests.length, 1);
    });

    it('a model that keeps failing with 500 answers 502 after the retries', async () => {
      fake.setHandler(() => ({ status: 500 }));
      const res = await t.request('POST', TREE_INIT, { key: w.key, body: { initPrompt: PROMPT } });
      assertError(res, 502, /^model call failed after 3 attempts: HTTP 500/);
      assert.equal(fake.requests.length, 3);
    });

    it('malformed tree output answers 502', async () => {
      fake.enqueue({ text: 'here is your tree: Billing > Refunds' });
      const notJson = await t.request('POST', TREE_INIT, { key: w.key, body: { initPrompt: PROMPT } });
      assertError(notJson, 502, /not valid JSON/);

      fake.enqueue({ json: { folders: [{ path: 'Billing', description: '', articles: [] }] } });
      const wrongShape = await t.request('POST', TREE_INIT, { key: w.key, body: { initPrompt: PROMPT } });
      assertError(wrongShape, 502, /does not match the initialize_tree schema: folders\.0\.path:/);

      fake.enqueue({ json: { topics: [] } });
      const missing = await t.request('POST', TREE_INIT, { key: w.key, body: { initPrompt: PROMPT } });
      assertError(missing, 502, /initialize_tree schema: folders:/);
    });

    /** tree/initialize with `answer` from the model, then tree/persist of its file, in a fresh workspace. */
    const initializeThenPersist = async (answer: unknown) => {
      const fresh = await makeTenant(t);
      fake.enqueue({ json: answer });
      const res = await t.request<string>('POST', TREE_INIT, { key: fresh.key, body: { initPrompt: PROMPT } });
      const form = new FormData();
      form.append('file', new Blob([res.text]), 'knowledge-tree.csv');
      const persisted = await fetch(`${t.url}${TREE_PERSIST}`, { method: 'POST', headers: { authorization: `Bearer ${fresh.key}` }, body: form });
      return { initialize: res, persist: { status: persisted.status, text: await persisted.text() } };
    };

    it(
      'a tree naming one folder twice with two descriptions is one folder (the first description) and imports',
      async () => {
        const { initialize, persist } = await initializeThenPersist({
          folders: [
            { path: ['Billing'], description: 'Invoices', articles: [{ title: 'Invoices', mainKnowledge: 'Invoices are emailed.', questions: [], keywords: [] }] },
            { path: ['Billing'], description: 'Payments', articles: [{ title: 'Payment methods', mainKnowledge: 'We accept cards.', questions: [], keywords: [] }] },
          ],
        });
        assert.equal(initialize.status, 200, initialize.text);
        assert.deepEqual(initialize.text.trim().split('\r\n').slice(1).map((line) => line.split(',').slice(0, 3).join(',')), [
          'Billing,Invoices,Invoices',
          'Billing,Invoices,Payment methods',
        ]);
        assert.equal(persist.status, 200, persist.text);
      },
    );

    it(
      'a tree with a NUL character in an article drops it and imports through tree/persist',
      async () => {
        const { initialize, persist } = await initializeThenPersist({
          folders: [{ path: ['Billing'], description: '', articles: [{ title: 'Invoices', mainKnowledge: 'Invoices\u0000 are emailed.', questions: [], keywords: [] }] }],
        });
        assert.equal(initialize.status, 200, initialize.text);
        assert.ok(initialize.text.includes('Invoices are emailed.'), initialize.text);
        assert.equal(persist.status, 200, persist.text);
      },
    );

    it('an empty tree answers 400', async () => {
      fake.enqueue({ json: { folders: [{ path: ['  '], description: '', articles: [] }] } });
      const res = await t.request('POST', TREE_INIT, { key: w.key, body: { initPrompt: PROMPT } });
      assertError(res, 400, /no topics found/);
    });
  });

});
