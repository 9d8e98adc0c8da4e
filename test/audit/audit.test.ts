// The audit log through HTTP: who wrote what and when, recorded in the write's transaction (a
// refused write leaves no entry), names of fields only (never secrets or bodies), jobs on behalf of
// their key, the operator, MCP write tools, filters and keyset pages, another workspace's entries
// unseen, and the retention purge.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { jobNamed } from '../../src/jobs/registry.js';
import { type TestApp, TEST_ADMIN_TOKEN, startTestApp } from '../support/app.js';
import { makeTenant, type Tenant } from '../support/factories.js';
import { type FakeSite, html, startFakeSite } from '../support/fake-site.js';
import { poll } from '../support/poll.js';
import { assertError, expectStatus, securitySuites } from '../support/security.js';
import { INGEST_ENV, ingestUrls, waitForSource } from '../support/sources.js';

interface Entry {
  id: string;
  occurredAt: string;
  actor: { kind: string; id: string; keyId: string | null; keyName: string | null };
  action: string;
  resource: { type: string | null; id: string | null };
  changes: { fields: string[] };
  requestId: string | null;
}
interface Page { entries: Entry[]; hasMore: boolean; nextCursor: string | null; prevCursor: string | null }

const LOG = '/v2/audit-log/public';

describe('audit log', () => {
  let t: TestApp;
  let w: Tenant;
  let other: Tenant;
  let site: FakeSite;
  let keyId: string;
  before(async () => {
    t = await startTestApp({ env: INGEST_ENV, work: true });
    w = await makeTenant(t);
    other = await makeTenant(t);
    site = await startFakeSite({ '/returns': html('Returns', 'You can return any item within 30 days of delivery for a full refund.') });
    keyId = (await expectStatus<{ apiKey: { id: string } }>(t, 200, 'GET', '/v2/workspace/public', w.key)).apiKey.id;
  });
  after(async () => {
    await site.close();
    await t.close();
  });

  const ok = <T>(status: number, method: string, path: string, body?: unknown, key = w.key) => expectStatus<T>(t, status, method, path, key, body);
  const folders = new Map<string, string>();
  /** The body of a new article in the key's folder (made once per key). */
  const article = async (title: string, mainKnowledge: string, key = w.key) => {
    if (!folders.has(key)) folders.set(key, (await ok<{ id: string }>(201, 'POST', '/v2/hc-folders/public', { title: 'Help', description: 'Help center' }, key)).id);
    return { title, mainKnowledge, agentInstruction: '', questions: [], keywords: [], escalation: false, parentFolderId: folders.get(key) };
  };
  const log = (query = '', key = w.readKey) => ok<Page>(200, 'GET', `${LOG}${query}`, undefined, key);
  const entriesFor = async (resourceId: string) => (await log(`?resourceId=${resourceId}`)).entries;

  it('records a write with its key, route, resource, request id and field names, in the order they happened', async () => {
    const body = 'Orders ship within 2 business days. The secret phrase is purple-elephant.';
    const created = await t.request<{ id: string }>('POST', '/v2/hc-articles/public', { key: w.key, body: await article('Shipping', body) });
    assert.equal(created.status, 201);
    const articleId = created.body.id;
    const update: Record<string, unknown> = await article('Shipping times', body);
    delete update.parentFolderId;
    await ok(200, 'PUT', `/v2/hc-articles/${articleId}/public`, update);
    const entries = await entriesFor(articleId);
    assert.deepEqual(
      entries.map((e) => [e.action, e.resource, e.changes.fields, e.actor]),
      [
        ['PUT /v2/hc-articles/{id}/public', { type: 'hc-articles', id: articleId }, ['title', 'mainKnowledge', 'agentInstruction', 'questions', 'keywords', 'escalation'], { kind: 'key', id: keyId, keyId, keyName: entries[0]!.actor.keyName }],
        ['POST /v2/hc-articles/public', { type: 'hc-articles', id: articleId }, ['title', 'mainKnowledge', 'agentInstruction', 'questions', 'keywords', 'escalation', 'parentFolderId'], { kind: 'key', id: keyId, keyId, keyName: entries[0]!.actor.keyName }],
      ],
    );
    assert.equal(typeof entries[0]!.actor.keyName, 'string');
    assert.equal(entries[1]!.requestId, created.headers.get('x-request-id'));
    assert.ok(Date.parse(entries[0]!.occurredAt) >= Date.parse(entries[1]!.occurredAt));
    assert.ok(!JSON.stringify(await log()).includes('purple-elephant'), 'no article body in the log');
  });

  it('records nothing for reads, and nothing for a write that was refused and rolled back', async () => {
    const before = (await log('?limit=100')).entries.length;
    await ok(200, 'GET', '/v2/hc-articles/public');
    await ok(200, 'POST', '/v2/knowledge/search/public', { query: 'shipping' }).catch(() => undefined);
    const action = await ok<{ id: string }>(201, 'POST', '/v2/hc-tools/public', { name: 'Refund' });
    const flow = { type: 'tool', toolId: action.id, inputs: {}, onFailure: { type: 'escalate', reason: 'tool_failure' } };
    const rule = await ok<{ id: string }>(201, 'POST', '/v2/hc-rules/public', { name: 'Refunds', description: 'Refund requests', flowConfig: flow });
    // The delete runs, then a listener of its transaction refuses it: the entry goes with the rollback.
    assertError(await t.request('DELETE', `/v2/hc-tools/${action.id}/public`, { key: w.key }), 409, /is called by the flow of rule "Refunds"/);
    assertError(await t.request('PATCH', `/v2/hc-articles/${randomUUID()}/public`, { key: w.key, body: { title: 'x' } }), 404);
    const after = await log('?limit=100');
    assert.deepEqual(after.entries.slice(0, after.entries.length - before).map((e) => e.action), ['POST /v2/hc-rules/public', 'POST /v2/hc-tools/public']);
    assert.deepEqual(await entriesFor(action.id), [after.entries[1]]);
    assert.equal(after.entries[0]!.resource.id, rule.id);
  });

  it('names the fields of a secret, never its value', async () => {
    const created = await ok<{ id: string; secret: string }>(201, 'POST', '/v2/webhooks/public', { url: 'https://hooks.example.com/parley', events: ['conversation.escalated'] });
    assert.ok(created.secret);
    const [entry] = await entriesFor(created.id);
    assert.deepEqual(entry!.changes.fields, ['url', 'events']);
    const stored = await t.database.db.execute(sql`SELECT changes::text AS changes FROM audit_log WHERE resource_id = ${created.id}`);
    assert.ok(!JSON.stringify(stored).includes(created.secret), 'the secret is nowhere in the table');
    await ok(200, 'DELETE', `/v2/webhooks/${created.id}/public`);
  });

  it('records a job on behalf of the key that queued it', async () => {
    const ingest = await ingestUrls(t, w.key, [site.url('/returns')]);
    const sourceId = ingest.addedDocumentIds[0]!;
    await waitForSource(t, w.key, sourceId);
    const entries = await poll(() => entriesFor(sourceId), (list) => list.some((e) => e.actor.kind === 'job'), { what: 'the ingest job entry' });
    const job = entries.find((e) => e.actor.kind === 'job')!;
    assert.equal(job.action, 'job sources.ingest');
    assert.deepEqual(job.resource, { type: 'source', id: sourceId });
    assert.equal(job.actor.keyId, keyId);
    assert.equal(job.actor.keyName, entries.find((e) => e.actor.kind === 'key')?.actor.keyName ?? job.actor.keyName);
    assert.ok(job.actor.keyName);
    const [request] = (await log('?resourceType=documents&limit=1')).entries;
    assert.deepEqual([request!.action, request!.actor.kind, request!.changes.fields], ['POST /v2/documents/public', 'key', ['documentIdsToAdd']]);
    const byKey = await log(`?keyId=${keyId}&actorKind=job&limit=100`);
    assert.ok(byKey.entries.some((e) => e.id === job.id));
    assert.ok(byKey.entries.every((e) => e.actor.kind === 'job' && e.actor.keyId === keyId));
  });

  it('records an MCP write tool as `mcp <tool>`, not its reads', async () => {
    const client = new Client({ name: 'audit-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${w.key}` } } }));
    try {
      const parentFolderId = (await article('x', 'x')).parentFolderId;
      const result = await client.callTool({ name: 'create_article_draft', arguments: { title: 'Gift cards', mainKnowledge: 'Gift cards never expire.', parentFolderId } });
      assert.equal(result.isError, undefined, JSON.stringify(result.content));
      const draftId = (result.structuredContent as { article: { id: string } }).article.id;
      const [entry] = await entriesFor(draftId);
      assert.equal(entry!.action, 'mcp create_article_draft');
      assert.deepEqual(entry!.changes.fields, ['title', 'mainKnowledge', 'parentFolderId']);
      assert.equal(entry!.actor.keyId, keyId);
      await client.callTool({ name: 'search_knowledge', arguments: { query: 'gift cards' } });
      assert.equal((await log('?limit=1')).entries[0]!.action, 'mcp create_article_draft');
    } finally {
      await client.close();
    }
  });

  it('records the operator, and lists the deployment\'s entries behind the admin token', async () => {
    const made = await t.request<{ id: string }>('POST', `/v2/admin/workspaces/${w.workspaceId}/api-keys`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, body: { name: 'ci', scopes: ['read'] } });
    assert.equal(made.status, 201);
    const [entry] = (await log('?actorKind=operator')).entries;
    assert.equal(entry!.action, 'POST /v2/admin/workspaces/{id}/api-keys');
    assert.deepEqual(entry!.actor, { kind: 'operator', id: 'operator', keyId: null, keyName: null });
    assert.deepEqual(entry!.resource, { type: 'workspaces', id: w.workspaceId });
    assert.deepEqual(entry!.changes.fields, ['name', 'scopes']);
    const revoked = await t.request('DELETE', `/v2/admin/api-keys/${made.body.id}`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    assert.equal(revoked.status, 200);
    assert.deepEqual((await entriesFor(made.body.id)).map((e) => e.action), ['DELETE /v2/admin/api-keys/{id}']);
    const admin = await t.request<{ entries: (Entry & { workspaceId: string | null })[] }>('GET', `/v2/admin/audit-log?workspaceId=${other.workspaceId}`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    assert.equal(admin.status, 200);
    assert.ok(admin.body.entries.every((e) => e.workspaceId === other.workspaceId));
    const all = await t.request<{ entries: (Entry & { workspaceId: string | null })[] }>('GET', '/v2/admin/audit-log?limit=100', { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    assert.ok(all.body.entries.some((e) => e.workspaceId === w.workspaceId));
    const admin400 = (query: string) => t.request('GET', `/v2/admin/audit-log?${query}`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    assertError(await admin400('workspaceId=everyone'), 400, /workspaceId/);
    assertError(await admin400(`cursor=${randomUUID()}`), 400, 'cursor: not an entry of this audit log');
    assertError(await t.request('GET', '/v2/admin/audit-log', { key: w.key }), 401);
  });

  it('filters by resource type and time window, and walks keyset pages both ways, each entry once', async () => {
    const w2 = await makeTenant(t);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await ok<{ id: string }>(201, 'POST', '/v2/hc-articles/public', await article(`Note ${i}`, `Fact ${i}.`, w2.key), w2.key)).id);
    const middle = (await log(`?resourceId=${ids[2]}`, w2.readKey)).entries[0]!.occurredAt;
    const seen: string[] = [];
    let page = await log('?resourceType=hc-articles&limit=2', w2.readKey);
    const first = page;
    for (;;) {
      seen.push(...page.entries.map((e) => e.resource.id!));
      if (!page.nextCursor) break;
      page = await log(`?resourceType=hc-articles&limit=2&cursor=${page.nextCursor}`, w2.readKey);
    }
    assert.deepEqual(seen, [...ids].reverse());
    assert.equal(first.prevCursor, null);
    const back = await log(`?resourceType=hc-articles&limit=2&direction=previous&cursor=${page.prevCursor}`, w2.readKey);
    assert.deepEqual(back.entries.map((e) => e.resource.id), [ids[2], ids[1]]);
    const since = await log(`?since=${encodeURIComponent(middle)}`, w2.readKey);
    assert.ok(since.entries.every((e) => e.occurredAt >= middle));
    assert.ok(since.entries.some((e) => e.resource.id === ids[2]));
    const until = await log(`?until=${encodeURIComponent(middle)}`, w2.readKey);
    assert.ok(until.entries.every((e) => e.occurredAt < middle));
    assert.equal((await log('?resourceType=webhooks', w2.readKey)).entries.length, 0);
  });

  it('shows a workspace none of another workspace\'s entries, and refuses its cursors and bad filters', async () => {
    const theirs = await log('?limit=100', other.readKey);
    const mine = await log('?limit=100');
    const mineIds = new Set(mine.entries.map((e) => e.id));
    assert.ok(theirs.entries.every((e) => !mineIds.has(e.id)));
    assertError(await t.request('GET', `${LOG}?cursor=${mine.entries[0]!.id}`, { key: other.readKey }), 400, 'cursor: not an entry of this audit log');
    assertError(await t.request('GET', `${LOG}?since=yesterday`, { key: w.readKey }), 400, /since/);
    assertError(await t.request('GET', `${LOG}?actorKind=robot`, { key: w.readKey }), 400, /actorKind/);
    assertError(await t.request('GET', `${LOG}?limit=0`, { key: w.readKey }), 400, /limit/);
  });

  it('purges entries older than PARLEY_AUDIT_RETENTION_DAYS', async () => {
    const w3 = await makeTenant(t);
    const old = await ok<{ id: string }>(201, 'POST', '/v2/hc-articles/public', await article('Old', 'Old fact.', w3.key), w3.key);
    await t.database.db.execute(sql`UPDATE audit_log SET occurred_at = now() - interval '400 days' WHERE resource_id = ${old.id}`);
    const kept = await ok<{ id: string }>(201, 'POST', '/v2/hc-articles/public', await article('New', 'New fact.', w3.key), w3.key);
    const run = { ports: t.ports, id: randomUUID(), retryCount: 0, signal: new AbortController().signal, log: pino({ level: 'silent' }) };
    await jobNamed('audit.purge').handler(run, {});
    assert.deepEqual((await log('?resourceType=hc-articles&limit=100', w3.readKey)).entries.map((e) => e.resource.id), [kept.id]);
  });

  securitySuites(() => t, [['list the audit log', 'GET', 'read', async () => ({ path: LOG }), undefined]]);
});
