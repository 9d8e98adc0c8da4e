// The compiled response writer (src/http/response-writer.ts) against the reference it replaces,
// JSON.stringify of zod's parse: on every schema the modules export, their examples and generated
// samples, with extra properties at every level and with every part made wrong in turn; then real
// answers of several modules over HTTP, compared with zod's parse of what their handlers gave (the
// response test mode, on for that app), the 500 of an answer off its shape, and a refinement the
// writer leaves to the test mode.
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { eq } from 'drizzle-orm';
import { safeParse, z } from 'zod';
import { articles, testCases } from '../../src/db/schema/index.js';
import { errorBodySchema } from '../../src/http/errors.js';
import { compileResponseWriter, ResponseShapeError, type ResponseWriter } from '../../src/http/response-writer.js';
import { currentWorkspaceSchema } from '../../src/modules/workspaces/workspaces.schemas.js';
import { INTERACTIONS, interaction, say, type Setup, setupAgent, UNKNOWN } from '../conversations/support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { takeMismatches, validationCounts } from '../support/response-validation.js';
import { assertError, expectStatus } from '../support/security.js';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

function schemaFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return schemaFiles(file);
    return name.endsWith('.schemas.ts') ? [file] : [];
  });
}

/** Every zod schema exported by a `*.schemas.ts` of src/, and the error body, by name. */
async function exportedSchemas(): Promise<Map<string, z.ZodType>> {
  const found = new Map<string, z.ZodType>([['errors.errorBodySchema', errorBodySchema]]);
  for (const file of schemaFiles(SRC)) {
    const exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(exports)) {
      if (value instanceof z.ZodType) found.set(`${path.basename(file, '.ts')}.${name}`, value);
    }
  }
  return found;
}

type Def = z.core.$ZodTypeDef & Record<string, unknown>;

/** A valid value of a schema, built from its type (strings with characters JSON escapes, integer-like record keys). */
function sampleOf(schema: z.ZodType, depth = 0): unknown {
  const def = schema._zod.def as Def;
  const inner = (field: string) => sampleOf(def[field] as z.ZodType, depth + 1);
  switch (def.type) {
    case 'string': {
      const format = (def as { format?: string }).format;
      if (format === 'uuid' || format === 'guid') return '0b7f5a8e-3c1d-4a59-9d1e-7f0c2b6a4e11';
      if (format === 'datetime') return '2026-11-21T10:00:00.000Z';
      if (format === 'date') return '2026-11-21';
      if (format === 'email') return 'someone@example.com';
      if (format === 'url') return 'https://example.com/a?b=1';
      return 'Text with "quotes", a \\ backslash, a\ttab, é, \u2028 and 😀';
    }
    case 'number':
      return 42;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'undefined':
      return undefined;
    case 'unknown':
    case 'any':
      return { stored: ['as is', 1, null, { deep: true }], when: new Date(0) };
    case 'date':
      return new Date(Date.UTC(2026, 10, 21));
    case 'literal':
    case 'enum':
      return [...schema._zod.values!][0];
    case 'optional':
    case 'nonoptional':
    case 'readonly':
      return depth > 6 && def.type === 'optional' ? undefined : inner('innerType');
    case 'nullable':
      return depth > 6 ? null : inner('innerType');
    case 'array':
      return depth > 6 ? [] : [inner('element'), inner('element')];
    case 'tuple':
      return (def.items as z.ZodType[]).map((item) => sampleOf(item, depth + 1));
    case 'object':
      return Object.fromEntries(Object.entries(def.shape as Record<string, z.ZodType>).map(([key, value]) => [key, sampleOf(value, depth + 1)]));
    case 'record':
      // Integer-like keys after a word: JavaScript enumerates them first, as zod's output has them.
      return (def.keyType as z.ZodType)._zod.def.type === 'string' ? { word: inner('valueType'), 10: inner('valueType'), 2: inner('valueType') } : {};
    case 'union':
      return sampleOf((def.options as z.ZodType[])[0]!, depth + 1);
    case 'intersection':
      return { ...(inner('left') as object), ...(inner('right') as object) };
    default:
      return undefined;
  }
}

