import { safeParse, z } from 'zod';

/**
 * The JSON writer of a route's response schema, compiled once per schema into JavaScript (as
 * fast-json-stringify and zod's own object parser do): it writes what
 * `JSON.stringify(zod.parse(schema, data))` writes, byte for byte, without zod's parse.
 *
 * It checks the shape as it writes: every type, every required key, enum and literal values, null
 * only where allowed; a mismatch throws ResponseShapeError (the route answers 500, as when zod's
 * parse failed). It writes the schema's keys only, in the order zod's output has them, so a
 * presenter's extra property never leaves. It never changes a value: what it does not check, the
 * refinements the OpenAPI document states as keywords (formats, patterns, lengths, bounds,
 * integers), reaches the client as the handler gave it, where the test mode that validates every
 * answer against /openapi.json sees it (docs/architecture.md, "Request flow"). Where zod would
 * change a value or decide by code (an overwrite such as `.trim()`, a coercion, a `.refine()`,
 * the branch of a union, an intersection, a tuple, a record with checked keys, a loose or
 * catchall object), that part is parsed by zod and its output written with JSON.stringify.
 */
export type ResponseWriter = (data: unknown) => string;

/** An answer that does not have its schema's shape: the path to the first mismatch and what was expected there. */
export class ResponseShapeError extends Error {
  /** Keys and indices from the answer's root to the mismatch. */
  readonly path: (string | number)[] = [];

  constructor(
    readonly expected: string,
    readonly received: unknown,
    options?: { cause?: unknown },
  ) {
    super(`(root): expected ${expected}, received ${describeValue(received)}`, options);
    this.name = 'ResponseShapeError';
  }

  /** Prefixes the path with the container's key or index (on the way out of the writer). */
  within(segment: string | number): this {
    this.path.unshift(segment);
    this.message = `${this.path.join('.')}: expected ${this.expected}, received ${describeValue(this.received)}`;
    return this;
  }

  /**
   * The mismatch as zod reports one (ResponseSerializationError's cause, which the log shows): zod's
   * own issues where zod parsed the part. Like zod's, it names no value of the answer.
   */
  toZodError(): z.ZodError {
    const parsed = this.cause instanceof z.ZodError ? this.cause.issues : undefined;
    const issues = parsed
      ? parsed.map((issue) => ({ ...issue, path: [...this.path, ...issue.path] }))
      : [{ code: 'custom' as const, path: this.path, message: `expected ${this.expected}, received ${describeValue(this.received)}` }];
    return new z.ZodError(issues as z.core.$ZodIssue[]);
  }
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date) return 'a Date';
  return typeof value;
}

/**
 * Zod types whose parse gives what encoding gives: no transform, default, catch, pipe or codec
 * anywhere inside (those act differently in the encode direction, or cannot be walked).
 */
const DIRECTION_NEUTRAL = new Set([
  'string', 'number', 'boolean', 'bigint', 'null', 'undefined', 'unknown', 'any', 'never', 'literal',
  'enum', 'date', 'nan', 'template_literal', 'object', 'array', 'tuple', 'union', 'intersection',
  'record', 'optional', 'nullable', 'nonoptional', 'readonly',
]);

function children(def: z.core.$ZodTypeDef): unknown[] {
  const d = def as unknown as Record<string, unknown>;
  const out: unknown[] = [];
  for (const field of ['innerType', 'element', 'catchall', 'rest', 'left', 'right', 'keyType', 'valueType']) {
    if (d[field]) out.push(d[field]);
  }
  for (const field of ['options', 'items']) if (Array.isArray(d[field])) out.push(...(d[field] as unknown[]));
  if (d.shape && typeof d.shape === 'object') out.push(...Object.values(d.shape));
  return out;
}

