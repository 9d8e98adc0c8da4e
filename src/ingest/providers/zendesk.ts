import { apiUrl, getJson, ProviderError } from './http.js';
import type { Connector, HelpCenterCategory, ProviderSession } from './types.js';
import { basicAuth, htmlPage } from './types.js';

/**
 * Zendesk Help Center through its REST API (`/api/v2/help_center/...`) with an API token
 * (`{email}/token:{apiToken}`, Basic). Lists follow cursor pagination (`page[size]`, `links.next`).
 */

/** The API base of a connection: `baseUrl` when given, else the subdomain's. */
export function zendeskBase(credentials: Readonly<Record<string, string>>, baseUrl: string | undefined): string {
  return baseUrl ?? `https://${credentials.subdomain}.zendesk.com`;
}

function headers(session: ProviderSession): Record<string, string> {
  return basicAuth(`${session.credentials.email}/token`, session.credentials.apiToken);
}

interface Page {
  meta?: { has_more?: boolean; after_cursor?: string | null };
  links?: { next?: string | null };
  next_page?: string | null;
}

/** Every item of a cursor-paginated list (also the older `next_page` offset pagination). */
async function all<T>(session: ProviderSession, path: string, key: string, what: string): Promise<T[]> {
  const items: T[] = [];
  let url: string | null = apiUrl(session.baseUrl, path, { 'page[size]': 100 });
  const seen = new Set<string>();
  while (url && !seen.has(url)) {
    seen.add(url);
    const page: Page & Record<string, unknown> = await getJson(session.http, 'zendesk', url, what, { headers: headers(session) });
    items.push(...((page[key] as T[] | undefined) ?? []));
    const next: string | null = page.meta ? (page.meta.has_more ? (page.links?.next ?? null) : null) : (page.next_page ?? null);
    // The API answers absolute URLs of its public host; a proxy or a fake keeps the connection's base.
    url = next ? apiUrl(session.baseUrl, new URL(next).pathname + new URL(next).search) : null;
  }
  return items;
}

interface Category { id: number; name: string; position?: number }
interface Section { id: number; name: string; category_id: number; position?: number }
interface Article { id: number; title: string; section_id: number; html_url: string; body: string | null; updated_at: string; draft?: boolean; position?: number }

export const zendeskConnector: Connector = {
  async verify(session) {
    const me = await getJson<{ user?: { id: number | null; email?: string | null; name?: string } }>(
      session.http,
      'zendesk',
      apiUrl(session.baseUrl, '/api/v2/users/me.json'),
      'the signed-in user',
      { headers: headers(session) },
    );
    // Zendesk answers an anonymous user (no id) to requests it did not authenticate.
    if (!me.user?.id) throw new ProviderError('zendesk', 'unauthorized', 'expired connection: Zendesk did not accept the email and API token', 401);
    return { account: me.user.email ?? me.user.name ?? '' };
  },
  async discover(session) {
    const [categories, sections, articles] = await Promise.all([
      all<Category>(session, '/api/v2/help_center/categories.json', 'categories', 'the help center categories'),
      all<Section>(session, '/api/v2/help_center/sections.json', 'sections', 'the help center sections'),
      all<Article>(session, '/api/v2/help_center/articles.json', 'articles', 'the help center articles'),
    ]);
    const tree: HelpCenterCategory[] = categories.map((category) => ({
      externalId: String(category.id),
      title: category.name,
      type: 'category',
      children: sections
        .filter((section) => section.category_id === category.id)
        .map((section) => ({
          externalId: String(section.id),
          title: section.name,
          type: 'section' as const,
          children: articles
            .filter((article) => article.section_id === section.id && !article.draft)
            .map((article) => ({ externalId: String(article.id), title: article.title, originalUrl: article.html_url, type: 'article' as const })),
        })),
    }));
    return { provider: 'zendesk', resources: tree };
  },
  async fetchItem(session, ref, options) {
    // The article endpoint carries the body with `updated_at`: an unchanged article is not extracted again.
    const { article } = await getJson<{ article: Article }>(
      session.http,
      'zendesk',
      apiUrl(session.baseUrl, `/api/v2/help_center/articles/${encodeURIComponent(ref.externalId)}.json`),
      `article ${ref.externalId}`,
      { headers: headers(session) },
    );
    const marker = article.updated_at;
    if (options.refresh && ref.marker === marker) return { kind: 'unchanged', marker };
    return { kind: 'content', marker, body: htmlPage(article.title, article.body ?? ''), contentType: 'text/html', filename: null, title: article.title, url: article.html_url, children: [] };
  },
};