/** Issues the writer leaves to the test mode: refinements the OpenAPI document states as keywords. */
function isRefinement(issue: z.core.$ZodIssue): boolean {
  if (issue.code === 'invalid_type') return issue.expected === 'int';
  return issue.code === 'too_big' || issue.code === 'too_small' || issue.code === 'invalid_format' || issue.code === 'not_multiple_of';
}

type Outcome = 'same JSON' | 'both refuse' | 'refinement left to the test mode';

/** Writes `value` both ways and checks they agree (see the file's top); what happened. */
function agree(schema: z.ZodType, write: ResponseWriter, value: unknown, what: string): Outcome {
  const parsed = safeParse(schema, value);
  let written: string | undefined;
  let failure: unknown;
  try {
    written = write(value);
  } catch (error) {
    failure = error;
  }
  if (parsed.success) {
    assert.equal(failure, undefined, `${what}: zod accepts it, the writer refused: ${String(failure)}`);
    assert.equal(written, JSON.stringify(parsed.data), `${what}: not zod's JSON`);
    return 'same JSON';
  }
  if (parsed.error.issues.some((issue) => !isRefinement(issue))) {
    assert.ok(failure instanceof ResponseShapeError, `${what}: zod refuses it (${parsed.error.issues[0]!.message}), the writer wrote ${written}`);
    return 'both refuse';
  }
  // Only refinements fail: the writer, which does not check them, writes the value as it is (or
  // zod decided that part, as for the trimmed and patterned fields of a prompt section).
  if (failure === undefined) assert.equal(typeof written, 'string', what);
  return failure === undefined ? 'refinement left to the test mode' : 'both refuse';
}

const WRONG: unknown[] = [null, undefined, 0, 1.5, -0, Number.NaN, Infinity, '', 'x', true, {}, [], new Date(0), 'MANUAL_ARTICLE'];
const EXTRA = '__leakCheck';

/** Every path to a value inside `value` (object keys and array indices). */
function pathsOf(value: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object' || value instanceof Date) return out;
  for (const [key, item] of Object.entries(value)) {
    const next = [...at, Array.isArray(value) ? Number(key) : key];
    out.push(next);
    pathsOf(item, next, out);
  }
  return out;
}

/** A deep copy of `value` with `change` applied to the container of `at`. */
function changed(value: unknown, at: (string | number)[], change: (container: Record<string | number, unknown>, key: string | number) => void): unknown {
  const copy = structuredClone(value);
  let container = copy as Record<string | number, unknown>;
  for (const segment of at.slice(0, -1)) container = container[segment] as Record<string | number, unknown>;
  change(container, at[at.length - 1]!);
  return copy;
}

/** The value with an extra property on every plain object inside it. */
function withExtras(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withExtras);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  return { ...Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withExtras(item)])), [EXTRA]: { secret: 'presenter internals' } };
}

