import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { NAMED } from '../../src/http/operation-ids.js';
import { TAGS } from '../../src/http/openapi-document.js';
import { type TestApp, startTestApp } from '../support/app.js';
import { makeTenant } from '../support/factories.js';
import { spawnScript } from '../support/processes.js';

// The served /openapi.json as docs/openapi.md describes it: names, tags, errors, headers, typed
// shapes; valid OpenAPI 3.1; Redocly's recommended rules. The answers themselves are checked against
// it by the test mode PARLEY_TEST_VALIDATE_RESPONSES=1 (test/support/response-validation.ts).

// The served document as parsed JSON, walked by path (the convention of test/conversations/support.ts's Trace).
type Json = Record<string, ReturnType<typeof JSON.parse>>;

/** Warnings of `redocly lint --extends recommended` that the specification's wire names force (docs/openapi.md). */
// GET and DELETE /mcp answer 405 only: the MCP Streamable HTTP transport asks a server without a
// server-sent stream or sessions to say so with 405 (docs/openapi.md).
const ALLOWED_LINT_WARNINGS: string[] = [
  'warn operation-2xx-response: Operation must have at least one `2XX` response.',
  'warn operation-2xx-response: Operation must have at least one `2XX` response.',
];

const PUBLIC_ROUTES = ['/healthz', '/readyz', '/metrics', '/openapi.json'];

function operations(document: Json): { method: string; path: string; operation: Json }[] {
  return Object.entries(document.paths as Json).flatMap(([p, item]) =>
    Object.entries(item as Json).map(([method, operation]) => ({ method, path: p, operation: operation as Json })),
  );
}

function refs(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => refs(item, into));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') into.add(value);
      else refs(value, into);
    }
  }
  return into;
}

