import type { ProviderName } from './http.js';

/** An open connection as a connector sees it: the API base and the credentials (opened for the call only). */
export interface ProviderSession {
  readonly provider: ProviderName;
  readonly baseUrl: string;
  readonly credentials: Readonly<Record<string, string>>;
  /** providerFetch for this provider (safeFetch underneath; the caller's abort signal goes with it). */
  readonly http: typeof fetch;
}

/** A resource as registered by `POST /v2/documents/public/resources/{provider}` (and as child pages are). */
export interface ResourceRef {
  externalId: string;
  title: string;
  originalUrl: string;
  mimeType: string;
  /** The provider's type: `page`, `database`, `article`, a Drive MIME type... */
  object: string | null;
}

/** What a connector knows of a stored source when fetching it. */
export interface ItemRef {
  readonly externalId: string;
  readonly type: string | null;
  /** The provider's change marker of the last successful fetch (last_edited_time, updated_at, version, checksum). */
  readonly marker: string | null;
  /** How far below a registered resource this one is (Notion child pages and database rows). */
  readonly depth: number;
}

export type ItemResult =
  | { kind: 'unchanged'; marker: string }
  | {
      kind: 'content';
      marker: string;
      body: Uint8Array;
      contentType: string;
      filename: string | null;
      title: string | null;
      url: string | null;
      /** Resources found inside this one (Notion child pages, database rows): registered and ingested too. */
      children: ResourceRef[];
    };

/** A provider's connector: no database access, every call through `session.http`. */
export interface Connector {
  /** Checks the credentials; answers the account the provider reports (a workspace, a user's email). */
  verify(session: ProviderSession): Promise<{ account: string }>;
  /** The provider's resources in the specification's discovery shape, or null where there is no discovery. */
  discover: ((session: ProviderSession) => Promise<DiscoveredResources>) | null;
  /**
   * One resource: its change marker is read first and, when it equals `ref.marker` and `refresh`
   * is set, the body is not fetched (`unchanged`).
   */
  fetchItem(session: ProviderSession, ref: ItemRef, options: { refresh: boolean; maxChildDepth: number }): Promise<ItemResult>;
}

export interface NotionResource {
  externalId: string;
  title: string;
  originalUrl: string;
  mimeType: string;
  iconLink: string | null;
  object: 'page' | 'database';
}

export interface HelpCenterCategory {
  externalId: string;
  title: string;
  type: 'category';
  children: { externalId: string; title: string; type: 'section'; children: { externalId: string; title: string; originalUrl: string; type: 'article' }[] }[];
}

export interface WikiSpace {
  key: string;
  title: string;
  originalUrl: string;
  pages: { externalId: string; title: string; originalUrl: string }[];
}

export type DiscoveredResources =
  | { provider: 'notion'; resources: NotionResource[] }
  | { provider: 'zendesk'; resources: HelpCenterCategory[] }
  | { provider: 'confluence'; resources: WikiSpace[] };

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** HTTP Basic credentials (Zendesk: `{email}/token`, Confluence: the email, with the API token). */
export function basicAuth(user: string | undefined, password: string | undefined): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
}

/** A provider's HTML body as a page for the HTML extractor, its title as the page's heading. */
export function htmlPage(title: string, bodyHtml: string): Uint8Array {
  const escaped = title.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return utf8(`<!doctype html><html><head><title>${escaped}</title></head><body><article><h1>${escaped}</h1>${bodyHtml}</article></body></html>`);
}