describe('the compiled response writer', () => {
  it("writes what JSON.stringify(zod's parse) writes, for every schema of src/ (examples, samples, extra keys at every level, every part made wrong)", async () => {
    const schemas = await exportedSchemas();
    const counts: Record<Outcome | 'schemas' | 'zod encodes', number> = { schemas: 0, 'zod encodes': 0, 'same JSON': 0, 'both refuse': 0, 'refinement left to the test mode': 0 };
    for (const [name, schema] of schemas) {
      const write = compileResponseWriter(schema);
      if (!write) {
        counts['zod encodes'] += 1;
        continue;
      }
      counts.schemas += 1;
      const examples = (z.globalRegistry.get(schema)?.examples as unknown[] | undefined) ?? [];
      for (const [i, sample] of [sampleOf(schema), ...examples].entries()) {
        const what = `${name} ${i === 0 ? 'sample' : `example ${i}`}`;
        counts[agree(schema, write, sample, what)] += 1;
        const extra = withExtras(sample);
        counts[agree(schema, write, extra, `${what} with extra keys`)] += 1;
        if (safeParse(schema, extra).success) assert.equal(write(extra).includes(EXTRA), JSON.stringify(safeParse(schema, extra).data).includes(EXTRA), `${what}: extra keys`);
        for (const at of pathsOf(sample).slice(0, 400)) {
          for (const wrong of WRONG) counts[agree(schema, write, changed(sample, at, (c, k) => (c[k] = wrong)), `${what} with ${JSON.stringify(wrong)} at ${at.join('.')}`)] += 1;
          counts[agree(schema, write, changed(sample, at, (c, k) => delete c[k]), `${what} without ${at.join('.')}`)] += 1;
        }
      }
    }
    // Most schemas of src/ are answers; the request schemas with transforms are zod's to encode.
    assert.ok(counts.schemas > 150 && counts['same JSON'] > 10_000 && counts['both refuse'] > 10_000, JSON.stringify(counts));
  });

  it('leaves no property of the object it is given outside the schema (the current workspace from a principal)', () => {
    const write = compileResponseWriter(currentWorkspaceSchema)!;
    const principal = {
      id: '0b7f5a8e-3c1d-4a59-9d1e-7f0c2b6a4e11',
      name: 'default',
      createdAt: '2026-11-21T10:00:00.000Z',
      sourceSyncInterval: 'off',
      keyHash: 'd2f1c0ffee',
      apiKey: { id: '5d0b6f0e-8a3b-4e4b-9a43-0c2f7c8e1d22', name: 'ci', prefix: 'parley_Ab3dE9', scopes: ['read'], expiresAt: null, hash: 'ab12', workspaceId: 'x' },
    };
    assert.equal(
      write(principal),
      '{"id":"0b7f5a8e-3c1d-4a59-9d1e-7f0c2b6a4e11","name":"default","createdAt":"2026-11-21T10:00:00.000Z","sourceSyncInterval":"off",' +
        '"apiKey":{"id":"5d0b6f0e-8a3b-4e4b-9a43-0c2f7c8e1d22","name":"ci","prefix":"parley_Ab3dE9","scopes":["read"],"expiresAt":null}}',
    );
  });

  it('names where an answer leaves its shape, and reports it as zod would (the cause of the 500)', () => {
    const write = compileResponseWriter(currentWorkspaceSchema)!;
    const answer = { id: '0b7f5a8e-3c1d-4a59-9d1e-7f0c2b6a4e11', name: 'w', createdAt: '2026-11-21T10:00:00.000Z', sourceSyncInterval: 'off', apiKey: { id: '5d0b6f0e-8a3b-4e4b-9a43-0c2f7c8e1d22', name: 'k', prefix: 'p', scopes: ['read', 'admin'], expiresAt: null } };
    assert.throws(() => write(answer), (error: unknown) => {
      assert.ok(error instanceof ResponseShapeError);
      assert.deepEqual(error.path, ['apiKey', 'scopes', 1]);
      assert.equal(error.message, 'apiKey.scopes.1: expected one of "read", "write", received string');
      assert.deepEqual(error.toZodError().issues.map((issue) => [issue.code, issue.path]), [['custom', ['apiKey', 'scopes', 1]]]);
      return true;
    });
    const withoutKey: Partial<typeof answer> = { ...answer };
    delete withoutKey.apiKey;
    assert.throws(() => write(withoutKey), /^ResponseShapeError: apiKey: expected a value \(required key\), received undefined$/);
    assert.throws(() => write({ ...answer, apiKey: undefined }), /^ResponseShapeError: apiKey: expected an object, received undefined$/);
    assert.throws(() => write({ ...answer, name: null }), /^ResponseShapeError: name: expected a string, received null$/);
  });

  it('writes a refinement it does not check as it is given, for the test mode to see (a format, an integer)', () => {
    const schema = z.object({ id: z.uuid(), count: z.number().int(), title: z.string().max(3) });
    const write = compileResponseWriter(schema)!;
    assert.equal(write({ id: 'not-a-uuid', count: 1.5, title: 'longer' }), '{"id":"not-a-uuid","count":1.5,"title":"longer"}');
    assert.equal(safeParse(schema, { id: 'not-a-uuid', count: 1.5, title: 'longer' }).success, false);
  });

  it("lets zod decide and rewrite where it does so by code: .trim(), .refine(), unions, loose objects", () => {
    const schema = z.object({
      title: z.string().trim(),
      even: z.number().refine((n) => n % 2 === 0),
      either: z.union([z.object({ a: z.string() }), z.object({ a: z.string(), b: z.string() })]),
      loose: z.looseObject({ kept: z.string() }),
    });
    const write = compileResponseWriter(schema)!;
    const value = { title: '  padded  ', even: 2, either: { a: 'x', b: 'stripped by the first option' }, loose: { kept: 'k', more: 1 }, dropped: true };
    assert.equal(write(value), JSON.stringify(schema.parse(value)));
    assert.equal(write(value), '{"title":"padded","even":2,"either":{"a":"x"},"loose":{"kept":"k","more":1}}');
    assert.throws(() => write({ ...value, even: 3 }), (error: unknown) => error instanceof ResponseShapeError && error.path[0] === 'even');
  });

  it('keeps zod for schemas whose encoding differs from their parse (transforms, defaults, pipes)', () => {
    assert.equal(compileResponseWriter(z.object({ n: z.string().transform(Number) })), undefined);
    assert.equal(compileResponseWriter(z.object({ n: z.number().default(1) })), undefined);
    assert.equal(compileResponseWriter(z.object({ n: z.string().pipe(z.string()) })), undefined);
    assert.equal(compileResponseWriter(z.discriminatedUnion('k', [z.object({ k: z.literal('a') })])), undefined);
  });

  it("orders and leaves out keys as zod's output object has them (array-index keys first, __proto__ never)", () => {
    const schema = z.object({ b: z.string(), 10: z.string(), a: z.string().optional(), 2: z.string(), map: z.record(z.string(), z.number()) });
    const write = compileResponseWriter(schema)!;
    const value = { b: 'b', 10: 'ten', 2: 'two', a: undefined, map: JSON.parse('{"z":1,"__proto__":2,"7":3}') as Record<string, number> };
    assert.equal(write(value), JSON.stringify(schema.parse(value)));
    assert.equal(write(value), '{"2":"two","10":"ten","b":"b","map":{"7":3,"z":1}}');
  });

  it('escapes strings as JSON.stringify does (quotes, control characters, lone surrogates)', () => {
    const write = compileResponseWriter(z.array(z.string()))!;
    const strings = ['plain', 'a "quote"', 'back\\slash', 'line\nbreak', '\u0000\u001f', 'pair 😀', 'lone \ud800 high', 'lone \udc00 low', '\u2028\u2029', 'x'.repeat(100) + '"'];
    assert.equal(write(strings), JSON.stringify(strings));
  });

  it('writes a schema that contains itself', () => {
    const node = z.object({
      name: z.string(),
      get children(): z.ZodArray<typeof node> {
        return z.array(node);
      },
    });
    const value = { name: 'root', extra: 1, children: [{ name: 'leaf', children: [] }] };
    assert.equal(compileResponseWriter(node)!(value), '{"name":"root","children":[{"name":"leaf","children":[]}]}');
  });
});