describe('the OpenAPI document', () => {
  let t: TestApp;
  let document: Json;
  let dir: string;
  before(async () => {
    t = await startTestApp();
    const res = await t.request<Json>('GET', '/openapi.json');
    assert.equal(res.status, 200);
    document = res.body;
    dir = mkdtempSync(path.join(os.tmpdir(), 'parley-openapi-'));
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives every operation a unique operationId, a summary and a tag the document describes', () => {
    const ids = new Map<string, string>();
    const described = new Map((document.tags as { name: string; description?: string }[]).map((tag) => [tag.name, tag.description]));
    for (const { method, path: p, operation } of operations(document)) {
      const where = `${method.toUpperCase()} ${p}`;
      assert.match(operation.operationId ?? '', /^[a-z][A-Za-z]+$/, `${where} has a camelCase operationId`);
      assert.equal(ids.get(operation.operationId), undefined, `${where} and ${ids.get(operation.operationId)} share ${operation.operationId}: add a line to NAMED in src/http/operation-ids.ts`);
      ids.set(operation.operationId, where);
      assert.ok(operation.summary, `${where} has a summary`);
      assert.equal(operation.tags?.length, 1, `${where} has one tag`);
      assert.ok(described.get(operation.tags[0]), `${where}: tag "${operation.tags[0]}" needs a line in TAGS of src/http/openapi-document.ts`);
    }
    assert.equal(ids.size, 160);
    assert.equal(ids.get('listArticles'), 'GET /v2/hc-articles/public');
    assert.equal(ids.get('getRule'), 'GET /v2/hc-rules/{id}/public');
    assert.equal(ids.get('publishArticleDraft'), 'POST /v2/hc-articles/{id}/publish/public');
    assert.equal(ids.get('publishAgentPromptDraft'), 'POST /v2/bots/{id}/hc-prompt/drafts/{draftId}/publish/public');
    assert.equal(ids.get('restoreRuleVersion'), 'POST /v2/hc-rules/{id}/versions/{versionId}/restore/public');
    // A line of NAMED that names no route is stale.
    for (const [route, id] of Object.entries(NAMED)) assert.equal(ids.get(id), route, `NAMED['${route}'] names a route`);
    assert.deepEqual(
      (document.tags as { name: string }[]).map((tag) => tag.name),
      Object.keys(TAGS),
    );
  });

  it('has a server, and asks no credentials of the public routes', () => {
    assert.deepEqual(document.servers, [{ url: '/', description: 'The server that serves this document.' }]);
    for (const route of PUBLIC_ROUTES) assert.deepEqual(document.paths[route].get.security, [], route);
    assert.deepEqual(document.paths['/v2/hc-articles/public'].get.security, [{ apiKey: [] }]);
    assert.deepEqual(document.info.license, { name: 'UNLICENSED', identifier: 'LicenseRef-UNLICENSED' });
  });

  it('documents every error as the JSON error body, 414 on parametric paths and 417 everywhere, with X-Request-Id', () => {
    for (const { method, path: p, operation } of operations(document)) {
      const where = `${method.toUpperCase()} ${p}`;
      assert.deepEqual(operation.responses['417'], { $ref: '#/components/responses/ExpectationFailed' }, where);
      assert.equal('414' in operation.responses, p.includes('{'), `${where}: 414 exactly when the path has a parameter`);
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        if (status === '417') continue;
        assert.deepEqual(response.headers['X-Request-Id'], { $ref: '#/components/headers/RequestId' }, `${where} ${status}`);
        if (Number(status) >= 400) {
          assert.deepEqual(response.content, { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } }, `${where} ${status}`);
        }
      }
    }
    const file = document.paths['/v2/documents/{id}/file/public'].get.responses;
    assert.deepEqual(Object.keys(file['200'].content), [
      'text/html',
      'application/pdf',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'text/markdown',
      'text/plain',
    ]);
    assert.deepEqual(Object.keys(file['404'].content), ['application/json']);
    const tree = document.paths['/v2/knowledge/public/tree/initialize'].post.responses;
    assert.deepEqual(Object.keys(tree['200'].content), ['text/csv']);
    assert.deepEqual(Object.keys(tree['400'].content), ['application/json']);
    assert.deepEqual(document.components.schemas.Error.required, ['statusCode', 'message', 'error']);
  });

  it('documents the rate-limit headers on the answers that always carry them', () => {
    const list = document.paths['/v2/hc-articles/public'].get.responses;
    assert.deepEqual(Object.keys(list['200'].headers), ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']);
    assert.deepEqual(Object.keys(list['429'].headers), ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After']);
    assert.deepEqual(Object.keys(list['401'].headers), ['X-Request-Id']);
    assert.deepEqual(Object.keys(document.paths['/healthz'].get.responses['200'].headers), ['X-Request-Id']);
    assert.equal(document.components.headers.RateLimitRemaining.schema.type, 'integer');
  });

  it('declares the empty body of operations that take none, which accept nothing or {} and refuse anything else', async () => {
    const restore = document.paths['/v2/hc-rules/{id}/versions/{versionId}/restore/public'].post.requestBody;
    assert.equal(restore.required, false);
    assert.deepEqual(restore.content['application/json'].schema.anyOf[0], { type: 'object', properties: {}, additionalProperties: false });
    for (const [p, method] of [
      ['/v2/providers/{provider}/connection/test/public', 'post'],
      ['/v2/hc-interactions/{id}/evaluate/public', 'post'],
    ] as const) {
      assert.equal(document.paths[p][method].requestBody.required, false, p);
    }
    const { key } = await makeTenant(t);
    const url = `/v2/hc-interactions/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/release/public`;
    assert.equal((await t.request('POST', url, { key })).status, 404);
    assert.equal((await t.request('POST', url, { key, body: {} })).status, 404);
    const refused = await t.request<Json>('POST', url, { key, body: { force: true } });
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /^body: Unrecognized key: "force"/);
  });

  it('types the fields whose shape the specification fixes', () => {
    const schemas = document.components.schemas;
    assert.deepEqual(schemas.Rule.properties.flowConfig, { anyOf: [{ $ref: '#/components/schemas/FlowNode' }, { type: 'null' }] });
    assert.equal(schemas.FlowNode.oneOf.length, 7);
    assert.deepEqual(schemas.ReplyRule.properties.conditions.items, { $ref: '#/components/schemas/ConditionGroup' });
    assert.deepEqual(schemas.Guardrail.properties.config, { $ref: '#/components/schemas/GuardrailConfig' });
    assert.equal(schemas.Tool.properties.inputSchema.$ref, '#/components/schemas/FieldsJsonSchema');
    assert.equal(schemas.DataStep.properties.headers.$ref, '#/components/schemas/StepHeaders');
    assert.equal(schemas.WebhookDelivery.properties.payload.$ref, '#/components/schemas/WebhookMessage');
    assert.equal(schemas.EventMetadata.additionalProperties, false);
    assert.equal(schemas.EventMetadata.properties.knowledgeSearch.anyOf[0].additionalProperties, false);
    const createRule = document.paths['/v2/hc-rules/public'].post.requestBody.content['application/json'].schema;
    assert.equal(createRule.properties.flowConfig.anyOf[0].$ref, '#/components/schemas/FlowNodeInput');
  });

  it('defines only the component schemas it references', () => {
    const used = refs({ ...document, components: { ...document.components, schemas: undefined } });
    const reached = new Set<string>();
    const queue = [...used];
    while (queue.length) {
      const ref = queue.pop()!;
      if (reached.has(ref)) continue;
      reached.add(ref);
      const name = ref.replace('#/components/schemas/', '');
      if (ref !== name) queue.push(...refs(document.components.schemas[name]));
    }
    const unused = Object.keys(document.components.schemas).filter((name) => !reached.has(`#/components/schemas/${name}`));
    assert.deepEqual(unused, []);
    assert.equal(Object.keys(document.components.schemas).filter((name) => name.endsWith('Input') && document.components.schemas[name.slice(0, -5)]).length < 10, true);
  });

  it('validates as OpenAPI 3.1 against the specification’s schema, schemas included', async () => {
    const { validate } = await import('@hyperjump/json-schema/openapi-3-1');
    const output = await validate('https://spec.openapis.org/oas/3.1/schema-base', document as never, 'BASIC');
    assert.deepEqual('errors' in output ? output.errors?.slice(0, 5) : [], []);
    assert.equal(output.valid, true);
  });

  it("passes Redocly's recommended rules with no error, offline", async () => {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const lint = spawnScript(
      'node_modules/@redocly/cli/bin/cli.js',
      ['lint', '--extends', 'recommended', '--format', 'json', '--max-problems', '10000', file],
      { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    );
    const code = await lint.exited;
    const output = lint.output();
    const report = JSON.parse(output.slice(output.indexOf('{'), output.lastIndexOf('}') + 1)) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; severity: string; message: string }[] };
    assert.deepEqual(
      report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`),
      ALLOWED_LINT_WARNINGS,
    );
    assert.deepEqual(report.totals, { errors: 0, warnings: ALLOWED_LINT_WARNINGS.length, ignored: 0 });
    assert.equal(code, 0);
  });
});
