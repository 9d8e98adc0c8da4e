// Keyset paging as async iterators: `for await (const article of parley.paginate('/v2/hc-articles/public'))`.
// Each list route names its items and its cursor differently (the wire names are the
// specification's); LIST_ROUTES, generated from the OpenAPI document, says how for each.
import type { Client, FetchOptions } from 'openapi-fetch';
import { unwrap } from './errors.js';
import { LIST_ROUTES, type ListPath } from './list-routes.js';
import type { paths } from './schema.js';

/** How `paginate` asks for the next page of a keyset-paged list route (generated into LIST_ROUTES). */
export interface ListRoute {
  /** The answer's field that holds the page's items. */
  readonly items: string;
  /** The query parameter that takes the cursor. */
  readonly cursorParam: string;
  /** The answer's field holding the cursor of the next page (walking with `direction=next`), when it has one. */
  readonly nextCursor?: string;
  /** The answer's field holding the cursor of the previous page (`direction=previous`), when it has one. */
  readonly prevCursor?: string;
  /** Query parameters taken from the page's last item (the first, walking back): parameter -> item field. */
  readonly fromItem: Readonly<Record<string, string>>;
}

/** The answer of one page of a list route. */
export type ListPage<P extends ListPath> = paths[P]['get'] extends { responses: { 200: { content: { 'application/json': infer Body } } } } ? Body : never;

/** One item of a list route (an article, a source, a conversation...). */
export type ListItem<P extends ListPath> =
  ListPage<P>[(typeof LIST_ROUTES)[P]['items'] & keyof ListPage<P>] extends readonly (infer Item)[] ? Item : never;

/** The options of the first page: its `params` (path and query: filters, `limit`, `direction`), `signal`, headers. */
export type ListInit<P extends ListPath> = FetchOptions<paths[P]['get']>;

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/** The init argument: required when the route has path parameters. */
export type ListArgs<P extends ListPath> = RequiredKeys<ListInit<P>> extends never ? [init?: ListInit<P>] : [init: ListInit<P>];

type Query = Record<string, unknown>;
type LooseInit = { params?: { query?: Query; path?: Record<string, unknown> } } & Record<string, unknown>;
type LooseGet = (path: string, init: LooseInit) => Promise<{ data?: Record<string, unknown>; error?: unknown; response: Response }>;

/**
 * The query parameters that ask for the page after `page`, or undefined when it is the last.
 * Walking back (`direction=previous`) the cursor is the answer's `prevCursor`, or its first item's.
 */
export function nextPageQuery(route: ListRoute, page: Record<string, unknown>, backward: boolean): Query | undefined {
  if (page.hasMore !== true) return undefined;
  const items = page[route.items];
  if (!Array.isArray(items) || items.length === 0) return undefined;
  const field = backward ? route.prevCursor : route.nextCursor;
  const query: Query = {};
  if (field !== undefined) {
    const cursor = page[field];
    if (typeof cursor !== 'string') return undefined;
    query[route.cursorParam] = cursor;
  }
  const edge = (backward ? items[0] : items.at(-1)) as Record<string, unknown>;
  for (const [param, itemField] of Object.entries(route.fromItem)) query[param] = edge[itemField];
  if (query[route.cursorParam] === undefined) return undefined;
  return query;
}

/** Every page of a list route, as answered, from the one `init` asks for to the last. */
export async function* listPages<P extends ListPath>(client: Client<paths>, path: P, init?: ListInit<P>): AsyncGenerator<ListPage<P>, void, undefined> {
  const route: ListRoute = LIST_ROUTES[path];
  const first = (init ?? {}) as LooseInit;
  const query: Query = { ...first.params?.query };
  const backward = query.direction === 'previous';
  const get = client.GET as unknown as LooseGet;
  for (;;) {
    const page = await unwrap(get(path, { ...first, params: { ...first.params, query } }));
    yield page as ListPage<P>;
    const next = nextPageQuery(route, page, backward);
    if (!next) return;
    Object.assign(query, next);
  }
}

/** Every item of a list route, page after page, each once and in the route's order. */
export async function* listItems<P extends ListPath>(client: Client<paths>, path: P, init?: ListInit<P>): AsyncGenerator<ListItem<P>, void, undefined> {
  const route: ListRoute = LIST_ROUTES[path];
  for await (const page of listPages(client, path, init)) {
    yield* (page as Record<string, unknown>)[route.items] as ListItem<P>[];
  }
}
