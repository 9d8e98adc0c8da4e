import { Client, isHTTPResponseError, RequestTimeoutError } from '@notionhq/client';
import { failureOf, ProviderError } from './http.js';
import type { Connector, ItemRef, NotionResource, ProviderSession, ResourceRef } from './types.js';
import { utf8 } from './types.js';

/**
 * Notion through `@notionhq/client` (API version 2025-09-03: databases are read through their data
 * sources), with `baseUrl` and Parley's providerFetch as its `fetch` (its own retries off: the
 * fetch waits out 429s). Pages become Markdown; child pages and database rows are further sources.
 */

export const NOTION_API = 'https://api.notion.com';
const PAGE_SIZE = 100;
/** Nested blocks below a page's top level that are read (toggles in toggles...). */
const MAX_BLOCK_NESTING = 6;

interface RichText {
  plain_text: string;
  href?: string | null;
  annotations?: { bold?: boolean; italic?: boolean; code?: boolean; strikethrough?: boolean };
}
interface Icon {
  type: string;
  external?: { url: string };
  file?: { url: string };
}
interface NotionPage {
  object: 'page';
  id: string;
  url?: string;
  icon?: Icon | null;
  last_edited_time: string;
  in_trash?: boolean;
  archived?: boolean;
  properties: Record<string, { type: string; title?: RichText[]; rich_text?: RichText[]; select?: { name: string } | null; multi_select?: { name: string }[]; number?: number | null; checkbox?: boolean; date?: { start: string } | null; url?: string | null; email?: string | null; status?: { name: string } | null }>;
}
interface NotionDataSource {
  object: 'data_source';
  id: string;
  url?: string;
  icon?: Icon | null;
  title: RichText[];
  description?: RichText[];
  last_edited_time: string;
}
interface Block {
  id: string;
  type: string;
  has_children: boolean;
  [type: string]: unknown;
}
interface Listing<T> {
  results: T[];
  has_more: boolean;
  next_cursor: string | null;
}

function client(session: ProviderSession): Client {
  return new Client({
    auth: session.credentials.token!,
    baseUrl: session.baseUrl.replace(/\/+$/, ''),
    fetch: session.http,
    retry: false,
    // The SDK's own logger would print request details; Parley logs what matters itself.
    logger: () => undefined,
  });
}

/** The SDK's errors as ProviderErrors (a 401 is an expired connection, and so on). */
async function call<T>(what: string, run: () => Promise<unknown>): Promise<T> {
  try {
    return (await run()) as T;
  } catch (error) {
    if (isHTTPResponseError(error)) throw failureOf('notion', error.status, what);
    if (error instanceof RequestTimeoutError) throw new ProviderError('notion', 'unavailable', `Notion did not answer in time (${what})`);
    throw error;
  }
}

async function allPages<T>(what: string, list: (cursor: string | undefined) => Promise<unknown>): Promise<T[]> {
  const results: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await call<Listing<T>>(what, () => list(cursor));
    results.push(...page.results);
    cursor = page.has_more && page.next_cursor ? page.next_cursor : undefined;
  } while (cursor);
  return results;
}

function plain(rich: RichText[] | undefined): string {
  return (rich ?? []).map((r) => r.plain_text).join('');
}

function markdown(rich: RichText[] | undefined): string {
  return (rich ?? [])
    .map((r) => {
      let text = r.plain_text;
      if (!text.trim()) return text;
      if (r.annotations?.code) text = `\`${text}\``;
      if (r.annotations?.bold) text = `**${text}**`;
      if (r.annotations?.italic) text = `*${text}*`;
      if (r.annotations?.strikethrough) text = `~~${text}~~`;
      if (r.href) text = `[${text}](${r.href})`;
      return text;
    })
    .join('');
}

export function pageTitle(page: NotionPage): string {
  const title = Object.values(page.properties ?? {}).find((p) => p.type === 'title');
  return plain(title?.title).trim() || 'Untitled';
}

function iconLink(icon: Icon | null | undefined): string | null {
  return icon?.external?.url ?? icon?.file?.url ?? null;
}

function notionUrl(id: string): string {
  return `https://www.notion.so/${id.replace(/-/g, '')}`;
}

/** A property value as text, for a database row's facts. */
function propertyText(p: NotionPage['properties'][string]): string {
  switch (p.type) {
    case 'rich_text':
      return plain(p.rich_text);
    case 'select':
      return p.select?.name ?? '';
    case 'status':
      return p.status?.name ?? '';
    case 'multi_select':
      return (p.multi_select ?? []).map((o) => o.name).join(', ');
    case 'number':
      return p.number === null || p.number === undefined ? '' : String(p.number);
    case 'checkbox':
      return p.checkbox ? 'yes' : 'no';
    case 'date':
      return p.date?.start ?? '';
    case 'url':
      return p.url ?? '';
    case 'email':
      return p.email ?? '';
    default:
      return '';
  }
}

