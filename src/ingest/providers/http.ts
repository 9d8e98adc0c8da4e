import { setTimeout as sleep } from 'node:timers/promises';
import { FetchError, type FetchMethod, type SafeFetch } from '../fetch/safe-fetch.js';
import { requestedWaitMs } from '../fetch/retry-after.js';

/** The providers Parley imports from, by their wire names (wave2-decisions §9). */
export const PROVIDERS = ['notion', 'zendesk', 'confluence', 'googledrive'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export const PROVIDER_LABELS: Record<ProviderName, string> = {
  notion: 'Notion',
  zendesk: 'Zendesk',
  confluence: 'Confluence',
  googledrive: 'Google Drive',
};

/**
 * Why a provider call failed, in the terms a source record's `error` uses: an expired connection
 * (401), lost permission (403, or 404 on a resource that existed), rate limited beyond the retries,
 * content Parley cannot import, the provider unavailable (network, 5xx: retried later), or an
 * answer that is not the provider's documented shape.
 */
export type ProviderFailure = 'unauthorized' | 'forbidden' | 'not_found' | 'rate_limited' | 'unsupported' | 'unavailable' | 'blocked' | 'invalid';

export class ProviderError extends Error {
  constructor(
    readonly provider: ProviderName,
    readonly failure: ProviderFailure,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }

  /** Worth trying again later (the job's retry with backoff). */
  get retryable(): boolean {
    return this.failure === 'unavailable' || this.failure === 'rate_limited';
  }
}

/** The error of a provider's non-2xx answer; `what` names the resource ("page 1f2e…"). */
export function failureOf(provider: ProviderName, status: number, what: string): ProviderError {
  const label = PROVIDER_LABELS[provider];
  if (status === 401) {
    return new ProviderError(provider, 'unauthorized', `expired connection: ${label} refused the credentials (HTTP 401); reconnect ${provider}`, status);
  }
  if (status === 403) {
    return new ProviderError(provider, 'forbidden', `lost permission: ${label} no longer lets this connection read ${what} (HTTP 403)`, status);
  }
  if (status === 404) {
    return new ProviderError(provider, 'not_found', `lost permission: ${label} answered HTTP 404 for ${what} (deleted, or no longer shared with this connection)`, status);
  }
  if (status === 429) {
    return new ProviderError(provider, 'rate_limited', `rate limited: ${label} kept answering HTTP 429 after the retries`, status);
  }
  if (status >= 500) return new ProviderError(provider, 'unavailable', `${label} is unavailable (HTTP ${status})`, status);
  return new ProviderError(provider, 'invalid', `${label} answered HTTP ${status} for ${what}`, status);
}

export interface ProviderHttpOptions {
  readonly provider: ProviderName;
  readonly fetch: SafeFetch;
  /** 429s waited out before the answer is given to the caller. */
  readonly maxRetries: number;
  /** A Retry-After longer than this is not waited for: the 429 is the answer. */
  readonly maxRetryWaitMs: number;
  readonly signal?: AbortSignal;
}

const METHODS = new Set<string>(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A WHATWG `fetch` for one provider over the one door for outbound HTTP (safeFetch: the
 * private-address policy, size caps, deadlines). A 429 is waited out, honouring Retry-After (else
 * 1, 2, 4 s), up to `maxRetries` times; the official SDKs get it as their `fetch` with their own
 * retries off, and the REST connectors call it directly. Network failures become ProviderErrors.
 */
export function providerFetch(options: ProviderHttpOptions): typeof fetch {
  const call = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    if (!METHODS.has(method)) throw new ProviderError(options.provider, 'invalid', `unsupported method ${method}`);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const body = init?.body === undefined || init.body === null ? undefined : typeof init.body === 'string' ? init.body : String(init.body);
    const signal = init?.signal ?? options.signal;
    for (let attempt = 0; ; attempt++) {
      let response;
      try {
        response = await options.fetch({ url, method: method as FetchMethod, headers, ...(body !== undefined ? { body } : {}), ...(signal ? { signal } : {}) });
      } catch (error) {
        if (error instanceof FetchError) {
          const label = PROVIDER_LABELS[options.provider];
          if (error.kind === 'blocked_address') {
            throw new ProviderError(options.provider, 'blocked', `refused to call ${label} at ${new URL(url).origin}: private or loopback address (PARLEY_FETCH_ALLOW_PRIVATE)`);
          }
          // A file over PARLEY_FETCH_MAX_BYTES stays too large: no retry.
          if (error.kind === 'too_large') throw new ProviderError(options.provider, 'unsupported', `unsupported content: ${label} answered more than Parley reads (${error.message.replace(/^.* is larger than /, '')}, PARLEY_FETCH_MAX_BYTES)`);
          // A stopping worker or a client that hung up: not the provider's failure.
          if (error.kind === 'aborted') throw error;
          // Only a failure of the network is worth retrying; a bad URL or a redirect loop stays.
          throw new ProviderError(options.provider, error.retryable ? 'unavailable' : 'invalid', `${label} could not be reached: ${error.message}`);
        }
        throw error;
      }
      if (response.status === 429 && attempt < options.maxRetries) {
        const wait = requestedWaitMs(response.headers) ?? 1000 * 2 ** attempt;
        if (wait <= options.maxRetryWaitMs) {
          await sleep(wait, undefined, signal ? { signal } : {});
          continue;
        }
      }
      const nullBody = response.status === 204 || response.status === 304 || method === 'HEAD';
      return new Response(nullBody ? null : Buffer.from(response.body), { status: response.status, headers: response.headers });
    }
  };
  return call as typeof fetch;
}

/** GET (or another method) of a JSON resource; a non-2xx answer throws the failure it means. */
export async function getJson<T>(
  http: typeof fetch,
  provider: ProviderName,
  url: string,
  what: string,
  init: { headers: Record<string, string>; method?: string; body?: string },
): Promise<T> {
  const response = await http(url, { method: init.method ?? 'GET', headers: { accept: 'application/json', ...init.headers }, ...(init.body ? { body: init.body } : {}) });
  if (!response.ok) throw failureOf(provider, response.status, what);
  try {
    return (await response.json()) as T;
  } catch {
    throw new ProviderError(provider, 'invalid', `${PROVIDER_LABELS[provider]} answered ${what} with a body that is not JSON`);
  }
}

/** Joins an API base and a path, keeping the base's own path (a proxy or a self-hosted wiki's context path). */
export function apiUrl(base: string, path: string, query: Record<string, string | number | undefined> = {}): string {
  const url = new URL(base.replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
  return url.href;
}
