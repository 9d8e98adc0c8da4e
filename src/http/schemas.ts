import { z } from 'zod';

/**
 * A UUID from a path, query or body, in the lower case the database answers with, so ids compare
 * equal to stored ones and are never echoed spelled differently (400 before any database access).
 */
export const uuidSchema = z.uuid().transform((id) => id.toLowerCase());

/** Whether a string is a UUID (any case), by the same rule as `uuidSchema`. */
export function isUuid(value: string): boolean {
  return uuidSchema.safeParse(value).success;
}

/** Path parameters of a route addressing one resource by UUID. */
export const idParamsSchema = z.object({ id: uuidSchema });

/** Timestamps on the wire are ISO 8601 strings. */
export function iso(date: Date): string;
export function iso(date: Date | null): string | null;
export function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

/** A boolean query parameter: `true`/`false` (also `1`/`0`), anything else is a 400. */
export const queryBooleanSchema = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

/** The zod metadata key that documents a field as a component (src/http/openapi-document.ts). */
export const SHAPE_KEY = 'x-parley-shape';

/**
 * `schema`, checked and sent as before, documented in OpenAPI as the component `shape` (a zod schema
 * with `.meta({ id })`): for JSON that Parley stores or passes on as it is (a rule's flow, a reply
 * rule's conditions) whose shape the specification fixes, while the runtime schema stays the loose
 * one that never rewrites a stored value. The test mode that checks every answer of the suite
 * against the document (docs/openapi.md) keeps the two in step.
 */
export function documentedAs<T extends z.ZodType>(schema: T, shape: z.ZodType): T {
  const id = z.globalRegistry.get(shape)?.id;
  if (!id) throw new Error('documentedAs: give the shape an id with .meta({ id })');
  return schema.meta({ [SHAPE_KEY]: id }) as T;
}

/** Epoch milliseconds (as the deployed service) or an ISO 8601 date-time. */
export const instantSchema = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const date = /^\d{1,16}$/.test(value) ? new Date(Number(value)) : /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : new Date(Number.NaN);
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: 'custom', message: 'expected epoch milliseconds or an ISO 8601 date-time' });
      return z.NEVER;
    }
    return date;
  });
