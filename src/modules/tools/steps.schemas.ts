import { z } from 'zod';
import { uuidSchema } from '../../http/schemas.js';

export const STEP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;
export const STEP_LIMITS = { stepsPerTool: 10, url: 2_000, headers: 50, mappings: 50 } as const;

const PLACEHOLDER = /\$\{[^{}]{1,200}\}/g;
const MUSTACHE = /\{\{[^{}]*\}\}/;
const mustacheMessage = 'the {{placeholder}} syntax is not supported: write ${fieldName} (an input) or ${stepId.key} (an earlier step\'s output)';

/** A sensitive value: stored sealed, answered as `********`. */
const hidden = z.strictObject({ hide: z.literal(true), value: z.string().max(10_000) });
const headerValue = z.union([z.string().max(10_000), hidden]);

function noMustache(value: unknown, ctx: z.RefinementCtx, path: (string | number)[] = []): void {
  if (typeof value === 'string') {
    if (MUSTACHE.test(value)) ctx.addIssue({ code: 'custom', path, message: mustacheMessage });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => noMustache(v, ctx, [...path, i]));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) noMustache(v, ctx, [...path, k]);
  }
}

export const requestUrlSchema = z
  .string()
  .trim()
  .min(1)
  .max(STEP_LIMITS.url)
  .superRefine((url, ctx) => {
    if (MUSTACHE.test(url)) {
      ctx.addIssue({ code: 'custom', message: mustacheMessage });
      return;
    }
    let parsed: URL | undefined;
    try {
      parsed = new URL(url.replace(PLACEHOLDER, 'x'));
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
      ctx.addIssue({ code: 'custom', message: 'must be an http or https URL (placeholders ${...} allowed)' });
    }
  });

/** A response path: dot and bracket notation (`data.items[0].id`, `results[*].name`). */
export const responsePathSchema = z
  .string()
  .max(300)
  .regex(/^[^.[\]\s]+(?:\[(?:\d{1,6}|\*)\])*(?:\.[^.[\]\s]+(?:\[(?:\d{1,6}|\*)\])*)*$/, 'a path into the JSON response: names separated by dots, [n] or [*] for array items (data.items[0].id)');

const mappingKey = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'an output key: a letter or _, then letters, digits or _');

const method = z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.enum(STEP_METHODS));
const headers = z
  .record(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'an HTTP header name'), headerValue)
  .refine((h) => Object.keys(h).length <= STEP_LIMITS.headers, `at most ${STEP_LIMITS.headers} headers`)
  .superRefine((h, ctx) => noMustache(h, ctx));
const body = z.unknown().superRefine((b, ctx) => noMustache(b, ctx));
const mapping = z
  .record(mappingKey, responsePathSchema)
  .refine((m) => Object.keys(m).length <= STEP_LIMITS.mappings, `at most ${STEP_LIMITS.mappings} mappings`);

const example = {
  name: 'Find the order',
  requestUrl: 'https://api.example.com/orders/${orderNumber}',
  requestMethod: 'GET',
  toolId: '5b0c1f3e-8a2d-4c6b-9e1f-2a3b4c5d6e7f',
  stepNumber: 1,
  requestHeaders: { Authorization: { hide: true, value: 'Bearer sk_live_...' } },
  responseMapping: { status: 'data.status', firstItem: 'data.items[0].sku' },
};

export const createStepBodySchema = z
  .strictObject({
    id: uuidSchema.optional().describe('an explicit id for the new step'),
    name: z.string().trim().min(1).max(200),
    requestUrl: requestUrlSchema,
    requestMethod: method,
    toolId: uuidSchema.nullable().optional().describe('the action or attribute whose chain the step belongs to'),
    stepNumber: z.number().int().min(1).max(1_000).optional().describe('order in the chain; default: after the last step'),
    requestHeaders: headers.default({}),
    requestBody: body.optional(),
    responseMapping: mapping.default({}),
  })
  .meta({ examples: [example] });

export const updateStepBodySchema = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    requestUrl: requestUrlSchema.optional(),
    requestMethod: method.optional(),
    toolId: uuidSchema.nullable().optional(),
    stepNumber: z.number().int().min(1).max(1_000).optional(),
    requestHeaders: headers.optional(),
    requestBody: body.optional(),
    responseMapping: mapping.optional(),
  })
  .meta({ examples: [{ requestHeaders: { Authorization: '********', 'X-Region': 'eu' } }] });

export const listStepsQuerySchema = z.object({ toolId: uuidSchema.optional().describe('the steps of one action or attribute, in order') });

const failureSchema = z
  .object({
    kind: z.enum(['invalid_input', 'timeout', 'blocked_address', 'network', 'too_large', 'http_error', 'non_json', 'mapping_not_found', 'invalid_output', 'secret']),
    message: z.string(),
  })
  .meta({ id: 'StepFailure' });

export const stepRecordSchema = z
  .object({
    stepId: z.uuid(),
    name: z.string(),
    request: z.object({ method: z.string(), url: z.string(), headers: z.record(z.string(), z.string()), body: z.unknown() }).describe('as sent, secrets as ********'),
    status: z.number().int().nullable(),
    durationMs: z.number(),
    attempts: z.number().int(),
    responseBody: z.unknown().describe('JSON when it parses, else text; at most 64 KB; secrets the server echoed as ********'),
    output: z.record(z.string(), z.unknown()),
    error: failureSchema.nullable(),
  })
  .meta({ id: 'StepRecord' });

export const toolRunSchema = z
  .object({
    toolName: z.string(),
    success: z.boolean(),
    output: z.record(z.string(), z.unknown()),
    steps: z.array(stepRecordSchema),
    error: failureSchema.nullable(),
  })
  .meta({ id: 'ToolRun' });

const inputs = z.record(z.string(), z.unknown()).default({}).describe('input name -> value');
export const testToolBodySchema = z.strictObject({ inputs }).meta({ examples: [{ inputs: { orderNumber: 'A-1001' } }] });
export const testStepBodySchema = z
  .strictObject({
    inputs,
    previous: z.record(z.string(), z.record(z.string(), z.unknown())).optional().describe('outputs of earlier steps by step id or name, for ${stepId.key}'),
  })
  .meta({ examples: [{ inputs: { orderNumber: 'A-1001' }, previous: { 'Find the order': { customerId: 'c_42' } } }] });
