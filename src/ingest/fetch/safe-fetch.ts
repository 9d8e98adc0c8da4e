// The one door for outbound HTTP to user-supplied URLs (DESIGN.md §6, STYLE.md convention 9).
//
// Server-side request forgery is the threat: a source URL (or a redirect, or a DNS answer) that
// points at loopback, the private network or a cloud metadata endpoint. Defences:
// * only http/https, no credentials in the URL;
// * literal IP hosts are checked before connecting; host names are resolved by our own `lookup`
//   installed on the undici Agent, which refuses the name if ANY address is private and hands the
//   socket only vetted addresses, so the address checked is the address connected to (no
//   time-of-check/time-of-use gap through a second DNS answer);
// * redirects are followed by hand, each hop validated like the first, at most `maxRedirects`;
// * one deadline for the whole request including the body; the body is streamed and cut at
//   `maxBytes` AFTER decompression, so a gzip bomb stops early.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { pipeline } from 'node:stream';
import type { Readable, Transform } from 'node:stream';
import { constants as zlibConstants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent, request as undiciRequest } from 'undici';
import { isPrivateAddress } from './ip-ranges.js';

export { isPrivateAddress } from './ip-ranges.js';

export interface SafeFetchOptions {
  /** PARLEY_FETCH_ALLOW_PRIVATE: lets tests and local setups reach 127.0.0.1 and private ranges. */
  allowPrivate: boolean;
  userAgent: string;
  /** Deadline for the whole request, redirects and body included. */
  timeoutMs: number;
  /** Cap on the (decompressed) body. */
  maxBytes: number;
  maxRedirects: number;
  /**
   * Which resolved or literal addresses to refuse. Defaults to isPrivateAddress, or to nothing when
   * allowPrivate is set. Tests use it to block one loopback address while reaching another.
   */
  isBlockedAddress?: (ip: string) => boolean;
  /** DNS resolution of a host name to all its addresses; tests inject one to prove DNS pinning. */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
}

export type FetchMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface FetchRequest {
  url: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  method?: FetchMethod;
  /** A request body (POST, PUT, PATCH, DELETE); resent only on a 307/308 redirect. */
  body?: string;
  /** Per-request limits under the fetcher's own (actions call with tighter ones). */
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
}

export interface FetchedResource {
  /** Final URL after redirects. */
  url: string;
  /** Final status; non-2xx answers are returned, not thrown. */
  status: number;
  /** Response headers, lower-case names, repeated headers joined with ', '. */
  headers: Record<string, string>;
  /** MIME type in lower case without parameters. */
  contentType: string | null;
  /** The charset parameter of Content-Type, lower case. */
  charset: string | null;
  /** Decompressed body, at most maxBytes. */
  body: Uint8Array;
  /** URLs visited before the final one. */
  redirects: string[];
}

export type FetchFailureKind =
  | 'invalid_url'
  | 'blocked_address'
  | 'dns'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'network'
  | 'aborted';

/** A request that produced no HTTP answer; `message` is written for the person who gave the URL. */
export class FetchError extends Error {
  constructor(
    readonly kind: FetchFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'FetchError';
  }

  /** Worth trying again later: the network, not the request, failed. */
  get retryable(): boolean {
    return this.kind === 'timeout' || this.kind === 'network' || this.kind === 'dns';
  }
}

export type SafeFetch = (request: FetchRequest) => Promise<FetchedResource>;

/** A SafeFetch that owns a connection pool; `close()` ends its keep-alive connections. */
export type ClosableSafeFetch = SafeFetch & { close: () => Promise<void> };

export const DEFAULT_SAFE_FETCH_OPTIONS = {
  timeoutMs: 20_000,
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 5,
} as const;

const DEFAULT_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5';
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers that must not follow a redirect to another origin. */
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/** Raised inside the Agent's lookup so the caller can tell a refusal from a DNS failure. */
class BlockedAddressError extends Error {
  constructor(readonly address: string) {
    super(`blocked address ${address}`);
  }
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The Agent's `connect.lookup`: resolves every address of the name, refuses the name if any of them
 * is private, and gives the socket only the vetted addresses.
 */
function createVettingLookup(isBlocked: (ip: string) => boolean, resolve: (hostname: string) => Promise<LookupAddress[]>) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname)
      .then((addresses) => {
        if (addresses.length === 0) throw Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' });
        const blocked = addresses.find((entry) => isBlocked(entry.address));
        if (blocked) throw new BlockedAddressError(blocked.address);
        const first = addresses[0] as LookupAddress;
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      })
      .catch((error: Error) => callback(error, ''));
  };
}