/** One block's Markdown (without its children); null for blocks that carry no text. */
function blockLine(block: Block, numbered: number): string | null {
  const data = (block[block.type] ?? {}) as { rich_text?: RichText[]; checked?: boolean; language?: string; caption?: RichText[]; url?: string; expression?: string; title?: string; cells?: RichText[][] };
  const text = markdown(data.rich_text);
  switch (block.type) {
    case 'paragraph':
      return text;
    case 'heading_1':
      return `# ${text}`;
    case 'heading_2':
      return `## ${text}`;
    case 'heading_3':
      return `### ${text}`;
    case 'bulleted_list_item':
      return `- ${text}`;
    case 'numbered_list_item':
      return `${numbered}. ${text}`;
    case 'to_do':
      return `- [${data.checked ? 'x' : ' '}] ${text}`;
    case 'toggle':
      return `- ${text}`;
    case 'quote':
      return `> ${text}`;
    case 'callout':
      return `> ${text}`;
    case 'code':
      return '```' + (data.language ?? '') + '\n' + plain(data.rich_text) + '\n```';
    case 'equation':
      return data.expression ? `$$${data.expression}$$` : null;
    case 'divider':
      return '---';
    case 'table_row':
      return `| ${(data.cells ?? []).map((cell) => markdown(cell).replace(/\|/g, '\\|')).join(' | ')} |`;
    case 'bookmark':
    case 'embed':
    case 'link_preview':
      return data.url ? `[${plain(data.caption) || data.url}](${data.url})` : null;
    case 'image':
    case 'video':
    case 'file':
    case 'pdf':
      return plain(data.caption) || null;
    default:
      return null;
  }
}

/** Reads a page's blocks (following nested blocks) into Markdown lines, collecting child pages and databases. */
async function readBlocks(
  notion: Client,
  blockId: string,
  nesting: number,
  found: { childPages: Block[]; childDatabases: Block[] },
): Promise<string[]> {
  const blocks = await allPages<Block>(`the blocks of ${blockId}`, (cursor) =>
    notion.blocks.children.list({ block_id: blockId, page_size: PAGE_SIZE, ...(cursor ? { start_cursor: cursor } : {}) }),
  );
  const lines: string[] = [];
  let numbered = 0;
  for (const block of blocks) {
    if (block.type === 'child_page') {
      found.childPages.push(block);
      continue;
    }
    if (block.type === 'child_database') {
      found.childDatabases.push(block);
      continue;
    }
    numbered = block.type === 'numbered_list_item' ? numbered + 1 : 0;
    const line = blockLine(block, numbered);
    if (line !== null) lines.push(line);
    if (block.has_children && nesting < MAX_BLOCK_NESTING) {
      const inner = await readBlocks(notion, block.id, nesting + 1, found);
      if (block.type === 'table') {
        // A Markdown table: the first row is the header.
        if (inner.length) lines.push(inner[0]!, `|${' --- |'.repeat((inner[0]!.match(/ \| /g)?.length ?? 0) + 1)}`, ...inner.slice(1));
      } else {
        const list = /^(bulleted_list_item|numbered_list_item|to_do|toggle)$/.test(block.type);
        lines.push(...inner.map((l) => (list ? `   ${l}` : l)));
      }
    }
  }
  return lines;
}

async function dataSourceOfDatabase(notion: Client, databaseId: string): Promise<{ id: string; name: string } | null> {
  const database = await call<{ data_sources?: { id: string; name: string }[] }>(`database ${databaseId}`, () => notion.databases.retrieve({ database_id: databaseId }));
  return database.data_sources?.[0] ?? null;
}

