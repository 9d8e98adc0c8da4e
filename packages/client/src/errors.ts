// The errors the client throws: the API's own `{ statusCode, message, error }` with what its
// headers add, and a wait that ran out of time.

/** Parley's error body, the answer of every non-2xx route. */
export interface ErrorBody {
  statusCode: number;
  message: string;
  error: string;
}

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  return typeof body.statusCode === 'number' && typeof body.message === 'string' && typeof body.error === 'string';
}

/**
 * Seconds to wait from a `Retry-After` header: delay-seconds, or an HTTP date (from `now`);
 * undefined when absent or unreadable.
 */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** A non-2xx answer of the API: its body's fields, its request id and, on a 429 or 503, when to retry. */
export class ParleyApiError extends Error implements ErrorBody {
  override readonly name = 'ParleyApiError';
  /** The HTTP status (the body's `statusCode`). */
  readonly statusCode: number;
  /** The status name, as the body has it: `Not Found`, `Bad Request`, `Too Many Requests`... */
  readonly error: string;
  /** The `X-Request-Id` of the answer: the id Parley's logs carry for this request. */
  readonly requestId: string | undefined;
  /** Seconds the server asked to wait before retrying (`Retry-After`), when it said. */
  readonly retryAfter: number | undefined;
  /** The URL the request went to. */
  readonly url: string;

  constructor(init: ErrorBody & { requestId?: string; retryAfter?: number; url: string }) {
    super(init.message);
    this.statusCode = init.statusCode;
    this.error = init.error;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    this.url = init.url;
  }

  /**
   * The error of an answer: `body` is its parsed JSON (openapi-fetch's `error`); an answer without
   * Parley's body (a proxy's 502 page) keeps its status and says so.
   */
  static from(response: Response, body: unknown): ParleyApiError {
    const fields = isErrorBody(body)
      ? body
      : { statusCode: response.status, error: response.statusText || `HTTP ${response.status}`, message: `the server answered ${response.status} without an error body` };
    return new ParleyApiError({
      ...fields,
      requestId: response.headers.get('x-request-id') ?? undefined,
      retryAfter: retryAfterSeconds(response.headers.get('retry-after')),
      url: response.url,
    });
  }
}

/** A wait (`waitForIngestion`, `waitForGeneration`) that ran past its `timeoutMs`; `last` is what it saw last. */
export class ParleyTimeoutError<T = unknown> extends Error {
  override readonly name = 'ParleyTimeoutError';

  constructor(
    message: string,
    readonly last: T,
  ) {
    super(message);
  }
}

/** What an openapi-fetch call resolves to. */
export interface CallResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The data of an openapi-fetch call, or a ParleyApiError for a non-2xx answer:
 * `const article = await unwrap(parley.POST('/v2/hc-articles/public', { body }))`.
 */
export async function unwrap<T>(call: Promise<CallResult<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw ParleyApiError.from(response, error);
  return data as T;
}
