// createParleyClient: openapi-fetch typed by the generated schema, with the key, 429 retries under
// every call, and the conveniences a script writes first (paging, job waits, unwrap).
import createClient, { type Client, defaultBodySerializer } from 'openapi-fetch';
import { type CallResult, unwrap } from './errors.js';
import { type GenerationTarget, type IngestionTarget, type KnowledgeJob, type Source, type WaitOptions, waitForGeneration, waitForIngestion } from './jobs.js';
import type { ListPath } from './list-routes.js';
import { type ListArgs, type ListItem, type ListPage, listItems, listPages } from './paging.js';
import { type RetryOptions, retryingFetch } from './retry.js';
import type { paths } from './schema.js';

export interface ParleyClientOptions {
  /** Where Parley answers, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** A workspace API key, sent as `Authorization: Bearer <key>` (omit it for the public routes only). */
  apiKey?: string;
  /** The fetch to send requests with (default: the global fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /** Retries of 429 answers after their Retry-After (default: 3 retries, waits up to 60 s); `false`: none. */
  retry?: RetryOptions | false;
  /** Headers sent with every request besides the key. */
  headers?: Record<string, string>;
}

/** The conveniences the client adds to openapi-fetch's methods. */
export interface ParleyConveniences {
  /** The data of a call, or a ParleyApiError: `await parley.unwrap(parley.GET('/v2/bots/public'))`. */
  unwrap<T>(call: Promise<CallResult<T>>): Promise<T>;
  /** Every item of a keyset-paged list route, page after page (`params.query` filters the first). */
  paginate<P extends ListPath>(path: P, ...init: ListArgs<P>): AsyncGenerator<ListItem<P>, void, undefined>;
  /** Every page of a list route as answered (`hasMore`, cursors and the items). */
  pages<P extends ListPath>(path: P, ...init: ListArgs<P>): AsyncGenerator<ListPage<P>, void, undefined>;
  /** A source once its ingestion job finished (COMPLETED or FAILED). */
  waitForIngestion(sourceId: string, options?: WaitOptions<Source[]>): Promise<Source>;
  /** The sources of an ingest or upload answer (or ids) once their ingestion jobs finished. */
  waitForIngestion(target: IngestionTarget, options?: WaitOptions<Source[]>): Promise<Source[]>;
  /** A knowledge-generation job once it finished: its id, or the answer of `POST /v2/knowledge/public`. */
  waitForGeneration(job: string | { readonly backgroundJobId: string }, options?: WaitOptions<KnowledgeJob[]>): Promise<KnowledgeJob>;
  /** Knowledge-generation jobs (ids, or the answer of `POST /v2/knowledge/public/bulk`) once each finished. */
  waitForGeneration(target: Exclude<GenerationTarget, { readonly backgroundJobId: string }>, options?: WaitOptions<KnowledgeJob[]>): Promise<KnowledgeJob[]>;
}

/** openapi-fetch's typed methods (`GET`, `POST`, ... with `{ data, error, response }`) and the conveniences. */
export type ParleyClient = Client<paths> & ParleyConveniences;

/**
 * A body with a Blob (a File) among its fields as multipart form data (the upload routes: the
 * generated types make their `binary` fields Blobs), any other as openapi-fetch would send it.
 */
export function serializeBody(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || body instanceof FormData || !Object.values(body).some((v) => v instanceof Blob)) {
    return defaultBodySerializer(body);
  }
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (value instanceof Blob) form.append(name, value, 'name' in value && typeof value.name === 'string' ? value.name : name);
    else form.append(name, String(value));
  }
  return form;
}

/** A client of one Parley with one key. */
export function createParleyClient(options: ParleyClientOptions): ParleyClient {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`;
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    fetch: options.retry === false ? send : retryingFetch(send, options.retry),
    bodySerializer: serializeBody,
    headers,
  });

  async function ingestion(target: string | IngestionTarget, wait?: WaitOptions<Source[]>): Promise<Source | Source[]> {
    const sources = await waitForIngestion(client, typeof target === 'string' ? [target] : target, wait);
    return typeof target === 'string' ? sources[0]! : sources;
  }
  async function generation(target: string | GenerationTarget, wait?: WaitOptions<KnowledgeJob[]>): Promise<KnowledgeJob | KnowledgeJob[]> {
    const single = typeof target === 'string' || 'backgroundJobId' in target;
    const jobs = await waitForGeneration(client, typeof target === 'string' ? [target] : target, wait);
    return single ? jobs[0]! : jobs;
  }

  const conveniences: ParleyConveniences = {
    unwrap,
    paginate: (path, ...init) => listItems(client, path, init[0]),
    pages: (path, ...init) => listPages(client, path, init[0]),
    waitForIngestion: ingestion as ParleyConveniences['waitForIngestion'],
    waitForGeneration: generation as ParleyConveniences['waitForGeneration'],
  };
  return { ...client, ...conveniences };
}
