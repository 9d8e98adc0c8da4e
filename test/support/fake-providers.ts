// No network guard import here: bench/providers runs these fakes too. Tests get the guard from the
// test runner (scripts/test.mjs) and from test/support/app.ts.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RecordedRequest, recordingServer } from './recording-server.js';

/**
 * Notion, Zendesk Help Center, Confluence and Google Drive on 127.0.0.1, speaking each API's wire
 * format as their public references describe it: paths, auth headers, pagination (Notion
 * `start_cursor`/`next_cursor`, Zendesk cursor `page[size]`/`page[after]` with absolute
 * `links.next` on the public host, Confluence `start`/`limit` with `_links.next`), error bodies and
 * 429 with Retry-After. Every request is recorded for the tests to assert on. One server serves the
 * four (Notion under `/v1`, Zendesk under `/api/v2`, Confluence under `/wiki/rest/api`, Drive under
 * `/drive/v3`, the service account token endpoint at `/token`). `pageSize` caps every listing, so
 * a few resources span several pages.
 */

export interface NotionBlock {
  type: string;
  text?: string;
  /** Nested blocks (toggles, lists): `has_children` and their own children listing. */
  children?: NotionBlock[];
  /** For `child_page` / `child_database` blocks: the page id or the database id. */
  id?: string;
  title?: string;
}

export interface FakeNotionPage {
  id: string;
  title: string;
  lastEdited: string;
  blocks: NotionBlock[];
  icon?: string;
  /** Properties of a database row, shown as text. */
  properties?: Record<string, string>;
}

export interface FakeDataSource {
  id: string;
  databaseId: string;
  title: string;
  lastEdited: string;
  rows: string[];
}

export interface FakeZendeskArticle {
  id: number;
  sectionId: number;
  title: string;
  body: string;
  updatedAt: string;
  draft?: boolean;
}

export interface FakeConfluencePage {
  id: string;
  spaceKey: string;
  title: string;
  body: string;
  version: number;
}

export interface FakeDriveFile {
  id: string;
  name: string;
  mimeType: string;
  modifiedTime: string;
  /** The bytes of a binary file, or the HTML a Google Doc exports to. */
  content: Buffer | string;
}

export type { RecordedRequest };

export const CREDENTIALS = {
  notionToken: 'ntn_fake_secret_4242',
  zendeskEmail: 'ops@acme.test',
  zendeskToken: 'zd-token-9f8e7d',
  confluenceEmail: 'wiki@acme.test',
  confluenceToken: 'atl-token-1a2b3c',
  driveToken: 'ya29.fake-drive-token',
};

export interface FakeProviders {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Caps every listing's page size (the APIs' own maximum is 100). */
  pageSize: number;
  readonly notion: { pages: Map<string, FakeNotionPage>; dataSources: Map<string, FakeDataSource>; searchable: string[] };
  readonly zendesk: { categories: { id: number; name: string }[]; sections: { id: number; categoryId: number; name: string }[]; articles: Map<number, FakeZendeskArticle> };
  readonly confluence: { spaces: { key: string; name: string }[]; pages: Map<string, FakeConfluencePage> };
  readonly drive: { files: Map<string, FakeDriveFile>; serviceAccountEmail: string };
  /** The next `times` requests whose path matches answer `status` (429 with `retryAfter` seconds). */
  fail(pattern: RegExp, status: number, options?: { times?: number; retryAfter?: string }): void;
  /** Forgets the failures not yet answered. */
  clearFailures(): void;
  /** Requests since `since` (an index into `requests`) whose path matches. */
  since(since: number, pattern?: RegExp): RecordedRequest[];
  close(): Promise<void>;
}

function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

const richText = (text: string) => [{ type: 'text', text: { content: text, link: null }, annotations: { bold: false, italic: false, strikethrough: false, underline: false, code: false, color: 'default' }, plain_text: text, href: null }];

