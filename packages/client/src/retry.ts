// Retries of 429 answers, honouring Retry-After, under every call of the client (it wraps the
// fetch openapi-fetch calls). Parley decides a 429 before the route runs (src/http/rate-limit.ts),
// so sending any request again, a POST included, cannot apply it twice.
import { retryAfterSeconds } from './errors.js';

export interface RetryOptions {
  /** Attempts after the first (default 3). */
  retries?: number;
  /**
   * The longest wait (ms) the client accepts (default 60,000): a 429 asking for longer is returned
   * at once, and the call fails with its ParleyApiError (`retryAfter` says how long).
   */
  maxDelayMs?: number;
  /** The wait (ms) before the first retry when a 429 has no Retry-After, doubled at each retry (default 1,000). */
  fallbackDelayMs?: number;
}

/** Resolves after `ms`, or rejects with the signal's reason once it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A fetch that sends a request again after each 429 it may wait out, up to `retries` times. */
export function retryingFetch(fetch: (request: Request) => Promise<Response>, options: RetryOptions = {}): (request: Request) => Promise<Response> {
  const retries = options.retries ?? 3;
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  const fallbackDelayMs = options.fallbackDelayMs ?? 1_000;
  return async (request) => {
    for (let attempt = 0; ; attempt += 1) {
      // A body can be read once: each attempt sends a copy, the original stays unread.
      const response = await fetch(attempt < retries ? request.clone() : request);
      if (response.status !== 429 || attempt >= retries) return response;
      const afterS = retryAfterSeconds(response.headers.get('retry-after'));
      const delayMs = afterS === undefined ? fallbackDelayMs * 2 ** attempt : afterS * 1000;
      if (delayMs > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(delayMs, request.signal);
    }
  };
}
