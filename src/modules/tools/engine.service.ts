import { randomUUID } from 'node:crypto';
import type { WorkspaceContext } from '../../context.js';
import type { ToolInputField, ToolOutputField } from '../../db/schema/index.js';
import { FetchError, type FetchMethod } from '../../ingest/fetch/safe-fetch.js';
import { MASK } from './tools.presenter.js';
import type { DataStepRow } from './tools.repository.js';

/**
 * The engine that runs an action's or attribute's chain of external API call steps (docs/actions.md):
 * inputs checked against the declared fields, `${...}` interpolation (URL-encoded in the URL, JSON
 * in bodies), sealed secrets opened only for the request, every call through the outbound port's
 * safeFetch (private addresses refused unless allowed), a time limit and response cap per step, one
 * retry of idempotent methods, an Idempotency-Key on writes, response mapping, and the chain's output
 * checked against the declared output fields. Each step is recorded with secrets masked.
 */

export const ENGINE_LIMITS = { responseBytes: 1024 * 1024, recordedBodyChars: 64 * 1024, redirects: 3 } as const;

export type StepFailureKind =
  | 'invalid_input'
  | 'timeout'
  | 'blocked_address'
  | 'network'
  | 'too_large'
  | 'http_error'
  | 'non_json'
  | 'mapping_not_found'
  | 'invalid_output'
  | 'secret';

export interface StepFailure {
  kind: StepFailureKind;
  message: string;
}

export interface StepRecord {
  stepId: string;
  name: string;
  request: { method: string; url: string; headers: Record<string, string>; body: unknown };
  status: number | null;
  durationMs: number;
  attempts: number;
  /** The response body (JSON when it parses), at most 64 KB, secrets the server echoed masked. */
  responseBody: unknown;
  output: Record<string, unknown>;
  error: StepFailure | null;
}

export interface ToolRunResult {
  success: boolean;
  output: Record<string, unknown>;
  steps: StepRecord[];
  error: StepFailure | null;
}

class StepError extends Error {
  constructor(
    readonly kind: StepFailureKind,
    message: string,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------------------------------------
// Inputs and interpolation

/** Inputs as declared: required present, types as declared (numeric and boolean strings accepted). */
export function checkInputs(fields: readonly ToolInputField[], inputs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...inputs };
  for (const field of fields) {
    const value = inputs[field.name];
    if (value === undefined || value === null || value === '') {
      if (field.required) throw new StepError('invalid_input', `input "${field.name}" is required`);
      continue;
    }
    if (field.type === 'number') {
      const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
      if (!Number.isFinite(number)) throw new StepError('invalid_input', `input "${field.name}" must be a number`);
      out[field.name] = number;
    } else if (field.type === 'boolean') {
      if (typeof value === 'boolean') continue;
      if (value === 'true' || value === 'false') out[field.name] = value === 'true';
      else throw new StepError('invalid_input', `input "${field.name}" must be a boolean`);
    } else if (typeof value !== 'string') {
      if (typeof value === 'number' || typeof value === 'boolean') out[field.name] = String(value);
      else throw new StepError('invalid_input', `input "${field.name}" must be a string`);
    }
  }
  return out;
}

const PLACEHOLDER = /\$\{([^{}]{1,200})\}/g;

/** The value of `${name}` (an input) or `${step.key}` (an earlier step's output, by id or name). */
function lookup(vars: Record<string, unknown>, steps: Record<string, Record<string, unknown>>, name: string): unknown {
  const key = name.trim();
  if (Object.prototype.hasOwnProperty.call(vars, key)) return vars[key];
  const dot = key.indexOf('.');
  if (dot > 0) {
    const step = steps[key.slice(0, dot)];
    const field = key.slice(dot + 1);
    if (step && Object.prototype.hasOwnProperty.call(step, field)) return step[field];
  }
  throw new StepError('invalid_input', `\${${key}} is neither an input nor an output of an earlier step`);
}

const asText = (value: unknown) => (typeof value === 'string' ? value : value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));

function fill(text: string, vars: Record<string, unknown>, steps: Record<string, Record<string, unknown>>, encode: (s: string) => string): string {
  return text.replace(PLACEHOLDER, (_all, name: string) => encode(asText(lookup(vars, steps, name))));
}

interface Sealed {
  hide: true;
  sealed: string;
}
const isSealed = (v: unknown): v is Sealed => v !== null && typeof v === 'object' && (v as { hide?: unknown }).hide === true && typeof (v as { sealed?: unknown }).sealed === 'string';