/** Whether zod's parse of `schema` gives what its encode gives (see DIRECTION_NEUTRAL). */
export function directionNeutral(schema: z.ZodType, seen = new Set<unknown>()): boolean {
  if (seen.has(schema)) return true;
  seen.add(schema);
  const def = schema._zod.def;
  if (!DIRECTION_NEUTRAL.has(def.type) || (def.type === 'union' && 'discriminator' in def)) return false;
  return children(def).every((child) => child instanceof Object && '_zod' in child && directionNeutral(child as z.ZodType, seen));
}

/**
 * Writers already compiled, by the schema's definition, which its copies share (`.describe()` of
 * the error body on each route): routes sharing a schema and every test app of a process reuse them.
 */
const WRITERS = new WeakMap<z.core.$ZodTypeDef, ResponseWriter | null>();

/**
 * The writer of a response schema, or undefined when the schema has direction-dependent parts
 * (zod's encode serializes those answers).
 */
export function compileResponseWriter(schema: z.ZodType): ResponseWriter | undefined {
  let writer = WRITERS.get(schema._zod.def);
  if (writer === undefined) {
    writer = directionNeutral(schema) ? (new Compiler().writerOf(schema) as ResponseWriter) : null;
    WRITERS.set(schema._zod.def, writer);
  }
  return writer ?? undefined;
}

/** Writes one value as JSON, or gives undefined where JSON.stringify leaves it out (an absent optional). */
type Write = (value: unknown) => string | undefined;

/** A check zod runs by code or that rewrites the value: `.refine()`/`.superRefine()`, `.trim()`/`.toLowerCase()`. */
const CODED_CHECKS = new Set(['custom', 'overwrite']);

/** JSON.stringify of a string: the string between quotes when nothing in it needs escaping. */
function quote(text: string): string {
  if (text.length > 64) return JSON.stringify(text);
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    // Control characters, `"`, `\` and every surrogate (a lone one is escaped) go through JSON.stringify.
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) return JSON.stringify(text);
  }
  return `"${text}"`;
}

function fail(expected: string, received: unknown): never {
  throw new ResponseShapeError(expected, received);
}

/** The error of a value at `segment` of its container, its path prefixed with that segment. */
function within(error: unknown, segment: string | number): unknown {
  return error instanceof ResponseShapeError ? error.within(segment) : error;
}

/** What generated code calls: the helpers above, and the writers and value tables of its schema. */
interface Runtime {
  quote: typeof quote;
  fail: typeof fail;
  within: typeof within;
  stringify: typeof JSON.stringify;
  isPlainObject: (value: unknown) => boolean;
  writers: Write[];
  tables: Map<unknown, string>[];
}

/**
 * Compiles the containers of one schema (objects, arrays, records) into functions whose code
 * checks and writes their primitive parts inline; every other part is a call to its own writer.
 */
class Compiler {
  private readonly runtime: Runtime = { quote, fail, within, stringify: JSON.stringify, isPlainObject: z.core.util.isPlainObject, writers: [], tables: [] };
  private readonly indexOf = new Map<z.ZodType, number>();

  /** The writer of `schema`, compiled once (a schema that contains itself is called through its slot). */
  writerOf(schema: z.ZodType): Write {
    return this.runtime.writers[this.slotOf(schema)]!;
  }

  private slotOf(schema: z.ZodType): number {
    const known = this.indexOf.get(schema);
    if (known !== undefined) return known;
    const slot = this.runtime.writers.length;
    const { writers } = this.runtime;
    writers.push((value) => writers[slot]!(value)); // until it is built: a getter in a shape may reach it
    this.indexOf.set(schema, slot);
    writers[slot] = this.build(schema);
    return slot;
  }

  private build(schema: z.ZodType): Write {
    const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
    if (byZod(schema)) return zodWriter(schema);
    switch (def.type) {
      case 'object':
        return this.generate(this.objectBody(def.shape as Record<string, z.ZodType>));
      case 'array':
        return this.generate(this.arrayBody(def.element as z.ZodType));
      case 'record':
        return this.generate(this.recordBody(def.valueType as z.ZodType));
      default: {
        const body = `let s; s = ${this.expression(schema, 'v')}; return s;`;
        return this.generate(body);
      }
    }
  }

