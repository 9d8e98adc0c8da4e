// The one door from the console to Parley: @parley/client (packages/client: openapi-fetch typed by
// the generated schema, 429s retried after their Retry-After). Every request carries the signed-in
// key; every failure becomes an ApiError with the API's own message.
import type { Middleware } from 'openapi-fetch';
import { createParleyClient, type Schemas } from '../../../packages/client/src/index.js';

export type { paths } from '../../../packages/client/src/index.js';
export type { Schemas };

/** Parley's error body `{ statusCode, message, error }`, thrown by `call` for any non-2xx answer. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The key lacks the scope: the console then says the key is read-only. */
  get forbidden(): boolean {
    return this.status === 403;
  }
}

let currentKey: string | undefined;

/** Sets the key the client sends (session.tsx owns where it is kept). */
export function setApiKey(key: string | undefined): void {
  currentKey = key;
}

const auth: Middleware = {
  onRequest({ request }) {
    if (currentKey && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${currentKey}`);
    return request;
  },
};

// A page waits out a rate limit of a few seconds; a longer one is shown as the API's 429 message.
export const api = createParleyClient({ baseUrl: window.location.origin, retry: { retries: 2, maxDelayMs: 10_000 } });
api.use(auth);

function messageOf(error: unknown, status: number): string {
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') return error.message;
  return `the server answered ${status}`;
}

/**
 * Awaits an openapi-fetch call and returns its data, or throws ApiError with the API's message
 * (the only place the console reads an error body).
 */
export async function call<T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await request;
  if (!response.ok) throw new ApiError(response.status, messageOf(error, response.status));
  return data as T;
}