/** A body value with placeholders filled (a value that is exactly `${x}` keeps its JSON type) and secrets opened. */
function fillBody(value: unknown, ctx: Ctx, vars: Record<string, unknown>, steps: Record<string, Record<string, unknown>>, secrets: string[]): unknown {
  if (isSealed(value)) {
    const plain = openSecret(ctx, value, secrets);
    return fill(plain, vars, steps, (s) => s);
  }
  if (typeof value === 'string') {
    const whole = /^\$\{([^{}]{1,200})\}$/.exec(value);
    return whole ? lookup(vars, steps, whole[1]!) : fill(value, vars, steps, (s) => s);
  }
  if (Array.isArray(value)) return value.map((v) => fillBody(v, ctx, vars, steps, secrets));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillBody(v, ctx, vars, steps, secrets)]));
  return value;
}

type Ctx = Pick<WorkspaceContext, 'outbound' | 'secrets' | 'config' | 'signal'>;

function openSecret(ctx: Ctx, value: Sealed, secrets: string[]): string {
  try {
    const plain = ctx.secrets.open(value.sealed);
    if (plain) secrets.push(plain);
    return plain;
  } catch {
    throw new StepError('secret', 'a stored secret of this step cannot be opened with the current PARLEY_SECRET_KEY');
  }
}

/** The request as recorded: secrets masked (the stored marker, not the value). */
function maskedRequest(value: unknown): unknown {
  if (isSealed(value)) return MASK;
  if (Array.isArray(value)) return value.map(maskedRequest);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskedRequest(v)]));
  return value;
}

/** Any secret a server echoed back, masked wherever it appears in a recorded text. */
function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join(MASK);
  return out;
}

/** `scrub` through a JSON value (a mapped output never carries a stored secret onwards). */
function scrubValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return scrub(value, secrets);
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, secrets));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubValue(v, secrets)]));
  return value;
}

// ---------------------------------------------------------------------------------------------
// Response mapping

/**
 * The value at a path into a JSON response: dot and bracket notation, `[*]` maps over an array
 * (`results[*].name` -> every name). Undefined when the path does not resolve.
 */
export function readPath(json: unknown, path: string): unknown {
  const tokens: (string | number | '*')[] = [];
  for (const part of path.split('.')) {
    const match = /^([^[\]]+)((?:\[(?:\d+|\*)\])*)$/.exec(part);
    if (!match) return undefined;
    tokens.push(match[1]!);
    for (const index of match[2]!.matchAll(/\[(\d+|\*)\]/g)) tokens.push(index[1] === '*' ? '*' : Number(index[1]));
  }
  const walk = (value: unknown, at: number): unknown => {
    if (at === tokens.length) return value;
    const token = tokens[at]!;
    if (token === '*') {
      if (!Array.isArray(value)) return undefined;
      const items = value.map((item) => walk(item, at + 1));
      return items.some((v) => v === undefined) ? undefined : items;
    }
    if (typeof token === 'number') return Array.isArray(value) && token < value.length ? walk(value[token], at + 1) : undefined;
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.prototype.hasOwnProperty.call(value, token)) return undefined;
    return walk((value as Record<string, unknown>)[token], at + 1);
  };
  return walk(json, 0);
}

function checkOutput(fields: readonly ToolOutputField[], output: Record<string, unknown>): Record<string, unknown> {
  for (const field of fields) {
    const value = output[field.name];
    if (value === undefined) throw new StepError('invalid_output', `the chain's output has no "${field.name}" (declared as an output field)`);
    if (value !== null && typeof value !== field.type) throw new StepError('invalid_output', `output "${field.name}" is ${Array.isArray(value) ? 'an array' : typeof value}, not a ${field.type}`);
  }
  return output;
}

// ---------------------------------------------------------------------------------------------
// One step

const IDEMPOTENT: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

function failureOf(error: unknown): StepFailure {
  if (error instanceof StepError) return { kind: error.kind, message: error.message };
  if (error instanceof FetchError) {
    const kind: StepFailureKind =
      error.kind === 'timeout' ? 'timeout' : error.kind === 'blocked_address' ? 'blocked_address' : error.kind === 'too_large' ? 'too_large' : 'network';
    return { kind, message: error.message };
  }
  return { kind: 'network', message: error instanceof Error ? error.message : String(error) };
}

/**
 * Runs one step with the inputs and earlier outputs it may name. Never throws: a failure is the
 * record's `error`.
 */
