import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { type TestApp, startTestApp } from '../support/app.js';
import { backend } from '../support/database.js';
import { makeTenant } from '../support/factories.js';
import { assertError } from '../support/security.js';

interface OpenApiOperation {
  summary?: string;
  description?: string;
  security?: unknown[];
  responses: Record<string, { $ref?: string; description?: string; content?: Record<string, { schema?: unknown }> }>;
}
interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { responses: Record<string, { description?: string }> };
}

describe('operations endpoints', () => {
  let t: TestApp;
  before(async () => {
    // With a worker, as a deployment has: without one, /readyz says degraded while jobs are due
    // (test/platform/workers.test.ts).
    t = await startTestApp({ work: true, env: { PARLEY_RATE_LIMIT_MAX: '2' } });
  });
  after(() => t.close());

  it('answers /healthz and /readyz without a key (and without rate limit)', async () => {
    for (let i = 0; i < 4; i += 1) {
      const health = await t.request('GET', '/healthz');
      assert.equal(health.status, 200);
      assert.deepEqual(health.body, { status: 'ok' });
    }
    const ready = await t.request('GET', '/readyz');
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { status: 'ready', database: backend });
  });

  it('answers 503 on /readyz when migrations are missing', async () => {
    await t.database.db.execute(sql`CREATE TABLE drizzle.hidden AS SELECT * FROM drizzle.__drizzle_migrations`);
    await t.database.db.execute(sql`DELETE FROM drizzle.__drizzle_migrations`);
    try {
      assertError(await t.request('GET', '/readyz'), 503, /not ready: \d+ migration\(s\) not applied/);
    } finally {
      await t.database.db.execute(sql`INSERT INTO drizzle.__drizzle_migrations SELECT * FROM drizzle.hidden`);
      await t.database.db.execute(sql`DROP TABLE drizzle.hidden`);
    }
    assert.equal((await t.request('GET', '/readyz')).status, 200);
  });

  it('exposes Prometheus metrics by route template, status, latency and job queue', async () => {
    const tenant = await makeTenant(t);
    await t.request('GET', '/v2/workspace/public', { key: tenant.key });
    await t.request('GET', '/v2/workspace/public');
    await t.request('GET', '/no/such/route/123');
    const res = await t.request('GET', '/metrics');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(res.text, /parley_http_requests_total\{method="GET",route="\/v2\/workspace\/public",status="200"\} 1/);
    assert.match(res.text, /parley_http_requests_total\{method="GET",route="\/v2\/workspace\/public",status="401"\} 1/);
    assert.match(res.text, /parley_http_requests_total\{method="GET",route="unmatched",status="404"\} 1/);
    assert.match(res.text, /parley_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/v2\/workspace\/public"\}/);
    assert.match(res.text, /# TYPE parley_job_queue_depth gauge/);
    assert.match(res.text, /# TYPE parley_job_queue_oldest_age_seconds gauge/);
    assert.ok(!res.text.includes('/no/such/route/123'));
  });

  it('serves an OpenAPI 3 document with every route documented', async () => {
    const res = await t.request<OpenApi>('GET', '/openapi.json');
    assert.equal(res.status, 200);
    assert.equal(res.body.openapi, '3.1.0');
    const expected: Record<string, string[]> = {
      '/healthz': ['get'],
      '/readyz': ['get'],
      '/metrics': ['get'],
      '/openapi.json': ['get'],
      '/v2/workspace/public': ['get', 'patch'],
      '/v2/admin/workspaces': ['get', 'post'],
      '/v2/admin/workspaces/{id}/api-keys': ['get', 'post'],
      '/v2/admin/api-keys/{id}': ['delete'],
      '/v2/admin/workers': ['get'],
      '/v2/bots/public': ['get', 'post'],
      '/v2/bots/{id}/public': ['delete', 'patch'],
      '/v2/bots/{id}/hc-prompt/public': ['get'],
      '/v2/bots/{id}/hc-prompt': ['post'],
      '/v2/bots/{id}/hc-prompt/history/public': ['get'],
      '/v2/bots/{id}/hc-prompt/drafts/public': ['get', 'post'],
      '/v2/bots/{id}/hc-prompt/drafts/{draftId}/public': ['delete', 'get', 'put'],
      '/v2/bots/{id}/hc-prompt/drafts/{draftId}/publish/public': ['post'],
      '/v2/hc-articles/public': ['get', 'post'],
      '/v2/hc-articles/ids/public': ['post'],
      '/v2/hc-articles/{id}/public': ['delete', 'put'],
      '/v2/hc-articles/{id}/draft/public': ['post'],
      '/v2/hc-articles/{id}/publish/public': ['post'],
      '/v2/hc-articles/{id}/history/public': ['get', 'post'],
      '/v2/hc-articles/{id}/revert/public': ['post'],
      '/v2/hc-articles/{id}/move/public': ['put'],
      '/v2/hc-folders/public': ['get', 'post'],
      '/v2/hc-folders/{id}/public': ['delete', 'put'],
      '/v2/hc-folders/{id}/move/public': ['put'],
      '/v2/hc-bot-folder-junctions/public': ['post'],
      '/v2/knowledge/public/tree/persist': ['post'],
      '/v2/knowledge/public/search': ['post'],
      '/v2/knowledge/public': ['post'],
      '/v2/knowledge/public/bulk': ['post'],
      '/v2/knowledge/public/jobs/status': ['post'],
      '/v2/knowledge/public/tree/initialize': ['post'],
      '/v2/documents/public': ['delete', 'get', 'post'],
      '/v2/documents/public/{id}': ['get', 'patch'],
      '/v2/documents/public/deep-crawl/links': ['post'],
      '/v2/documents/public/refresh': ['post'],
      '/v2/documents/public/files': ['post'],
      '/v2/documents/{id}/file/public': ['get'],
      '/v2/documents/public/resources/{provider}': ['get', 'post'],
      '/v2/providers/{provider}/connection/public': ['delete', 'get', 'patch', 'put'],
      '/v2/providers/{provider}/connection/test/public': ['post'],
      '/v2/tag-groups/public': ['get', 'post'],
      '/v2/tag-groups/tags/public': ['get'],
      '/v2/tag-groups/{id}/public': ['delete', 'get', 'put'],
      '/v2/tag-groups/{id}/tags/public': ['get', 'post', 'put'],
      '/v2/tags/{id}/public': ['delete', 'get'],
      '/v2/hc-rules/public': ['get', 'post'],
      '/v2/hc-rules/draft/public': ['post'],
      '/v2/hc-rules/{id}/public': ['delete', 'get', 'patch'],
      '/v2/hc-rules/{id}/refine/public': ['post'],
      '/v2/hc-rules/{id}/publish/public': ['post'],
      '/v2/hc-rules/{id}/versions/public': ['get'],
      '/v2/hc-rules/{id}/versions/{versionId}/public': ['get'],
      '/v2/hc-rules/{id}/versions/{versionId}/restore/public': ['post'],
      '/v2/hc-rules/{id}/test/public': ['post'],
      '/v2/reply-behavior/public': ['get'],
      '/v2/reply-behavior/test/public': ['post'],
      '/v2/reply-behavior/{replyType}/public': ['delete', 'get', 'put'],
      '/v2/guardrails/public': ['get', 'post'],
      '/v2/guardrails/test/public': ['post'],
      '/v2/guardrails/{id}/public': ['delete', 'get', 'put'],
      '/v2/hc-tools/public': ['get', 'post'],
      '/v2/hc-tools/{id}/public': ['delete', 'get', 'patch'],
      '/v2/hc-tools/{id}/assign/public': ['post'],
      '/v2/hc-tools/{id}/test/public': ['post'],
      '/v2/api-function-configs/{id}/test/public': ['post'],
      '/v2/api-function-configs/public': ['get', 'post'],
      '/v2/api-function-configs/{id}/public': ['delete', 'get', 'patch'],
      '/v2/hc-interactions/events/public': ['post'],
      '/v2/hc-interactions/public': ['delete', 'get'],
      '/v2/hc-interactions/{id}/public': ['delete', 'get'],
      '/v2/hc-interactions/{id}/evaluate/public': ['post'],
      '/v2/hc-interactions/{id}/release/public': ['post'],
      '/v2/hc-events/{id}/metadata': ['get'],
      '/v2/hc-events/{id}/feedback/public': ['post'],
      '/v2/bots/{id}/hc-analytics/public': ['get'],
      '/v2/fix-review/interactions/{id}/events/{eventId}/sessions/iterations/public': ['post'],
      '/v2/fix-review/interactions/{id}/events/{eventId}/session/public': ['get'],
      '/v2/fix-review/sessions/{sessionId}/public': ['get'],
      '/v2/fix-review/sessions/{sessionId}/iterations/{iterationId}/publish/public': ['post'],
      '/v2/fix-review/sessions/{sessionId}/close/public': ['post'],
      '/v2/bots/{id}/widget-keys/public': ['get', 'post'],
      '/v2/widget-keys/{id}/public': ['delete'],
      '/v2/widget/conversations': ['post'],
      '/v2/widget/conversations/{id}/messages': ['post'],
      '/v2/widget/conversations/{id}/events': ['get'],
      '/v2/widget/conversations/{id}/stream': ['get'],
      '/v2/widget/conversations/{id}/events/{eventId}/feedback': ['post'],
      '/v2/webhooks/public': ['get', 'post'],
      '/v2/webhooks/{id}/public': ['delete', 'get', 'patch'],
      '/v2/webhooks/{id}/rotate-secret/public': ['post'],
      '/v2/webhooks/{id}/test/public': ['post'],
      '/v2/webhooks/{id}/deliveries/public': ['get'],
      '/v2/webhooks/{id}/deliveries/{deliveryId}/redeliver/public': ['post'],
      '/v2/bots/{id}/test-cases/public': ['get', 'post'],
      '/v2/test-cases/{caseId}/public': ['delete', 'get', 'patch'],
      '/v2/hc-interactions/{id}/test-case/public': ['post'],
      '/v2/bots/{id}/test-runs/public': ['get', 'post'],
      '/v2/test-runs/{id}/public': ['get'],
      '/v2/bots/{id}/test-schedule/public': ['delete', 'get', 'put'],
      '/mcp': ['delete', 'get', 'post'],
      '/v2/audit-log/public': ['get'],
      '/v2/admin/audit-log': ['get'],
    };
    assert.deepEqual(Object.keys(res.body.paths).sort(), Object.keys(expected).sort());
    for (const [route, methods] of Object.entries(expected)) {
      assert.deepEqual(Object.keys(res.body.paths[route] ?? {}).sort(), methods);
      for (const method of methods) {
        const op = res.body.paths[route]?.[method];
        assert.ok(op?.summary, `${method} ${route} has a summary`);
        assert.ok(op.responses['500'], `${method} ${route} documents 500`);
        for (const [status, response] of Object.entries(op.responses)) {
          const resolved = response.$ref ? res.body.components.responses[response.$ref.split('/').pop()!] : response;
          assert.ok(resolved?.description, `${method} ${route} ${status} has a description`);
        }
      }
    }
    const get = res.body.paths['/v2/workspace/public']?.get;
    assert.match(get?.description ?? '', /Scope: `read`/);
    assert.deepEqual(get?.security, [{ apiKey: [] }]);
    assert.deepEqual(Object.keys(get?.responses ?? {}).sort(), ['200', '401', '403', '417', '429', '500', '503']);
    const patch = res.body.paths['/v2/workspace/public']?.patch;
    assert.match(patch?.description ?? '', /Scope: `write`/);
    assert.deepEqual(Object.keys(patch?.responses ?? {}).sort(), ['200', '400', '401', '403', '413', '415', '417', '429', '500', '503']);
    assert.match(JSON.stringify(patch), /"example":\{"name":"Support EU"\}/);
    const createKey = res.body.paths['/v2/admin/workspaces/{id}/api-keys']?.post;
    assert.deepEqual(createKey?.security, [{ adminToken: [] }]);
    assert.ok(createKey?.responses['201']);
    const visitorMessage = res.body.paths['/v2/widget/conversations/{id}/messages']?.post;
    assert.deepEqual(visitorMessage?.security, [{ widgetKey: [] }]);
    assert.match(visitorMessage?.description ?? '', /widget key/);
    assert.ok(res.body.paths['/v2/widget/conversations/{id}/stream']?.get?.responses['200']);
  });

  it('serves the browsable documentation at /docs', async () => {
    const res = await t.request('GET', '/docs/');
    assert.equal(res.status, 200);
    assert.match(res.text, /swagger-ui/i);
  });
});