export async function startFakeProviders(): Promise<FakeProviders> {
  const requests: RecordedRequest[] = [];
  const failures: { pattern: RegExp; status: number; times: number; retryAfter?: string }[] = [];
  const notion: FakeProviders['notion'] = { pages: new Map(), dataSources: new Map(), searchable: [] };
  const zendesk: FakeProviders['zendesk'] = { categories: [], sections: [], articles: new Map() };
  const confluence: FakeProviders['confluence'] = { spaces: [], pages: new Map() };
  const drive: FakeProviders['drive'] = { files: new Map(), serviceAccountEmail: 'parley@acme-project.iam.gserviceaccount.com' };
  /** Block ids of nested blocks, to their children. */
  const nested = new Map<string, NotionBlock[]>();
  const driveTokens = new Set([CREDENTIALS.driveToken]);
  let base = '';

  const send = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(value));

  const window = <T>(items: T[], start: number, size: number) => ({ items: items.slice(start, start + size), more: start + size < items.length });

  // ---- Notion (API version 2025-09-03) ----
  const notionError = (res: ServerResponse, status: number, code: string, message: string) => send(res, status, { object: 'error', status, code, message, request_id: randomUUID() });
  const pageObject = (page: FakeNotionPage, parent: unknown = { type: 'workspace', workspace: true }) => ({
    object: 'page',
    id: page.id,
    created_time: '2026-01-01T00:00:00.000Z',
    last_edited_time: page.lastEdited,
    archived: false,
    in_trash: false,
    icon: page.icon ? { type: 'emoji', emoji: page.icon } : null,
    parent,
    url: `https://www.notion.so/${page.title.replace(/\W+/g, '-')}-${page.id.replace(/-/g, '')}`,
    properties: {
      ...Object.fromEntries(Object.entries(page.properties ?? {}).map(([name, value]) => [name, { id: name, type: 'rich_text', rich_text: richText(value) }])),
      title: { id: 'title', type: 'title', title: richText(page.title) },
    },
  });
  const blockObject = (block: NotionBlock, parentId: string, index: number) => {
    const idDashed = block.id ?? dashed(createHash('md5').update(`${parentId}/${index}`).digest('hex'));
    if (block.children?.length) nested.set(idDashed, block.children);
    const content =
      block.type === 'child_page' || block.type === 'child_database'
        ? { title: block.title ?? '' }
        : block.type === 'code'
          ? { rich_text: richText(block.text ?? ''), language: 'plain text' }
          : block.type === 'to_do'
            ? { rich_text: richText(block.text ?? ''), checked: false }
            : { rich_text: richText(block.text ?? '') };
    return { object: 'block', id: idDashed, type: block.type, has_children: Boolean(block.children?.length), archived: false, in_trash: false, [block.type]: content };
  };
  const listing = (res: ServerResponse, all: unknown[], cursor: string | null, size: number, type: string) => {
    const start = cursor ? Number(cursor) : 0;
    const { items, more } = window(all, start, Math.min(size, fake.pageSize));
    return send(res, 200, { object: 'list', results: items, next_cursor: more ? String(start + items.length) : null, has_more: more, type, [type]: {} });
  };

  function handleNotion(req: IncomingMessage, res: ServerResponse, route: string, query: URLSearchParams, body: string) {
    if (req.headers.authorization !== `Bearer ${CREDENTIALS.notionToken}`) return notionError(res, 401, 'unauthorized', 'API token is invalid.');
    if (!req.headers['notion-version']) return notionError(res, 400, 'missing_version', 'Notion-Version header failed validation: Notion-Version header should be defined, instead was `undefined`.');
    const input = body ? (JSON.parse(body) as { page_size?: number; start_cursor?: string }) : {};
    let m: RegExpExecArray | null;
    if (route === '/v1/users/me') return send(res, 200, { object: 'user', id: 'b0t-0000', type: 'bot', name: 'Parley import', bot: { owner: { type: 'workspace', workspace: true }, workspace_name: 'Acme Support' } });
    if (route === '/v1/search' && req.method === 'POST') {
      const results = notion.searchable.map((id) => {
        const page = notion.pages.get(id);
        if (page) return pageObject(page);
        const source = notion.dataSources.get(id)!;
        return { object: 'data_source', id: source.id, title: richText(source.title), description: [], last_edited_time: source.lastEdited, icon: null, url: `https://www.notion.so/${source.databaseId.replace(/-/g, '')}`, parent: { type: 'database_id', database_id: source.databaseId } };
      });
      return listing(res, results, input.start_cursor ?? null, input.page_size ?? 100, 'page_or_data_source');
    }
    if ((m = /^\/v1\/pages\/([^/]+)$/.exec(route))) {
      const page = notion.pages.get(m[1]!);
      return page ? send(res, 200, pageObject(page)) : notionError(res, 404, 'object_not_found', `Could not find page with ID: ${m[1]}. Make sure the relevant pages and databases are shared with your integration.`);
    }
    if ((m = /^\/v1\/blocks\/([^/]+)\/children$/.exec(route))) {
      const id = m[1]!;
      const blocks = notion.pages.get(id)?.blocks ?? nested.get(id);
      if (!blocks) return notionError(res, 404, 'object_not_found', `Could not find block with ID: ${id}.`);
      return listing(res, blocks.map((b, i) => blockObject(b, id, i)), query.get('start_cursor'), Number(query.get('page_size') ?? 100), 'block');
    }
    if ((m = /^\/v1\/databases\/([^/]+)$/.exec(route))) {
      const source = [...notion.dataSources.values()].find((s) => s.databaseId === m![1]);
      if (!source) return notionError(res, 404, 'object_not_found', `Could not find database with ID: ${m[1]}.`);
      return send(res, 200, { object: 'database', id: source.databaseId, title: richText(source.title), data_sources: [{ id: source.id, name: source.title }] });
    }
    if ((m = /^\/v1\/data_sources\/([^/]+)(\/query)?$/.exec(route))) {
      const source = notion.dataSources.get(m[1]!);
      if (!source) return notionError(res, 404, 'object_not_found', `Could not find data source with ID: ${m[1]}.`);
      if (!m[2]) return send(res, 200, { object: 'data_source', id: source.id, title: richText(source.title), description: [], last_edited_time: source.lastEdited, url: `https://www.notion.so/${source.databaseId.replace(/-/g, '')}`, properties: {} });
      if (req.method !== 'POST') return notionError(res, 405, 'invalid_request', 'method not allowed');
      const rows = source.rows.map((id) => pageObject(notion.pages.get(id)!, { type: 'data_source_id', data_source_id: source.id }));
      return listing(res, rows, input.start_cursor ?? null, input.page_size ?? 100, 'page_or_data_source');
    }
    return notionError(res, 400, 'invalid_request_url', 'Invalid request URL.');
  }

  // ---- Zendesk Help Center ----
  function handleZendesk(req: IncomingMessage, res: ServerResponse, route: string, query: URLSearchParams) {
    if (route === '/api/v2/users/me.json') {
      // Zendesk answers an anonymous user to a request it did not authenticate.
      const ok = req.headers.authorization === basic(`${CREDENTIALS.zendeskEmail}/token`, CREDENTIALS.zendeskToken);
      return send(res, 200, { user: ok ? { id: 9001, name: 'Support Ops', email: CREDENTIALS.zendeskEmail, role: 'admin' } : { id: null, name: 'Anonymous user', email: 'invalid@example.com', role: 'end-user' } });
    }
    if (req.headers.authorization !== basic(`${CREDENTIALS.zendeskEmail}/token`, CREDENTIALS.zendeskToken)) return send(res, 401, { error: "Couldn't authenticate you" });
    const list = (key: string, all: unknown[]) => {
      const size = Math.min(Number(query.get('page[size]') ?? 30), 100, fake.pageSize);
      const start = query.get('page[after]') ? Number(Buffer.from(query.get('page[after]')!, 'base64url').toString()) : 0;
      const { items, more } = window(all, start, size);
      const after = more ? Buffer.from(String(start + items.length)).toString('base64url') : null;
      const next = new URL(`https://acme.zendesk.com${route}`);
      next.searchParams.set('page[size]', String(size));
      if (after) next.searchParams.set('page[after]', after);
      return send(res, 200, { [key]: items, meta: { has_more: more, after_cursor: after, before_cursor: null }, links: { first: null, last: null, prev: null, next: after ? next.href : null } });
    };
    const articleObject = (a: FakeZendeskArticle) => ({
      id: a.id,
      url: `https://acme.zendesk.com/api/v2/help_center/en-us/articles/${a.id}.json`,
      html_url: `https://acme.zendesk.com/hc/en-us/articles/${a.id}`,
      title: a.title,
      body: a.body,
      section_id: a.sectionId,
      draft: a.draft ?? false,
      locale: 'en-us',
      updated_at: a.updatedAt,
    });
    let m: RegExpExecArray | null;
    if (route === '/api/v2/help_center/categories.json') return list('categories', zendesk.categories.map((c) => ({ id: c.id, name: c.name })));
    if (route === '/api/v2/help_center/sections.json') return list('sections', zendesk.sections.map((s) => ({ id: s.id, name: s.name, category_id: s.categoryId })));
    if (route === '/api/v2/help_center/articles.json') return list('articles', [...zendesk.articles.values()].map(articleObject));
    if ((m = /^\/api\/v2\/help_center\/articles\/(\d+)\.json$/.exec(route))) {
      const article = zendesk.articles.get(Number(m[1]));
      return article ? send(res, 200, { article: articleObject(article) }) : send(res, 404, { error: 'RecordNotFound', description: 'Not found' });
    }
    return send(res, 404, { error: 'InvalidEndpoint', description: 'Not found' });
  }

  // ---- Confluence (REST API v1, context path /wiki) ----
  function handleConfluence(req: IncomingMessage, res: ServerResponse, route: string, query: URLSearchParams) {
    const wiki = `${base}/wiki`;
    const ok = req.headers.authorization === basic(CREDENTIALS.confluenceEmail, CREDENTIALS.confluenceToken);
    if (route === '/wiki/rest/api/user/current') {
      return ok
        ? send(res, 200, { type: 'known', accountId: '5b10ac8d', email: CREDENTIALS.confluenceEmail, displayName: 'Wiki Ops' })
        : send(res, 401, { statusCode: 401, message: 'Client must be authenticated to access this resource.' });
    }
    if (!ok) return send(res, 401, { statusCode: 401, message: 'Client must be authenticated to access this resource.' });
    const list = (all: unknown[]) => {
      const limit = Math.min(Number(query.get('limit') ?? 25), fake.pageSize);
      const start = Number(query.get('start') ?? 0);
      const { items, more } = window(all, start, limit);
      const next = new URLSearchParams(query);
      next.set('start', String(start + items.length));
      return send(res, 200, { results: items, start, limit, size: items.length, _links: { base: wiki, context: '/wiki', self: `${wiki}${route.slice(5)}`, ...(more ? { next: `${route.slice(5)}?${next}` } : {}) } });
    };
    const contentObject = (p: FakeConfluencePage, expand: string) => ({
      id: p.id,
      type: 'page',
      status: 'current',
      title: p.title,
      ...(expand.includes('version') ? { version: { number: p.version, when: '2026-11-01T10:00:00.000Z' } } : {}),
      ...(expand.includes('body.storage') ? { body: { storage: { value: p.body, representation: 'storage' } } } : {}),
      _links: { webui: `/spaces/${p.spaceKey}/pages/${p.id}`, self: `${wiki}/rest/api/content/${p.id}` },
    });
    let m: RegExpExecArray | null;
    if (route === '/wiki/rest/api/space') return list(confluence.spaces.map((s) => ({ key: s.key, name: s.name, type: 'global', _links: { webui: `/spaces/${s.key}` } })));
    if (route === '/wiki/rest/api/content') {
      return list([...confluence.pages.values()].filter((p) => p.spaceKey === query.get('spaceKey')).map((p) => contentObject(p, '')));
    }
    if ((m = /^\/wiki\/rest\/api\/content\/(\d+)$/.exec(route))) {
      const page = confluence.pages.get(m[1]!);
      return page ? send(res, 200, contentObject(page, query.get('expand') ?? '')) : send(res, 404, { statusCode: 404, message: `No content found with id: ContentId{id=${m[1]}}` });
    }
    return send(res, 404, { statusCode: 404, message: 'null for uri' });
  }

  // ---- Google Drive v3 and the OAuth token endpoint ----
  function handleDrive(req: IncomingMessage, res: ServerResponse, route: string, query: URLSearchParams, body: string) {
    const driveError = (status: number, reason: string, message: string) =>
      send(res, status, { error: { code: status, message, errors: [{ message, domain: 'global', reason }], status: status === 401 ? 'UNAUTHENTICATED' : status === 404 ? 'NOT_FOUND' : 'PERMISSION_DENIED' } });
    if (route === '/token') {
      const form = new URLSearchParams(body);
      const assertion = form.get('assertion') ?? '';
      const claims = JSON.parse(Buffer.from(assertion.split('.')[1] ?? '', 'base64url').toString() || '{}') as { iss?: string; scope?: string };
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' || claims.iss !== drive.serviceAccountEmail) {
        return send(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
      }
      const token = `ya29.sa-${randomUUID()}`;
      driveTokens.add(token);
      return send(res, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
    }
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ') || !driveTokens.has(auth.slice(7))) return driveError(401, 'authError', 'Request had invalid authentication credentials.');
    if (route === '/drive/v3/about') return send(res, 200, { user: { kind: 'drive#user', displayName: 'Support Ops', emailAddress: 'ops@acme.test' } });
    let m: RegExpExecArray | null;
    if ((m = /^\/drive\/v3\/files\/([^/]+)(\/export)?$/.exec(route))) {
      const file = drive.files.get(decodeURIComponent(m[1]!));
      if (!file) return driveError(404, 'notFound', `File not found: ${m[1]}.`);
      if (m[2]) {
        if (!file.mimeType.startsWith('application/vnd.google-apps.')) return driveError(403, 'fileNotExportable', 'Export only supports Docs Editors files.');
        return res.writeHead(200, { 'content-type': query.get('mimeType') ?? 'text/html' }).end(file.content);
      }
      if (query.get('alt') === 'media') {
        if (file.mimeType.startsWith('application/vnd.google-apps.')) return driveError(403, 'fileNotDownloadable', 'Only files with binary content can be downloaded. Use Export with Docs Editors files.');
        return res.writeHead(200, { 'content-type': file.mimeType }).end(file.content);
      }
      const md5 = file.mimeType.startsWith('application/vnd.google-apps.') ? undefined : createHash('md5').update(file.content).digest('hex');
      return send(res, 200, { id: file.id, name: file.name, mimeType: file.mimeType, modifiedTime: file.modifiedTime, ...(md5 ? { md5Checksum: md5 } : {}), webViewLink: `https://drive.google.com/file/d/${file.id}/view`, trashed: false });
    }
    return driveError(404, 'notFound', 'Not Found');
  }

  const server: Server = recordingServer(requests, (req, res, body) => {
    const path = req.url ?? '/';
    const url = new URL(path, 'http://fake');
    const route = url.pathname;
    const failure = failures.find((f) => f.times > 0 && f.pattern.test(path));
    if (failure) {
      failure.times -= 1;
      const headers: Record<string, string> = failure.retryAfter !== undefined ? { 'retry-after': failure.retryAfter } : {};
      if (route.startsWith('/v1/')) return send(res, failure.status, { object: 'error', status: failure.status, code: failure.status === 429 ? 'rate_limited' : failure.status === 403 ? 'restricted_resource' : 'object_not_found', message: 'Injected failure' }, headers);
      return send(res, failure.status, { error: failure.status === 429 ? 'TooManyRequests' : 'Forbidden', description: 'Injected failure' }, headers);
    }
    try {
      if (route.startsWith('/v1/')) return handleNotion(req, res, route, url.searchParams, body);
      if (route.startsWith('/api/v2/')) return handleZendesk(req, res, route, url.searchParams);
      if (route.startsWith('/wiki/')) return handleConfluence(req, res, route, url.searchParams);
      return handleDrive(req, res, route, url.searchParams, body);
    } catch (error) {
      return send(res, 500, { error: String(error) });
    }
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fake: FakeProviders = {
    url: base,
    requests,
    pageSize: 100,
    notion,
    zendesk,
    confluence,
    drive,
    fail(pattern, status, options = {}) {
      failures.push({ pattern, status, times: options.times ?? 1, ...(options.retryAfter !== undefined ? { retryAfter: options.retryAfter } : {}) });
    },
    clearFailures() {
      failures.splice(0);
    },
    since(since, pattern) {
      return requests.slice(since).filter((r) => !pattern || pattern.test(r.path));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}

function dashed(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** A Notion id (dashed, lower-case) from a number, for readable fixtures. */
export function notionId(n: number): string {
  return dashed(n.toString(16).padStart(32, '0'));
}

/** The body of a PUT .../connection/public that connects each provider to the fake. */
export function credentialsFor(fake: FakeProviders): Record<string, Record<string, string>> {
  return {
    notion: { token: CREDENTIALS.notionToken, baseUrl: fake.url },
    zendesk: { email: CREDENTIALS.zendeskEmail, apiToken: CREDENTIALS.zendeskToken, baseUrl: fake.url },
    confluence: { email: CREDENTIALS.confluenceEmail, apiToken: CREDENTIALS.confluenceToken, baseUrl: `${fake.url}/wiki` },
    googledrive: { accessToken: CREDENTIALS.driveToken, baseUrl: fake.url },
  };
}
