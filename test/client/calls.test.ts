// @parley/client against a real app over HTTP: typed calls, keyset paging over several pages of two
// list routes (a nextCursor route and one paged by the last item), and the typed errors.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createParleyClient, type ParleyClient, ParleyApiError } from '../../packages/client/src/index.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { type TestClock, testClock } from '../support/clock.js';
import { makeTenant } from '../support/factories.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('@parley/client: calls, paging, errors', () => {
  let t: TestApp;
  let clock: TestClock;
  before(async () => {
    clock = testClock();
    t = await startTestApp({ clock });
  });
  after(() => t.close());

  async function tenantClient(): Promise<ParleyClient> {
    const { key } = await makeTenant(t);
    return createParleyClient({ baseUrl: t.url, apiKey: key });
  }

  async function folderOf(parley: ParleyClient, title = 'Shipping'): Promise<string> {
    const folder = await parley.unwrap(parley.POST('/v2/hc-folders/public', { body: { title, description: `${title} questions` } }));
    return folder.id;
  }

  it('creates an article with a typed call and reads it back', async () => {
    const parley = await tenantClient();
    const parentFolderId = await folderOf(parley);
    const { data, error, response } = await parley.POST('/v2/hc-articles/public', {
      body: {
        title: 'Delivery times',
        mainKnowledge: 'Standard delivery takes 3 to 5 business days.',
        agentInstruction: '',
        questions: ['How long does delivery take?'],
        keywords: ['delivery'],
        escalation: false,
        parentFolderId,
      },
    });
    assert.equal(response.status, 201);
    assert.equal(error, undefined);
    assert.ok(data);
    assert.equal(data.title, 'Delivery times');
    assert.equal(data.parentFolderId, parentFolderId);
    const [read] = await parley.unwrap(parley.POST('/v2/hc-articles/ids/public', { body: { articleIds: [data.id] } }));
    assert.ok(read);
    assert.deepEqual(
      { id: read.id, title: read.title, mainKnowledge: read.mainKnowledge, questions: read.questions, keywords: read.keywords, isDraft: read.isDraft, version: read.version },
      { id: data.id, title: 'Delivery times', mainKnowledge: 'Standard delivery takes 3 to 5 business days.', questions: ['How long does delivery take?'], keywords: ['delivery'], isDraft: false, version: 1 },
    );
  });

  it('pages over every article once, in order, keeping the filter on each page', async () => {
    const parley = await tenantClient();
    const parentFolderId = await folderOf(parley);
    const create = async (title: string) => {
      clock.advance(1000);
      return (await parley.unwrap(parley.POST('/v2/hc-articles/public', { body: { title, mainKnowledge: `${title}.`, agentInstruction: '', questions: [], keywords: [], escalation: false, parentFolderId } }))).id;
    };
    const paged: string[] = [];
    for (let i = 1; i <= 7; i += 1) {
      paged.push(await create(`Paged article ${i}`));
      if (i % 3 === 0) await create(`Other article ${i}`);
    }
    const seen: string[] = [];
    for await (const article of parley.paginate('/v2/hc-articles/public', { params: { query: { q: 'Paged', limit: 3 } } })) {
      assert.match(article.title, /^Paged article \d$/);
      seen.push(article.id);
    }
    assert.deepEqual(seen, [...paged].reverse(), 'most recently changed first, each once');

    const pages = [];
    for await (const page of parley.pages('/v2/hc-articles/public', { params: { query: { q: 'Paged', limit: 3 } } })) pages.push(page);
    assert.deepEqual(pages.map((p) => [p.articles.length, p.hasMore, p.nextCursor === null]), [[3, true, false], [3, true, false], [1, false, true]]);
  });

  it('pages over sources by their last item (no nextCursor): every source once, in the route order', async () => {
    const parley = await tenantClient();
    const urls = Array.from({ length: 5 }, (_, i) => `https://help.example.com/page-${i + 1}`);
    const ingest = await parley.unwrap(parley.POST('/v2/documents/public', { body: { documentIdsToAdd: urls } }));
    assert.equal(ingest.addedDocumentIds.length, 5);
    const onePage = await parley.unwrap(parley.GET('/v2/documents/public', { params: { query: { limit: 200 } } }));
    assert.equal(onePage.hasMore, false);
    const seen: string[] = [];
    for await (const source of parley.paginate('/v2/documents/public', { params: { query: { limit: 2 } } })) seen.push(source.id);
    assert.deepEqual(seen, onePage.documents.map((d) => d.id));
    assert.deepEqual([...seen].sort(), [...ingest.addedDocumentIds].sort());
    const backward: string[] = [];
    const oldest = seen.at(-1)!;
    const oldestSource = onePage.documents.at(-1)!;
    for await (const source of parley.paginate('/v2/documents/public', { params: { query: { limit: 2, direction: 'previous', cursor: oldest, cursorUpdatedAt: oldestSource.updatedAt } } })) {
      backward.push(source.id);
    }
    assert.deepEqual(new Set(backward), new Set(seen.slice(0, -1)), 'walking back from the oldest reaches every newer source once');
    assert.equal(backward.length, 4);
  });

  it('a 404 carries the API body, the request id and no Retry-After', async () => {
    const parley = await tenantClient();
    const { data, error, response } = await parley.GET('/v2/documents/public/{id}', { params: { path: { id: UNKNOWN } } });
    assert.equal(data, undefined);
    assert.equal(response.status, 404);
    assert.deepEqual(error, { statusCode: 404, message: `source ${UNKNOWN} not found`, error: 'Not Found' });
    const thrown = await parley.unwrap(parley.GET('/v2/documents/public/{id}', { params: { path: { id: UNKNOWN } } })).then(
      () => assert.fail('a 404 resolves'),
      (e: unknown) => e,
    );
    assert.ok(thrown instanceof ParleyApiError);
    assert.equal(thrown.statusCode, 404);
    assert.equal(thrown.error, 'Not Found');
    assert.equal(thrown.message, `source ${UNKNOWN} not found`);
    assert.match(thrown.requestId ?? '', /\S/);
    assert.notEqual(thrown.requestId, response.headers.get('x-request-id'), 'each request its own id');
    assert.equal(thrown.retryAfter, undefined);
    assert.equal(thrown.url, `${t.url}/v2/documents/public/${UNKNOWN}`);
  });

  it('a 400 names the field, and the paging helpers throw it from the first page', async () => {
    const parley = await tenantClient();
    const failed = await parley.unwrap(parley.GET('/v2/hc-articles/public', { params: { query: { limit: 1000 } } })).catch((e: unknown) => e);
    assert.ok(failed instanceof ParleyApiError);
    assert.equal(failed.statusCode, 400);
    assert.equal(failed.error, 'Bad Request');
    assert.match(failed.message, /^query\.limit: /);
    const paging = async () => {
      for await (const article of parley.paginate('/v2/hc-articles/public', { params: { query: { limit: 1000 } } })) assert.fail(`no article: ${article.id}`);
    };
    await assert.rejects(paging, (e: unknown) => e instanceof ParleyApiError && e.statusCode === 400 && e.message === failed.message);
  });

  it('an answer without the error body keeps its status; paging is typed to the list routes', async () => {
    const behindProxy = createParleyClient({
      baseUrl: t.url,
      fetch: async () => new Response('<html>upstream down</html>', { status: 502, statusText: 'Bad Gateway', headers: { 'content-type': 'text/html' } }),
    });
    const failed = await behindProxy.unwrap(behindProxy.GET('/healthz')).catch((e: unknown) => e);
    assert.ok(failed instanceof ParleyApiError);
    assert.deepEqual([failed.statusCode, failed.error, failed.message, failed.requestId], [502, 'Bad Gateway', 'the server answered 502 without an error body', undefined]);

    // Checked by the typecheck, never run: a route with a path parameter needs its params, and
    // only the keyset-paged list routes can be paged.
    const typeChecks = (parley: ParleyClient) => [
      // @ts-expect-error the webhook's id is required
      parley.paginate('/v2/webhooks/{id}/deliveries/public'),
      // @ts-expect-error GET /v2/bots/public answers one page, no cursor
      parley.paginate('/v2/bots/public'),
      // @ts-expect-error an unknown filter of the articles list
      parley.paginate('/v2/hc-articles/public', { params: { query: { colour: 'red' } } }),
    ];
    assert.equal(typeof typeChecks, 'function');
  });

  it('a key without the scope is a 403, a missing key a 401, both as ParleyApiError', async () => {
    const { readKey } = await makeTenant(t);
    const reader = createParleyClient({ baseUrl: t.url, apiKey: readKey });
    const forbidden = await reader.unwrap(reader.POST('/v2/hc-folders/public', { body: { title: 'x', description: '' } })).catch((e: unknown) => e);
    assert.ok(forbidden instanceof ParleyApiError);
    assert.deepEqual([forbidden.statusCode, forbidden.error, forbidden.message], [403, 'Forbidden', 'API key does not have the required scope for this operation']);
    const anonymous = createParleyClient({ baseUrl: t.url });
    const unauthorized = await anonymous.unwrap(anonymous.GET('/v2/hc-articles/public')).catch((e: unknown) => e);
    assert.ok(unauthorized instanceof ParleyApiError);
    assert.deepEqual([unauthorized.statusCode, unauthorized.error, unauthorized.message], [401, 'Unauthorized', 'missing API key: send Authorization: Bearer <API key>']);
  });
});
