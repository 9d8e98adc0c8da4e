// A 400's message placed on the fields it names. Parley answers one message for all of a request's
// problems, "body.conditions.0.predicate.1.operator: ...; body.name: ..." (error-renderer.ts); a
// message may itself hold "; ", so it is split only before the next "body." / "query." / "path.".
import { ApiError } from '../api/client';

export interface FieldErrors {
  /** The message of each field, by its path below `body` ("conditions.0.predicate.1.operator"). */
  fields: Map<string, string>;
  /** Messages that name no field (or none of the form's): shown above the form. */
  other: string[];
}

export const NO_FIELD_ERRORS: FieldErrors = { fields: new Map(), other: [] };

export function fieldErrors(error: unknown): FieldErrors {
  if (!(error instanceof ApiError) || error.status !== 400) return { fields: new Map(), other: error ? [messageOf(error)] : [] };
  const fields = new Map<string, string>();
  const other: string[] = [];
  for (const part of error.message.split(/; (?=(?:body|query|path)(?:\.[^\s:]+)?: )/)) {
    const match = /^body\.([^\s:]+): ([\s\S]*)$/.exec(part);
    if (match) fields.set(match[1]!, fields.has(match[1]!) ? `${fields.get(match[1]!)}; ${match[2]}` : match[2]!);
    else other.push(part);
  }
  return { fields, other };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The message for a field: its own, or one naming something inside it (`config.types.0` for the
 * field `config.types`), so that a list's item errors land on the list's input.
 */
export function errorOf(errors: FieldErrors, path: string): string | undefined {
  const own = errors.fields.get(path);
  if (own) return own;
  const inside = [...errors.fields].filter(([key]) => key.startsWith(`${path}.`));
  return inside.length ? inside.map(([key, message]) => `${key.slice(path.length + 1)}: ${message}`).join('; ') : undefined;
}

/** The messages none of `placed` (the form's field paths, or their prefixes) takes, to show above the form. */
export function unplaced(errors: FieldErrors, placed: (path: string) => boolean): string[] {
  return [...errors.other, ...[...errors.fields].filter(([key]) => !placed(key)).map(([key, message]) => `${key}: ${message}`)];
}