  private generate(body: string): Write {
    const factory = new Function('r', `const { quote, fail, within, stringify, isPlainObject, writers, tables } = r; return function write(v) { ${body} };`);
    return factory(this.runtime) as Write;
  }

  /**
   * JavaScript that evaluates to the JSON of the value in variable `x` (a string, or undefined to
   * leave it out) or throws: primitives inline, anything else through its writer.
   */
  private expression(schema: z.ZodType, x: string): string {
    const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
    if (byZod(schema)) return this.call(schema, x);
    const expect = (what: string) => `fail(${JSON.stringify(what)}, ${x})`;
    switch (def.type) {
      case 'string':
        return `(typeof ${x} === 'string' ? quote(${x}) : ${expect('a string')})`;
      case 'number':
        return `(typeof ${x} === 'number' && Number.isFinite(${x}) ? '' + ${x} : ${expect('a finite number')})`;
      case 'boolean':
        return `(${x} === true ? 'true' : ${x} === false ? 'false' : ${expect('a boolean')})`;
      case 'null':
        return `(${x} === null ? 'null' : ${expect('null')})`;
      case 'undefined':
        return `(${x} === undefined ? undefined : ${expect('undefined')})`;
      case 'unknown':
      case 'any':
        return `stringify(${x})`;
      case 'never':
        return expect('nothing (never)');
      case 'date':
        return `(${x} instanceof Date && !Number.isNaN(${x}.getTime()) ? stringify(${x}) : ${expect('a valid Date')})`;
      case 'literal':
      case 'enum': {
        // One lookup both checks the value and gives its JSON.
        const values = [...schema._zod.values!];
        const table = this.runtime.tables.push(new Map(values.map((value) => [value, JSON.stringify(value)]))) - 1;
        const allowed = values.map((value) => JSON.stringify(value)).join(', ');
        return `(tables[${table}].get(${x}) ?? ${expect(`one of ${allowed}`)})`;
      }
      case 'optional':
        return `(${x} === undefined ? undefined : ${this.expression(def.innerType as z.ZodType, x)})`;
      case 'nullable':
        return `(${x} === null ? 'null' : ${this.expression(def.innerType as z.ZodType, x)})`;
      case 'nonoptional':
        return `(${x} === undefined ? ${expect('a value (nonoptional)')} : ${this.expression(def.innerType as z.ZodType, x)})`;
      case 'readonly':
        return this.expression(def.innerType as z.ZodType, x);
      default:
        return this.call(schema, x);
    }
  }

  private call(schema: z.ZodType, x: string): string {
    return `writers[${this.slotOf(schema)}](${x})`;
  }

  private objectBody(shape: Record<string, z.ZodType>): string {
    // Zod's parse builds its output key by key in the shape's order (array-index keys first, as
    // JavaScript orders every object's keys) and leaves a `__proto__` key out.
    const keys = Object.keys(shape).filter((key) => key !== '__proto__');
    let code = `if (typeof v !== 'object' || v === null || Array.isArray(v)) return fail('an object', v);\nlet o = '{', k, x, s;\ntry {\n`;
    let written = false; // a key already written whatever the value: the next one follows a comma
    for (const key of keys) {
      const schema = shape[key]!;
      const name = JSON.stringify(key);
      code += `k = ${name}; x = v[${name}];\n`;
      // A key zod requires to be there (its schema takes no absence), even where its value may be undefined.
      if (schema._zod.optin === undefined) code += `if (x === undefined && !(${name} in v)) fail('a value (required key)', x);\n`;
      code += `s = ${this.expression(schema, 'x')};\n`;
      const head = JSON.stringify(`${name}:`);
      const comma = JSON.stringify(`,${name}:`);
      const separator = written ? comma : `(o.length === 1 ? ${head} : ${comma})`;
      code += alwaysWritten(schema) ? `o += ${separator} + s;\n` : `if (s !== undefined) o += ${separator} + s;\n`;
      written ||= alwaysWritten(schema);
    }
    return `${code}} catch (error) { throw within(error, k); }\nreturn o + '}';`;
  }