/** Validates one hop's URL: scheme, credentials, and a literal IP host (names are vetted at connect). */
function validateTarget(raw: string, isBlocked: (ip: string) => boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError('invalid_url', `refused to fetch ${raw}: not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchError('invalid_url', `refused to fetch ${url.href}: only http and https URLs can be fetched`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new FetchError('invalid_url', `refused to fetch ${url.protocol}//${url.host}${url.pathname}: URLs with credentials are not allowed`);
  }
  // Sockets skip `lookup` for literal IPs, so those are checked here.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && isBlocked(host)) throw blockedError(url.href);
  return url;
}

function blockedError(url: string): FetchError {
  return new FetchError('blocked_address', `refused to fetch ${url}: private or loopback address`);
}

/** Maps whatever undici or the lookup threw to one FetchError. */
function classifyError(error: unknown, url: string, signals: { caller?: AbortSignal; deadline: AbortSignal; timeoutMs: number }): FetchError {
  if (error instanceof FetchError) return error;
  if (signals.caller?.aborted) return new FetchError('aborted', `fetching ${url} was cancelled`);
  if (signals.deadline.aborted) {
    return new FetchError('timeout', `fetching ${url} took longer than ${Math.round(signals.timeoutMs / 1000)} s`);
  }
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof BlockedAddressError) return blockedError(url);
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_NODATA') {
      return new FetchError('dns', `could not resolve the host of ${url}`);
    }
  }
  const detail = error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error);
  return new FetchError('network', `could not fetch ${url}: ${detail}`);
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** Splits `text/html; charset="UTF-8"` into its lower-case MIME type and charset. */
export function parseContentType(value: string | undefined): { contentType: string | null; charset: string | null } {
  if (!value) return { contentType: null, charset: null };
  const [type = '', ...params] = value.split(';');
  const contentType = type.trim().toLowerCase() || null;
  let charset: string | null = null;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    charset = param.slice(eq + 1).trim().replace(/^"|"$/g, '').toLowerCase() || null;
  }
  return { contentType, charset };
}

/** Decoders for a Content-Encoding list, in the order they must be applied (reverse of encoding). */
function decodersFor(contentEncoding: string | undefined): Transform[] | null {
  if (!contentEncoding) return [];
  const codings = contentEncoding.split(',').map((coding) => coding.trim().toLowerCase()).filter((c) => c && c !== 'identity');
  const decoders: Transform[] = [];
  // Truncated streams are common on the web; browsers keep what decoded, so do we.
  const lenient = { finishFlush: zlibConstants.Z_SYNC_FLUSH };
  for (const coding of codings.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(createGunzip(lenient));
    else if (coding === 'deflate') decoders.push(createInflate(lenient));
    else if (coding === 'br') decoders.push(createBrotliDecompress({ finishFlush: zlibConstants.BROTLI_OPERATION_FLUSH }));
    else return null;
  }
  return decoders;
}

/** Reads the body through its decoders, stopping as soon as the decoded size passes `maxBytes`. */
async function readBody(body: Readable, contentEncoding: string | undefined, maxBytes: number, url: string): Promise<Uint8Array> {
  const decoders = decodersFor(contentEncoding);
  if (decoders === null) {
    body.destroy();
    throw new FetchError('network', `could not fetch ${url}: unsupported content encoding "${contentEncoding ?? ''}"`);
  }
  const stream: Readable = decoders.length === 0 ? body : (pipeline([body, ...decoders], () => undefined) as unknown as Readable);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size > maxBytes) {
        throw new FetchError('too_large', `${url} is larger than ${formatBytes(maxBytes)}`);
      }
      chunks.push(buffer);
    }
  } catch (error) {
    body.destroy();
    if (error instanceof FetchError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code.startsWith('Z_') || code.startsWith('ERR_BROTLI') || code.startsWith('ERR__ERROR')) {
      throw new FetchError('network', `could not fetch ${url}: the compressed body is corrupt`);
    }
    throw error;
  }
  return new Uint8Array(Buffer.concat(chunks, size));
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

function buildHeaders(userAgent: string, extra: Record<string, string> | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': userAgent,
    accept: DEFAULT_ACCEPT,
    'accept-encoding': 'gzip, deflate, br',
  };
  for (const [name, value] of Object.entries(extra ?? {})) headers[name.toLowerCase()] = value;
  return headers;
}

