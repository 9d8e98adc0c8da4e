// PARLEY_TEST_VALIDATE_RESPONSES=1: every answer a test app sends is checked against the OpenAPI
// document the app serves (docs/openapi.md): the operation by its operationId, the status among its
// documented responses, the headers those declare required, the content type among the documented
// ones, and a JSON body against its schema with @hyperjump/json-schema's OpenAPI 3.1 dialect (formats
// asserted). The check runs in the app's onSend hook, before the client sees the answer, so a mismatch
// is recorded before the test that caused it ends: an afterEach hook fails that test naming it.
//
// It also compares each answer a route's compiled writer wrote (src/http/response-writer.ts) with the
// reference it replaced, JSON.stringify of zod's parse of the handler's result (taken in the app's
// preSerialization hook): zod must accept the result, refinements included, and give the same bytes.
//
// Answers of routes the document leaves out on purpose (the console's files, the widget script, the
// /docs UI, CORS preflights, unknown paths) and of HEAD requests are counted as skipped. Answers
// written past Fastify (Node's 400/408/431 and 417, the event stream's events) are not seen here.
// With PARLEY_TEST_VALIDATION_REPORT set (scripts/test.mjs sets it), each test process appends its
// counts to that file at exit, and the runner prints their sum.
import { appendFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as HyperjumpOpenApi from '@hyperjump/json-schema/openapi-3-1';
import type { OutputUnit } from '@hyperjump/json-schema/openapi-3-1';
import { safeParse, z } from 'zod';
import { compileResponseWriter } from '../../src/http/response-writer.js';

export const validatingResponses = process.env.PARLEY_TEST_VALIDATE_RESPONSES === '1';

const DOCUMENT_URI = 'https://parley.invalid/openapi.json';

type Json = Record<string, unknown>;
type Validator = (value: unknown, format: 'BASIC') => { valid: boolean; errors?: OutputUnit[] };
type Hyperjump = typeof HyperjumpOpenApi;

interface Operation {
  method: string;
  path: string;
  operation: Json;
}

interface State {
  document?: Promise<{ document: Json; operations: Map<string, Operation>; hyperjump: Hyperjump }>;
  validators: Map<string, Promise<Validator>>;
  validated: number;
  skipped: number;
  /** Answers compared with zod's parse of the handler's result. */
  compared: number;
  mismatches: string[];
}

const state: State = { validators: new Map(), validated: 0, skipped: 0, compared: 0, mismatches: [] };

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const pointer = (segments: string[]) => `#${segments.map((s) => `/${encodeURIComponent(escapePointer(s))}`).join('')}`;
const mediaType = (value: unknown) => String(value ?? '').split(';')[0]!.trim().toLowerCase();
const isJson = (type: string) => type === 'application/json' || type.endsWith('+json');

/** The document of the first app asked (every test app declares the same routes), registered once per process. */
function documentOf(app: FastifyInstance) {
  state.document ??= (async () => {
    // Loaded only when validating: the other test processes do without it.
    const hyperjump = await import('@hyperjump/json-schema/openapi-3-1');
    const formats = '@hyperjump/json-schema/formats'; // format assertions; the module ships no types
    await import(formats);
    const document = app.swagger() as unknown as Json;
    hyperjump.registerSchema(structuredClone(document) as Parameters<Hyperjump['registerSchema']>[0], DOCUMENT_URI, 'https://spec.openapis.org/oas/3.1/schema-base');
    hyperjump.setShouldValidateFormat(true);
    const operations = new Map<string, Operation>();
    for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
      for (const [method, operation] of Object.entries(item)) {
        const id = (operation as Json).operationId;
        if (typeof id === 'string') operations.set(id, { method: method.toUpperCase(), path, operation: operation as Json });
      }
    }
    return { document, operations, hyperjump };
  })();
  return state.document;
}

function validatorAt(hyperjump: Hyperjump, location: string): Promise<Validator> {
  let validator = state.validators.get(location);
  if (!validator) {
    validator = hyperjump.validate(`${DOCUMENT_URI}${location}`) as unknown as Promise<Validator>;
    state.validators.set(location, validator);
  }
  return validator;
}

/** `#/components/x/y` of a `$ref`, resolved in the document, with the location it was found at. */
function resolve(document: Json, value: Json, location: string[]): { value: Json; location: string[] } {
  const ref = value.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return { value, location };
  const segments = ref.slice(2).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let found: unknown = document;
  for (const segment of segments) found = (found as Json | undefined)?.[segment];
  return resolve(document, found as Json, segments);
}