  private arrayBody(element: z.ZodType): string {
    return (
      `if (!Array.isArray(v)) return fail('an array', v);\nlet o = '[', i = 0, x, s;\ntry {\n` +
      `for (; i < v.length; i += 1) { x = v[i]; s = ${this.expression(element, 'x')}; o += (i === 0 ? '' : ',') + (s === undefined ? 'null' : s); }\n` +
      `} catch (error) { throw within(error, i); }\nreturn o + ']';`
    );
  }

  private recordBody(valueType: z.ZodType): string {
    // Zod's parse of a record with plain string keys copies every own enumerable key but `__proto__`.
    return (
      `if (!isPlainObject(v)) return fail('a plain object (record)', v);\nlet o = '{', k, x, s;\ntry {\n` +
      `for (k of Object.keys(v)) { if (k === '__proto__') continue; x = v[k]; s = ${this.expression(valueType, 'x')}; if (s !== undefined) o += (o.length === 1 ? '' : ',') + stringify(k) + ':' + s; }\n` +
      `} catch (error) { throw within(error, k); }\nreturn o + '}';`
    );
  }
}

/**
 * Parts zod's parse writes (see the file's top): a coercion or a coded check anywhere on the
 * part, and the types whose outcome zod decides (union, intersection, tuple, template literal,
 * bigint, NaN, a literal of undefined, a bigint or a symbol, an object with a catchall, a record with
 * checked keys).
 */
function byZod(schema: z.ZodType): boolean {
  const def = schema._zod.def as z.core.$ZodTypeDef & { coerce?: boolean; catchall?: unknown; keyType?: z.ZodType; mode?: string };
  if (def.coerce || (def.checks ?? []).some((check) => CODED_CHECKS.has(check._zod.def.check))) return true;
  switch (def.type) {
    case 'string': case 'number': case 'boolean': case 'null': case 'undefined': case 'unknown': case 'any': case 'never':
    case 'date': case 'optional': case 'nullable': case 'nonoptional': case 'readonly': case 'array':
      return false;
    case 'literal':
    case 'enum':
      // Values whose JSON a table can hold; an undefined, bigint or symbol literal is zod's.
      return [...schema._zod.values!].some((value) => value !== null && !['string', 'number', 'boolean'].includes(typeof value));
    case 'object':
      return def.catchall !== undefined;
    case 'record': {
      const key = def.keyType!._zod.def as z.core.$ZodTypeDef & { coerce?: boolean };
      return key.type !== 'string' || Boolean(key.coerce) || (key.checks ?? []).length > 0 || def.mode === 'loose';
    }
    default:
      return true;
  }
}

/** A part as zod's parse gives it, written with JSON.stringify. */
function zodWriter(schema: z.ZodType): Write {
  return (value) => {
    const result = safeParse(schema, value);
    if (result.error) throw new ResponseShapeError(`what zod accepts (${result.error.issues[0]?.message ?? 'invalid'})`, value, { cause: result.error });
    return JSON.stringify(result.data);
  };
}

/** Whether a part's JSON is never left out (its writer never gives undefined for a value it accepts). */
function alwaysWritten(schema: z.ZodType): boolean {
  const def = schema._zod.def;
  if (byZod(schema)) return false;
  switch (def.type) {
    case 'string': case 'number': case 'boolean': case 'null': case 'date': case 'object': case 'array': case 'record': case 'literal': case 'enum':
      return true;
    case 'nullable': case 'nonoptional': case 'readonly':
      return alwaysWritten((def as unknown as { innerType: z.ZodType }).innerType);
    default:
      return false;
  }
}
