import { confluenceConnector } from './confluence.js';
import { driveConnector } from './drive.js';
import type { ProviderName } from './http.js';
import { notionConnector } from './notion.js';
import type { Connector } from './types.js';
import { zendeskConnector } from './zendesk.js';

export { PROVIDERS, PROVIDER_LABELS, ProviderError, providerFetch, type ProviderName } from './http.js';
export { confluenceBase } from './confluence.js';
export { DRIVE_API, parseServiceAccount } from './drive.js';
export { NOTION_API } from './notion.js';
export { zendeskBase } from './zendesk.js';
export type * from './types.js';

/** The connector of each provider (src/ingest: no database access). */
export const CONNECTORS: Record<ProviderName, Connector> = {
  notion: notionConnector,
  zendesk: zendeskConnector,
  confluence: confluenceConnector,
  googledrive: driveConnector,
};