async function fetchPage(notion: Client, ref: ItemRef, options: { refresh: boolean; maxChildDepth: number }) {
  const page = await call<NotionPage>(`page ${ref.externalId}`, () => notion.pages.retrieve({ page_id: ref.externalId }));
  if (page.in_trash || page.archived) throw failureOf('notion', 404, `page ${ref.externalId}`);
  const marker = page.last_edited_time;
  if (options.refresh && ref.marker === marker) return { kind: 'unchanged' as const, marker };
  const title = pageTitle(page);
  const found = { childPages: [] as Block[], childDatabases: [] as Block[] };
  const lines = await readBlocks(notion, page.id, 0, found);
  // A database row's own properties are facts of the page too.
  const facts = Object.entries(page.properties ?? {})
    .filter(([, p]) => p.type !== 'title')
    .map(([name, p]) => [name, propertyText(p)] as const)
    .filter(([, value]) => value.trim() !== '')
    .map(([name, value]) => `- ${name}: ${value}`);
  const body = [`# ${title}`, ...(facts.length ? ['', ...facts] : []), '', ...lines].join('\n\n').replace(/\n{3,}/g, '\n\n');
  const children: ResourceRef[] = [];
  if (ref.depth < options.maxChildDepth) {
    for (const block of found.childPages) {
      const childTitle = ((block.child_page as { title?: string } | undefined)?.title ?? '').trim() || 'Untitled';
      children.push({ externalId: block.id, title: childTitle, originalUrl: notionUrl(block.id), mimeType: 'text/markdown', object: 'page' });
    }
    for (const block of found.childDatabases) {
      const source = await dataSourceOfDatabase(notion, block.id);
      if (!source) continue;
      const childTitle = ((block.child_database as { title?: string } | undefined)?.title ?? '').trim() || source.name || 'Untitled';
      children.push({ externalId: source.id, title: childTitle, originalUrl: notionUrl(block.id), mimeType: 'text/markdown', object: 'database' });
    }
  }
  return { kind: 'content' as const, marker, body: utf8(body), contentType: 'text/markdown', filename: null, title, url: page.url ?? notionUrl(page.id), children };
}

/** A database (its data source): one source per row page; its own text lists the rows. */
async function fetchDatabase(notion: Client, ref: ItemRef, options: { refresh: boolean; maxChildDepth: number }) {
  const source = await call<NotionDataSource>(`database ${ref.externalId}`, () => notion.dataSources.retrieve({ data_source_id: ref.externalId }));
  const rows = await allPages<NotionPage>(`the rows of database ${ref.externalId}`, (cursor) =>
    notion.dataSources.query({ data_source_id: ref.externalId, page_size: PAGE_SIZE, ...(cursor ? { start_cursor: cursor } : {}) }),
  );
  // Rows are metadata (no block bodies): the marker covers the database and every row.
  const marker = [source.last_edited_time, rows.length, rows.reduce((latest, row) => (row.last_edited_time > latest ? row.last_edited_time : latest), '')].join('|');
  if (options.refresh && ref.marker === marker) return { kind: 'unchanged' as const, marker };
  const title = plain(source.title).trim() || 'Untitled database';
  const description = plain(source.description).trim();
  const body = [`# ${title}`, ...(description ? [description] : []), ...rows.map((row) => `- ${pageTitle(row)}`)].join('\n\n');
  const children: ResourceRef[] =
    ref.depth < options.maxChildDepth
      ? rows.map((row) => ({ externalId: row.id, title: pageTitle(row), originalUrl: row.url ?? notionUrl(row.id), mimeType: 'text/markdown', object: 'page' }))
      : [];
  return { kind: 'content' as const, marker, body: utf8(body), contentType: 'text/markdown', filename: null, title, url: source.url ?? notionUrl(source.id), children };
}

export const notionConnector: Connector = {
  async verify(session) {
    const me = await call<{ name?: string | null; bot?: { workspace_name?: string | null } }>('the integration', () => client(session).users.me({}));
    return { account: me.bot?.workspace_name ?? me.name ?? '' };
  },
  async discover(session) {
    const notion = client(session);
    const results = await allPages<NotionPage | NotionDataSource>('the shared pages', (cursor) =>
      notion.search({ page_size: PAGE_SIZE, ...(cursor ? { start_cursor: cursor } : {}) }),
    );
    const resources: NotionResource[] = results
      .filter((r) => r.object === 'page' || r.object === 'data_source')
      .map((r) =>
        r.object === 'page'
          ? { externalId: r.id, title: pageTitle(r), originalUrl: r.url ?? notionUrl(r.id), mimeType: 'text/markdown', iconLink: iconLink(r.icon), object: 'page' as const }
          : { externalId: r.id, title: plain(r.title).trim() || 'Untitled database', originalUrl: r.url ?? notionUrl(r.id), mimeType: 'text/markdown', iconLink: iconLink(r.icon), object: 'database' as const },
      );
    return { provider: 'notion', resources };
  },
  async fetchItem(session, ref, options) {
    const notion = client(session);
    return ref.type === 'database' ? fetchDatabase(notion, ref, options) : fetchPage(notion, ref, options);
  },
};
