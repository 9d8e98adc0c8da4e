import { apiUrl, getJson, ProviderError } from './http.js';
import type { Connector, ProviderSession, WikiSpace } from './types.js';
import { basicAuth, htmlPage } from './types.js';

/**
 * Confluence through its REST API (`{base}/rest/api/...`) with an API token (Basic `email:token`).
 * The base is the wiki's: `https://acme.atlassian.net/wiki` on Cloud (`/wiki` is added to an
 * atlassian.net host without it), the context path of a self-hosted wiki. Lists page by
 * `start`/`limit` while `_links.next` says more follow. Pages are storage-format HTML.
 */

export function confluenceBase(baseUrl: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  if (url.hostname.endsWith('.atlassian.net') && !path.endsWith('/wiki')) return `${url.origin}${path}/wiki`;
  return `${url.origin}${path}`;
}

function headers(session: ProviderSession): Record<string, string> {
  return basicAuth(session.credentials.email, session.credentials.apiToken);
}

interface Links { webui?: string; base?: string; next?: string }
interface Listing<T> { results: T[]; size?: number; _links?: Links }
interface Space { key: string; name: string; _links?: Links }
interface Content { id: string; title: string; type?: string; status?: string; version?: { number: number }; body?: { storage?: { value: string } }; _links?: Links }

const LIMIT = 100;

async function all<T>(session: ProviderSession, path: string, query: Record<string, string>, what: string): Promise<{ items: T[]; base: string }> {
  const items: T[] = [];
  let base = session.baseUrl;
  for (let start = 0; ; ) {
    const page = await getJson<Listing<T>>(session.http, 'confluence', apiUrl(session.baseUrl, path, { ...query, limit: LIMIT, start }), what, { headers: headers(session) });
    items.push(...page.results);
    if (page._links?.base) base = page._links.base;
    if (!page._links?.next || page.results.length === 0) break;
    start += page.results.length;
  }
  return { items, base };
}

function webUrl(base: string, links: Links | undefined, fallback: string): string {
  return links?.webui ? `${(links.base ?? base).replace(/\/+$/, '')}${links.webui}` : fallback;
}

/** A page's address in the wiki, or the address every Confluence answers for a page id. */
function pageUrl(base: string, links: Links | undefined, id: string): string {
  return webUrl(base, links, `${base}/pages/viewpage.action?pageId=${id}`);
}

export const confluenceConnector: Connector = {
  async verify(session) {
    const me = await getJson<{ type?: string; displayName?: string; email?: string; accountId?: string }>(
      session.http,
      'confluence',
      apiUrl(session.baseUrl, '/rest/api/user/current'),
      'the signed-in user',
      { headers: headers(session) },
    );
    if (me.type === 'anonymous') throw new ProviderError('confluence', 'unauthorized', 'expired connection: Confluence did not accept the email and API token', 401);
    return { account: me.email ?? me.displayName ?? '' };
  },
  async discover(session) {
    const { items: spaces, base } = await all<Space>(session, '/rest/api/space', { type: 'global' }, 'the spaces');
    const resources: WikiSpace[] = [];
    for (const space of spaces) {
      const { items: pages } = await all<Content>(session, '/rest/api/content', { spaceKey: space.key, type: 'page', status: 'current' }, `the pages of space ${space.key}`);
      resources.push({
        key: space.key,
        title: space.name,
        originalUrl: webUrl(base, space._links, `${base}/spaces/${space.key}`),
        pages: pages.map((page) => ({ externalId: page.id, title: page.title, originalUrl: pageUrl(base, page._links, page.id) })),
      });
    }
    return { provider: 'confluence', resources };
  },
  async fetchItem(session, ref, options) {
    const path = `/rest/api/content/${encodeURIComponent(ref.externalId)}`;
    const what = `page ${ref.externalId}`;
    if (options.refresh && ref.marker !== null) {
      // The version number first, without the body: an unchanged page costs one small request.
      const head = await getJson<Content>(session.http, 'confluence', apiUrl(session.baseUrl, path, { expand: 'version' }), what, { headers: headers(session) });
      const marker = String(head.version?.number ?? '');
      if (marker && marker === ref.marker) return { kind: 'unchanged', marker };
    }
    const page = await getJson<Content>(session.http, 'confluence', apiUrl(session.baseUrl, path, { expand: 'body.storage,version' }), what, { headers: headers(session) });
    if (page.status === 'trashed') throw new ProviderError('confluence', 'not_found', `lost permission: Confluence page ${ref.externalId} is in the trash`, 404);
    const storage = page.body?.storage?.value;
    if (storage === undefined) throw new ProviderError('confluence', 'unsupported', `unsupported content: Confluence page ${ref.externalId} has no storage-format body`);
    return {
      kind: 'content',
      marker: String(page.version?.number ?? ''),
      body: htmlPage(page.title, storage),
      contentType: 'text/html',
      filename: null,
      title: page.title,
      url: pageUrl(session.baseUrl, page._links, ref.externalId),
      children: [],
    };
  },
};
