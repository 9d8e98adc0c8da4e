import { STATUS_CODES } from 'node:http';
import { z } from 'zod';

/** Every error Parley answers with, by code; the only place a code becomes a status. */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  internal: 500,
  bad_gateway: 502,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The one error type services and routes throw; the renderer turns it into the wire body. */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = ERROR_STATUS[code];
  }
}

/** The specification's error body. */
export const errorBodySchema = z
  .object({
    statusCode: z.number().int(),
    message: z.string(),
    error: z.string(),
  })
  .meta({ id: 'Error', description: 'Error body of every non-2xx answer.' });

export type ErrorBody = z.infer<typeof errorBodySchema>;

/** `{ statusCode, message, error }` with `error` the HTTP status name. */
export function errorBody(statusCode: number, message: string): ErrorBody {
  return { statusCode, message, error: STATUS_CODES[statusCode] ?? 'Error' };
}

/** Messages that clients and tests rely on. */
export const AUTH_MESSAGES = {
  missing: 'missing API key: send Authorization: Bearer <API key>',
  malformed: 'malformed API key',
  invalid: 'invalid or revoked API key',
  expired: 'API key has expired',
  scope: 'API key does not have the required scope for this operation',
  adminMissing: 'missing admin token: send Authorization: Bearer <admin token>',
  adminInvalid: 'invalid admin token',
  adminDisabled: 'the admin API is disabled: set PARLEY_ADMIN_TOKEN to enable it',
  widgetScope: 'a widget key can only call the visitor routes (/v2/widget/...) of its agent',
  widgetOnly: 'this route takes a widget key (pk_...), not a workspace API key',
  widgetNoOrigin: 'missing Origin: a widget key works only from its allowed origins',
  widgetOrigin: (origin: string) => `origin ${origin} is not allowed for this widget key`,
} as const;
