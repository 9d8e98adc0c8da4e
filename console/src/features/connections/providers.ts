// The four providers as the connection route takes them: each one's credential fields (secrets are
// answered as `********` and kept when sent back), and how its discovered resources become rows to
// pick and the bodies the register route takes.
import type { Schemas } from '../../api/client';

export type Provider = Schemas['ProviderConnection']['provider'];
export type Credentials = Schemas['ProviderCredentialsInput'];
export type Field = keyof Credentials;

export interface FieldSpec {
  name: Field;
  label: string;
  description?: string;
  secret?: boolean;
  /** The browser asks for it before sending (the API names the field otherwise). */
  required?: boolean;
}

export interface ProviderSpec {
  id: Provider;
  label: string;
  /** The API's default base, which the form leaves empty rather than repeating. */
  defaultBase?: (credentials: Record<string, string>) => string;
  fields: FieldSpec[];
  /** Google Drive: one of two ways to sign in (an access token or a service account key). */
  alternatives?: { label: string; fields: Field[] }[];
  discovers: boolean;
  /** What discovery lists, in words. */
  resources: string;
}

const baseUrl = (description: string, required = false): FieldSpec => ({ name: 'baseUrl', label: required ? 'Base URL' : 'Base URL (optional)', description, required });

export const PROVIDERS: ProviderSpec[] = [
  {
    id: 'notion',
    label: 'Notion',
    defaultBase: () => 'https://api.notion.com',
    fields: [
      { name: 'token', label: 'Integration token', description: 'The internal integration secret (ntn_…). Share the pages to import with the integration.', secret: true, required: true },
      baseUrl("The Notion API's base, for a proxy; empty for https://api.notion.com"),
    ],
    discovers: true,
    resources: 'pages and databases',
  },
  {
    id: 'zendesk',
    label: 'Zendesk',
    defaultBase: (credentials) => `https://${credentials.subdomain}.zendesk.com`,
    fields: [
      { name: 'subdomain', label: 'Subdomain', description: 'acme for acme.zendesk.com (or give the base URL)' },
      { name: 'email', label: 'Email', description: 'The account the API token belongs to', required: true },
      { name: 'apiToken', label: 'API token', description: 'Admin Center > Apps and integrations > Zendesk API', secret: true, required: true },
      baseUrl('The Help Center API base, instead of the subdomain'),
    ],
    discovers: true,
    resources: 'Help Center articles by category and section',
  },
  {
    id: 'confluence',
    label: 'Confluence',
    fields: [
      baseUrl('https://acme.atlassian.net/wiki, or a Data Center base', true),
      { name: 'email', label: 'Email', description: 'The Atlassian account the API token belongs to', required: true },
      { name: 'apiToken', label: 'API token', description: 'Atlassian account > Security > API tokens', secret: true, required: true },
    ],
    discovers: true,
    resources: 'pages by space',
  },
  {
    id: 'googledrive',
    label: 'Google Drive',
    defaultBase: () => 'https://www.googleapis.com',
    fields: [
      { name: 'accessToken', label: 'Access token', description: 'An OAuth access token with a Drive read scope (it expires: suits a trial)', secret: true, required: true },
      {
        name: 'serviceAccountJson',
        label: 'Service account key (JSON)',
        // A masked one-line input: a paste loses the file's line breaks, which JSON does not need
        // (the private key's are written `\n` inside its string).
        description: "Paste the key file's content (it stays hidden unless shown); share the files with its client_email",
        secret: true,
        required: true,
      },
      baseUrl("The Drive API's base, for a proxy; empty for https://www.googleapis.com"),
    ],
    alternatives: [
      { label: 'Access token', fields: ['accessToken'] },
      { label: 'Service account key', fields: ['serviceAccountJson'] },
    ],
    discovers: false,
    resources: 'files registered by their Drive file id',
  },
];

export const providerSpec = (id: string): ProviderSpec | undefined => PROVIDERS.find((p) => p.id === id);

/** A discovered resource as a row to pick: where it is, and the body entry the register route takes. */
export interface ResourceRow {
  id: string;
  title: string;
  kind: string;
  where: string;
  originalUrl: string;
  register: RegisterEntry;
}
export type RegisterEntry = { externalId: string; title: string; originalUrl: string; mimeType: string; object?: string };
export type Discovered = Schemas['NotionResource'][] | Schemas['HelpCenterCategory'][] | Schemas['WikiSpace'][];

// Notion pages can be untitled; the register route needs a title, and Notion itself says "Untitled".
const titled = (title: string) => title.trim() || 'Untitled';

/** Discovery's answer (flat for Notion, a tree for Zendesk and Confluence) as rows to pick. */
export function resourceRows(provider: Provider, found: Discovered): ResourceRow[] {
  switch (provider) {
    case 'notion':
      return (found as Schemas['NotionResource'][]).map((r) => ({
        id: r.externalId,
        title: titled(r.title),
        kind: r.object,
        where: '',
        originalUrl: r.originalUrl,
        register: { externalId: r.externalId, title: titled(r.title), originalUrl: r.originalUrl, mimeType: r.mimeType, object: r.object },
      }));
    case 'zendesk':
      return (found as Schemas['HelpCenterCategory'][]).flatMap((category) =>
        category.children.flatMap((section) =>
          section.children.map((a) => ({
            id: a.externalId,
            title: titled(a.title),
            kind: 'article',
            where: `${category.title} / ${section.title}`,
            originalUrl: a.originalUrl,
            // The register route wants a mimeType for Zendesk: the article body is HTML.
            register: { externalId: a.externalId, title: titled(a.title), originalUrl: a.originalUrl, mimeType: 'text/html', object: 'article' },
          })),
        ),
      );
    default:
      return (found as Schemas['WikiSpace'][]).flatMap((space) =>
        space.pages.map((p) => ({
          id: p.externalId,
          title: titled(p.title),
          kind: 'page',
          where: space.title,
          originalUrl: p.originalUrl,
          // Confluence's storage format is XHTML, read by the HTML extractor.
          register: { externalId: p.externalId, title: titled(p.title), originalUrl: p.originalUrl, mimeType: 'text/html', object: 'page' },
        })),
      );
  }
}
