// Places a 400's validation messages on the fields they name. The API answers
// "body.requestUrl: must be an http or https URL; body.inputFields.0.name: ..." (one part per
// failing field, src/http/error-renderer.ts); a form looks up a field by its path under `body`.
import { ApiError } from '../api/client';

/** Field path (under `body`, dot-separated: `inputFields.0.name`) -> the API's message for it. */
export function fieldErrors(error: unknown): Map<string, string> {
  const errors = new Map<string, string>();
  if (!(error instanceof ApiError) || error.status !== 400) return errors;
  for (const part of error.message.split('; ')) {
    const match = /^body\.(\S+?): (.+)$/s.exec(part);
    if (match?.[1] && match[2] && !errors.has(match[1])) errors.set(match[1], match[2]);
  }
  return errors;
}

/** The message for a field or anything under it (`requestHeaders` also finds `requestHeaders.X`). */
export function errorAt(errors: Map<string, string>, path: string): string | undefined {
  for (const [key, message] of errors) if (key === path || key.startsWith(`${path}.`)) return message;
  return undefined;
}
