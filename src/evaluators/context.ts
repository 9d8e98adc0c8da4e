import { z } from 'zod';

/**
 * The evaluation context (wave2-decisions §2): one JSON object per user message that conditions,
 * flows and interpolation read. Pure: no I/O here or anywhere in `src/evaluators/`.
 */

/** The top-level names a path may start with. */
export const CONTEXT_NAMESPACES = ['message', 'conversation', 'userAttributes', 'attributes', 'tags', 'rule', 'time'] as const;
export type ContextNamespace = (typeof CONTEXT_NAMESPACES)[number];

/** Fixed fields of the namespaces that have them; the others take any key below the namespace. */
const FIXED_FIELDS: Partial<Record<ContextNamespace, readonly string[]>> = {
  message: ['content', 'language'],
  conversation: ['id', 'turn', 'channel', 'source', 'status'],
  time: ['hour', 'weekday', 'date'],
};

export interface EvaluationContext {
  message?: { content?: string; language?: string };
  conversation?: { id?: string; turn?: number; channel?: string; source?: string; status?: string };
  userAttributes?: Record<string, unknown>;
  attributes?: Record<string, Record<string, unknown>>;
  tags?: Record<string, string[]>;
  rule?: Record<string, unknown>;
  time?: { hour?: number; weekday?: number; date?: string };
}

/** At most this many segments in a path (`attributes.order.items[0].id` has five). */
export const MAX_PATH_SEGMENTS = 12;

/**
 * Splits a path into segments: dots separate names, `[n]` indexes an array
 * (`attributes.order.items[0].id` -> `attributes`, `order`, `items`, `0`, `id`). Null when malformed.
 */
export function parsePath(path: string): string[] | null {
  if (path.length === 0 || path.length > 300) return null;
  const segments: string[] = [];
  for (const part of path.split('.')) {
    const match = /^([^[\]]+)((?:\[\d{1,6}\])*)$/.exec(part);
    if (!match) return null;
    segments.push(match[1]!);
    for (const index of match[2]!.matchAll(/\[(\d+)\]/g)) segments.push(index[1]!);
  }
  return segments.length > MAX_PATH_SEGMENTS ? null : segments;
}

/**
 * Why a path is not one of the context's (null when it is): an unknown namespace, an unknown field
 * of a fixed namespace, or a namespace named without a field below it.
 */
export function pathProblem(path: string): string | null {
  const segments = parsePath(path);
  if (!segments) return `"${path}" is not a path (names separated by dots, [n] for an array item)`;
  const [namespace, field] = segments;
  if (!(CONTEXT_NAMESPACES as readonly string[]).includes(namespace!)) {
    return `"${path}" is outside the evaluation context: a path starts with one of ${CONTEXT_NAMESPACES.join(', ')}`;
  }
  if (field === undefined) return `"${path}" names the whole ${namespace} namespace; name a field below it`;
  const fixed = FIXED_FIELDS[namespace as ContextNamespace];
  if (fixed && !fixed.includes(field)) {
    return `"${path}" is not a field of ${namespace}: use one of ${fixed.map((f) => `${namespace}.${f}`).join(', ')}`;
  }
  return null;
}

/** Marks a path that does not resolve (distinct from a present `null` or `undefined` value). */
export const MISSING: unique symbol = Symbol('missing');

const parsedPaths = new Map<string, string[] | null>();

/** `parsePath`, memoised: rules name the same few paths on every message. */
export function cachedPath(path: string): string[] | null {
  let segments = parsedPaths.get(path);
  if (segments === undefined) {
    if (parsedPaths.size >= 5_000) parsedPaths.clear();
    segments = parsePath(path);
    parsedPaths.set(path, segments);
  }
  return segments;
}

/** The value at a path of the context, or `MISSING`. Own properties only (no prototype lookups). */
export function resolvePath(context: unknown, path: string | readonly string[]): unknown {
  const segments = typeof path === 'string' ? cachedPath(path) : path;
  if (!segments) return MISSING;
  let value: unknown = context;
  for (const segment of segments) {
    if (value === null || typeof value !== 'object') return MISSING;
    if (!Object.prototype.hasOwnProperty.call(value, segment)) return MISSING;
    value = (value as Record<string, unknown>)[segment];
  }
  return value === undefined ? MISSING : value;
}

/**
 * Replaces each `${path}` in a text with the context's value there (strings as they are, other
 * values as JSON); a path that does not resolve becomes an empty string. `missing` collects them.
 */
export function interpolate(text: string, context: unknown, missing?: string[]): string {
  return text.replace(/\$\{([^{}]{1,300})\}/g, (_all, raw: string) => {
    const path = raw.trim();
    const value = resolvePath(context, path);
    if (value === MISSING || value === null) {
      missing?.push(path);
      return '';
    }
    return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  });
}

const attributeValue = z.unknown();

/**
 * The evaluation context as a request body sends it (the rule and reply-rule test routes): every
 * namespace optional, unknown namespaces refused so that a typo is a 400, not a silent miss.
 */
export const evaluationContextSchema = z
  .strictObject({
    message: z.strictObject({ content: z.string().max(20_000).optional(), language: z.string().max(20).optional() }).optional(),
    conversation: z
      .strictObject({
        id: z.string().max(100).optional(),
        turn: z.number().int().min(1).optional(),
        channel: z.string().max(50).optional(),
        source: z.string().max(50).optional(),
        status: z.string().max(100).optional(),
      })
      .optional(),
    userAttributes: z.record(z.string(), attributeValue).optional(),
    attributes: z.record(z.string(), z.record(z.string(), attributeValue)).optional(),
    tags: z.record(z.string(), z.array(z.string())).optional(),
    rule: z.record(z.string(), attributeValue).optional(),
    time: z
      .strictObject({
        hour: z.number().int().min(0).max(23).optional(),
        weekday: z.number().int().min(0).max(6).optional(),
        date: z.iso.date().optional(),
      })
      .optional(),
  })
  .default({});