/**
 * Builds the fetcher the ingestion pipeline and the crawler use for every user-supplied URL. One
 * pooled Agent per fetcher: keep-alive, at most 6 connections per origin.
 */
export function createSafeFetch(options: SafeFetchOptions): ClosableSafeFetch {
  const isBlocked = options.isBlockedAddress ?? (options.allowPrivate ? () => false : isPrivateAddress);
  const resolve = options.resolve ?? ((hostname: string) => dnsLookup(hostname, { all: true, verbatim: true }));
  const agent = new Agent({
    connections: 6,
    keepAliveTimeout: 4_000,
    connect: { lookup: createVettingLookup(isBlocked, resolve), timeout: Math.min(options.timeoutMs, 10_000) },
  });

  async function fetchOnce(request: FetchRequest): Promise<FetchedResource> {
    const timeoutMs = Math.min(request.timeoutMs ?? options.timeoutMs, options.timeoutMs);
    const maxBytes = Math.min(request.maxBytes ?? options.maxBytes, options.maxBytes);
    const maxRedirects = Math.min(request.maxRedirects ?? options.maxRedirects, options.maxRedirects);
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline;
    const signals = { caller: request.signal, deadline, timeoutMs };
    let method: FetchMethod = request.method ?? 'GET';
    let requestBody = request.body;
    let headers = buildHeaders(options.userAgent, request.headers);
    const redirects: string[] = [];
    let current = validateTarget(request.url, isBlocked);

    for (;;) {
      if (signal.aborted) throw classifyError(signal.reason, current.href, signals);
      let response: Awaited<ReturnType<typeof undiciRequest>>;
      try {
        response = await undiciRequest(current, { method, headers, signal, dispatcher: agent, ...(requestBody !== undefined ? { body: requestBody } : {}) });
      } catch (error) {
        throw classifyError(error, current.href, signals);
      }
      const responseHeaders = flattenHeaders(response.headers);
      const location = responseHeaders.location;
      if (REDIRECT_STATUSES.has(response.statusCode) && location) {
        await response.body.dump().catch(() => undefined);
        redirects.push(current.href);
        if (redirects.length > maxRedirects) {
          throw new FetchError('too_many_redirects', `${request.url} redirected more than ${maxRedirects} times`);
        }
        let next: URL;
        try {
          next = new URL(location, current);
        } catch {
          throw new FetchError('invalid_url', `${current.href} redirected to an invalid URL`);
        }
        next = validateTarget(next.href, isBlocked);
        if (next.origin !== current.origin) headers = withoutOriginBoundHeaders(headers);
        // RFC 9110 §15.4: 307/308 repeat the request as it was; a 303 (and, as every client does, a
        // 301/302 of a POST) continues with GET and no body. HEAD stays HEAD.
        const keepsMethod = response.statusCode === 307 || response.statusCode === 308;
        if (!keepsMethod && method !== 'HEAD' && (response.statusCode === 303 || method === 'POST')) {
          method = 'GET';
          requestBody = undefined;
          delete headers['content-type'];
        }
        current = next;
        continue;
      }
      let body: Uint8Array = new Uint8Array();
      try {
        if (method === 'HEAD') await response.body.dump();
        else body = await readBody(response.body, responseHeaders['content-encoding'], maxBytes, current.href);
      } catch (error) {
        throw classifyError(error, current.href, signals);
      }
      return { url: current.href, status: response.statusCode, headers: responseHeaders, ...parseContentType(responseHeaders['content-type']), body, redirects };
    }
  }

  const safeFetch = (request: FetchRequest): Promise<FetchedResource> => fetchOnce(request);
  return Object.assign(safeFetch, { close: () => agent.close() });
}

function withoutOriginBoundHeaders(headers: Record<string, string>): Record<string, string> {
  const copy = { ...headers };
  for (const name of ORIGIN_BOUND_HEADERS) delete copy[name];
  return copy;
}

/** The user-facing reason a page could not be used, or null when the status is a usable answer. */
export function describeHttpStatus(status: number): string | null {
  if ((status >= 200 && status < 300) || status === 304) return null;
  if (status === 401 || status === 403) return `the page needs authentication (HTTP ${status})`;
  if (status === 404 || status === 410) return `page not found (HTTP ${status})`;
  if (status === 429) return 'rate limited by the site (HTTP 429)';
  return `the site answered HTTP ${status}`;
}