function at(value: unknown, location: string): unknown {
  let found = value;
  for (const segment of location.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    found = (found as Json | undefined)?.[decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return found;
}

function describeErrors(errors: OutputUnit[] | undefined, instance: unknown): string {
  return (errors ?? [])
    .slice(0, 6)
    .map((e) => {
      const value = JSON.stringify(at(instance, e.instanceLocation)) ?? 'undefined';
      const keyword = e.absoluteKeywordLocation.replace(DOCUMENT_URI, '');
      return `    at ${e.instanceLocation} (${value.length > 160 ? `${value.slice(0, 160)}…` : value}): ${keyword}`;
    })
    .join('\n');
}

/** The mismatches of one answer; undefined when the document leaves its route out on purpose. */
async function check(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<string[] | undefined> {
  const schema = request.routeOptions.schema as { operationId?: string; hide?: boolean } | undefined;
  const id = schema?.operationId;
  if (!id || schema?.hide || request.method === 'HEAD') return undefined;
  const { document, operations, hyperjump } = await documentOf(app);
  const entry = operations.get(id);
  const status = String(reply.statusCode);
  const what = `${request.method} ${request.routeOptions.url} (${id}) answered ${status}`;
  if (!entry) return [`${what}: the document has no operation ${id}`];
  const responses = (entry.operation.responses ?? {}) as Json;
  const key = [status, `${status[0]}XX`, 'default'].find((k) => k in responses);
  if (!key) return [`${what}: status ${status} is not documented (documented: ${Object.keys(responses).join(', ')})`];
  const { value: response, location } = resolve(document, responses[key] as Json, ['paths', entry.path, entry.method.toLowerCase(), 'responses', key]);
  const problems: string[] = [];

  for (const [name, declared] of Object.entries((response.headers ?? {}) as Json)) {
    const header = resolve(document, declared as Json, [...location, 'headers', name]);
    const sent = reply.getHeader(name);
    if (sent === undefined) {
      if (header.value.required) problems.push(`${what}: required header ${name} missing`);
      continue;
    }
    const headerSchema = header.value.schema as Json | undefined;
    const value = headerSchema?.type === 'integer' || headerSchema?.type === 'number' ? Number(sent) : String(sent);
    const result = (await validatorAt(hyperjump, pointer([...header.location, 'schema'])))(value, 'BASIC');
    if (!result.valid) problems.push(`${what}: header ${name}: ${String(sent)} does not match its schema\n${describeErrors(result.errors, value)}`);
  }

  const content = response.content as Json | undefined;
  const sentType = mediaType(reply.getHeader('content-type'));
  if (!content) {
    if (payload !== undefined && payload !== null && String(payload).length > 0) problems.push(`${what}: a body is sent but none is documented`);
    return problems;
  }
  const media = Object.keys(content).find((type) => mediaType(type) === sentType);
  if (!media) return [...problems, `${what}: content type ${sentType || '(none)'} is not documented (documented: ${Object.keys(content).join(', ')})`];
  if (!isJson(sentType)) return problems; // a file, a CSV, metrics, an event stream: the type is the contract
  let body: unknown;
  try {
    body = JSON.parse(Buffer.isBuffer(payload) ? payload.toString('utf8') : String(payload));
  } catch {
    return [...problems, `${what}: the ${sentType} body does not parse`];
  }
  const result = (await validatorAt(hyperjump, pointer([...location, 'content', media, 'schema'])))(body, 'BASIC');
  if (!result.valid) problems.push(`${what}: the body does not match the documented schema\n${describeErrors(result.errors, body)}`);
  return problems;
}

/** Zod's JSON of each handler result a route's compiled writer is about to write, for onSend to compare. */
const ZOD_ANSWERS = new WeakMap<FastifyRequest, string>();

/**
 * Before a route's compiled writer runs (not a presenter route, nor one zod encodes): zod's parse of
 * the handler's result, as the JSON the writer must give, or the mismatch when zod refuses it (the
 * writer, which leaves refinements to this mode, may not: a 500 then comes only from a shape).
 */
function takeZodAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
  const schema = (request.routeOptions.schema?.response as Record<number, unknown> | undefined)?.[reply.statusCode];
  if (request.routeOptions.config.serializer !== 'schema' || !(schema instanceof z.ZodType) || !compileResponseWriter(schema)) return;
  state.compared += 1;
  const parsed = safeParse(schema, payload);
  if (parsed.success) ZOD_ANSWERS.set(request, JSON.stringify(parsed.data));
  else state.mismatches.push(`${request.method} ${request.routeOptions.url} answering ${reply.statusCode}: zod's parse refuses what the handler gave:\n    ${parsed.error.message.replace(/\n/g, '\n    ')}`);
}

/** The difference between what the compiled writer sent and zod's JSON, if any. */
function differenceFromZod(request: FastifyRequest, reply: FastifyReply, payload: unknown): string | undefined {
  const expected = ZOD_ANSWERS.get(request);
  if (expected === undefined) return undefined;
  ZOD_ANSWERS.delete(request);
  const sent = Buffer.isBuffer(payload) ? payload.toString('utf8') : String(payload);
  if (sent === expected) return undefined;
  return `${request.method} ${request.routeOptions.url} answered ${reply.statusCode}: the compiled writer wrote\n    ${sent}\n  where zod's parse gives\n    ${expected}`;
}

/** Validates every answer of `app` against the document it serves and zod's parse (see the top of this file). */
export function validateResponses(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, reply, payload) => {
    takeZodAnswer(request, reply, payload);
    return payload;
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const problems = await check(app, request, reply, payload);
    if (problems === undefined) state.skipped += 1;
    else state.validated += 1;
    if (problems?.length) state.mismatches.push(...problems);
    const differs = differenceFromZod(request, reply, payload);
    if (differs) state.mismatches.push(differs);
    return payload;
  });
}

/** Removes and returns the mismatches not yet reported. */
export function takeMismatches(): string[] {
  return state.mismatches.splice(0);
}

/** The counts of this process so far. */
export function validationCounts(): { validated: number; skipped: number; compared: number } {
  return { validated: state.validated, skipped: state.skipped, compared: state.compared };
}

if (validatingResponses && process.env.NODE_TEST_CONTEXT) {
  const { after, afterEach } = await import('node:test');
  afterEach(() => {
    const fresh = takeMismatches();
    if (fresh.length) throw new Error(`answers that do not match /openapi.json:\n${fresh.join('\n')}`);
  });
  after(() => {
    const fresh = takeMismatches();
    if (fresh.length) throw new Error(`answers that do not match /openapi.json, outside any test:\n${fresh.join('\n')}`);
  });
  const report = process.env.PARLEY_TEST_VALIDATION_REPORT;
  if (report) process.on('exit', () => appendFileSync(report, `${state.validated} ${state.skipped} ${state.compared}\n`));
}