export async function runStep(
  ctx: Ctx,
  step: DataStepRow,
  vars: Record<string, unknown>,
  earlier: Record<string, Record<string, unknown>>,
  callId: string,
): Promise<StepRecord> {
  const secrets: string[] = [];
  const record: StepRecord = {
    stepId: step.id,
    name: step.name,
    request: { method: step.requestMethod, url: step.requestUrl, headers: maskedRequest(step.requestHeaders) as Record<string, string>, body: maskedRequest(step.requestBody ?? null) },
    status: null,
    durationMs: 0,
    attempts: 0,
    responseBody: null,
    output: {},
    error: null,
  };
  const started = performance.now();
  try {
    const url = fill(step.requestUrl, vars, earlier, encodeURIComponent);
    record.request.url = url;
    const headers: Record<string, string> = {};
    const shownHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(step.requestHeaders)) {
      headers[name] = isSealed(value) ? fill(openSecret(ctx, value, secrets), vars, earlier, (s) => s) : fill(asText(value), vars, earlier, (s) => s);
      shownHeaders[name] = isSealed(value) ? MASK : headers[name]!;
    }
    record.request.headers = shownHeaders;
    const method = step.requestMethod as FetchMethod;
    let body: string | undefined;
    if (step.requestBody !== null && step.requestBody !== undefined && method !== 'GET' && method !== 'HEAD') {
      body = JSON.stringify(fillBody(step.requestBody, ctx, vars, earlier, secrets));
      headers['content-type'] ??= 'application/json';
      record.request.body = fillBody(maskedRequest(step.requestBody), ctx, vars, earlier, []);
    }
    headers.accept ??= 'application/json';
    if (method === 'POST' || method === 'PATCH') headers['idempotency-key'] ??= `${callId}:${step.id}`;
    const attempt = () =>
      ctx.outbound.fetch({
        url,
        method,
        headers,
        body,
        signal: ctx.signal,
        timeoutMs: ctx.config.actionTimeoutMs,
        maxBytes: ENGINE_LIMITS.responseBytes,
        maxRedirects: ENGINE_LIMITS.redirects,
      });
    let response;
    for (let tries = 1; ; tries += 1) {
      record.attempts = tries;
      try {
        response = await attempt();
        if (response.status >= 500 && IDEMPOTENT.has(method) && tries < 2) continue;
        break;
      } catch (error) {
        const retryable = error instanceof FetchError && (error.kind === 'network' || error.kind === 'timeout');
        if (retryable && IDEMPOTENT.has(method) && tries < 2) continue;
        throw error;
      }
    }
    record.status = response.status;
    const text = Buffer.from(response.body).toString('utf8');
    let json: unknown;
    let parsed = false;
    if (text.trim()) {
      try {
        json = JSON.parse(text);
        parsed = true;
      } catch {
        parsed = false;
      }
    }
    const shown = scrub(text.slice(0, ENGINE_LIMITS.recordedBodyChars), secrets);
    record.responseBody = parsed && text.length <= ENGINE_LIMITS.recordedBodyChars ? JSON.parse(scrub(text, secrets)) : shown;
    if (response.status >= 400) throw new StepError('http_error', `${method} ${scrub(url, secrets)} answered HTTP ${response.status}`);
    const mapping = Object.entries(step.responseMapping);
    if (mapping.length && !parsed) throw new StepError('non_json', `the response of ${step.name} is not JSON (${response.contentType ?? 'no content type'}), so nothing can be mapped from it`);
    for (const [key, path] of mapping) {
      const value = readPath(json, path);
      if (value === undefined) throw new StepError('mapping_not_found', `"${path}" (for ${key}) is not in the response of ${step.name}`);
      record.output[key] = secrets.length ? scrubValue(value, secrets) : value;
    }
  } catch (error) {
    const failure = failureOf(error);
    record.error = { kind: failure.kind, message: scrub(failure.message, secrets) };
  }
  record.durationMs = Math.round((performance.now() - started) * 10) / 10;
  return record;
}

/** Runs a chain: the steps in order, each one's output feeding later ones, then the output check. */
export async function runChain(
  ctx: Ctx,
  tool: { inputFields: ToolInputField[]; outputFields: ToolOutputField[] },
  steps: readonly DataStepRow[],
  inputs: Record<string, unknown>,
): Promise<ToolRunResult> {
  const records: StepRecord[] = [];
  let vars: Record<string, unknown>;
  try {
    vars = checkInputs(tool.inputFields, inputs);
  } catch (error) {
    return { success: false, output: {}, steps: records, error: failureOf(error) };
  }
  const callId = randomUUID();
  const earlier: Record<string, Record<string, unknown>> = {};
  const output: Record<string, unknown> = {};
  for (const step of steps) {
    const record = await runStep(ctx, step, vars, earlier, callId);
    records.push(record);
    if (record.error) return { success: false, output, steps: records, error: record.error };
    earlier[step.id] = record.output;
    earlier[step.name] = record.output;
    Object.assign(output, record.output);
  }
  try {
    return { success: true, output: checkOutput(tool.outputFields, output), steps: records, error: null };
  } catch (error) {
    return { success: false, output, steps: records, error: failureOf(error) };
  }
}
