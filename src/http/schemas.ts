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