describe('answers written by the compiled writer, over HTTP', () => {
  let t: TestApp;
  let s: Setup;
  before(async () => {
    // The response test mode on for this app: every answer is checked against /openapi.json and,
    // where the compiled writer wrote it, against zod's parse of what the handler gave.
    t = await startTestApp({ validateResponses: true });
    s = await setupAgent(t);
    takeMismatches();
  });
  after(() => t.close());

  it("are byte for byte what JSON.stringify of zod's parse gives, on routes of several modules", async () => {
    const before = validationCounts().compared;
    const key = s.w.key;
    await expectStatus(t, 200, 'GET', '/v2/workspace/public', key);
    await expectStatus(t, 200, 'PATCH', '/v2/workspace/public', key, { name: 'Renamed', sourceSyncInterval: 'daily' });
    await expectStatus(t, 200, 'GET', '/v2/bots/public', key);
    await expectStatus(t, 200, 'GET', `/v2/bots/${s.agentId}/hc-prompt/public`, key);
    await expectStatus(t, 200, 'GET', '/v2/hc-folders/public', key);
    await expectStatus(t, 200, 'GET', '/v2/hc-articles/public', key);
    await expectStatus(t, 200, 'POST', '/v2/hc-articles/ids/public', key, { articleIds: s.articleIds });
    await expectStatus(t, 200, 'GET', `/v2/hc-articles/${s.articleIds[0]}/history/public`, key);
    await expectStatus(t, 200, 'GET', '/v2/tag-groups/public', key);
    const [, reply] = await say(t, key, { content: 'How do I reset my password?', botId: s.agentId });
    await expectStatus(t, 200, 'GET', INTERACTIONS, key);
    await expectStatus(t, 200, 'GET', interaction(reply!.interactionId), key);
    assertError(await t.request('GET', `/v2/hc-articles/${UNKNOWN}/history/public`, { key }), 404);
    assert.deepEqual(takeMismatches(), []);
    assert.ok(validationCounts().compared - before >= 12, `compared ${validationCounts().compared - before} answers`);
  });

  it("answers 500 when an answer leaves its shape (a stored origin outside the enum), the log naming where", async () => {
    const [id] = s.articleIds;
    await t.database.db.update(articles).set({ origin: 'HAND_WRITTEN' }).where(eq(articles.id, id!));
    const res = await t.request('GET', '/v2/hc-articles/public', { key: s.w.key, headers: { 'x-request-id': 'req-off-shape' } });
    assertError(res, 500, 'internal server error (request id req-off-shape)');
    assert.ok(!res.text.includes('HAND_WRITTEN'));
    const logged = t.logs.find((l) => l.reqId === 'req-off-shape' && l.msg === 'unhandled error');
    assert.ok(!JSON.stringify(logged?.err).includes('HAND_WRITTEN'), 'the log names where and what was expected, not the value');
    const message = String((logged?.err as { message?: string } | undefined)?.message);
    const issues = JSON.parse(message.slice(message.indexOf('['))) as { path: (string | number)[]; message: string }[];
    assert.deepEqual(issues.map((issue) => [issue.path[0], typeof issue.path[1], issue.path[2]]), [['articles', 'number', 'origin']]);
    assert.match(issues[0]!.message, /^expected one of "MANUAL_ARTICLE", .*, received string$/);
    // The test mode names it too: zod's parse refuses what the handler gave.
    const mismatches = takeMismatches();
    assert.equal(mismatches.length, 1, mismatches.join('\n'));
    assert.match(mismatches[0]!, /GET \/v2\/hc-articles\/public answering 200: zod's parse refuses what the handler gave/);
    await t.database.db.update(articles).set({ origin: 'MANUAL_ARTICLE' }).where(eq(articles.id, id!));
  });

  it('writes a refinement it does not check as stored, and the test mode catches it (an integer that is not)', async () => {
    const created = await expectStatus<{ id: string; turns: { content: string }[] }>(t, 201, 'POST', `/v2/bots/${s.agentId}/test-cases/public`, s.w.key, {
      name: 'Latency',
      turns: [{ content: 'How do I reset my password?', expect: { maxLatencyMs: 5000 } }],
      expect: { answers: true },
    });
    takeMismatches();
    await t.database.db.update(testCases).set({ turns: [{ content: 'How do I reset my password?', expect: { maxLatencyMs: 2500.5 } }] as never }).where(eq(testCases.id, created.id));
    const res = await t.request<{ turns: { expect: { maxLatencyMs: number } }[] }>('GET', `/v2/test-cases/${created.id}/public`, { key: s.w.key });
    assert.equal(res.status, 200);
    assert.equal(res.body.turns[0]!.expect.maxLatencyMs, 2500.5, 'written as stored');
    const mismatches = takeMismatches().join('\n');
    assert.match(mismatches, /the body does not match the documented schema[\s\S]*maxLatencyMs \(2500\.5\)/);
    assert.match(mismatches, /zod's parse refuses what the handler gave[\s\S]*maxLatencyMs/);
  });
});
